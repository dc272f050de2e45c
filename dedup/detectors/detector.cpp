/// @file detector.cpp
/// @brief The in-memory helpers find_clusters, compare and memory_loader.
#include "dedup/detectors/detector.h"

#include <algorithm>

#include "dedup/sketches/boilerplate.h"
#include "dedup/detectors/detector_support.h"

namespace canon::dedup {

DocumentLoader memory_loader(std::span<const DedupDocument> docs) {
  return [docs](std::uint32_t doc, const std::function<void(const DedupDocument&)>& use) {
    use(docs[doc]);
  };
}

Clusters find_clusters(Detector& detector, std::span<const DedupDocument> docs) {
  const auto n = static_cast<std::uint32_t>(docs.size());
  detector.reset(n);
  std::vector<DedupDocument> sample;
  for (const std::uint32_t d : site_sample(n)) sample.push_back(docs[d]);
  detector.learn_site(sample);
  parallel_for(n, 0, [&](std::size_t i, std::size_t) {
    detector.add(static_cast<std::uint32_t>(i), docs[i]);
  });
  return detector.find_clusters(memory_loader(docs));
}

std::vector<Comparison> compare(Detector& detector, std::span<const DedupDocument> docs,
                                 std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs) {
  return detector.compare(pairs, memory_loader(docs));
}

}  // namespace canon::dedup
