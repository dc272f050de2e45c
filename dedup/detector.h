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
/// and for later similarity() calls.
struct DedupDocument {
  std::string_view url;
  std::string_view title;
  /// The page's main text (template removed).
  std::string_view text;
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
  /// Words per shingle.
  unsigned shingle_size = 3;
  /// MinHash sketch size.
  unsigned num_hashes = 128;
  /// Similarity at or above which two documents are near-duplicates.
  double threshold = 0.5;
  /// Seed for the hash functions (results are reproducible for a seed).
  std::uint64_t seed = 0x63616e6f6e;  // "canon"
  /// Worker threads; 0 means all hardware threads.
  unsigned threads = 0;
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
