/// @file index_writer.h
/// @brief Writing canon's pages into a Xapian database with Omega's conventions.
///
/// The layout (term prefixes, value slots, document data) is specified in
/// docs/index-format.md; query/ reads it back.
#pragma once

#include <cstdint>
#include <filesystem>
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
  /// The cluster's other members, most similar first (only on the authoritative page).
  std::vector<AlternateRecord> alternates;
  /// Empty for an authoritative page. For a duplicate indexed for query-time collapse: the URL
  /// of its cluster's authoritative page (stored as `canon_authoritative`).
  std::string authoritative_url;
  /// The file the page was read from: its size and modification time become Omega's `size`
  /// and `modtime` (data) and slots 2 and 0. Empty, or a file that cannot be stat'ed: none.
  std::filesystem::path source_file;
};

/// How near-duplicates are collapsed (docs/index-format.md, "Collapse modes").
enum class CollapseMode {
  /// Only authoritative pages are documents; their alternates are in their data.
  kIndexTime,
  /// Every indexable page is a document with its cluster id in slot 11; search collapses.
  kQueryTime,
};

/// How a database is written.
struct WriterOptions {
  CollapseMode collapse = CollapseMode::kIndexTime;
  /// Multiplies PageRank in the static weight ln(1 + pagerank_scale * cluster PageRank) of slot
  /// 12: the number of pages PageRank ran over, so that an average page has pagerank_scale *
  /// PageRank = 1. REQUIRES: > 0.
  double pagerank_scale = 1.0;
};

/// Writes IndexedPage documents into a new Xapian database. Not thread-safe.
/// Errors are sticky: after a failed add(), later calls fail with the same status.
///
/// Batching: the documents are committed once, by finish(). Xapian also commits by itself
/// after every 10000 added documents (its default autoflush threshold; the environment
/// variable XAPIAN_FLUSH_THRESHOLD changes it), which bounds the writer's memory on big sites;
/// since `canon index` builds the database in a directory nobody reads until it is swapped
/// in, those intermediate commits are never visible and only cost a little time.
class IndexWriter {
public:
  /// Creates (or overwrites) a Xapian database at `path` and records options.collapse in its
  /// metadata (index_format::kCollapseMetadataKey).
  static Result<std::unique_ptr<IndexWriter>> create(const std::string& path,
                                                     WriterOptions options = {});
  ~IndexWriter();

  /// Adds or replaces (keyed on the page's unique URL term, so re-adding a URL replaces its
  /// document) the page's document. Fails if two different URLs get one hashed URL term.
  Status add(const IndexedPage& page);
  /// Commits and closes the database; returns the first error seen, if any.
  Status finish();

private:
  struct Rep;
  explicit IndexWriter(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace canon::indexer
