/// @file cluster_assignment.cpp
/// @brief From page records to authority candidates, and from the chosen authoritative pages back.
#include "indexer/cluster_assignment.h"

#include <string>

#include "urls/url.h"

namespace canon::indexer {

std::vector<dedup::AuthorityCandidate> authority_candidates(const std::vector<PageRecord>& records, std::size_t documents,
                                                            const RedirectResolver& resolver) {
  std::vector<dedup::AuthorityCandidate> candidates(documents);
  for (std::size_t d = 0; d < documents; ++d) {
    if (!records[d].redirect_to) continue;
    std::string target = *records[d].redirect_to;
    if (const std::uint32_t t = resolver.follow(target); t != kNoRecord && t < documents) ++candidates[t].redirects_in;
  }
  for (std::size_t d = 0; d < documents; ++d) {
    const PageRecord& r = records[d];
    candidates[d].url = r.url;
    candidates[d].name = !r.heading.empty() ? std::string_view(r.heading) : std::string_view(r.title);
    candidates[d].pagerank = r.pagerank;
    // Copied: the store's catalog is written from the records after this stage.
    candidates[d].defined = r.defined;
    candidates[d].listed = r.listed;
    if (r.in_dedup && r.canonical_url) {
      std::string canonical = urls::strip_index_page(*r.canonical_url);
      const std::uint32_t target = resolver.follow(canonical);
      if (target != kNoRecord && records[target].in_dedup) candidates[d].canonical = target;
    }
  }
  return candidates;
}

ClusterAssignment assign_clusters(std::vector<PageRecord>& records, const dedup::AuthoritativePages& chosen) {
  ClusterAssignment out;
  const auto documents = static_cast<std::uint32_t>(chosen.cluster_of.size());
  std::unordered_map<std::uint32_t, std::uint32_t> cluster_ids;  // cluster_of value -> dense id
  std::vector<double> cluster_pagerank;                          // by dense id
  std::vector<std::uint32_t> cluster_sizes;
  for (std::uint32_t d = 0; d < documents; ++d) {
    PageRecord& r = records[d];
    if (!r.in_dedup) continue;
    const auto [it, inserted] = cluster_ids.emplace(chosen.cluster_of[d], static_cast<std::uint32_t>(cluster_ids.size()));
    if (inserted) {
      cluster_pagerank.push_back(0.0);
      cluster_sizes.push_back(0);
    }
    r.cluster = it->second;
    cluster_pagerank[it->second] += r.pagerank;
    ++cluster_sizes[it->second];
    r.authoritative = chosen.authority[d].authoritative;
    r.authority_reason = std::string(dedup::to_string(chosen.authority[d].reason));
    r.status = r.authoritative == d ? PageStatus::kIndexed : PageStatus::kDuplicate;
    if (r.authoritative != d) {
      r.similarity = chosen.to_authoritative[d].similarity;
      out.alternates[r.authoritative].push_back({r.url, r.title, *r.similarity});
    }
  }
  for (std::uint32_t d = 0; d < documents; ++d) {
    if (records[d].cluster) records[d].cluster_pagerank = cluster_pagerank[*records[d].cluster];
  }
  for (const std::uint32_t size : cluster_sizes) out.duplicate_clusters += size > 1 ? 1 : 0;
  return out;
}

}  // namespace canon::indexer
