/// @file diversity_metrics.cpp
/// @brief The diversity scores of one ranking: Dup@k, Distinct@k, cluster recall@k and
/// α-nDCG@k, with each cluster as a subtopic (diversity.h has the definitions).
///
/// Pure functions of a ranking's cluster labels and a query's relevant clusters: no index, no
/// files, so they are tested on hand-made rankings.
#include "eval/diversity.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "eval/metrics.h"

namespace canon::eval {

double dup_at_k(std::span<const std::uint64_t> ranking, std::size_t k) {
  const std::size_t n = std::min(k, ranking.size());
  if (n == 0) return 0.0;
  std::unordered_set<std::uint64_t> seen;
  std::size_t duplicates = 0;
  for (std::size_t r = 0; r < n; ++r) {
    if (!seen.insert(ranking[r]).second) ++duplicates;
  }
  return static_cast<double>(duplicates) / static_cast<double>(n);
}

std::size_t distinct_at_k(std::span<const std::uint64_t> ranking, std::size_t k) {
  const std::size_t n = std::min(k, ranking.size());
  return std::unordered_set<std::uint64_t>(ranking.begin(), ranking.begin() + n).size();
}

double cluster_recall_at_k(std::span<const std::uint64_t> ranking, const QueryRelevance& relevance,
                           std::size_t k) {
  const std::size_t n = std::min(k, ranking.size());
  std::unordered_set<std::uint64_t> covered;
  for (std::size_t r = 0; r < n; ++r) {
    if (relevance.cluster_sizes.contains(ranking[r])) covered.insert(ranking[r]);
  }
  return ratio_or_one(covered.size(), std::min(k, relevance.cluster_sizes.size()));
}

double alpha_ndcg_at_k(std::span<const std::uint64_t> ranking, const QueryRelevance& relevance,
                       std::size_t k, double alpha) {
  const double keep = 1.0 - alpha;
  const auto discount = [](std::size_t rank0) { return 1.0 / std::log2(2.0 + rank0); };
  // Ideal: the k largest gains over the relevant pages. Gains fall with each page of a
  // cluster, so taking clusters' m-th pages in rounds m = 0, 1, ... gives them in order.
  double ideal = 0.0;
  std::vector<std::size_t> sizes;
  for (const auto& [cluster, size] : relevance.cluster_sizes) sizes.push_back(size);
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  std::size_t rank0 = 0;
  for (std::size_t m = 0; rank0 < k && !sizes.empty() && m < sizes.front(); ++m) {
    const double gain = std::pow(keep, static_cast<double>(m));
    if (gain == 0.0) break;
    for (std::size_t size : sizes) {
      if (size <= m || rank0 >= k) break;  // sorted: no later cluster has an m-th page either
      ideal += gain * discount(rank0++);
    }
  }
  if (ideal == 0.0) return 1.0;
  double dcg = 0.0;
  std::unordered_map<std::uint64_t, std::size_t> shown;
  const std::size_t n = std::min(k, ranking.size());
  for (std::size_t r = 0; r < n; ++r) {
    if (!relevance.cluster_sizes.contains(ranking[r])) continue;
    const std::size_t before = shown[ranking[r]]++;
    dcg += std::pow(keep, static_cast<double>(before)) * discount(r);
  }
  return dcg / ideal;
}

DiversityScores score_ranking(std::span<const std::uint64_t> ranking,
                              const QueryRelevance& relevance, std::size_t k, double alpha) {
  return {dup_at_k(ranking, k), static_cast<double>(distinct_at_k(ranking, k)),
          cluster_recall_at_k(ranking, relevance, k), alpha_ndcg_at_k(ranking, relevance, k, alpha)};
}

}  // namespace canon::eval
