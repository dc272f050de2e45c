/// @file minhash.h
/// @brief MinHash sketches and LSH banding for candidate pairs.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "dedup/shingles.h"

namespace canon::dedup {

/// A MinHash sketch: for each of n hash functions, the minimum over the set.
using Sketch = std::vector<std::uint64_t>;

/// Computes MinHash sketches with `num_hashes` seeded hash functions. Thread-safe.
class MinHasher {
public:
  /// REQUIRES: num_hashes >= 1.
  MinHasher(unsigned num_hashes, std::uint64_t seed);
  unsigned num_hashes() const { return static_cast<unsigned>(seeds_.size()); }
  /// Sketch of `shingles`; an empty set gives all-ones (UINT64_MAX) entries.
  Sketch sketch(std::span<const std::uint64_t> shingles) const;

private:
  std::vector<std::uint64_t> seeds_;
};

/// Fraction of positions where the two sketches agree: the MinHash estimate of Jaccard.
/// REQUIRES: a.size() == b.size().
double estimate_jaccard(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b);

/// LSH banding: a sketch of bands*rows values is cut into `bands` bands of `rows` values;
/// two documents are candidates when any band is equal.
struct LshBanding {
  unsigned bands = 0;
  unsigned rows = 0;
};

/// Picks bands*rows <= num_hashes favouring recall at `threshold`: the S-curve
/// 1-(1-s^r)^b is at least 0.99 at s = threshold (the most rows that achieve it).
LshBanding choose_banding(unsigned num_hashes, double threshold);

/// Probability that two documents with Jaccard s become candidates under `banding`.
double candidate_probability(LshBanding banding, double s);

/// Candidate pairs (a < b), sorted and unique, from equal bands of `sketches`.
/// Documents whose index is flagged in `skip` (same size as sketches, or empty) take no part.
std::vector<std::pair<std::uint32_t, std::uint32_t>> lsh_candidates(
    std::span<const Sketch> sketches, LshBanding banding, std::span<const bool> skip = {});

}  // namespace canon::dedup
