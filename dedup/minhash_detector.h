/// @file minhash_detector.h
/// @brief The "minhash" detector: word shingles, MinHash + LSH candidates, exact Jaccard check.
#pragma once

#include <string_view>
#include <vector>

#include "dedup/detector.h"
#include "dedup/shingles.h"

namespace canon::dedup {

/// Near-duplicates by Jaccard similarity of word shingles (docs/dedup.md). Uses shingle_size,
/// num_hashes, threshold, seed and threads of DedupOptions; reads only each document's text.
/// Pipeline: tokenize -> shingle_set -> MinHash sketch (in parallel) -> LSH banding
/// (choose_banding) -> candidate pairs verified by exact Jaccard >= threshold -> union-find.
/// similarity() is the exact Jaccard of the shingle sets (0 when either is empty).
class MinhashDetector final : public Detector {
public:
  /// REQUIRES: options.shingle_size >= 1, options.num_hashes >= 1.
  explicit MinhashDetector(const DedupOptions& options);
  std::string_view name() const override { return "minhash"; }
  Clusters find_clusters(std::span<const DedupDocument> docs) override;
  double similarity(std::uint32_t a, std::uint32_t b) const override;

private:
  DedupOptions options_;
  /// Shingle sets of the last find_clusters call, by document index.
  std::vector<ShingleSet> shingles_;
};

}  // namespace canon::dedup
