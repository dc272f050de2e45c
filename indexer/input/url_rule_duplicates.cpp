/// @file url_rule_duplicates.cpp
/// @brief The files URL rules make duplicates found, then placed in the cluster of their page.
#include "indexer/input/url_rule_duplicates.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "common/byte_codec.h"

namespace canon::indexer::detail {

UrlRuleDuplicates find_url_rule_duplicates(const SitePlan& plan, const urls::RuleSet* rules) {
  UrlRuleDuplicates out;
  const std::size_t files = plan.files.size();
  out.marked.assign(files, false);
  if (rules == nullptr) return out;
  // The files serving a URL, by its hash (the plan keeps no URL: 16 bytes a file for a moment,
  // not a map of every URL); a hash found is checked against the file's URL.
  const auto hash = std::hash<std::string_view>{};
  std::vector<std::pair<std::size_t, std::size_t>> served;  // (hash of the URL, file)
  for (std::size_t i = 0; i < files; ++i) {
    if (plan.serves_url(i)) served.emplace_back(hash(plan.url(i).value()), i);
  }
  std::sort(served.begin(), served.end());
  const auto server_of = [&](const std::string& url) -> std::optional<std::size_t> {
    const std::size_t h = hash(url);
    for (auto it = std::lower_bound(served.begin(), served.end(), std::pair<std::size_t, std::size_t>(h, 0));
         it != served.end() && it->first == h; ++it) {
      if (plan.url(it->second).value() == url) return it->second;
    }
    return std::nullopt;
  };
  for (std::size_t i = 0; i < files; ++i) {
    if (!plan.serves_url(i)) continue;
    const std::string url = plan.url(i).value();
    auto normal = rules->normalize(url);
    if (!normal.ok() || normal->capped || normal->url == url) continue;
    const std::optional<std::size_t> server = server_of(normal->url);
    if (!server || *server == i) continue;
    out.marked[i] = true;
    UrlRuleDuplicates::Rewrite& rewrite = out.rewrites[i];
    rewrite.target = normal->url;
    for (std::size_t applied : normal->rules) {
      rewrite.rules += (rewrite.rules.empty() ? "" : "; then ") + urls::describe(rules->rules()[applied]);
    }
    ++out.count;
  }
  return out;
}

Status place_url_rule_duplicates(HeldRecords& records, const RecordParts& parts,
                                 const Collective& processes) {
  const unsigned me = processes.rank();
  const auto recorded_by_rules = [&](const PageRecord& r) {
    return r.url_rule && r.status == PageStatus::kRedirect && r.redirect_to;
  };
  // The page each one's URL is served by, asked of its holder: its cluster, if any, else why it
  // is not indexed.
  std::vector<std::uint32_t> pages;
  for (std::uint32_t i = parts.first(me); i < parts.end(me); ++i) {
    if (!recorded_by_rules(records[i])) continue;
    if (records[i].rule_page != kNoRecord) pages.push_back(records[i].rule_page);
  }
  auto answers = ask_record_holders(
      pages, parts,
      [&records](std::uint32_t record, std::string& out) {
        const PageRecord& page = records[record];
        codec::put_varint(out, page.cluster ? 1 : 0);
        codec::put_varint(out, page.cluster.value_or(0));
        codec::put_fixed(out, std::bit_cast<std::uint64_t>(page.cluster_pagerank), 8);
        codec::put_varint(out, page.authoritative);
        codec::put_string(out, page.authority_reason);
        codec::put_string(out, page.reason);
      },
      processes);
  if (!answers.ok()) return answers.status();
  std::size_t next = 0;
  for (std::uint32_t i = parts.first(me); i < parts.end(me); ++i) {
    PageRecord& r = records[i];
    if (!recorded_by_rules(r)) continue;
    const bool found = r.rule_page != kNoRecord;
    codec::Reader in(found ? std::string_view(answers.value()[next++]) : std::string_view());
    const bool in_cluster = found && in.varint() == 1;
    const auto cluster = static_cast<std::uint32_t>(in.varint());
    const double cluster_pagerank = std::bit_cast<double>(in.fixed(8));
    const auto authoritative = static_cast<std::uint32_t>(in.varint());
    std::string authority_reason = in.string();
    const std::string reason = in.string();
    if (found && !in.ok()) return Status::corruption("what a page's holder says of it does not decode");
    if (in_cluster) {
      r.status = PageStatus::kDuplicate;
      r.cluster = cluster;
      r.cluster_pagerank = cluster_pagerank;
      r.authoritative = authoritative;
      r.authority_reason = std::move(authority_reason);
    } else {
      r.status = PageStatus::kSkipped;
      r.reason = "URL rules make it " + *r.redirect_to + ", which is not indexed" +
                 (!reason.empty() ? " (" + reason + ")" : "");
    }
    r.redirect_to.reset();
  }
  return Status::ok_status();
}

}  // namespace canon::indexer::detail
