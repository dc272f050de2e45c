/// @file authoritative_pages.cpp
/// @brief choose_authoritative_pages(): authority per cluster, and the chain split.
#include "dedup/authoritative_pages.h"

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

bool definitions_covered(std::span<const std::string> page, std::span<const std::string> authoritative) {
  return std::includes(authoritative.begin(), authoritative.end(), page.begin(), page.end());
}

AuthoritativePages choose_authoritative_pages(Detector& detector, const Clusters& clusters,
                                       std::span<const AuthorityCandidate> candidates,
                                       bool honour_canonical, ChainPolicy policy,
                                       const DocumentLoader& load) {
  assert(clusters.cluster_of.size() == candidates.size());
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  const auto n = static_cast<std::uint32_t>(candidates.size());
  AuthoritativePages out;
  out.cluster_of = clusters.cluster_of;
  out.to_authoritative.assign(n, Comparison{});
  // The authoritative page each member was last compared with: a member is compared again only when
  // its cluster's authoritative page changed (a split can take away the page whose rel=canonical
  // chose it).
  std::vector<std::uint32_t> compared_with(n, kNone);
  for (;;) {
    out.authority = choose_authorities(out.cluster_of, candidates, honour_canonical);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (member, authoritative page)
    for (std::uint32_t d = 0; d < n; ++d) {
      const std::uint32_t authoritative = out.authority[d].authoritative;
      if (authoritative != d && compared_with[d] != authoritative) pairs.emplace_back(d, authoritative);
    }
    if (pairs.empty()) break;
    const std::vector<Comparison> verdicts = detector.compare(pairs, load);
    ++out.rounds;
    std::vector<bool> leaves(n, false);
    bool split = false;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const std::uint32_t member = pairs[p].first;
      out.to_authoritative[member] = verdicts[p];
      compared_with[member] = pairs[p].second;
      if (policy != ChainPolicy::kSplit) continue;
      // A page that defines an item its authoritative page does not (a release's module page with
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
    // Who stays is joined to the authoritative page; who leaves is joined to the others leaving the
    // same cluster along the detector's own verified pairs.
    UnionFind sets(n);
    for (std::uint32_t d = 0; d < n; ++d) {
      if (!leaves[d]) sets.unite(d, out.authority[d].authoritative);
    }
    for (const SimilarPair& pair : clusters.pairs) {
      if (leaves[pair.a] && leaves[pair.b] && out.cluster_of[pair.a] == out.cluster_of[pair.b]) {
        sets.unite(pair.a, pair.b);
      }
    }
    out.cluster_of = sets.smallest_member_labels();
  }
  for (std::uint32_t d = 0; d < n; ++d) {
    if (out.authority[d].authoritative == d) out.to_authoritative[d] = Comparison{};
  }
  return out;
}

}  // namespace canon::dedup
