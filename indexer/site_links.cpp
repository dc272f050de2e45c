/// @file site_links.cpp
/// @brief Redirects and the link graph over page records.
#include "indexer/site_links.h"

#include "urls/url.h"

namespace canon::indexer {

RedirectResolver::RedirectResolver(std::span<const PageRecord> records) : records_(records) {
  for (std::uint32_t i = 0; i < records.size(); ++i) {
    if (records[i].parsed) by_url_.emplace(records[i].url, i);
  }
}

std::uint32_t RedirectResolver::find(const std::string& url) const {
  const auto it = by_url_.find(url);
  return it == by_url_.end() ? kNoRecord : it->second;
}

std::uint32_t RedirectResolver::follow(std::string& url) const {
  for (int hop = 0; hop < kMaxHops; ++hop) {
    const std::uint32_t record = find(url);
    if (record == kNoRecord) return kNoRecord;
    const PageRecord& target = records_[record];
    if (!target.refresh_url) return record;
    url = urls::strip_index_page(*target.refresh_url);
  }
  return kNoRecord;
}

SiteGraph link_pages(std::vector<PageRecord>& records, const UrlIds& urls, const RedirectResolver& resolver) {
  std::vector<std::uint32_t> node_records;
  for (std::uint32_t i = 0; i < records.size(); ++i) {
    PageRecord& r = records[i];
    if (!r.parsed) continue;
    if (r.refresh_url) {
      std::string target = r.url;
      if (resolver.follow(target) == kNoRecord && resolver.find(target) != kNoRecord) {
        // Still on a redirect page of the site after every hop: the redirects go round.
        r.status = PageStatus::kSkipped;
        r.reason = "redirect loop (or a chain of more than " + std::to_string(RedirectResolver::kMaxHops) + " redirects)";
        continue;
      }
      r.status = PageStatus::kRedirect;
      r.redirect_to = target;
      continue;
    }
    r.node = static_cast<ranking::NodeId>(node_records.size());
    node_records.push_back(i);
  }
  std::vector<std::uint32_t> page_of_url_id(urls.size(), kNoRecord);  // link target -> record
  for (const auto& [url, record] : resolver.by_url()) {
    if (const std::uint32_t id = urls.find(url); id != kNoRecord) {
      std::string final_url = url;
      page_of_url_id[id] = resolver.follow(final_url);
    }
  }
  std::vector<ranking::Edge> edges;
  for (const std::uint32_t record : node_records) {
    PageRecord& r = records[record];
    for (const std::uint32_t link : r.links) {
      const std::uint32_t target = page_of_url_id[link];
      if (target != kNoRecord && records[target].node) edges.push_back({*r.node, *records[target].node});
    }
    r.links = {};  // not needed any more
  }
  auto graph = ranking::LinkGraph::build(static_cast<ranking::NodeId>(node_records.size()), edges);
  return SiteGraph{std::move(graph), std::move(node_records)};
}

}  // namespace canon::indexer
