/// @file render.h
/// @brief Search results as terminal text and as JSON (the CLI's and the web API's output).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "query/searcher.h"

namespace canon::query {

/// A hit's place (SearchHit::place) as one line: the crumbs joined by " › ".
std::string join_place(const std::vector<std::string>& place);

/// The line saying which shards did not answer (SearchResults::missing_shards), or "" when
/// every shard answered.
std::string missing_shards_notice(const SearchResults& results);

/// Human-readable results: the missing-shards notice when shards did not answer, a count line
/// ("About N results" when N is Xapian's estimate, "N results" when exact), then per result its title, its breadcrumb trail
/// ("in A › B", when the page has one; the URL below shows the rest), URL, snippet and
/// "also at: URL (similarity)" lines for its alternates (", best match" after the similarity
/// of the alternate that matched best, in a query-time-collapse index).
std::string render_text(const SearchResults& results);

/// The same as a JSON object: {query, estimated_matches, matches_exact (false: the count is an
/// estimate), missing_shards: [name], offset, collapse, results: [{rank, url,
/// title, snippet, weight, percent, pagerank, alternates: [{url, title, similarity}],
/// matched_url, place: [crumb], place_from: "breadcrumbs" or "url"}]}.
nlohmann::json to_json(const SearchResults& results);

}  // namespace canon::query
