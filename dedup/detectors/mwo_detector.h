/// @file mwo_detector.h
/// @brief The "mwo" detector: field-weighted term vectors compared by their minimum weight
/// overlap, joined exactly with weighted prefix and positional filtering (after Das, Mathew,
/// Vijayaraghavan, "An efficient approach for finding near duplicate web pages using minimum
/// weight overlapping method", ITNG 2012).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "dedup/detectors/detector.h"
#include "dedup/detectors/detector_support.h"

namespace canon::dedup {

/// A term (a 64-bit hash) with a weight.
struct WeightedTerm {
  std::uint64_t term;
  double weight;
};

/// A weighted record for weighted_overlap_join(): term ids ascending in the global order (a
/// smaller id is held by fewer records), with positive weights that sum to 1.
struct WeightedRecord {
  std::vector<std::uint32_t> ids;
  std::vector<double> weights;
};

/// Replaces the terms of `vectors` (each sorted by term, without repeats) by their rank in the
/// global order (ascending number of vectors holding the term, ties by term value) and sorts
/// each record by it, keeping each term's weight.
std::vector<WeightedRecord> order_weighted_by_frequency(
    std::span<const std::vector<WeightedTerm>> vectors);

/// Σ over common terms of min(w_a, w_b), summed in id order (so the same records always give
/// the same double). For weights summing to 1 it is in [0, 1], and 1 for equal records.
double weighted_overlap(const WeightedRecord& a, const WeightedRecord& b);

/// Exactly the pairs (a < b) of non-empty `records` with weighted_overlap >= threshold, the
/// same pairs an all-pairs loop finds. Weighted prefix filter: a record's prefix is its shortest
/// prefix whose remaining (suffix) weight is < threshold; two records reaching the threshold
/// share a prefix term. Positional filter: at a common term at positions i and j, the overlap
/// can still grow by at most min(suffix weight of a from i, of b from j). Probing runs on
/// `threads` threads (0: all); the result does not depend on it. REQUIRES: each record's weights
/// sum to 1 (within rounding); 1e-6 <= threshold <= 1.
JoinResult weighted_overlap_join(std::span<const WeightedRecord> records, double threshold,
                                 unsigned threads);

/// The term vector of a page as MWO weighs it: every keyword_terms() term of each field counts
/// once per occurrence with the field's weight — URL path 2 (scheme and host dropped: they are
/// the same on every page of a site), title 2, each heading 2, anchor text of links to the same
/// site 1, to other sites 0.5, meta keywords 3, meta description 3, main text 1 — and the
/// weights are divided by their sum (they sum to 1). Sorted by term; empty when the page has no
/// terms.
std::vector<WeightedTerm> mwo_term_vector(const DedupDocument& doc);

/// Near-duplicates by minimum weight overlap MWO(x, y) = Σ_t min(w_x(t), w_y(t)) of the
/// mwo_term_vector()s, near-duplicate at or above DedupOptions::mwo_threshold (0.8), or
/// `threshold` when threshold_explicit. Reads every field of DedupDocument. Exact: candidates
/// come from weighted_overlap_join(). Uses threads. similarity() is the MWO (0 when either
/// page has no terms).
class MwoDetector final : public Detector {
public:
  /// REQUIRES: the threshold used is in [1e-6, 1].
  explicit MwoDetector(const DedupOptions& options);
  std::string_view name() const override { return "mwo"; }
  void reset(std::uint32_t n) override;
  void add(std::uint32_t i, const DedupDocument& doc) override;
  Clusters find_clusters(const DocumentLoader& load) override;
  std::vector<Comparison> compare(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                  const DocumentLoader& load) override;
  std::size_t state_bytes_per_document() const override;

private:
  double threshold_;
  unsigned threads_;
  /// Term vectors of this run, by document index (the state kept between add and
  /// find_clusters).
  std::vector<std::vector<WeightedTerm>> vectors_;
  /// The vectors in the global order, built by find_clusters, by document index.
  std::vector<WeightedRecord> records_;
};

}  // namespace canon::dedup
