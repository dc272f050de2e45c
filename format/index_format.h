/// @file index_format.h
/// @brief The names shared by the index writer and the searcher (docs/index-format.md).
///
/// The layout is Omega 1.4's (omindex's) wherever Omega defines a meaning, so that Omega's CGI,
/// `quest` and `xapian-delve` read a canon database as they read one built by omindex; canon's
/// own additions use value slots from 10 and data keys starting with "canon_".
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

#include "common/status.h"

namespace canon::index_format {

/// The base URL of a site's pages when `canon index` is not given one: `canon serve` serves the
/// pages of such an index itself (web/site_files.h).
inline constexpr std::string_view kDefaultBaseUrl = "http://localhost/";

/// The files of a canon index directory (docs/index-format.md, "canon: on-disk formats"): the one place their
/// names are written.
struct IndexLayout {
  std::filesystem::path dir;

  /// The Xapian database (glass), readable by Omega's tools.
  std::filesystem::path xapian() const { return dir / "xapian"; }
  /// One JSON line per input file: its status, cluster and authoritative page (pages_jsonl.h).
  std::filesystem::path pages() const { return dir / "pages.jsonl"; }
  /// The link graph PageRank ran on, as an edge list.
  std::filesystem::path graph() const { return dir / "graph.tsv"; }
  /// The near-duplicate pairs the detector verified.
  std::filesystem::path pairs() const { return dir / "pairs.tsv"; }
  /// What the run did (IndexSummary).
  std::filesystem::path summary() const { return dir / "summary.json"; }
  /// The page store a later run re-uses (store_catalog.h, page_store.h): its segment files and
  /// its catalog.
  std::filesystem::path store() const { return dir / "store"; }
  std::filesystem::path store_catalog() const { return store() / "catalog"; }
  /// Shard `number` (1-based) of an index in shards (shards.h); xapian() is then a stub
  /// directory whose stub() lists them.
  std::filesystem::path shard(unsigned number) const { return dir / ("shard-" + std::to_string(number)); }
  std::filesystem::path stub() const { return xapian() / "XAPIANDB"; }
};

/// Whether `dir` is a canon index: a directory whose xapian/ is a Xapian database (or a stub
/// directory listing the index's shards, shards.h), or a stub file listing them, that carries
/// canon's collapse metadata (kCollapseMetadataKey, written by every canon index and by the
/// views `canon eval diversity` derives; a database without it, omindex's or canon's before
/// 2026-11-22, is not one). The one test used by every reader and by `canon index` before it
/// replaces a directory. Ok, or an error saying what `dir` lacks; never throws.
Status check_canon_index(const std::filesystem::path& dir);

/// The Xapian database of the canon index at `dir`: IndexLayout::xapian() (a database or a stub
/// directory), or `dir` itself when it is a stub file. Fails, saying what `dir` lacks, when it
/// does not exist or is a directory without xapian/. Opens nothing.
Result<std::filesystem::path> canon_database_path(const std::filesystem::path& dir);

/// Ok when `db` carries canon's collapse metadata; else an error saying that the index at `dir`
/// was not written by canon.
Status check_canon_metadata(const Xapian::Database& db, const std::filesystem::path& dir);

/// check_canon_index(), returning the database it opened (for readers that go on to use it:
/// the index is opened once).
Result<Xapian::Database> open_canon_index(const std::filesystem::path& dir);

/// What the index at `dir` says of the site it was built from (summary.json's `parameters`).
struct IndexedSite {
  /// The base URL its pages have; kDefaultBaseUrl when the summary does not say.
  std::string base_url = std::string(kDefaultBaseUrl);
  /// The site directory it was built from, when the summary says (not a crawl's).
  std::optional<std::filesystem::path> site_dir;
};

/// The IndexedSite of the index at `dir`: the defaults when its summary.json is missing or does
/// not say (a summary is a record, never needed to read an index). Never throws.
IndexedSite read_indexed_site(const std::filesystem::path& dir);

/// Omega's value slots. Slot 0: last-modified time of the page's file as a 4-byte big-endian
/// time_t (what Omega's date-range filters read); slot 2: the file's size in bytes,
/// Xapian::sortable_serialise'd. (Omega's slot 1, the MD5 of the file, is not written.)
inline constexpr Xapian::valueno kLastModifiedSlot = 0;
inline constexpr Xapian::valueno kSizeSlot = 2;
/// Value slot of the cluster's PageRank (sum over its members), Xapian::sortable_serialise'd.
inline constexpr Xapian::valueno kStaticScoreSlot = 10;
/// Value slot of the cluster id, as decimal text: the collapse key of query-time collapse.
inline constexpr Xapian::valueno kClusterSlot = 11;
/// Value slot of the static weight search adds to BM25: ln(1 + N * cluster PageRank) with N
/// the number of pages in the link graph (so an average page has ln 2), sortable_serialise'd.
/// docs/ranking.md, "Static score in search", explains the log.
inline constexpr Xapian::valueno kStaticWeightSlot = 12;
/// Value slot of the page's URL: results of equal weight are ordered by it, so that an index
/// re-used by `canon index` and one built afresh (where the same pages have other document
/// ids) rank alike.
inline constexpr Xapian::valueno kUrlSlot = 13;
/// The bytes of a page's main text value slot kTextHeadSlot holds for its snippet (LZ4:
/// format/text_head.h), and the most of the text that follows them kept in value slot
/// kTextTailSlot (deflated: format/text_tail.h): read only for a hit whose query words are not
/// in the head (a long page matched far down), so that what is read for every hit stays small.
inline constexpr std::size_t kTextHeadBytes = 16 * 1024;
inline constexpr std::size_t kTextTailBytes = 496 * 1024;
inline constexpr Xapian::valueno kTextTailSlot = 17;
inline constexpr Xapian::valueno kTextHeadSlot = 18;

/// Omega's prefixes: S title, U url (unique), H host, P path, K keywords, T mime type.
inline constexpr std::string_view kTitlePrefix = "S";
inline constexpr std::string_view kUrlPrefix = "U";
inline constexpr std::string_view kHostPrefix = "H";
inline constexpr std::string_view kPathPrefix = "P";
inline constexpr std::string_view kKeywordPrefix = "K";
inline constexpr std::string_view kMimeTypePrefix = "T";
/// A page's whole title, normalised (exact_title_term): the page a query names exactly.
inline constexpr std::string_view kExactTitlePrefix = "XT";
/// The whole text of a link to the page from another page, normalised as titles are
/// (exact_anchor_term): what other pages call the page (boolean; with count terms).
inline constexpr std::string_view kExactAnchorPrefix = "XA";
/// The same with the words' case as written ("XC:Copy", "XCcopy"): among pages named alike in
/// all but case (Rust's trait `Copy` and function `copy`), the one named as the query writes it.
inline constexpr std::string_view kCasedAnchorPrefix = "XC";
/// The text of a link to a place in the page (place_name_term): the names of its members and
/// sections ("XPpush" on Rust's `Vec` page).
inline constexpr std::string_view kPlaceNamePrefix = "XP";
/// The whole text of one of the page's headings (or defined terms), normalised as titles are
/// (exact_heading_term): the page holding the section a query names.
inline constexpr std::string_view kExactHeadingPrefix = "XH";

/// Document data keys (Omega's `key=value` lines; canon's own keys start with "canon_").
inline constexpr std::string_view kDataUrl = "url";
inline constexpr std::string_view kDataCaption = "caption";
inline constexpr std::string_view kDataSample = "sample";
inline constexpr std::string_view kDataType = "type";
inline constexpr std::string_view kDataModtime = "modtime";
inline constexpr std::string_view kDataSize = "size";
inline constexpr std::string_view kDataAlternates = "canon_alternates";
/// On a duplicate page indexed for query-time collapse: the URL of its cluster's authoritative page.
inline constexpr std::string_view kDataAuthoritative = "canon_authoritative";

/// Appends the line `key=value` to document data `data`; newlines in the value become spaces
/// (a value cannot hold one). The writer's one encoder of document data.
void add_data_line(std::string& data, std::string_view key, std::string_view value);
/// Whether the document data line `line` (without its newline) is a `key=` line.
bool is_data_line_of(std::string_view line, std::string_view key);
/// The value of `key` in document data `data` (the first `key=` line), or "" when it has none.
/// The one decoder of document data (search, evaluation).
std::string data_field(std::string_view data, std::string_view key);

/// Database metadata key recording how near-duplicates were collapsed, and its values.
/// "index": only authoritative pages are documents. "query": every indexable page is, with
/// its cluster id in kClusterSlot, and search collapses on that slot. Every canon database has it (check_canon_index).
inline constexpr std::string_view kCollapseMetadataKey = "canon_collapse";
inline constexpr std::string_view kCollapseAtIndexTime = "index";
/// Database metadata keys holding the largest static score (kStaticScoreSlot) and static weight
/// (kStaticWeightSlot) of the database's documents, sortable_serialise'd: search scales the
/// static part by them. Exact even after documents were replaced or removed, which the slot's
/// own upper bound (Database::get_value_upper_bound) need not be.
inline constexpr std::string_view kStaticScoreBoundKey = "canon_static_score_bound";
inline constexpr std::string_view kStaticWeightBoundKey = "canon_static_weight_bound";
inline constexpr std::string_view kCollapseAtQueryTime = "query";

/// How near-duplicates are collapsed (docs/index-format.md, "Collapse modes").
enum class CollapseMode {
  /// Only authoritative pages are documents; their alternates are in their data.
  kIndexTime,
  /// Every indexable page is a document with its cluster id in slot 11; search collapses.
  kQueryTime,
};

/// The one text form of a mode: kCollapseAtIndexTime or kCollapseAtQueryTime (the database's
/// metadata, summary.json's parameters.collapse, canon eval diversity's mode names).
std::string_view to_string(CollapseMode mode);
/// The mode whose text form is `text`, or nothing.
std::optional<CollapseMode> parse_collapse_mode(std::string_view text);

/// Omega's limit for boolean terms; longer ones are cut and end in a hash (hash_long_term).
inline constexpr std::size_t kMaxBooleanTermLength = 240;

/// `term` itself when it has at most `max_length` bytes; otherwise its first max_length - 6
/// bytes followed by a 6-byte hash of the rest, exactly as omindex's hash_long_term() does,
/// so long U and P terms are the ones omindex and scriptindex's `hash` action would make.
/// REQUIRES: max_length >= 6.
std::string hash_long_term(std::string_view term, std::size_t max_length = kMaxBooleanTermLength);

/// The unique term of a page: "U" + url, hashed as omindex does when it passes 240 bytes.
std::string url_term(std::string_view url);

/// The exact-title term of a title or a query: "XT" + its words, lowercased, joined by single
/// spaces, where a word is a run of Xapian's word characters (letters, digits, '_'; so
/// "File (Java SE 17 & JDK 17)" and the query "file java se 17 jdk 17" give the same term);
/// hashed like U past 240 bytes. An empty string when `text` has no word. Invalid UTF-8 bytes
/// are read as Latin-1, as Xapian does.
std::string exact_title_term(std::string_view text);

/// The exact-title terms of every run of at least two consecutive words of `query`, and of
/// the whole query (even of one word), longest runs first; at most the first `max_words`
/// words are read. "timer java se 17 jdk 17 class" holds the title of the three Timer
/// classes ("Timer (Java SE 17 & JDK 17)"), so its terms include theirs.
std::vector<std::string> exact_title_terms_within(std::string_view query, std::size_t max_words = 16);

/// The words of `text` as exact-title and exact-anchor terms hold them: runs of Xapian's word
/// characters, lowercased, joined by single spaces; "" when there is none. Not hashed.
std::string exact_words(std::string_view text);

/// exact_words() with each character's case as written.
std::string words_as_written(std::string_view text);

/// The exact-anchor term of a link's text (or of a query): "XA" + exact_words(text), hashed like
/// U past 240 bytes; "" when `text` has no word.
std::string exact_anchor_term(std::string_view text);

/// The name of a place in a page (a member, a section), normalised as exact_anchor_term's
/// (ClusterFields::places): "XP" + exact_words(text), hashed like U past 240 bytes; "" when
/// `text` has no word.
std::string place_name_term(std::string_view text);

/// The exact-heading term of a heading's text (or of a query): "XH" + exact_words(text), hashed
/// like U past 240 bytes; "" when `text` has no word.
std::string exact_heading_term(std::string_view text);

/// How many pages linking with one text the count terms tell apart: 2, 4, ... 2^kAnchorCountLevels.
inline constexpr unsigned kAnchorCountLevels = 8;

/// The count levels of a text `pages` pages link with: floor(log2(pages)), at most
/// kAnchorCountLevels (1 page: 0; 2-3: 1; 4-7: 2; ...).
unsigned anchor_count_levels(std::uint32_t pages);

/// The count term of level `level` (1 ..= kAnchorCountLevels) of anchor term `anchor_term`
/// (exact or cased): a page has it when at least 2^level pages link to it with that text, so
/// that a page many pages name so outranks one a few do (each level's term is rarer, and weighs
/// more). `anchor_term` + "#" + level, hashed like U past 240 bytes.
std::string anchor_count_term(std::string_view anchor_term, unsigned level);

/// The cased anchor term of a link's text: "XC" + words_as_written(text), with a ':' after the
/// prefix when the words begin with an ASCII capital (Omega's convention), hashed like U past
/// 240 bytes; "" when `text` has no word.
std::string cased_anchor_term(std::string_view text);

/// omindex's P terms for a URL path: one per enclosing directory, without trailing slash,
/// e.g. "/docs/tutorials/a.html" -> {"P/docs/tutorials", "P/docs"}; "/docs/" (the directory's
/// index page) -> {"P/docs"}; a page at the root has none.
std::vector<std::string> path_terms(std::string_view url_path);

/// The P term a `path:` filter names: "/docs/", "/docs" and "docs" all give "P/docs".
/// An empty string for the root ("/" or ""), which every page is under.
std::string path_filter_term(std::string_view user_path);

/// Value of kClusterSlot for a cluster id (decimal, the `cluster` of pages.jsonl).
std::string cluster_value(std::uint32_t cluster_id);

/// Value of kLastModifiedSlot: `time` as 4 bytes big-endian (clamped to 0..2^32-1), as omindex.
std::string last_modified_value(std::int64_t time);

/// The stemming language of every text field.
inline constexpr const char* kStemLanguage = "english";
/// The TermGenerator flags of every text canon indexes: Chinese and Japanese are written without
/// spaces, so a run of CJK characters is indexed as its single characters and pairs of
/// characters (Xapian's n-gram mode); a reader counting a text's words as the index numbered
/// them (pagefind/bundle_pages.cpp) sets the same.
inline constexpr int kTermGeneratorFlags = Xapian::TermGenerator::FLAG_CJK_NGRAM;

}  // namespace canon::index_format
