/// @file detector_fixtures.h
/// @brief Helpers the detector tests share: running a detector over in-memory documents and
/// making documents of generated words.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dedup/detectors/detector.h"

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

/// The pages of a site where std's and core's pages of one trait (documents 0 and 1) are moved
/// pages (dedup::SiteNames::moved): 100 words in common, the crate in their heading, `std_extra`
/// words of std's own after them (more implementors) and `core_extra` of core's; then
/// `parallel_paths` pages at the same paths in each crate, so that the crates' directories hold
/// parallel trees and each crate's name is its directory's common word. The documents view the
/// strings of the returned site, which must outlive them.
struct MovedSite {
  std::vector<std::string> texts, titles, urls;
  /// Each page's DedupDocument::cited_place (none, unless a test sets them).
  std::vector<std::string> cited;
  std::vector<dedup::DedupDocument> documents() const {
    std::vector<dedup::DedupDocument> docs;
    for (std::size_t d = 0; d < texts.size(); ++d) {
      docs.push_back({urls[d], titles[d], texts[d]});
      if (d < cited.size()) docs.back().cited_place = cited[d];
    }
    return docs;
  }
};
inline MovedSite moved_site(int std_extra, int core_extra, std::size_t parallel_paths) {
  const std::string shared = words(0, 100);
  MovedSite site;
  site.texts = {"Trait std::cmp::Eq " + shared + " " + words(500, 500 + std_extra, "s"),
                "Trait core::cmp::Eq " + shared + " " + words(700, 700 + core_extra, "c")};
  site.titles = {"Eq in std::cmp", "Eq in core::cmp"};
  site.urls = {"http://h/std/cmp/trait.Eq.html", "http://h/core/cmp/trait.Eq.html"};
  for (std::size_t i = 0; i < parallel_paths; ++i) {
    const std::string n = std::to_string(i);
    for (const std::string crate : {"std", "core"}) {
      const int base = 1000 + 200 * static_cast<int>(i) + (crate == "std" ? 100 : 0);
      site.texts.push_back(words(base, base + 60, crate + "x"));
      site.titles.push_back("S" + n + " in " + crate + "::m" + n);
      site.urls.push_back("http://h/" + crate + "/m" + n + "/struct.S" + n + ".html");
    }
  }
  return site;
}

}  // namespace canon::testing
