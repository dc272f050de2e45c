/// @file link_pages_oracle.h
/// @brief The link stage done the obvious way, over every record in one process: the oracle the
/// tests hold link_pages_by_owner to (it must leave the records and the graph exactly so).
///
/// Every URL in one hash map, redirects followed hop by hop, the graph numbered in file order.
#pragma once

#include <algorithm>
#include <cassert>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "indexer/partitioned/record_holders.h"
#include "indexer/stages/site_links.h"
#include "urls/url.h"

namespace canon::testing {

using canon::indexer::HeldRecords;
using canon::indexer::kMaxRedirectHops;
using canon::indexer::kNoRecord;
using canon::indexer::PageRecord;
using canon::indexer::PageStatus;
using canon::indexer::ParsedLinks;
using canon::indexer::SiteGraph;
using canon::indexer::UrlIds;

/// The parsed pages by URL, following redirect pages to where they lead. Holds a view of the
/// records: they must outlive it, and their URLs and refresh targets must not change.
class RedirectResolver {
public:
  /// REQUIRES: `records` holds every record.
  explicit RedirectResolver(const HeldRecords& records);
  /// The record a link to `url` lands on, following redirect pages (chains of up to kMaxRedirectHops; a
  /// loop or a longer chain lands nowhere), or kNoRecord; `url` becomes the final URL.
  std::uint32_t follow(std::string& url) const;
  /// The record of the parsed page at `url` itself, or kNoRecord.
  std::uint32_t find(const std::string& url) const;
  /// Every parsed page's URL (a view of its record's) and record.
  const std::unordered_map<std::string_view, std::uint32_t>& by_url() const { return by_url_; }

private:
  std::span<const PageRecord> records_;
  /// Views of the records' URLs, not copies (one string a page less held through the run).
  std::unordered_map<std::string_view, std::uint32_t> by_url_;
};


inline RedirectResolver::RedirectResolver(const HeldRecords& records) : records_(records.held()) {
  assert(records.first_held() == 0 && records_.size() == records.size());
  for (std::uint32_t i = 0; i < records_.size(); ++i) {
    if (records_[i].parsed) by_url_.emplace(records_[i].url, i);
  }
}

inline std::uint32_t RedirectResolver::find(const std::string& url) const {
  const auto it = by_url_.find(url);
  return it == by_url_.end() ? kNoRecord : it->second;
}

inline std::uint32_t RedirectResolver::follow(std::string& url) const {
  for (int hop = 0; hop < kMaxRedirectHops; ++hop) {
    const std::uint32_t record = find(url);
    if (record == kNoRecord) return kNoRecord;
    const PageRecord& target = records_[record];
    if (!target.refresh_url) return record;
    url = urls::strip_index_page(*target.refresh_url);
  }
  return kNoRecord;
}


/// Marks each parsed redirect page as a redirect with its final target (or as skipped, when its
/// redirects go round) and numbers every other parsed page as a node; returns the nodes' records.
inline std::vector<std::uint32_t> number_nodes(HeldRecords& records, const RedirectResolver& resolver) {
  std::vector<std::uint32_t> node_records;
  for (std::uint32_t i = 0; i < records.size(); ++i) {
    PageRecord& r = records[i];
    if (!r.parsed) continue;
    if (r.refresh_url) {
      std::string target = r.url;
      if (resolver.follow(target) == kNoRecord && resolver.find(target) != kNoRecord) {
        // Still on a redirect page of the site after every hop: the redirects go round.
        r.status = PageStatus::kSkipped;
        r.reason = canon::indexer::redirect_loop_reason();
        continue;
      }
      r.status = PageStatus::kRedirect;
      r.redirect_to = target;
      continue;
    }
    r.node = static_cast<ranking::NodeId>(node_records.size());
    node_records.push_back(i);
  }
  return node_records;
}

/// The record a link to each URL id of `urls` lands on, through redirects, or kNoRecord.
inline std::vector<std::uint32_t> landing_records(const UrlIds& urls, const RedirectResolver& resolver) {
  std::vector<std::uint32_t> page_of_url_id(urls.size(), kNoRecord);
  for (const auto& [url, record] : resolver.by_url()) {
    std::string final_url(url);
    if (const std::uint32_t id = urls.find(final_url); id != kNoRecord) {
      page_of_url_id[id] = resolver.follow(final_url);
    }
  }
  return page_of_url_id;
}



/// The pages each record names besides its links, found by `resolver` (link_pages calls it): its
/// canonical_page and rule_page, and the redirects_in of the pages redirects land on
/// (PageRecord). REQUIRES: the redirect pages' final targets in redirect_to (number_nodes).
inline void resolve_named_pages(HeldRecords& records, const RedirectResolver& resolver) {
  for (PageRecord& r : records) {
    if (r.in_dedup && r.canonical_url) {
      std::string canonical = urls::strip_index_page(*r.canonical_url);
      r.canonical_page = resolver.follow(canonical);
    }
    if (r.url_rule && r.redirect_to) r.rule_page = resolver.find(*r.redirect_to);
  }
  for (const PageRecord& r : records) {
    if (!r.redirect_to) continue;
    std::string target = *r.redirect_to;
    if (const std::uint32_t t = resolver.follow(target); t != kNoRecord) ++records[t].redirects_in;
  }
}


/// Marks each parsed redirect page (refresh_url) as a redirect with its final target (or as
/// skipped, when its redirects go round without reaching a page), gives every
/// other parsed page a node, and links nodes along each record's `links` (its parsed links),
/// through redirects. Self-links and repeats are dropped.
/// Each page's `inbound_anchors` become the texts other pages link to it with (its
/// redirects' links land on it; a link to one of its places names it too), and the names of its
/// places (place_key texts of links to its #fragments, its own links included), each with the
/// number of pages that link so, in
/// sort_inbound_anchors' order and number. The pages each record names besides its links are
/// found too (resolve_named_pages). `links` is read, not changed.
inline SiteGraph link_pages(HeldRecords& records, const ParsedLinks& links, const RedirectResolver& resolver) {
  const std::vector<std::string>& anchor_texts = links.anchor_texts;
  std::vector<std::uint32_t> node_records = number_nodes(records, resolver);
  const std::vector<std::uint32_t> page_of_url_id = landing_records(links.urls, resolver);
  const std::vector<std::uint32_t> name_of_place = canon::indexer::names_of_places(anchor_texts);
  std::vector<ranking::Edge> edges;
  std::vector<std::uint64_t> named_links;  // see count_inbound_anchors
  std::vector<std::uint64_t> page_named;
  for (const std::uint32_t record : node_records) {
    const PageRecord& r = records[record];
    const std::vector<std::uint32_t>& targets = links.targets_of(record);
    const std::vector<std::uint32_t>& texts = links.texts_of(record);
    const bool with_texts = texts.size() == targets.size();
    page_named.clear();
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const std::uint32_t target = page_of_url_id[targets[k]];
      if (target == kNoRecord || !records[target].node) continue;
      edges.push_back({*r.node, *records[target].node});
      // A page's own links to its places name them (a class's member list); its other links
      // to itself say nothing of what other pages call it.
      const std::uint32_t text = with_texts ? texts[k] : kNoRecord;
      if (text == kNoRecord) continue;
      if (target != record || canon::indexer::is_place_key(anchor_texts[text])) page_named.push_back(std::uint64_t{target} << 32 | text);
      if (target != record && name_of_place[text] != kNoRecord) {
        page_named.push_back(std::uint64_t{target} << 32 | name_of_place[text]);
      }
    }
    std::sort(page_named.begin(), page_named.end());  // each linking page counts once per text
    page_named.erase(std::unique(page_named.begin(), page_named.end()), page_named.end());
    named_links.insert(named_links.end(), page_named.begin(), page_named.end());
  }
  canon::indexer::count_inbound_anchors(std::move(named_links), node_records, anchor_texts, records);
  resolve_named_pages(records, resolver);
  const auto nodes = static_cast<ranking::NodeId>(node_records.size());
  return SiteGraph{ranking::OutLinkRows::build(nodes, 0, nodes, std::move(edges)), std::move(node_records),
                   canon::indexer::detail::RecordParts(nodes)};
}

}  // namespace canon::testing
