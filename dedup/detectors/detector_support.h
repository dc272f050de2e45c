/// @file detector_support.h
/// @brief What the literature detectors (simhash, mwo, multik, keyword, exact) share: a
/// parallel loop (common/parallel.h), word n-gram hashes with counts, and pairs → clusters.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "common/parallel.h"  // parallel_for, worker_count
#include "dedup/detectors/detector.h"

namespace canon::dedup {

/// XXH3_64bits of `words` joined by '\x1f': the same hash shingle_set() gives a k-word window,
/// so equal word sequences hash equal and different ones (almost surely) differ.
std::uint64_t hash_words(std::span<const std::string> words);

/// A distinct n-gram (its hash_words value) and how often it occurs.
struct TermCount {
  std::uint64_t term;
  std::uint32_t count;
};

/// Every window of `k` consecutive `tokens`, hashed with hash_words and counted; sorted by
/// hash. A text with fewer than k tokens has no windows: empty result. REQUIRES: k >= 1.
std::vector<TermCount> ngram_counts(std::span<const std::string> tokens, unsigned k);

/// For each of `sets` (each without repeats), the rank of each of its tokens in the global
/// order "rarest first": ascending number of sets holding the token, ties by token value. The
/// ranks of a set are in the set's own order. Equal tokens get equal ranks.
std::vector<std::vector<std::uint32_t>> frequency_ranks(
    std::span<const std::vector<std::uint64_t>> sets);

/// The splitmix64 finaliser: a bijection of 64-bit values with full avalanche.
std::uint64_t mix64(std::uint64_t x);

/// Clusters of `n` documents from verified `pairs` (each a < b < n): the pairs are sorted by
/// (a, b) and merged with UnionFind; cluster ids are smallest members.
Clusters clusters_from_pairs(std::uint32_t n, std::vector<SimilarPair> pairs,
                             std::size_t candidates_examined);

/// Average over `states` of state_bytes(state) plus the element itself: what a detector keeps
/// per document (Detector::state_bytes_per_document); sizeof(T) when there are none.
template <class T, class Fn>
std::size_t average_state_bytes(const std::vector<T>& states, const Fn& state_bytes) {
  if (states.empty()) return sizeof(T);
  std::size_t total = 0;
  for (const T& s : states) total += sizeof(T) + state_bytes(s);
  return total / states.size();
}

/// What an exact similarity join returns.
struct JoinResult {
  /// The qualifying pairs (a < b, original indices), sorted by (a, b).
  std::vector<SimilarPair> pairs;
  /// Candidate pairs that survived the filters and were verified exactly.
  std::size_t candidates = 0;
};

/// Tolerance for the filters of the exact joins: a bound is only used to discard a pair when it
/// is below the threshold by more than this, so rounding never loses a qualifying pair.
inline constexpr double kFilterSlack = 1e-9;

}  // namespace canon::dedup
