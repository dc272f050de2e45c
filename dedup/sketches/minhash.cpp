/// @file minhash.cpp
/// @brief MinHash sketches, the LSH S-curve and banded candidate generation.
///
/// MinHash, LSH and union-find are written here by hand: they are the heart of the product,
/// small, and no Debian package provides them (xxHash supplies only the raw hashing).
#include "dedup/sketches/minhash.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

#include <xxhash.h>

#include "common/parallel.h"
#include "dedup/detectors/detector_support.h"
#include "dedup/sketches/lsh_bands.h"

namespace canon::dedup {

namespace {

/// mix64 (the splitmix64 finaliser) inlined: it runs once per shingle and per densification
/// probe, and the out-of-line detector_support version costs a call each time.
inline std::uint64_t mix(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The bin of a hash: its low 32 bits scaled to [0, n) (multiply-shift, no division).
inline std::uint32_t bin_of(std::uint64_t h, std::uint32_t n) {
  return static_cast<std::uint32_t>(((h & 0xffffffffULL) * n) >> 32);
}

/// After this many pseudo-random probes an empty bin steps through the bins in order: a fixed
/// sequence still (it guarantees termination without changing the collision probability).
constexpr std::uint64_t kRandomProbes = 1024;

/// Recall the banding must reach at the threshold.
constexpr double kMinRecall = 0.99;

}  // namespace

// One-permutation hashing (Li, Owen, Zhang 2012) with optimal densification (Shrivastava 2017).
// h = mix64(x ^ seed) is a keyed bijection of the (already uniform) shingle hash; its low 32
// bits choose the bin, so the order within a bin (by h, i.e. by its high 32 bits first) is
// independent of the bin. Bin i that no element fell into takes the value of bin j_t(i) for the
// first t = 1, 2, ... with that bin non-empty *before* densification, where j_t(i) =
// bin_of(mix64(probe_seed ^ (i << 32 | t))) depends on neither set. For two sets A and B, the
// first probe of bin i that is non-empty in A ∪ B decides: if it is non-empty in both, both copy
// that bin, equal exactly when the union's smallest element there is common (probability J); if
// only one has elements there, that one copies it and the other goes on to a different element,
// so they differ. Hence Pr[equal at i] = J for every i. Probes are independent across bins, so
// the positions are nearly independent (variance close to J(1-J)/n, tested).
MinHasher::MinHasher(unsigned num_hashes, std::uint64_t seed)
    : num_bins_(num_hashes), seed_(mix(seed + 0x9e3779b97f4a7c15ULL)),
      probe_seed_(mix(seed + 2 * 0x9e3779b97f4a7c15ULL)) {
  assert(num_hashes >= 1);
}

bool MinHasher::fill(std::span<const std::uint64_t> shingles, std::span<std::uint64_t> bins) const {
  assert(bins.size() == num_bins_);
  if (shingles.empty()) return false;
  thread_local std::vector<unsigned char> filled;
  filled.assign(num_bins_, 0);
  std::fill(bins.begin(), bins.end(), std::numeric_limits<std::uint64_t>::max());
  for (const std::uint64_t x : shingles) {
    const std::uint64_t h = mix(x ^ seed_);
    const std::uint32_t bin = bin_of(h, num_bins_);
    bins[bin] = std::min(bins[bin], h);
    filled[bin] = 1;
  }
  for (std::uint32_t i = 0; i < num_bins_; ++i) {
    if (filled[i]) continue;
    std::uint32_t j = 0;
    for (std::uint64_t t = 1;; ++t) {
      j = t <= kRandomProbes
              ? bin_of(mix(probe_seed_ ^ (std::uint64_t{i} << 32 | t)), num_bins_)
              : static_cast<std::uint32_t>((i + (t - kRandomProbes)) % num_bins_);
      if (filled[j]) break;
    }
    bins[i] = bins[j];  // j was filled before densification: its own minimum
  }
  return true;
}

void MinHasher::sketch32(std::span<const std::uint64_t> shingles,
                         std::span<std::uint32_t> out) const {
  assert(out.size() == num_bins_);
  thread_local std::vector<std::uint64_t> bins;
  bins.resize(num_bins_);
  if (!fill(shingles, bins)) {
    std::fill(out.begin(), out.end(), std::numeric_limits<std::uint32_t>::max());
    return;
  }
  for (std::size_t i = 0; i < num_bins_; ++i) out[i] = static_cast<std::uint32_t>(bins[i] >> 32);
}

Sketch MinHasher::sketch(std::span<const std::uint64_t> shingles) const {
  Sketch result(num_bins_, std::numeric_limits<std::uint64_t>::max());
  fill(shingles, result);
  return result;
}

double estimate_jaccard(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) {
  assert(a.size() == b.size());
  if (a.empty()) return 0.0;
  std::size_t equal = 0;
  for (std::size_t i = 0; i < a.size(); ++i) equal += a[i] == b[i];
  return static_cast<double>(equal) / static_cast<double>(a.size());
}

double estimate_jaccard(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  assert(a.size() == b.size());
  if (a.empty()) return 0.0;
  std::size_t equal = 0;
  for (std::size_t i = 0; i < a.size(); ++i) equal += a[i] == b[i];
  return static_cast<double>(equal) / static_cast<double>(a.size());
}

std::uint32_t handling_page(std::uint32_t a, std::uint32_t b) {
  return mix(std::uint64_t{a} << 32 | b) & 1 ? b : a;
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

using lsh_bands::exact_band_keys;
using lsh_bands::Keyed;
using lsh_bands::Pair;
using lsh_bands::sort_unique;

namespace {

/// Sorts `keyed` by (key, document) whose keys are uniform 64-bit values: one counting pass on
/// the top bits into `buffer` (about 64 entries per bucket), then a small std::sort per bucket
/// in cache; the result is the same as std::sort's, several times faster for millions.
void sort_keyed(std::vector<Keyed>& keyed, std::vector<Keyed>& buffer) {
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

/// The pairs of one band: key each document's rows (rows_of(d), a span; band_key), sort
/// (key, doc), and pair the runs of equal keys (pair_runs). `prefetch(d)` is called a few
/// documents ahead (the rows of consecutive documents are a sketch apart in memory).
template <class RowsOf, class Prefetch>
void band_pairs(std::size_t n, std::span<const bool> skip, const RowsOf& rows_of,
                const Prefetch& prefetch, std::vector<Keyed>& keyed, std::vector<Keyed>& buffer,
                std::vector<Pair>& pairs) {
  constexpr std::size_t kAhead = 16;
  keyed.clear();
  keyed.reserve(n);
  bool exact_keys = true;
  for (std::uint32_t d = 0; d < n; ++d) {
    if (d + kAhead < n) prefetch(static_cast<std::uint32_t>(d + kAhead));
    if (!skip.empty() && skip[d]) continue;
    const auto rows = rows_of(d);
    exact_keys = exact_band_keys(rows.size_bytes());
    keyed.emplace_back(lsh_bands::band_key(rows), d);
  }
  sort_keyed(keyed, buffer);
  lsh_bands::pair_runs(keyed, exact_keys, [&](std::size_t i) { return rows_of(keyed[i].second); }, pairs);
}

/// Adds the sorted, unique pairs of one band to the sorted, unique `pairs` (the bands before it,
/// in band order): a pair already there is kept once; a new pair is taken while both of its
/// documents have fewer than kLshCandidatesPerDocument candidates (`degree`, per document), so
/// what the union holds is bounded by the number of documents, not by the square of a group.
void merge_band(std::vector<Pair>& pairs, const std::vector<Pair>& band, std::vector<std::uint32_t>& degree) {
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

}  // namespace

std::vector<Pair> lsh_candidates(std::span<const Sketch> sketches, LshBanding banding,
                                 std::span<const bool> skip) {
  assert(skip.empty() || skip.size() == sketches.size());
  std::vector<Pair> pairs, band_list;
  std::vector<std::uint32_t> degree(sketches.size(), 0);
  std::vector<Keyed> keyed, buffer;
  for (unsigned band = 0; band < banding.bands; ++band) {
    const std::size_t first = std::size_t{band} * banding.rows;
    band_list.clear();
    band_pairs(sketches.size(), skip, [&](std::uint32_t d) {
      assert(sketches[d].size() >= first + banding.rows);
      return std::span(sketches[d]).subspan(first, banding.rows);
    }, [](std::uint32_t) {}, keyed, buffer, band_list);
    sort_unique(band_list);
    merge_band(pairs, band_list, degree);
  }
  return pairs;
}

std::vector<Pair> lsh_candidates(std::span<const std::uint32_t> matrix, std::size_t width,
                                 LshBanding banding, std::span<const bool> skip,
                                 unsigned threads) {
  assert(width > 0 && std::size_t{banding.bands} * banding.rows <= width);
  const std::size_t n = matrix.size() / width;
  assert(skip.empty() || skip.size() == n);
  // Bands run in parallel, a round of one band per worker at a time, each into its own list;
  // after each round the lists are merged into the sorted union in band order (merge_band). So
  // at most one band per worker is held beside the union, and the result does not depend on
  // the thread count.
  const std::size_t workers = worker_count(banding.bands, threads);
  std::vector<std::vector<Pair>> per_worker(workers);
  std::vector<std::vector<Keyed>> keyed(workers), buffer(workers);
  std::vector<Pair> pairs;
  std::vector<std::uint32_t> degree(n, 0);
  for (std::size_t round = 0; round < banding.bands; round += workers) {
    const std::size_t in_round = std::min<std::size_t>(workers, banding.bands - round);
    parallel_for(in_round, threads, [&](std::size_t i, std::size_t worker) {
      const std::size_t first = (round + i) * banding.rows;
      band_pairs(n, skip, [&](std::uint32_t d) {
        return matrix.subspan(std::size_t{d} * width + first, banding.rows);
      }, [&](std::uint32_t d) {
        __builtin_prefetch(matrix.data() + std::size_t{d} * width + first);
      }, keyed[worker], buffer[worker], per_worker[i]);
      sort_unique(per_worker[i]);
    });
    for (std::size_t i = 0; i < in_round; ++i) {  // in band order
      merge_band(pairs, per_worker[i], degree);
      per_worker[i].clear();
    }
  }
  return pairs;
}

}  // namespace canon::dedup
