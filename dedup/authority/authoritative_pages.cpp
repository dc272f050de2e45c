/// @file authoritative_pages.cpp
/// @brief choose_authoritative_pages(): authority per cluster, and the chain split.
#include "dedup/authority/authoritative_pages.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <unordered_map>
#include <utility>

#include <xxhash.h>

#include "dedup/sketches/union_find.h"

namespace canon::dedup {

std::vector<char> fuller_pages(PairJudge& judge, std::span<const SimilarPair> pairs,
                               const AuthorityCandidateTable& candidates) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> both_ways;
  for (const SimilarPair& pair : pairs) both_ways.insert(both_ways.end(), {{pair.a, pair.b}, {pair.b, pair.a}});
  const std::vector<Comparison> verdicts = judge.compare(both_ways);
  std::vector<char> covered(candidates.size(), 0);
  // x lists everything y lists, and more.
  const auto lists_more = [&](std::uint32_t x, std::uint32_t y) {
    return candidates[x].listed.size() > candidates[y].listed.size() &&
           entries_covered(candidates[y].listed, candidates[x].listed) &&
           definitions_covered(candidates[y].defined, candidates[x].defined);
  };
  for (std::size_t p = 0; p < both_ways.size(); p += 2) {
    const auto [a, b] = both_ways[p];
    const Comparison &a_in_b = verdicts[p], &b_in_a = verdicts[p + 1];
    // Equal within rounding: neither text holds more (a copy, a page and its mirror).
    const double margin = 1e-9;
    if (!a_in_b.moved) continue;  // both ways equal: neither is fuller
    // How `x` is covered by `y`: y lists more, or neither does and y's text holds more of x's.
    const auto cover = [&](std::uint32_t x, std::uint32_t y, const Comparison& x_in_y, const Comparison& y_in_x) {
      if (!x_in_y.near_duplicate) return;
      if (lists_more(y, x)) {
        covered[x] = kCoveredByListing;
      } else if (!lists_more(x, y) && x_in_y.similarity > y_in_x.similarity + margin && covered[x] != kCoveredByListing) {
        covered[x] = kCoveredByText;
      }
    };
    cover(a, b, a_in_b, b_in_a);
    cover(b, a, b_in_a, a_in_b);
  }
  return covered;
}

std::vector<char> fuller_pages(Detector& detector, const Clusters& clusters,
                               const AuthorityCandidateTable& candidates, const DocumentLoader& load) {
  DetectorJudge judge(detector, load);
  return fuller_pages(judge, clusters.pairs, candidates);
}

void judge_against_twins(PairJudge& judge, std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                         std::vector<Comparison>& verdicts) {
  // Twins: members whose own text is the authoritative page's (similarity 1), or nearly
  // (kNearTwinSimilarity), which stand for it to the same item at a parallel path alone.
  struct Twin {
    std::uint32_t page;
    bool exact;
  };
  std::unordered_map<std::uint32_t, std::vector<Twin>> twins;  // authoritative page -> twins
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (verdicts[p].near_duplicate && verdicts[p].similarity >= kNearTwinSimilarity) {
      twins[pairs[p].second].push_back({pairs[p].first, verdicts[p].similarity >= 1.0});
    }
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> again;  // (member, twin)
  std::vector<std::size_t> asked_for;                           // the pair each is for
  std::vector<char> exact;                                      // whether its twin is exact
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (verdicts[p].near_duplicate) continue;
    const auto it = twins.find(pairs[p].second);
    if (it == twins.end()) continue;
    for (const Twin& twin : it->second) {
      again.emplace_back(pairs[p].first, twin.page);
      asked_for.push_back(p);
      exact.push_back(twin.exact ? 1 : 0);
    }
  }
  // Called when no pair has a twin too: the judge's calls are the same on every process.
  const std::vector<Comparison> with_twins = judge.compare(again);
  for (std::size_t q = 0; q < again.size(); ++q) {
    const bool stands_for_it = exact[q] || with_twins[q].moved;
    if (with_twins[q].near_duplicate && stands_for_it && !verdicts[asked_for[q]].near_duplicate) {
      verdicts[asked_for[q]] = with_twins[q];
    }
  }
}

AuthoritativePages choose_authoritative_pages(PairJudge& judge, std::span<const std::uint32_t> cluster_of,
                                              std::span<const SimilarPair> verified_pairs,
                                              const AuthorityCandidateTable& candidates, bool honour_canonical,
                                              ChainPolicy policy, const PlacePreferences* places) {
  assert(cluster_of.size() == candidates.size());
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  const auto n = static_cast<std::uint32_t>(candidates.size());
  AuthoritativePages out;
  out.cluster_of.assign(cluster_of.begin(), cluster_of.end());
  out.to_authoritative.assign(n, Comparison{});
  // The authoritative page each member was last compared with: a member is compared again only when
  // its cluster's authoritative page changed (a split can take away the page whose rel=canonical
  // chose it).
  std::vector<std::uint32_t> compared_with(n, kNone);
  const std::vector<char> covered_by_fuller = fuller_pages(judge, verified_pairs, candidates);
  for (;;) {
    out.authority = choose_authorities(out.cluster_of, candidates, honour_canonical, covered_by_fuller, places);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (member, authoritative page)
    for (std::uint32_t d = 0; d < n; ++d) {
      const std::uint32_t authoritative = out.authority[d].authoritative;
      if (authoritative != d && compared_with[d] != authoritative) pairs.emplace_back(d, authoritative);
    }
    if (!judge.any(!pairs.empty())) break;
    std::vector<Comparison> verdicts = judge.compare(pairs);
    if (policy == ChainPolicy::kSplit) judge_against_twins(judge, pairs, verdicts);
    ++out.rounds;
    std::vector<bool> leaves(n, false);
    bool split = false;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const std::uint32_t member = pairs[p].first;
      out.to_authoritative[member] = verdicts[p];
      compared_with[member] = pairs[p].second;
      if (policy != ChainPolicy::kSplit) continue;
      // A page that defines or lists an item its authoritative page does not (a release's module
      // page with a class the next release dropped, std's module page with the macros core's
      // lacks) is not served by it, however alike the texts.
      const AuthorityCandidate &page = candidates[member], &authoritative = candidates[pairs[p].second];
      // What the same item at a parallel path lists is comparable entry by entry (the same
      // generator); a copy's links may differ where its text says the same (an old release's
      // links to old pages, a feed copy's to the feed).
      const bool covered = definitions_covered(page.defined, authoritative.defined) &&
                           (!verdicts[p].moved || entries_covered(page.listed, authoritative.listed));
      if (!verdicts[p].near_duplicate || !covered) {
        leaves[member] = true;
        split = true;
        ++out.split_off;
        if (verdicts[p].near_duplicate) ++out.split_for_definitions;
      }
    }
    if (!judge.any(split)) break;
    // Who stays is joined to the authoritative page; who leaves is joined to the others leaving the
    // same cluster along the detector's own verified pairs.
    UnionFind sets(n);
    for (std::uint32_t d = 0; d < n; ++d) {
      if (!leaves[d]) sets.unite(d, out.authority[d].authoritative);
    }
    for (const SimilarPair& pair : verified_pairs) {
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

AuthoritativePages choose_authoritative_pages(Detector& detector, const Clusters& clusters,
                                       const AuthorityCandidateTable& candidates,
                                       bool honour_canonical, ChainPolicy policy,
                                       const DocumentLoader& load, const PlacePreferences* places) {
  DetectorJudge judge(detector, load);
  return choose_authoritative_pages(judge, clusters.cluster_of, clusters.pairs, candidates, honour_canonical, policy,
                                    places);
}

}  // namespace canon::dedup
