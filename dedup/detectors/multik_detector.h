/// @file multik_detector.h
/// @brief The "multik" detector: 1- to 4-word n-gram patterns with log-frequency weights,
/// near-duplicates when their weighted dissimilarity is at most 0.2 (after Khan, Ahmed and
/// Almistarihi's multiple-pattern method).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dedup/detectors/detector.h"
#include "dedup/detectors/mwo_detector.h"

namespace canon::dedup {

/// The longest n-gram of a multik profile.
inline constexpr unsigned kMultikMaxGram = 4;

/// A document's patterns: groups[k-1] holds its distinct k-word n-grams (k = 1..4, hashed with
/// hash_words) sorted by hash, each weighted 1 + log10(tf) and divided by the group's sum of
/// those weights (length normalisation: each non-empty group sums to 1). A text with fewer than
/// k words has an empty group k.
struct MultikProfile {
  std::array<std::vector<WeightedTerm>, kMultikMaxGram> groups;
};

/// The profile of `tokens` (tokenize() of a text).
MultikProfile multik_profile(std::span<const std::string> tokens);

/// Weighted dissimilarity in [0, 1]: with D_k = ½ Σ_i |w_i - w'_i| over the n-grams of group k
/// (in [0, 1]; an n-gram missing from one side has weight 0 there; D_k = 1 when exactly one
/// side's group k is empty) and G the groups non-empty in either profile,
/// d = Σ_{k∈G} (k/4)·D_k / Σ_{k∈G} (k/4). 0 for equal profiles, 1 when nothing is shared, and
/// 1 when both profiles are empty.
double multik_dissimilarity(const MultikProfile& a, const MultikProfile& b);

/// Near-duplicates by multik_dissimilarity <= DedupOptions::multik_max_dissimilarity (0.2);
/// reads only each document's text, uses threads. Candidates are exact (no pair is missed):
/// d <= δ needs 4·D_4 <= 10·δ, i.e. a weighted overlap Σ min(w, w') of the 4-gram groups (which
/// is 1 - D_4) of at least 1 - 2.5·δ, so for δ < 0.4 documents of 4 words or more are joined
/// with weighted_overlap_join() on their 4-grams; documents of 1-3 words (which can only match
/// each other) are paired when they share a word. For δ >= 0.4 every two documents sharing a
/// word are candidates (quadratic in the worst case). Every candidate's d is computed exactly.
/// similarity() is 1 - d (0 when either document has no words).
class MultikDetector final : public Detector {
public:
  /// REQUIRES: 0 <= options.multik_max_dissimilarity < 1.
  explicit MultikDetector(const DedupOptions& options);
  std::string_view name() const override { return "multik"; }
  void reset(std::uint32_t n) override;
  void add(std::uint32_t i, const DedupDocument& doc) override;
  Clusters find_clusters(const DocumentLoader& load) override;
  std::vector<Comparison> compare(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                  const DocumentLoader& load) override;
  std::size_t state_bytes_per_document() const override;

private:
  double max_dissimilarity_;
  unsigned threads_;
  /// Profiles of this run, by document index.
  std::vector<MultikProfile> profiles_;
};

}  // namespace canon::dedup
