/// @file sections.h
/// @brief Which sections of a result hold the query's words: the places in a page a result
/// links to under its title (PAGE#ANCHOR), read from the positions of the words in the page's
/// document and the sections' positions the indexer recorded (index_format::SectionPlace).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

#include "format/section_places.h"

namespace canon::query {

/// A section of a result that holds the query's words.
struct SectionHit {
  /// PAGE#ANCHOR.
  std::string url;
  std::string heading;
};

/// One word of a query as a page may hold it: its unprefixed terms (the word as typed, and
/// every word of the index with the same stem: "file", "files", "filed").
struct QueryWord {
  std::vector<std::string> forms;
};

/// What sections are matched on: the query's words, and its text as a heading's is compared.
struct SectionQuery {
  /// index_format::exact_words of the query as typed.
  std::string text;
  std::vector<QueryWord> words;
};

/// The SectionQuery of the query typed as `typed` and parsed as `query` (by `parser`, whose
/// unstem list knows what was typed): its unprefixed terms and its stems (Omega's Z prefix),
/// each with its forms in `db`, at most kMaxSectionWords. Fields (title:, path:, site:) and
/// boolean filters are not words a section holds. Throws what Xapian throws.
SectionQuery section_query(const Xapian::Database& db, std::string_view typed, const Xapian::Query& query,
                           const Xapian::QueryParser& parser, const Xapian::Stem& stemmer);

inline constexpr std::size_t kMaxSectionWords = 8;

/// Where a document holds a query's words: per word of the SectionQuery, per form, its
/// positions in ascending order.
using DocumentPositions = std::vector<std::vector<std::vector<Xapian::termpos>>>;

/// The DocumentPositions of `query` in each of `docs` (of `db`), only those from `from[i]` on for
/// docs[i] (a document's positions before its first section are of no section); a document
/// whose `from` is nullopt is not read (it gets none). The positions are read a form at a time,
/// for the documents in id order, which is the order of Xapian's position table (term, then
/// document) and of the form's posting list, which tells the documents that hold the form
/// (about half of the pairs hold none, and an empty position list costs a read, two on glass).
/// Throws what Xapian throws.
std::vector<DocumentPositions> read_word_positions(const Xapian::Database& db, const std::vector<Xapian::docid>& docs,
                                                   const std::vector<std::optional<Xapian::termpos>>& from,
                                                   const SectionQuery& query);

/// Up to `most` sections of a document (at `page_url`, titled `title`, whose query words are
/// at `positions`: read_word_positions) that hold the words of `query`, best first: a section whose heading is the query's text, then those
/// whose anchor holds the most of the words (a generator names a member's anchor after it:
/// asyncio.Queue.maxsize, method.push), then those whose heading holds the most words that are not in the page's
/// title (for "Vec push" the section about push on the page named Vec), then the most words in
/// the heading, then the most words anywhere in the section, then the fewest other words in the
/// heading (the heading that is the query), then the most occurrences, then page order. Shown:
/// the sections whose heading holds a query word the title does not, when there are any; else
/// those holding every such word; else (the title holds every word) those whose heading holds
/// every word. Sections without an anchor are never shown.
std::vector<SectionHit> matching_sections(const DocumentPositions& positions, std::string_view page_url,
                                          std::string_view title, const std::vector<index_format::SectionView>& sections,
                                          const SectionQuery& query, std::size_t most);

/// `page_url` + "#" + `anchor`, with the characters a URL's fragment cannot hold as written
/// (space, '"', '<', '>', '`', controls) percent-encoded; others, '%' included, kept (a browser
/// looks an id up as written first).
std::string section_url(std::string_view page_url, std::string_view anchor);

}  // namespace canon::query
