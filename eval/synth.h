/// @file synth.h
/// @brief `canon synth`: a near-duplicate site made from a real one, with its ground truth
/// (docs/evaluation.md).
///
/// Every file of the source site is copied. A fraction of the pages (the originals) get 1 to
/// max_dups copies under other top-level directories (mirror/, print/, archive/ + the
/// original's path). In each copy, after every word of the main content's text, a segment of
/// 1 to max_segment random nouns is inserted with probability segment_ratio; the markup and
/// the page template are left as they are, byte for byte. Copies keep their links (relative
/// references are re-rooted so they still reach the same pages); the only link to a copy is
/// one from its original. OUT_SITE/truth.json records the true clusters, the parameters and
/// the seed. The output is a function of the source, the noun list, the options and the seed;
/// the clusters (which pages are copied, how often, where to) do not depend on the segment
/// options, so runs at several segment ratios with one seed share them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "common/status.h"
#include "eval/wordnet.h"

namespace canon::eval {

/// Seeded random numbers with the same sequence on every platform: std::mt19937_64 (fully
/// specified by the standard) with hand-written bounded draws, because the std distributions
/// differ between standard library implementations and versions.
class Random {
public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, n), without modulo bias. REQUIRES: n > 0.
  std::uint64_t below(std::uint64_t n);
  /// Uniform in [low, high]. REQUIRES: low <= high.
  std::uint64_t between(std::uint64_t low, std::uint64_t high) {
    return low + below(high - low + 1);
  }
  /// True with probability p (p is clamped to [0, 1]); resolution 2^-53.
  bool chance(double p);

private:
  std::mt19937_64 engine_;
};

/// What `canon synth` can be told.
struct SynthOptions {
  std::filesystem::path source_dir;
  /// OUT_SITE; replaced only when it is empty or an earlier `canon synth` output.
  std::filesystem::path out_dir;
  /// Share of the eligible pages that get copies (rounded to the nearest page count).
  double dup_ratio = 0.3;
  /// Copies per original: uniform in [1, max_dups].
  unsigned max_dups = 3;
  /// Probability, after each word of a copy's main text, of inserting a segment.
  double segment_ratio = 0.05;
  /// Words per inserted segment: uniform in [1, max_segment].
  unsigned max_segment = 3;
  std::uint64_t seed = 1;
  /// Where copies go: below the copy kinds' directories (`mirror/`, `print/`, `archive/`, then
  /// `mirror2/`, ...), or in numbered folders beside the originals (`copies/1/`, `copies/2/`, ...:
  /// a layout the release rule must not take for releases).
  enum class CopyLayout { kPrefixes, kNumbered };
  CopyLayout layout = CopyLayout::kPrefixes;
  /// Noun list in WordNet's index format (wordnet.h).
  std::filesystem::path noun_list = kWordnetNounIndex;
};

/// What a run did; also written to truth.json as "stats".
struct SynthReport {
  /// Pages (.html/.htm) written, copies included; other files copied as they are.
  std::size_t pages = 0;
  std::size_t other_files = 0;
  /// Source pages canon would index with some main-content text: the candidates for copies.
  std::size_t eligible = 0;
  std::size_t originals = 0;
  std::size_t copies = 0;
  /// Source pages whose main text another source page has: in that page's true cluster.
  std::size_t source_duplicates = 0;
  /// Over all copies: words of the main text, segments inserted, words inserted.
  std::uint64_t words = 0;
  std::uint64_t segments = 0;
  std::uint64_t inserted_words = 0;
  /// OUT_SITE/truth.json.
  std::filesystem::path truth_path;
};

/// Where a copy of the page `html` can take inserted words: just after the last byte of each
/// word of its main text, in document order, as offsets into `html`. The words are the ones
/// html::extract_page reads (the same walk, html::walk_main_text): an insertion
/// never splits or joins them. Words in text whose source is not plain text (a CDATA section,
/// markup gumbo keeps as text) have no end, nor has a word running on into such text.
std::vector<std::size_t> main_text_word_ends(const std::string& html);

/// Builds the near-duplicate site. Fails, leaving an existing OUT_SITE as it was, when the
/// options are out of range, the source is not a readable directory, the noun list cannot
/// be read, OUT_SITE overlaps the source or is a directory canon synth did not write, or
/// writing fails. The site is built beside OUT_SITE and moved into place when complete.
Result<SynthReport> synthesize_site(const SynthOptions& options);

}  // namespace canon::eval
