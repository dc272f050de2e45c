/// @file metrics.h
/// @brief `canon eval dedup`: pairwise precision/recall/F1 before and after union-find,
/// page-level scores and authority accuracy of an index against a ground truth
/// (docs/evaluation.md has the exact definitions).
///
/// Convention for empty denominators (0/0): a score whose denominator is zero is 1, because
/// there was nothing to get wrong: precision with no detected pair, recall with no true pair,
/// specificity with no negative page, accuracy over no page. F1 is 2TP / (2TP + FP + FN), which
/// equals the harmonic mean of precision and recall under this convention, and is 1 when
/// TP = FP = FN = 0 (nothing to find and nothing found).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "eval/truth.h"

namespace canon::eval {

/// num / den, or 1 when den is 0.
double ratio_or_one(std::uint64_t num, std::uint64_t den);

/// Counts of unordered page pairs: detected and true (TP), detected only (FP), true only (FN).
struct PairCounts {
  std::uint64_t true_positives = 0;
  std::uint64_t false_positives = 0;
  std::uint64_t false_negatives = 0;

  double precision() const {
    return ratio_or_one(true_positives, true_positives + false_positives);
  }
  double recall() const { return ratio_or_one(true_positives, true_positives + false_negatives); }
  double f1() const {
    return ratio_or_one(2 * true_positives, 2 * true_positives + false_positives + false_negatives);
  }
  bool operator==(const PairCounts&) const = default;
};

/// Scores explicit detected pairs (page indices; order within a pair, repeats and self-pairs
/// do not matter) against the true clusters given as one label per page (equal labels = one
/// true cluster). REQUIRES: every index in `detected` < truth_labels.size().
PairCounts count_pairs(std::span<const std::uint64_t> truth_labels,
                       std::span<const std::pair<std::uint32_t, std::uint32_t>> detected);

/// Scores a detected clustering (one label per page) against the true one: the detected pairs
/// are all pairs within a detected cluster. Counted from the contingency table, so large
/// clusters cost O(n log n), not O(n²). REQUIRES: both spans have the same size.
PairCounts count_cluster_pairs(std::span<const std::uint64_t> truth_labels,
                               std::span<const std::uint64_t> detected_labels);

/// Page-level confusion counts: a positive is a copy, a predicted positive a `duplicate` page.
struct PageCounts {
  std::uint64_t true_positives = 0;
  std::uint64_t false_positives = 0;
  std::uint64_t true_negatives = 0;
  std::uint64_t false_negatives = 0;

  double sensitivity() const {
    return ratio_or_one(true_positives, true_positives + false_negatives);
  }
  double specificity() const {
    return ratio_or_one(true_negatives, true_negatives + false_positives);
  }
  double precision() const {
    return ratio_or_one(true_positives, true_positives + false_positives);
  }
  double accuracy() const {
    return ratio_or_one(true_positives + true_negatives,
                        true_positives + true_negatives + false_positives + false_negatives);
  }
  double f1() const {
    return ratio_or_one(2 * true_positives, 2 * true_positives + false_positives + false_negatives);
  }
  bool operator==(const PageCounts&) const = default;
};

/// Whether the original of each true cluster with copies is the page the index shows for it.
struct AuthorityCounts {
  /// True clusters with at least two members.
  std::uint64_t clusters = 0;
  /// ... whose original has status `indexed` (it represents itself, not collapsed elsewhere).
  std::uint64_t original_indexed = 0;
  /// ... in which the original and at least one of its copies share a detected cluster.
  std::uint64_t found = 0;
  /// ... found and with the original indexed.
  std::uint64_t found_original_indexed = 0;

  /// original_indexed / clusters: the authority accuracy.
  double accuracy() const { return ratio_or_one(original_indexed, clusters); }
  /// found_original_indexed / found: authority among the clusters the detector found.
  double found_accuracy() const { return ratio_or_one(found_original_indexed, found); }
};

/// Everything `canon eval dedup` reports.
struct DedupEvaluation {
  std::uint64_t pages = 0;
  /// True clusters with at least two members, and the copies in them.
  std::uint64_t true_clusters = 0;
  std::uint64_t copies = 0;
  /// Verified pairs (pairs.tsv) vs true pairs; nullopt when the index has no pairs.tsv.
  std::optional<PairCounts> before_union_find;
  /// Pairs within detected clusters (pages.jsonl `cluster`) vs true pairs.
  PairCounts after_union_find;
  PageCounts page_counts;
  AuthorityCounts authority;
};

/// Scores `verdict` against `truth`. Pages that are skipped or redirects in the index count as
/// singletons. Fails when the two do not describe the same site: a truth page missing from
/// pages.jsonl, a pages.jsonl path missing from the truth, or a pairs.tsv URL that is not an
/// indexed or duplicate page. REQUIRES: check_truth(truth).ok().
Result<DedupEvaluation> evaluate_dedup(const Truth& truth, const IndexVerdict& verdict);

/// {"pages", "true_clusters", "copies", "pairwise": {"before_union_find": {precision, recall,
/// f1, true_positives, false_positives, false_negatives} or null, "after_union_find": {...}},
/// "page_level": {sensitivity, specificity, precision, accuracy, f1, true_positives, ...},
/// "authority": {clusters, original_indexed, accuracy, found, found_original_indexed,
/// found_accuracy}}.
nlohmann::json to_json(const DedupEvaluation& evaluation);

/// A small aligned table of the same numbers, for the terminal.
std::string render_text(const DedupEvaluation& evaluation);

}  // namespace canon::eval
