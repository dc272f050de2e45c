/// @file minhash_detector.h
/// @brief The "minhash" detector: word shingles, MinHash + LSH candidates, exact verification
/// of the candidates from shingle sets rebuilt on demand.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "dedup/detector.h"
#include "dedup/detector_support.h"
#include "dedup/minhash.h"
#include "dedup/shingles.h"

namespace canon::dedup {

/// Near-duplicates by the similarity of word-shingle sets (docs/dedup.md, "The minhash
/// detector"). Uses shingle_size, num_hashes, threshold, seed and threads of DedupOptions;
/// reads only each document's text.
///
/// State kept per document between add() and find_clusters(): the one-permutation MinHash
/// sketch (MinHasher::sketch32) as num_hashes 32-bit values, the shingle count, a 64-bit hash of the whole word sequence and
/// the TitleKey (16 bytes): 4·num_hashes + 28 bytes (540 for the default 128). With title_rule,
/// candidates whose titles differ are dropped unread, and each pair needs
/// required_similarity() (threshold, or related_title_threshold for related titles). find_clusters(): LSH banding
/// (choose_banding) over the sketches gives candidate pairs; a candidate whose texts hash equal
/// has similarity 1; one whose sketch estimate is far below what the threshold needs is
/// dropped; the rest are verified exactly: the candidate graph is cut into connected
/// components, and each component's documents are loaded once (components in parallel), their
/// shingle sets rebuilt, its pairs measured, and the sets dropped. Verified pairs at or above
/// the threshold are merged with union-find. compare() is the same exact measure and rule,
/// 0 when either document has no words; it reuses the similarity of a pair find_clusters()
/// measured and loads the documents of the others.
class MinhashDetector final : public Detector {
public:
  /// REQUIRES: options.shingle_size >= 1, options.num_hashes >= 1.
  explicit MinhashDetector(const DedupOptions& options);
  std::string_view name() const override { return "minhash"; }
  void reset(std::uint32_t n) override;
  void add(std::uint32_t i, const DedupDocument& doc) override;
  Clusters find_clusters(const DocumentLoader& load) override;
  std::vector<Comparison> compare(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                  const DocumentLoader& load) override;
  std::size_t state_bytes_per_document() const override;

  /// The measure candidates are verified with, from the overlap `common` of two non-empty
  /// shingle sets of sizes a and b (docs/dedup.md).
  static double measure(std::size_t common, std::size_t a, std::size_t b);

private:
  using Pair = std::pair<std::uint32_t, std::uint32_t>;
  /// measure() of each of `pairs` (both documents non-empty) whose `needed` flag is set, into
  /// out[index]: the documents are loaded once per connected component of those pairs.
  void measure_exactly(std::span<const Pair> pairs, const std::vector<bool>& needed,
                       const DocumentLoader& load, std::vector<double>& out) const;
  std::span<const std::uint32_t> sketch_of(std::uint32_t d) const {
    return std::span(sketches_).subspan(std::size_t{d} * width_, width_);
  }

  DedupOptions options_;
  MinHasher hasher_;
  std::size_t width_;
  /// Per document of this run: sketch32 (row-major, width_ values each), shingle count (0: no
  /// words or never added), XXH3 of the whole word sequence.
  std::vector<std::uint32_t> sketches_;
  std::vector<std::uint32_t> sizes_;
  std::vector<std::uint64_t> text_hashes_;
  /// title_key() of each document (DedupOptions::title_rule).
  std::vector<TitleKey> title_keys_;
  /// The candidate pairs find_clusters() measured, (a << 32 | b) for a < b, sorted, with their
  /// similarity: compare() asks mostly for these (a duplicate against its cluster's indexed
  /// page) and need not load them again. 16 bytes per measured candidate.
  std::vector<std::pair<std::uint64_t, double>> measured_;
};

}  // namespace canon::dedup
