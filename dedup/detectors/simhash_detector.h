/// @file simhash_detector.h
/// @brief The "simhash" detector: 64-bit Charikar fingerprints of tf-weighted word shingles,
/// near-duplicates within Hamming distance k, found with the block-permuted tables of Manku,
/// Jain and Das Sarma ("Detecting near-duplicates for web crawling", WWW 2007).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dedup/detectors/detector.h"
#include "dedup/detectors/detector_support.h"

namespace canon::dedup {

/// Charikar's simhash of weighted features: for each feature, its hash h = mix64(term ^
/// mix64(seed)) adds the feature's count to V[i] when bit i of h is 1 and subtracts it when it
/// is 0; bit i of the fingerprint is V[i] > 0. Similar feature multisets give fingerprints at a
/// small Hamming distance. No features give 0.
std::uint64_t simhash_fingerprint(std::span<const TermCount> features, std::uint64_t seed);

/// The features simhash_fingerprint() takes for a document's words: its `k`-word shingles with
/// their counts (term frequency); a text with 1 to k-1 words has one feature, the hash of all of
/// them (the minhash short-text rule); no words, no features. REQUIRES: k >= 1.
std::vector<TermCount> simhash_features(std::span<const std::string> tokens, unsigned k);

/// Exactly the pairs (a < b) of present fingerprints at Hamming distance <= max_distance, with
/// similarity 1 - distance / 64. Manku et al.'s tables: the 64 bits are cut into
/// max_distance + 1 blocks (sizes differing by at most one); by the pigeonhole principle two
/// fingerprints within the distance agree exactly on at least one block. Table b holds the
/// fingerprints sorted by block b (as if permuted to lead); fingerprints with an equal block b
/// are candidates, examined only in the first table where they agree, and checked by exact
/// Hamming distance. Tables are searched on `threads` threads (0: all); the result does not
/// depend on it. Absent (nullopt) fingerprints take no part. REQUIRES: max_distance <= 63.
JoinResult simhash_join(std::span<const std::optional<std::uint64_t>> fingerprints,
                        unsigned max_distance, unsigned threads);

/// Near-duplicates by simhash (docs/dedup-detectors.md, "simhash"). Uses shingle_size, seed, simhash_max_distance
/// and threads of DedupOptions; reads only each document's text. Documents without words have
/// no fingerprint and stay singletons. similarity() is 1 - Hamming distance / 64 (0 when either
/// document has no fingerprint).
class SimhashDetector final : public Detector {
public:
  /// REQUIRES: options.shingle_size >= 1, options.simhash_max_distance <= 63.
  explicit SimhashDetector(const DedupOptions& options);
  std::string_view name() const override { return "simhash"; }
  void reset(std::uint32_t n) override;
  void add(std::uint32_t i, const DedupDocument& doc) override;
  Clusters find_clusters(const DocumentLoader& load) override;
  std::vector<Comparison> compare(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                  const DocumentLoader& load) override;
  std::size_t state_bytes_per_document() const override;
  /// The fingerprint of document d of this run; nullopt when it has no words.
  std::optional<std::uint64_t> fingerprint(std::uint32_t d) const { return fingerprints_.at(d); }

private:
  DedupOptions options_;
  std::vector<std::optional<std::uint64_t>> fingerprints_;
};

}  // namespace canon::dedup
