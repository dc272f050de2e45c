/// @file index_writer.h
/// @brief Writing canon's pages into a Xapian database with Omega's conventions.
///
/// The layout (term prefixes, value slots, document data) is specified in
/// docs/index-format.md; query/ reads it back.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace canon::indexer {

/// A page collapsed into an indexed page.
struct AlternateRecord {
  std::string url;
  std::string title;
  /// The detector's similarity to the indexed page, in [0, 1].
  double similarity = 0.0;
};

/// One document of the index.
struct IndexedPage {
  std::string url;
  std::string title;
  std::string meta_description;
  std::string meta_keywords;
  std::vector<std::string> headings;
  std::string main_text;
  /// The static score: the PageRank of the page's whole cluster.
  double cluster_pagerank = 0.0;
  std::uint32_t cluster_id = 0;
  /// The cluster's other members, most similar first.
  std::vector<AlternateRecord> alternates;
};

/// Writes IndexedPage documents into a new Xapian database. Not thread-safe.
/// Errors are sticky: after a failed add(), later calls fail with the same status.
class IndexWriter {
public:
  /// Creates (or overwrites) a Xapian database at `path`.
  static Result<std::unique_ptr<IndexWriter>> create(const std::string& path);
  ~IndexWriter();

  /// Adds or replaces (keyed on the page's unique URL term) the page's document.
  Status add(const IndexedPage& page);
  /// Commits and closes the database; returns the first error seen, if any.
  Status finish();

private:
  struct Rep;
  explicit IndexWriter(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace canon::indexer
