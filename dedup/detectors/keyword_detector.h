/// @file keyword_detector.h
/// @brief The "keyword" detector: sets of stemmed keywords without stop words, near-duplicates
/// when they overlap by at least 80 % of the larger set (after Narayana, Premchand, Govardhan).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dedup/detectors/detector.h"
#include "dedup/detectors/exact_detector.h"

namespace canon::dedup {

/// The English stop words canon removes (the Snowball project's English list, see the .cpp),
/// plus the fragments tokenize() leaves of its contractions ("don't" -> "don", "t").
std::span<const std::string_view> english_stop_words();

/// True when `word` (lowercased, as tokenize() gives it) is one of english_stop_words().
bool is_stop_word(std::string_view word);

/// The keywords of `text`: its words (tokenize()) that are not stop words, each reduced by
/// Xapian's English (Porter2) stemmer, in text order with repeats. Thread-safe.
std::vector<std::string> keyword_terms(std::string_view text);

/// Near-duplicates by the overlap of keyword sets: sim(A, B) = |A ∩ B| / max(|A|, |B|) over
/// the distinct keyword_terms() of each document's text, near-duplicate at or above the
/// threshold: DedupOptions::keyword_threshold (0.8), or `threshold` when threshold_explicit.
/// Candidates come from ppjoin() (exact: no pair is missed). Uses threads. similarity() is
/// that overlap (0 when either set is empty).
class KeywordDetector final : public Detector {
public:
  /// REQUIRES: the threshold used is in (0, 1].
  explicit KeywordDetector(const DedupOptions& options);
  std::string_view name() const override { return "keyword"; }
  void reset(std::uint32_t n) override;
  void add(std::uint32_t i, const DedupDocument& doc) override;
  Clusters find_clusters(const DocumentLoader& load) override;
  std::vector<Comparison> compare(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                  const DocumentLoader& load) override;
  std::size_t state_bytes_per_document() const override;

private:
  double threshold_;
  unsigned threads_;
  /// Keyword sets of this run (hashed stems, sorted), by document index.
  std::vector<std::vector<std::uint64_t>> sets_;
};

}  // namespace canon::dedup
