/// @file lsh_bands.h
/// @brief The pieces of banded LSH that the one-process candidates (minhash.cpp) and the
/// partitioned ones (lsh_by_owner.cpp) share: band keys and the pairs of a run of equal keys.
/// Internal to dedup/sketches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include <xxhash.h>

#include "dedup/sketches/minhash.h"

namespace canon::dedup::lsh_bands {

/// The splitmix64 finaliser (a bijection of 64-bit values).
inline std::uint64_t mix_bits(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

using Pair = std::pair<std::uint32_t, std::uint32_t>;

inline void sort_unique(std::vector<Pair>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

using Keyed = std::pair<std::uint64_t, std::uint32_t>;  // (band key, document)

/// A band's key for `rows`: mix(rows) when the rows fit in 64 bits (a bijection: equal keys are
/// equal rows), else XXH3 of the rows (equal keys must then be checked: exact_band_keys()).
template <class Value>
std::uint64_t band_key(std::span<const Value> rows) {
  if (rows.size_bytes() <= sizeof(std::uint64_t)) {
    std::uint64_t packed = 0;
    std::memcpy(&packed, rows.data(), rows.size_bytes());
    return mix_bits(packed);
  }
  return XXH3_64bits(rows.data(), rows.size_bytes());
}

/// Whether band_key() of rows of `bytes` bytes is exact (equal keys are equal rows).
constexpr bool exact_band_keys(std::size_t bytes) { return bytes <= sizeof(std::uint64_t); }

/// The pairs of the equal-key runs of `keyed` (sorted by key, then document) whose rows really
/// are equal (rows_at(i): the rows of keyed[i]; compared only when the keys are not exact). Each
/// document of a run is paired with the next kLshRunNeighbours of the run (in document order),
/// so a run of g documents gives at most g · kLshRunNeighbours pairs, not g(g-1)/2; pairs are
/// compacted (sort + unique) as they pile up.
template <class RowsAt>
void pair_runs(const std::vector<Keyed>& keyed, bool exact_keys, const RowsAt& rows_at, std::vector<Pair>& pairs) {
  std::size_t compacted = pairs.size();
  for (std::size_t begin = 0, end = 0; begin < keyed.size(); begin = end) {
    ++end;
    while (end < keyed.size() && keyed[end].first == keyed[begin].first) ++end;
    for (std::size_t i = begin; i < end; ++i) {
      std::size_t paired = 0;
      for (std::size_t j = i + 1; j < end && paired < kLshRunNeighbours; ++j) {
        if (!exact_keys) {
          const auto a = rows_at(i), b = rows_at(j);
          if (!std::equal(a.begin(), a.end(), b.begin())) continue;
        }
        pairs.emplace_back(keyed[i].second, keyed[j].second);
        ++paired;
      }
      if (pairs.size() > 2 * compacted + (std::size_t{1} << 20)) {
        sort_unique(pairs);
        compacted = pairs.size();
      }
    }
  }
}

}  // namespace canon::dedup::lsh_bands
