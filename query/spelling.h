/// @file spelling.h
/// @brief "Did you mean": a query's words the index does not hold, corrected from its spelling
/// table (which `canon index` fills: indexer::sync_spelling).
#pragma once

#include <xapian.h>

#include <string>

namespace canon::query {

/// `query` with each word the index `db` does not hold (neither as written nor as its stem by
/// `stemmer`, with Omega's Z prefix) replaced by the nearest word of the index's spelling table
/// (Database::get_spelling_suggestion, at most 2 edits); everything else as typed. A word is a
/// run of word characters as Xapian cuts them (letters, digits, '_'; std::wcscll holds two, std
/// and wcscll); only one of 3 bytes or more that is all letters is corrected (x86, u8 and
/// atomic_xchg are codes and names), never one in a field (title:gathr, path:/docs/), an
/// operator, or a word the index holds (Xapian's own FLAG_SPELLING_CORRECTION also moves
/// those to more frequent neighbours, and rewrites numbers). "" when no word changes. The
/// suggestions come from `spelling`'s table (`db` itself, or another copy of its table: Xapian's
/// remote backend reads none). Throws Xapian::Error.
std::string corrected_query_string(const Xapian::Database& db, const Xapian::Database& spelling,
                                   const Xapian::Stem& stemmer, const std::string& query);

}  // namespace canon::query
