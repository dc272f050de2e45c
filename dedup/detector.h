/// @file detector.h
/// @brief The one interface every near-duplicate detector implements (docs/dedup.md).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace canon::dedup {

/// What a detector sees of a page. Views stay valid for the detector's find_clusters call
/// and for later similarity() calls. Only `mwo` reads the fields after `text`; the others
/// may be left empty.
struct DedupDocument {
  std::string_view url;
  std::string_view title;
  /// The page's main text (template removed).
  std::string_view text;
  /// h1-h6 of the main content, in document order.
  std::span<const std::string> headings = {};
  /// <meta name="keywords"> and <meta name="description"> content.
  std::string_view meta_keywords = {};
  std::string_view meta_description = {};
  /// Visible texts of the page's links to its own host, and to other hosts (the caller decides
  /// which is which: dedup knows nothing of URLs).
  std::vector<std::string_view> same_site_anchors = {};
  std::vector<std::string_view> other_site_anchors = {};
};

/// Two documents judged near-duplicates, with the detector's similarity in [0, 1].
struct SimilarPair {
  std::uint32_t a;
  std::uint32_t b;
  double similarity;
};

/// A detector's verdict over a set of documents.
struct Clusters {
  /// For each document, its cluster id: the smallest document index in its cluster.
  std::vector<std::uint32_t> cluster_of;
  /// The verified near-duplicate pairs (a < b) that built the clusters, before union-find.
  std::vector<SimilarPair> pairs;
  /// Candidate pairs examined (after LSH or filtering), for the summary.
  std::size_t candidates_examined = 0;
};

/// Parameters shared by detectors; each detector documents which it uses.
struct DedupOptions {
  /// Words per shingle (minhash, exact, simhash).
  unsigned shingle_size = 3;
  /// MinHash sketch size.
  unsigned num_hashes = 128;
  /// Similarity at or above which two documents are near-duplicates (minhash and exact; keyword
  /// and mwo when threshold_explicit).
  double threshold = 0.5;
  /// Seed for the hash functions (results are reproducible for a seed).
  std::uint64_t seed = 0x63616e6f6e;  // "canon"
  /// Worker threads; 0 means all hardware threads.
  unsigned threads = 0;

  /// True when `threshold` was chosen by the user (`canon index --threshold`): then `keyword`
  /// and `mwo` use `threshold` instead of their own defaults below.
  bool threshold_explicit = false;
  /// simhash: the largest Hamming distance (of 64 bits) of near-duplicate fingerprints (k).
  unsigned simhash_max_distance = 3;
  /// keyword: |A ∩ B| / max(|A|, |B|) of stemmed keyword sets at or above which documents are
  /// near-duplicates (Narayana et al.: 80 %).
  double keyword_threshold = 0.8;
  /// mwo: minimum weight overlap at or above which documents are near-duplicates.
  double mwo_threshold = 0.8;
  /// multik: the weighted dissimilarity (in [0, 1]) at or below which documents are
  /// near-duplicates (Khan et al.: 0.2).
  double multik_max_dissimilarity = 0.2;
};

/// A near-duplicate detector. Stateful: find_clusters() remembers what it needs to answer
/// similarity() for the same documents afterwards.
class Detector {
public:
  virtual ~Detector() = default;
  /// The name used by `canon index --detector`.
  virtual std::string_view name() const = 0;
  /// Groups `docs` into clusters of near-duplicates. Documents with no words are singletons.
  virtual Clusters find_clusters(std::span<const DedupDocument> docs) = 0;
  /// The detector's similarity of documents a and b of the last find_clusters call.
  /// REQUIRES: find_clusters was called; a and b index its documents.
  virtual double similarity(std::uint32_t a, std::uint32_t b) const = 0;
};

/// Names accepted by make_detector.
std::vector<std::string> detector_names();

/// The detector called `name` ("minhash" is the default), or an error naming the choices.
Result<std::unique_ptr<Detector>> make_detector(std::string_view name, const DedupOptions& options);

}  // namespace canon::dedup
