/// @file web_page.h
/// @brief The web front end's HTML: the search page rendered from SearchResults, and the
/// escaping rules it is built on. Pure functions, testable without a server.
///
/// Everything that comes from crawled pages (titles, URLs, snippets, alternates) and the query
/// itself is untrusted: it is HTML-escaped wherever it appears, in text and in attributes (all
/// attributes are double-quoted), and only http(s) URLs become links. The server also sends a
/// Content-Security-Policy that allows no script at all (docs/design.md, "Web front end").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/html_escape.h"
#include "query/searcher.h"
#include "web/page_template.h"

namespace canon::web {

using query::FacetFilter;
using query::SearchHit;
using query::SearchRequest;
using query::SearchResults;
using query::Searcher;
using query::Alternate;
using query::FacetCount;
using query::FacetCounts;
using query::SectionHit;

/// Highlight markers to ask the Searcher for (SearchRequest::highlight_start/end). They are
/// control characters, which escape_html() drops from text, so a page cannot forge them.
inline constexpr std::string_view kHighlightStart = "\x01";
inline constexpr std::string_view kHighlightEnd = "\x02";

/// Results per page of the HTML front end.
inline constexpr std::size_t kPageSize = 10;

/// escape_html (common/html_escape.h), as the page writes every untrusted text.
using canon::escape_html;

/// True when `url` starts with `http://` or `https://` (scheme case-insensitive) and has no
/// whitespace or control character: the only URLs the page turns into links.
bool is_http_url(std::string_view url);

/// `snippet` escaped, with kHighlightStart/kHighlightEnd turned into <mark>/</mark>. Always
/// well formed: an end marker without a start is dropped, a start inside a mark is ignored
/// and a mark still open at the end is closed.
std::string highlight_snippet(std::string_view snippet);

/// The relative URL of a result page: `/search?q=QUERY` plus `&offset=N` when N > 0 and
/// `&correct=0` when the query is to be searched as typed (no spelling correction). Not
/// HTML-escaped (escape_html() it for an attribute).
/// With `filters`, each as `&FACET=VALUE` (section=, release=, language=).
std::string search_page_url(std::string_view query, std::size_t offset, bool as_typed = false,
                            const std::vector<FacetFilter>& filters = {});

/// What the search page shows.
struct SearchPage {
  /// The query as typed; shown in the search box and the page title. Must be valid UTF-8
  /// (the server rejects other queries and leaves this empty).
  std::string query;
  /// The results, or null when no search ran (the empty start page, or an error).
  const SearchResults* results = nullptr;
  /// There are results after these (a "Next" link is shown).
  bool has_next = false;
  /// Shown instead of results when not empty (e.g. a malformed query).
  std::string error;
  /// Documents in the index, shown on the start page when not zero.
  std::size_t document_count = 0;
  /// URLs under this prefix are pages this server serves (`canon serve` of an index built
  /// without --base-url): they link to the path after it, on this server. "" for none.
  std::string local_base_url;
  /// The query is searched as typed (`correct=0`): the pager's links keep it so.
  bool as_typed = false;
  /// The facet filters the reader picked: the pager's links keep them, the filter bar shows them.
  std::vector<FacetFilter> filters;
};

/// The whole HTML document (UTF-8): a GET form to /search, then either the error, the start
/// page, "No results" or the numbered results (title as a link, its place in the site as a list
/// of crumbs, URL, highlighted snippet, its sections, a <details> list of the collapsed
/// alternates), the facets' values with counts as filters to pick or drop, the
/// estimated number of matches and Previous/Next links (offset steps of kPageSize). Inline CSS,
/// no script. Laid out by `page_template` (canon's own by default).
std::string render_search_page(const SearchPage& page,
                               const PageTemplate& page_template = PageTemplate::standard());

}  // namespace canon::web
