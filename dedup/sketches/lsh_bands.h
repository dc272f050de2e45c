/// @file lsh_bands.h
/// @brief The pieces of banded LSH that the one-process candidates (minhash.cpp) and the
/// partitioned ones (lsh_by_owner.cpp) share: band keys, the sort of (key, document), the pairs
/// of a run of equal keys and the merge of a band into the candidates. Internal to
/// dedup/sketches.
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

/// Sorts `keyed` by (key, document) whose keys are uniform 64-bit values: one counting pass on
/// the top bits into `buffer` (about 64 entries per bucket), then a small std::sort per bucket
/// in cache; the result is the same as std::sort's, several times faster for millions.
inline void sort_keyed(std::vector<Keyed>& keyed, std::vector<Keyed>& buffer) {
  const std::size_t n = keyed.size();
  if (n < 4096) {
    std::sort(keyed.begin(), keyed.end());
    return;
  }
  unsigned bits = 1;
  while (bits < 20 && (std::size_t{64} << bits) < n) ++bits;
  const unsigned shift = 64 - bits;
  std::vector<std::size_t> offsets((std::size_t{1} << bits) + 1, 0);
  for (const Keyed& k : keyed) ++offsets[(k.first >> shift) + 1];
  for (std::size_t b = 1; b < offsets.size(); ++b) offsets[b] += offsets[b - 1];
  buffer.resize(n);
  std::vector<std::size_t> next(offsets.begin(), offsets.end() - 1);
  for (const Keyed& k : keyed) buffer[next[k.first >> shift]++] = k;
  for (std::size_t b = 0; b + 1 < offsets.size(); ++b) {
    std::sort(buffer.begin() + static_cast<std::ptrdiff_t>(offsets[b]),
              buffer.begin() + static_cast<std::ptrdiff_t>(offsets[b + 1]));
  }
  keyed.swap(buffer);
}

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

/// Adds the sorted, unique pairs of one band to the sorted, unique `pairs` (the bands before it,
/// in band order): a pair already there is kept once; a new pair is taken while both of its
/// documents have fewer than kLshCandidatesPerDocument candidates (`degree`, per document), so
/// what the union holds is bounded by the number of documents, not by the square of a group.
inline void merge_band(std::vector<Pair>& pairs, const std::vector<Pair>& band, std::vector<std::uint32_t>& degree) {
  std::vector<Pair> merged;
  merged.reserve(pairs.size() + band.size());
  auto old = pairs.begin();
  for (const Pair& p : band) {
    while (old != pairs.end() && *old < p) merged.push_back(*old++);
    if (old != pairs.end() && *old == p) continue;  // taken by an earlier band
    if (degree[p.first] >= kLshCandidatesPerDocument || degree[p.second] >= kLshCandidatesPerDocument) continue;
    ++degree[p.first];
    ++degree[p.second];
    merged.push_back(p);
  }
  merged.insert(merged.end(), old, pairs.end());
  pairs.swap(merged);
}

}  // namespace canon::dedup::lsh_bands
