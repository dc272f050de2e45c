/// @file snippets.h
/// @brief A result's snippet: the passage of its page's text that best shows the query's words.
///
/// Internal to the searcher: Searcher::Rep (searcher_rep.h) finds a search's needles once and
/// makes each hit's snippet from them (results.cpp).
#pragma once

#include <string>
#include <vector>

#include <xapian.h>

#include "query/searcher.h"

namespace canon::query::detail {

/// Lower-case words whose occurrences in a page's text show where it matches `query`: each
/// text term without its field prefix (a stem is nearly always a prefix of its words) and the
/// words the user typed for it. Boolean filter terms (site:, path:...) are not in the text.
std::vector<std::string> snippet_needles(const Xapian::Query& query,
                                         const Xapian::QueryParser& parser);

/// The best passage of `text` for the MSet's query; the start of the text when none of its
/// words match. `text` is the head of the page's text (`doc`'s kTextHeadSlot); when no needle is
/// in it, or the region it has them in holds no word of the query (a needle inside another word:
/// `turtle` of `turtledemo`), the rest of the text (`doc`'s kTextTailSlot, read only then and
/// only as far as the first passage with a word of the query: passage_in_tail) is searched too.
/// Xapian picks the passage (MSet::snippet, exhaustively) from the region snippet_region()
/// finds, which bounds its cost on long pages. `mset` is the query's MSet over
/// an empty database (Searcher::Rep::snippet_terms): every query term weighs the same, so the
/// passage does not depend on term statistics, which differ between one database and its shards.
std::string make_snippet(const Xapian::MSet& mset, std::string text, const Xapian::Document& doc,
                         const std::vector<std::string>& needles, const Xapian::Stem& stemmer,
                         const SearchRequest& request);

}  // namespace canon::query::detail
