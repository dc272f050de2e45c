/// @file index_writer.h
/// @brief Writing canon's pages into a Xapian database with Omega's conventions.
///
/// The layout (term prefixes, value slots, document data) is specified in
/// docs/index-format.md; query/ reads it back.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "format/alternates.h"
#include "format/index_format.h"
#include "indexer/records/document_digests.h"
#include "html/page_sections.h"

namespace canon::indexer {

/// A page file's size and last modification, as the parse read it (its document keeps the
/// seconds).
using canon::FileStamp;

/// What a page contributes to its document: known once the page is parsed.
struct PageContent {
  std::string url;
  std::string title;
  std::string meta_description;
  std::string meta_keywords;
  std::vector<std::string> headings;
  /// The heading a reader sees as the page's name (html::ExtractedPage::main_heading); indexed as a
  /// heading when it is not among `headings` (Doxygen's <div class="title">), and as a
  /// whole-heading term like the title's.
  std::string main_heading;
  std::string main_text;
  /// The file the page was read from, as it was read: its size and modification time become
  /// Omega's `size` and `modtime` (data) and slots 2 and 0. None: no such values.
  std::optional<FileStamp> file;
  /// Its breadcrumb trail (html::ExtractedPage::breadcrumbs), stored as `canon_place` when not empty.
  std::vector<std::string> place;
  /// The page's language (html::ExtractedPage::language): with the URL, its facets
  /// (index_format::page_facets), stored in their value slots.
  std::string language;
  /// The sections of main_text (html::ExtractedPage::sections): where their words are is stored
  /// as `canon_sections` (index_format::SectionPlace) when one has an anchor.
  std::vector<html::PageSection> sections;
};

/// A text other pages link to a page with (its words as written), and how many do.
struct AnchorName {
  std::string text;
  std::uint32_t pages = 0;
};

/// What a page's document gets from ranking and near-duplicate detection: known only once the
/// whole site is parsed.
struct ClusterFields {
  /// The static score: the PageRank of the page's whole cluster.
  double cluster_pagerank = 0.0;
  std::uint32_t cluster_id = 0;
  /// The cluster's other members, most similar first (only on the authoritative page).
  std::vector<index_format::Alternate> alternates;
  /// Empty for an authoritative page. For a duplicate indexed for query-time collapse: the URL
  /// of its cluster's authoritative page (stored as `canon_authoritative`).
  std::string authoritative_url;
  /// What other pages call the page when they link to it (at index-time collapse, also to its
  /// alternates), most pages first: boolean anchor terms, cased (index_format::cased_anchor_term)
  /// and caseless (exact_anchor_term), each with its count terms (anchor_count_term)
  /// (docs/index-format.md; docs/ranking.md, "Anchor text").
  std::vector<AnchorName> anchors;
  /// The names of the page's places (its members, sections, terms: the texts of links to its
  /// #fragments, its own included), most pages first: boolean place terms
  /// (index_format::place_name_term).
  std::vector<std::string> places;
};

/// One document of the index, whole.
struct IndexedPage : PageContent, ClusterFields {};

/// A document's id in the database being written.
using DocumentId = std::uint32_t;

/// How near-duplicates are collapsed (index_format.h).
using CollapseMode = index_format::CollapseMode;

/// How a database is written.
struct WriterOptions {
  CollapseMode collapse = CollapseMode::kIndexTime;
  /// Multiplies PageRank in the static weight ln(1 + pagerank_scale * cluster PageRank) of slot
  /// 12: the number of pages PageRank ran over, so that an average page has pagerank_scale *
  /// PageRank = 1. REQUIRES: > 0.
  double pagerank_scale = 1.0;
  /// Documents added, replaced, updated or removed between commits of the database (0: Xapian's
  /// own threshold, XAPIAN_FLUSH_THRESHOLD, 10000 by default). Xapian holds the changes since
  /// the last commit in memory, in maps whose every insertion costs more as they grow: on a
  /// generated site of 100k pages a commit every 1,000 documents halved `canon index`'s peak
  /// memory and cut the Xapian stage by a fifth against Xapian's 10,000
  /// (docs/benchmarks.md, "Memory per page").
  unsigned documents_per_commit = 1000;
};


/// Writes documents into a Xapian database. Not thread-safe, except prepare(); several
/// writers on different databases may run on different threads.
/// Errors are sticky: after a failed call, later calls fail with the same status.
///
/// Two ways in. add(IndexedPage) writes a whole document. `canon index` instead prepares each
/// page's document as soon as it is parsed (prepare(), on a parse thread), before the site's
/// link graph and clusters exist, and keeps it in its page store (page_store.h); once they do,
/// it adds the documents of the pages it indexes, each with its cluster fields
/// (add(url, prepared, fields)), into a database per chunk of the site, and merge_databases()
/// joins the chunks. Each document is written once, with its final fields; a duplicate that is
/// not indexed is never written.
///
/// Batching: the writer commits after every WriterOptions::documents_per_commit changes and in
/// finish(), which bounds its memory on big sites; `canon index` builds its databases in a
/// directory nobody reads until it is swapped in, so those commits are never visible.
class IndexWriter {
public:
  /// Creates (or overwrites) a Xapian database at `path` and records options.collapse in its
  /// metadata (index_format::kCollapseMetadataKey). The database is a chunk that
  /// merge_databases() joins into the index and that is deleted after: its commits are not
  /// synced to storage (Xapian::DB_NO_SYNC), as nothing reads it after a crash; the merge
  /// writes the index synced.
  static Result<std::unique_ptr<IndexWriter>> create(const std::string& path,
                                                     WriterOptions options = {});
  /// Opens the existing database at `path` (a copy of a previous index's, which `canon index`
  /// updates in place of rebuilding it) to replace, update and remove documents as well as to
  /// add them. Fails when there is no database there or its collapse mode is not
  /// options.collapse.
  static Result<std::unique_ptr<IndexWriter>> open(const std::string& path, WriterOptions options);
  ~IndexWriter();

  /// The prepared() document of a page whose file now has stamp `file` (its bytes unchanged: a
  /// touched or rewritten file): the same as prepare() with `file`, without indexing the text
  /// again. Fails when `prepared` is not a serialised document.
  static Result<std::string> restamp(const std::string& prepared, const FileStamp& file);
  /// What digests() takes for the terms of the page at `url` prepared from bytes whose XXH3-64
  /// is `content_hash`.
  static std::uint64_t terms_source(std::string_view url, std::uint64_t content_hash);
  /// The digests of the document add(url, prepared, fields) would write with `options`, for a
  /// page prepared from `terms_source` with `file`'s stamp.
  static DocumentDigests digests(std::uint64_t terms_source, const FileStamp& file, const ClusterFields& fields,
                                 const WriterOptions& options);

  /// Builds the page's document without its cluster fields (terms with positions, Omega's
  /// data lines, file values) and returns it serialised (Xapian::Document::serialise).
  /// Thread-safe (a static function of its argument). Never fails.
  static std::string prepare(const PageContent& page);
  /// Adds the page at `url` from its prepared() document and its cluster fields: the
  /// document's one write. Returns its id. Fails if two different URLs get one hashed URL
  /// term, or `prepared` is not a serialised document. REQUIRES: `url` was not added before.
  Result<DocumentId> add(const std::string& url, const std::string& prepared, const ClusterFields& fields);
  /// Replaces document `id` with the page's document: its one write in this run.
  Status replace(DocumentId id, const std::string& url, const std::string& prepared, const ClusterFields& fields);
  /// Gives document `id` the values and data of `fields`, and those of `prepared` (the file's
  /// stamp) when given: for a document whose terms digest is unchanged (Xapian then rewrites
  /// neither its terms nor their positions). Without `prepared` the document keeps the values
  /// and data prepare() gave it, and when `data_changed` is false (the data digest is the same)
  /// only its values are set.
  Status update_fields(DocumentId id, const std::string& url, const std::string* prepared, const ClusterFields& fields,
                       bool data_changed = true);
  /// Removes document `id`.
  Status remove(DocumentId id);
  /// Records the largest cluster PageRank of the documents the database will hold once
  /// finished, as the static score bounds search reads (kStaticScoreBoundKey); written by finish().
  void set_static_score_bound(double max_cluster_pagerank);
  /// prepare + add, except that re-adding a URL replaces its document (keyed on the page's
  /// unique URL term).
  Status add(const IndexedPage& page);
  /// Commits and closes the database; returns the first error seen, if any.
  Status finish();

private:
  Status check_unique_term(const std::string& unique_term, const std::string& url);
  /// Counts one change, committing when WriterOptions::documents_per_commit are pending.
  /// Throws what Xapian's commit throws.
  void count_change();
  struct Rep;
  explicit IndexWriter(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

/// Merges finished databases written by IndexWriter into one new, compacted database at
/// `destination` (Xapian's compaction): the documents of sources[0] first, renumbered in order.
/// `canon index` writes one database per chunk of the site on its parse threads, then merges.
Status merge_databases(std::span<const std::string> sources, const std::string& destination);

/// Makes the spelling table of the database at `path` hold its words, each with the number of
/// documents that have it: what QueryParser's spelling correction suggests from ("Did you
/// mean", query/searcher.h). A word is a term without a prefix, of 2 to kMaxSpellingBytes bytes,
/// holding a letter, not CJK (indexed as n-grams). On a re-used database the table is brought
/// in line: words no document has any more are removed. Xapian's TermGenerator fills the table
/// itself as it indexes (FLAG_SPELLING), but canon prepares documents on the parse threads
/// without a database; one pass over the term list does it instead.
Status sync_spelling(const std::string& path);

/// Longest word put in a spelling table (sync_spelling).
inline constexpr std::size_t kMaxSpellingBytes = 32;

}  // namespace canon::indexer
