/// @file detector_fixtures.h
/// @brief Helpers the detector tests share: running a detector over in-memory documents and
/// making documents of generated words.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dedup/detector.h"

namespace canon::testing {

/// find_clusters with a detector made for the purpose.
inline dedup::Clusters clusters_of(dedup::Detector&& detector, std::span<const dedup::DedupDocument> docs) {
  return dedup::find_clusters(detector, docs);
}

/// The detector's judgement of documents a and b of its run over `docs`.
inline dedup::Comparison comparison(dedup::Detector& detector, std::span<const dedup::DedupDocument> docs,
                                    std::uint32_t a, std::uint32_t b) {
  const std::pair<std::uint32_t, std::uint32_t> pair{a, b};
  return dedup::compare(detector, docs, std::span(&pair, 1)).front();
}

/// The detector's similarity of documents a and b of its run over `docs`.
inline double similarity(dedup::Detector& detector, std::span<const dedup::DedupDocument> docs, std::uint32_t a,
                         std::uint32_t b) {
  return comparison(detector, docs, a, b).similarity;
}

/// Documents whose text is each of `texts` (the views point into `texts`).
inline std::vector<dedup::DedupDocument> documents(const std::vector<std::string>& texts) {
  std::vector<dedup::DedupDocument> docs;
  for (const std::string& t : texts) docs.push_back({"", "", t});
  return docs;
}

/// "w0 w1 ... " for words first..last-1 with the given prefix.
inline std::string words(int first, int last, const std::string& prefix = "w") {
  std::string s;
  for (int i = first; i < last; ++i) s += prefix + std::to_string(i) + " ";
  return s;
}

}  // namespace canon::testing
