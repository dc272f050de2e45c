/// @file minhash.h
/// @brief MinHash sketches and LSH banding for candidate pairs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "dedup/sketches/shingles.h"

namespace canon {
class Collective;
}

namespace canon::dedup {

/// A MinHash sketch: n values whose positions collide between two sets with probability
/// equal to their Jaccard similarity.
using Sketch = std::vector<std::uint64_t>;

/// One-permutation MinHash with optimal densification (docs/dedup-minhash.md, "Sketches"): each
/// element is hashed once, h = mix64(x ^ seed); the low 32 bits of h pick one of n bins
/// (multiply-shift), and each bin keeps its smallest h. A bin no element fell into copies the
/// value of the first non-empty bin along its own fixed pseudo-random probe sequence (seeded,
/// independent of the set). For every position i and two sets A, B,
/// Pr[sketch(A)[i] == sketch(B)[i]] = J(A, B) over the seed (Shrivastava 2017), so the fraction
/// of equal positions is an unbiased Jaccard estimate and LSH banding applies unchanged.
/// Deterministic for (n, seed), independent of element order and repeats. Thread-safe.
class MinHasher {
public:
  /// REQUIRES: num_hashes >= 1.
  MinHasher(unsigned num_hashes, std::uint64_t seed);
  /// The number of bins (sketch positions), n.
  unsigned num_hashes() const { return num_bins_; }
  /// Sketch of `shingles` (any order, repeats allowed): each position holds the smallest full
  /// 64-bit h of its bin (after densification). An empty set gives UINT64_MAX entries.
  Sketch sketch(std::span<const std::uint64_t> shingles) const;
  /// The compact sketch the minhash detector keeps: out[i] is the high 32 bits of sketch()[i]
  /// (equally, the minimum of h >> 32 over the bin's elements: the bin is chosen by the low
  /// bits, so bin and value are independent). An empty set gives UINT32_MAX entries.
  /// REQUIRES: out.size() == num_hashes().
  void sketch32(std::span<const std::uint64_t> shingles, std::span<std::uint32_t> out) const;

private:
  /// Fills bins[i] (the smallest h of bin i; `filled` says which bins got an element) for
  /// every bin, copying empty bins by the densification rule. Returns false for an empty set.
  bool fill(std::span<const std::uint64_t> shingles, std::span<std::uint64_t> bins) const;

  unsigned num_bins_;
  std::uint64_t seed_;
  std::uint64_t probe_seed_;
};

/// Fraction of positions where the two sketches agree: the MinHash estimate of Jaccard.
/// REQUIRES: a.size() == b.size().
double estimate_jaccard(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b);
/// The same for 32-bit sketches (sketch32). Two distinct minima collide with probability
/// 2^-32 per position, a negligible bias.
double estimate_jaccard(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b);

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

/// In one band, each document of a run of equal bands is paired with at most this many of the
/// run's next documents: a run of g pages (thousands of releases of one page) costs g times
/// this, not g²/2, and stays connected.
inline constexpr std::size_t kLshRunNeighbours = 128;
/// Bands are taken in order; a document stops taking new candidates after this many (pairs
/// already taken stay). Far above what real sites need (numba's 57 releases of a page: at most
/// 56 plus a few), it bounds the candidates by the number of documents, not by the square of
/// the largest group of alike pages.
inline constexpr std::uint32_t kLshCandidatesPerDocument = 256;

/// The page of a candidate pair (a, b) whose process handles the pair in a partitioned build
/// (merges its LSH proposals, judges its rule and estimate): a or b, each for half of the pairs
/// by a hash of the pair, so that the processes holding the low page numbers (the first of most
/// pairs) do not handle more than their share.
std::uint32_t handling_page(std::uint32_t a, std::uint32_t b);

/// Candidate pairs (a < b), sorted and unique, from equal bands of `sketches`, within
/// kLshRunNeighbours and kLshCandidatesPerDocument (only groups larger than them lose pairs).
/// Documents whose index is flagged in `skip` (same size as sketches, or empty) take no part.
std::vector<std::pair<std::uint32_t, std::uint32_t>> lsh_candidates(
    std::span<const Sketch> sketches, LshBanding banding, std::span<const bool> skip = {});

/// The same over a row-major matrix of 32-bit sketches, `width` values per document
/// (matrix.size() / width documents); bands are hashed on `threads` threads (0: all), and the
/// result does not depend on it. REQUIRES: bands * rows <= width.
std::vector<std::pair<std::uint32_t, std::uint32_t>> lsh_candidates(
    std::span<const std::uint32_t> matrix, std::size_t width, LshBanding banding,
    std::span<const bool> skip, unsigned threads);

/// The same, computed by the processes of a partitioned build together, each holding the rows of
/// some of the `documents` only: `held_rows` are the rows of documents [first, first +
/// held_rows.size() / width), and the processes' ranges together cover every document once
/// (`skip`, when not empty, is of the held documents: skip[d - first]). Each process keys the documents it holds and
/// sends each band key, with the document (and its rows when the key does not determine them),
/// to the process that owns the key (the key mod P) in one all-to-all per round of bands; each
/// owner pairs the runs of its keys and sends each pair to the holder of its handling_page, who
/// keeps the band that first proposed it. The cap on candidates per document is settled where it
/// can bind (the pairs of documents proposed more than kLshCandidatesPerDocument times, with their
/// bands). Each candidate is returned by one process only, the holder of its handling_page
/// (sorted); together the processes' results are the one-process result. So what a process sorts
/// and pairs is its share of the keys and of the pairs (docs/partitioned-build.md).
std::vector<std::pair<std::uint32_t, std::uint32_t>> owned_lsh_candidates(
    std::span<const std::uint32_t> held_rows, std::size_t first, std::size_t documents, std::size_t width,
    LshBanding banding, std::span<const bool> skip, unsigned threads, const Collective& processes);

}  // namespace canon::dedup
