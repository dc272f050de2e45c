/// @file minhash.cpp
/// @brief MinHash sketches, the LSH S-curve and banded candidate generation.
///
/// MinHash, LSH and union-find are written here by hand: they are the heart of the product,
/// small, and no Debian package provides them (xxHash supplies only the raw hashing).
#include "dedup/minhash.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include <xxhash.h>

namespace canon::dedup {

namespace {

/// The splitmix64 output function (Stafford's Mix13): a bijection with full avalanche.
std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Recall the banding must reach at the threshold.
constexpr double kMinRecall = 0.99;

}  // namespace

// Hash function i is h_i(x) = mix64(x ^ seed_i), with seed_i the i-th output of splitmix64
// started at `seed`: shingle hashes are already uniform, so a keyed bijection per function
// gives independent-looking orderings at two multiplies per value.
MinHasher::MinHasher(unsigned num_hashes, std::uint64_t seed) : seeds_(num_hashes) {
  assert(num_hashes >= 1);
  for (std::uint64_t& s : seeds_) s = mix64(seed += 0x9e3779b97f4a7c15ULL);
}

Sketch MinHasher::sketch(std::span<const std::uint64_t> shingles) const {
  Sketch result(seeds_.size(), std::numeric_limits<std::uint64_t>::max());
  for (const std::uint64_t x : shingles) {
    for (std::size_t i = 0; i < seeds_.size(); ++i) {
      result[i] = std::min(result[i], mix64(x ^ seeds_[i]));
    }
  }
  return result;
}

double estimate_jaccard(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) {
  assert(a.size() == b.size());
  if (a.empty()) return 0.0;
  std::size_t equal = 0;
  for (std::size_t i = 0; i < a.size(); ++i) equal += a[i] == b[i];
  return static_cast<double>(equal) / static_cast<double>(a.size());
}

double candidate_probability(LshBanding banding, double s) {
  if (banding.bands == 0 || banding.rows == 0) return 0.0;
  s = std::clamp(s, 0.0, 1.0);
  return 1.0 - std::pow(1.0 - std::pow(s, banding.rows), banding.bands);
}

// Rows are tried from num_hashes down to 1 with bands = num_hashes / rows; the first (most
// rows, so fewest false candidates) whose S-curve reaches kMinRecall at the threshold wins.
// When none does (threshold near 0), one row per band gives the best recall available.
LshBanding choose_banding(unsigned num_hashes, double threshold) {
  assert(num_hashes >= 1);
  for (unsigned rows = num_hashes; rows >= 1; --rows) {
    const LshBanding banding{num_hashes / rows, rows};
    if (candidate_probability(banding, threshold) >= kMinRecall) return banding;
  }
  return {num_hashes, 1};
}

// Per band: hash each document's rows, sort (hash, doc), and pair every two documents of an
// equal-hash run whose rows really are equal. A run of g identical bands gives g(g-1)/2 pairs
// in every band, so pairs are compacted (sort + unique) as they pile up; g itself is not capped,
// so thousands of identical pages still cost O(g^2) pairs and verifications.
std::vector<std::pair<std::uint32_t, std::uint32_t>> lsh_candidates(
    std::span<const Sketch> sketches, LshBanding banding, std::span<const bool> skip) {
  assert(skip.empty() || skip.size() == sketches.size());
  using Pair = std::pair<std::uint32_t, std::uint32_t>;
  const auto sort_unique = [](std::vector<Pair>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  std::vector<Pair> pairs;
  std::size_t compacted = 0;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;  // (band hash, document)
  for (unsigned band = 0; band < banding.bands; ++band) {
    const std::size_t first = std::size_t{band} * banding.rows;
    const auto rows_of = [&](std::uint32_t d) {
      assert(sketches[d].size() >= first + banding.rows);
      return std::span(sketches[d]).subspan(first, banding.rows);
    };
    keyed.clear();
    for (std::uint32_t d = 0; d < sketches.size(); ++d) {
      if (!skip.empty() && skip[d]) continue;
      const auto rows = rows_of(d);
      keyed.emplace_back(XXH3_64bits(rows.data(), rows.size_bytes()), d);
    }
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t begin = 0, end = 0; begin < keyed.size(); begin = end) {
      while (end < keyed.size() && keyed[end].first == keyed[begin].first) ++end;
      for (std::size_t i = begin; i < end; ++i) {
        for (std::size_t j = i + 1; j < end; ++j) {
          const auto a = rows_of(keyed[i].second), b = rows_of(keyed[j].second);
          if (std::equal(a.begin(), a.end(), b.begin())) {
            pairs.emplace_back(keyed[i].second, keyed[j].second);
          }
        }
      }
    }
    if (pairs.size() > 2 * compacted + (std::size_t{1} << 20)) {
      sort_unique(pairs);
      compacted = pairs.size();
    }
  }
  sort_unique(pairs);
  return pairs;
}

}  // namespace canon::dedup
