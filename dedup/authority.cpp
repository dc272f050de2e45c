/// @file authority.cpp
/// @brief choose_authorities(): canonical, then PageRank, then shorter/smaller URL.
#include "dedup/authority.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace canon::dedup {

std::string_view to_string(AuthorityReason reason) {
  switch (reason) {
    case AuthorityReason::Singleton: return "singleton";
    case AuthorityReason::PageRank: return "pagerank";
    case AuthorityReason::Canonical: return "canonical";
    case AuthorityReason::Tie: return "tie";
  }
  return "unknown";
}

namespace {

bool same_rank(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

/// Rules 2 and 3 among `pool` (not empty); `tie` is set when rule 3 had to decide.
std::uint32_t best_by_rank(std::vector<std::uint32_t> pool,
                           std::span<const AuthorityCandidate> candidates, bool& tie) {
  double top = candidates[pool.front()].pagerank;
  for (std::uint32_t m : pool) top = std::max(top, candidates[m].pagerank);
  std::erase_if(pool, [&](std::uint32_t m) { return !same_rank(candidates[m].pagerank, top); });
  tie = pool.size() > 1;
  return *std::min_element(pool.begin(), pool.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::string_view ua = candidates[a].url, ub = candidates[b].url;
    if (ua.size() != ub.size()) return ua.size() < ub.size();
    return ua != ub ? ua < ub : a < b;
  });
}

}  // namespace

std::vector<Authority> choose_authorities(std::span<const std::uint32_t> cluster_of,
                                          std::span<const AuthorityCandidate> candidates,
                                          bool honour_canonical) {
  assert(cluster_of.size() == candidates.size());
  const std::size_t n = cluster_of.size();
  std::vector<std::vector<std::uint32_t>> members(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    assert(cluster_of[i] < n);
    members[cluster_of[i]].push_back(i);
  }
  std::vector<std::uint32_t> named(n, 0);  // rel=canonical votes from other cluster members
  std::vector<Authority> result(n);
  for (const std::vector<std::uint32_t>& cluster : members) {
    if (cluster.empty()) continue;
    Authority winner{cluster.front(), AuthorityReason::Singleton};
    if (cluster.size() > 1) {
      std::vector<std::uint32_t> pool;
      if (honour_canonical) {
        for (std::uint32_t m : cluster) {
          const auto& target = candidates[m].canonical;
          if (target && *target != m && *target < n && cluster_of[*target] == cluster_of[m]) {
            ++named[*target];
          }
        }
        std::uint32_t most = 0;
        for (std::uint32_t m : cluster) most = std::max(most, named[m]);
        if (most > 0) {
          for (std::uint32_t m : cluster) {
            if (named[m] == most) pool.push_back(m);
          }
        }
      }
      const bool canonical = !pool.empty();
      if (!canonical) pool = cluster;
      bool tie = false;
      winner.representative = best_by_rank(std::move(pool), candidates, tie);
      winner.reason = canonical ? AuthorityReason::Canonical
                      : tie     ? AuthorityReason::Tie
                                : AuthorityReason::PageRank;
    }
    for (std::uint32_t m : cluster) result[m] = winner;
  }
  return result;
}

}  // namespace canon::dedup
