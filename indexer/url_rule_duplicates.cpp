/// @file url_rule_duplicates.cpp
/// @brief The files URL rules make duplicates found, then placed in the cluster of their page.
#include "indexer/url_rule_duplicates.h"

#include <string_view>
#include <unordered_map>

namespace canon::indexer::detail {

UrlRuleDuplicates find_url_rule_duplicates(const SitePlan& plan, const urls::RuleSet* rules) {
  UrlRuleDuplicates out;
  const std::size_t files = plan.files.size();
  out.marked.assign(files, false);
  if (rules == nullptr) return out;
  std::unordered_map<std::string_view, std::size_t> served;
  for (std::size_t i = 0; i < files; ++i) {
    if (plan.serves_url(i)) served.emplace(plan.urls[i].value(), i);
  }
  for (std::size_t i = 0; i < files; ++i) {
    if (!plan.serves_url(i)) continue;
    auto normal = rules->normalize(plan.urls[i].value());
    if (!normal.ok() || normal->capped || normal->url == plan.urls[i].value()) continue;
    const auto it = served.find(normal->url);
    if (it == served.end() || it->second == i) continue;
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

void place_url_rule_duplicates(std::vector<PageRecord>& records, const RedirectResolver& resolver) {
  for (PageRecord& r : records) {
    if (!r.url_rule || r.status != PageStatus::kRedirect || !r.redirect_to) continue;
    const std::uint32_t target = resolver.find(*r.redirect_to);
    const PageRecord* page = target == kNoRecord ? nullptr : &records[target];
    if (page != nullptr && page->cluster) {
      r.status = PageStatus::kDuplicate;
      r.cluster = page->cluster;
      r.cluster_pagerank = page->cluster_pagerank;
      r.authoritative = page->authoritative;
      r.authority_reason = page->authority_reason;
      r.redirect_to.reset();
    } else {
      r.status = PageStatus::kSkipped;
      r.reason = "URL rules make it " + *r.redirect_to + ", which is not indexed" +
                 (page != nullptr && !page->reason.empty() ? " (" + page->reason + ")" : "");
      r.redirect_to.reset();
    }
  }
}

}  // namespace canon::indexer::detail
