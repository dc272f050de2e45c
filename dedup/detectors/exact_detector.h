/// @file exact_detector.h
/// @brief The "exact" detector: the all-pairs Jaccard join over minhash's shingle sets, made
/// fast with PPJoin's prefix, length and positional filters (Xiao et al., WWW 2008).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "dedup/sketches/boilerplate.h"
#include "dedup/detectors/detector.h"
#include "dedup/names/page_names.h"
#include "dedup/detectors/detector_support.h"
#include "dedup/sketches/shingles.h"

namespace canon::dedup {

/// A set for the exact joins: distinct token ids, ascending, where a smaller id is a token held
/// by fewer records (the global order "rarest first" that prefix filtering needs).
using TokenRecord = std::vector<std::uint32_t>;

/// Replaces every token of `sets` (each sorted, without repeats) by its rank in the global
/// order: ascending number of sets holding it, ties by token value. Each result is sorted.
/// Equal tokens get equal ids, so overlaps (and set sizes) are preserved.
std::vector<TokenRecord> order_by_frequency(std::span<const std::vector<std::uint64_t>> sets);

/// The set similarities ppjoin() supports.
enum class SetMeasure {
  Jaccard,         ///< |A ∩ B| / |A ∪ B|
  MaxContainment,  ///< |A ∩ B| / max(|A|, |B|)
};

/// `measure` of two sets of sizes a and b with `common` elements in common; 0 when both are
/// empty. The Jaccard value equals jaccard() of the same sets bit for bit.
double set_similarity(SetMeasure measure, std::size_t common, std::size_t a, std::size_t b);

/// |a ∩ b| of two ascending, repeat-free sequences.
std::size_t intersection_size(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b);

/// Exactly the pairs (a < b) of non-empty `records` whose `measure` is >= threshold, the same
/// pairs an all-pairs loop finds, with their similarity. PPJoin: records are probed in order of
/// size; each indexes its prefix of |x| - ceil(t|x|) + 1 tokens (any qualifying partner shares
/// one of them); candidates must pass the length filter (|y| >= t|x|) and the positional upper
/// bound; survivors are verified by a full merge. Probing runs on `threads` threads (0: all);
/// the result does not depend on the thread count. REQUIRES: 0 < threshold <= 1.
JoinResult ppjoin(std::span<const TokenRecord> records, SetMeasure measure, double threshold,
                  unsigned threads);

/// Near-duplicates by exact Jaccard of word shingles: the same own shingle sets (shingle_size,
/// the boilerplate learnt by learn_site() left out), the same name rule and thresholds as
/// `minhash`, and identical word sequences similar (1) as there, without sampling, so it is the
/// oracle `minhash` is measured against. Uses shingle_size, threshold, the name rule's options
/// and threads of DedupOptions; reads each document's text, title and first heading.
/// compare()'s similarity is the exact Jaccard (0 when either set is empty, 1 for identical
/// word sequences), equal to minhash's; moved pages (SiteNames::moved()) are measured as minhash measures
/// them (masked containment, their documents loaded), every pair of them the join finds plus
/// SiteNames::moved_pairs().
class ExactDetector final : public Detector {
public:
  /// REQUIRES: options.shingle_size >= 1, 0 < options.threshold <= 1.
  explicit ExactDetector(const DedupOptions& options);
  std::string_view name() const override { return "exact"; }
  void reset(std::uint32_t n) override;
  void learn_site(std::span<const DedupDocument> sample) override;
  void add(std::uint32_t i, const DedupDocument& doc) override;
  Clusters find_clusters(const DocumentLoader& load) override;
  std::vector<Comparison> compare(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                  const DocumentLoader& load) override;
  std::size_t state_bytes_per_document() const override;

private:
  double similarity(std::uint32_t a, std::uint32_t b) const;
  /// Whether a and b are the same item at a parallel path (SiteNames::moved()).
  bool moved(std::uint32_t a, std::uint32_t b) const { return options_.title_rule && names_.moved(a, b); }
  /// For each pair (a, b) of moved pages: moved_coverage() of a in b and of b in a, their words
  /// masked (moved_shingle_set()), their documents loaded once each (1 for identical word
  /// sequences), told to `load` first (DocumentLoader::locate: collective in a partitioned
  /// build, whose processes all hold the whole detector and call this with the same pairs).
  std::vector<std::pair<double, double>> moved_coverages(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                                         const DocumentLoader& load) const;
  /// Whether a and b, of Jaccard `jaccard`, are near-duplicates: identical word sequences, or
  /// the Jaccard their names require.
  bool accept(std::uint32_t a, std::uint32_t b, double jaccard) const;

  DedupOptions options_;
  Boilerplate boilerplate_;
  /// Own shingle sets, XXH3 of the whole word sequence (0: no words) and page_name() of this
  /// run, by document index; names_ is made from the name words in find_clusters().
  std::vector<ShingleSet> shingles_;
  std::vector<std::uint64_t> text_hashes_;
  EncodedPageNames page_names_;
  SiteNames names_;
};

}  // namespace canon::dedup
