/// @file representatives.cpp
/// @brief choose_representatives(): authority per cluster, and the chain split.
#include "dedup/representatives.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <utility>

#include "dedup/union_find.h"

namespace canon::dedup {

std::vector<std::string> defined_terms(std::span<const std::string> dt_ids) {
  std::vector<std::string> terms;
  for (const std::string& id : dt_ids) {
    if (id.empty()) continue;
    std::string term = id;
    for (char& c : term) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    terms.push_back(std::move(term));
  }
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  return terms;
}

bool definitions_covered(std::span<const std::string> page, std::span<const std::string> representative) {
  return std::includes(representative.begin(), representative.end(), page.begin(), page.end());
}

Representatives choose_representatives(Detector& detector, const Clusters& clusters,
                                       std::span<const AuthorityCandidate> candidates,
                                       bool honour_canonical, ChainPolicy policy,
                                       const DocumentLoader& load) {
  assert(clusters.cluster_of.size() == candidates.size());
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  const auto n = static_cast<std::uint32_t>(candidates.size());
  Representatives out;
  out.cluster_of = clusters.cluster_of;
  out.to_representative.assign(n, Comparison{});
  // The representative each member was last compared with: a member is compared again only when
  // its cluster's representative changed (a split can take away the page whose rel=canonical
  // chose it).
  std::vector<std::uint32_t> compared_with(n, kNone);
  for (;;) {
    out.authority = choose_authorities(out.cluster_of, candidates, honour_canonical);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (member, representative)
    for (std::uint32_t d = 0; d < n; ++d) {
      const std::uint32_t representative = out.authority[d].representative;
      if (representative != d && compared_with[d] != representative) pairs.emplace_back(d, representative);
    }
    if (pairs.empty()) break;
    const std::vector<Comparison> verdicts = detector.compare(pairs, load);
    ++out.rounds;
    std::vector<bool> leaves(n, false);
    bool split = false;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const std::uint32_t member = pairs[p].first;
      out.to_representative[member] = verdicts[p];
      compared_with[member] = pairs[p].second;
      if (policy != ChainPolicy::kSplit) continue;
      // A page that defines an item its representative does not (a release's module page with
      // a class the next release dropped) is not served by it, however alike the texts.
      const bool covered = definitions_covered(candidates[member].defined, candidates[pairs[p].second].defined);
      if (!verdicts[p].near_duplicate || !covered) {
        leaves[member] = true;
        split = true;
        ++out.split_off;
        if (verdicts[p].near_duplicate) ++out.split_for_definitions;
      }
    }
    if (!split) break;
    // Who stays is joined to the representative; who leaves is joined to the others leaving the
    // same cluster along the detector's own verified pairs.
    UnionFind sets(n);
    for (std::uint32_t d = 0; d < n; ++d) {
      if (!leaves[d]) sets.unite(d, out.authority[d].representative);
    }
    for (const SimilarPair& pair : clusters.pairs) {
      if (leaves[pair.a] && leaves[pair.b] && out.cluster_of[pair.a] == out.cluster_of[pair.b]) {
        sets.unite(pair.a, pair.b);
      }
    }
    out.cluster_of = sets.smallest_member_labels();
  }
  for (std::uint32_t d = 0; d < n; ++d) {
    if (out.authority[d].representative == d) out.to_representative[d] = Comparison{};
  }
  return out;
}

}  // namespace canon::dedup
