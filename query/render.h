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

/// Human-readable results: a count line, then per result its title, its breadcrumb trail
/// ("in A › B", when the page has one; the URL below shows the rest), URL, snippet and
/// "also at: URL (similarity)" lines for its alternates (", best match" after the similarity
/// of the alternate that matched best, in a query-time-collapse index).
std::string render_text(const SearchResults& results);

/// The same as a JSON object: {query, estimated_matches, offset, collapse, results: [{rank, url,
/// title, snippet, weight, percent, pagerank, alternates: [{url, title, similarity}],
/// matched_url, place: [crumb], place_from: "breadcrumbs" or "url"}]}.
nlohmann::json to_json(const SearchResults& results);

}  // namespace canon::query
