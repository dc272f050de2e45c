/// @file web_page.cpp
/// @brief The search page's HTML and its escaping rules.
#include "web/web_page.h"

#include <algorithm>
#include <cmath>

#include "common/percent_encoding.h"
#include "query/render.h"

namespace canon::web {

using query::to_json;
namespace {

/// Readable on a phone and a desktop, light and dark; no external resources (the CSP allows
/// inline style only).
constexpr std::string_view kStyle = R"css(
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --link: #0b57d0;
  --url: #1a7f37; --bg: #fff; --line: #d0d7de; --mark: #fff0a0; --error: #cf222e; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --link: #79b8ff; --url: #56d364; --bg: #0d1117;
    --line: #30363d; --mark: #5c4d00; --error: #f85149; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header, main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
header { border-bottom: 1px solid var(--line); }
.search { display: flex; gap: .5rem; align-items: center; }
.brand { font-weight: 700; color: var(--fg); text-decoration: none; }
.search input { flex: 1; min-width: 0; font: inherit; padding: .45rem .75rem; color: inherit;
  background: transparent; border: 1px solid var(--line); border-radius: .5rem; }
.search input:focus { outline: 2px solid var(--link); outline-offset: -1px; }
.search button { font: inherit; padding: .45rem 1rem; border: 0; border-radius: .5rem;
  background: var(--link); color: var(--bg); cursor: pointer; }
a { color: var(--link); }
.count, .hint { color: var(--muted); font-size: .9rem; }
.missing { border-left: 3px solid #b58900; padding-left: .5rem; font-size: .9rem; }
.results { list-style: none; margin: 0; padding: 0; }
.result { margin: 0 0 1.5rem; }
.result h2 { margin: 0; font-size: 1.15rem; font-weight: 600; overflow-wrap: anywhere; }
.result h2 a { text-decoration: none; }
.result h2 a:hover { text-decoration: underline; }
.url { color: var(--url); font-size: .85rem; overflow-wrap: anywhere; }
.place ol { list-style: none; margin: 0; padding: 0; font-size: .85rem; color: var(--muted); }
.place li { display: inline; }
.place li + li::before { content: " › "; }
.snippet { margin: .25rem 0; overflow-wrap: anywhere; }
mark { background: var(--mark); color: inherit; padding: 0 .1em; border-radius: .2em; }
.filters { font-size: .9rem; margin: 0 0 1rem; }
.facet { margin: .2rem 0; overflow-wrap: anywhere; }
.facet-name { color: var(--muted); text-transform: capitalize; margin-right: .25rem; }
.facet .n { color: var(--muted); font-size: .8rem; }
.facet .drop { text-decoration: none; }
.sections { list-style: none; margin: .25rem 0 .5rem; padding: 0 0 0 .75rem; border-left: 2px solid var(--line); }
.sections li { margin: .15rem 0; overflow-wrap: anywhere; }
.alternates { font-size: .9rem; color: var(--muted); }
.alternates summary { cursor: pointer; width: fit-content; }
.alternates ul { margin: .25rem 0 0; padding-left: 1.25rem; }
.alternates li { margin: .35rem 0; overflow-wrap: anywhere; }
.alternates .meta { font-size: .85rem; }
.error { border: 1px solid var(--error); border-radius: .5rem; padding: .75rem 1rem; }
.pager { display: flex; justify-content: space-between; margin: 2rem 0 1rem; }
)css";

/// Where a result's URL takes the reader: the URL itself, or for a page this server serves
/// (SearchPage::local_base_url) its path on this server.
class Links {
public:
  explicit Links(std::string_view local_base) : local_base_(local_base) {}

  /// The link target of `url`, or "" when it is not one to link (not http(s)).
  std::string href(std::string_view url) const {
    if (!is_http_url(url)) return "";
    if (!local_base_.empty() && url.starts_with(local_base_)) return "/" + std::string(url.substr(local_base_.size()));
    return std::string(url);
  }

  /// The address shown for `url`: its link target, or the URL when it has none.
  std::string shown(std::string_view url) const {
    std::string target = href(url);
    return target.empty() ? std::string(url) : target;
  }

  /// A link to `url` showing `text` (both untrusted), or the text alone when the URL is not
  /// http(s).
  std::string link_or_text(std::string_view url, std::string_view text) const {
    const std::string target = href(url);
    if (target.empty()) return "<span class=\"nolink\">" + escape_html(text) + "</span>";
    return "<a href=\"" + escape_html(target) + "\">" + escape_html(text) + "</a>";
  }

private:
  std::string_view local_base_;
};

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string render_count(const SearchResults& results) {
  const SearchHit& first = results.hits.front();
  const SearchHit& last = results.hits.back();
  // Xapian's estimate can be below what has been seen; never show fewer than that.
  const std::size_t total = std::max(results.estimated_matches, last.rank);
  const bool exact = results.matches_lower_bound == results.matches_upper_bound &&
                     results.matches_upper_bound == total;
  std::string out = "<p class=\"count\">" + std::string(exact ? "" : "About ") +
                    plural(total, "result", "results");
  if (first.rank != 1 || last.rank != total) {
    out += " · showing " + std::to_string(first.rank) + "–" + std::to_string(last.rank);
  }
  return out + "</p>\n";
}

/// The <details> list of `hit`'s alternates; the one that matched the query best (query-time
/// collapse) is marked.
std::string render_alternates(const SearchHit& hit, const Links& links) {
  const std::vector<Alternate>& alternates = hit.alternates;
  if (alternates.empty()) return "";
  std::string out = "<details class=\"alternates\"><summary>" +
                    plural(alternates.size(), "other version", "other versions") +
                    "</summary>\n<ul>\n";
  for (const Alternate& alt : alternates) {
    const double similarity = std::isfinite(alt.similarity) ? alt.similarity : 0.0;
    const long percent = std::clamp(std::lround(similarity * 100.0), 0L, 100L);
    out += "<li>" + links.link_or_text(alt.url, alt.title.empty() ? links.shown(alt.url) : alt.title) +
           "<div class=\"meta\">";
    if (!alt.title.empty()) out += "<span class=\"url\">" + escape_html(links.shown(alt.url)) + "</span> · ";
    out += "<span class=\"similarity\">" + std::to_string(percent) + "% similar";
    if (!hit.matched_url.empty() && alt.url == hit.matched_url) out += ", best match";
    out += "</span></div></li>\n";
  }
  return out + "</ul>\n</details>\n";
}

/// The title a result shows: the site's repeated suffix left out when it was learnt.
const std::string& shown_title(const SearchHit& hit) { return hit.short_title.empty() ? hit.title : hit.short_title; }

/// The list of `hit`'s sections that hold the query's words, each linking to its place.
std::string render_sections(const SearchHit& hit, const Links& links) {
  if (hit.sections.empty()) return "";
  std::string out = "<ul class=\"sections\" aria-label=\"Sections\">\n";
  for (const SectionHit& section : hit.sections) {
    out += "<li>" + links.link_or_text(section.url, section.heading.empty() ? section.url : section.heading) + "</li>\n";
  }
  return out + "</ul>\n";
}

std::string render_hit(const SearchHit& hit, const Links& links) {
  std::string out = "<li class=\"result\">\n<h2>" +
                    links.link_or_text(hit.url, shown_title(hit).empty() ? links.shown(hit.url) : shown_title(hit)) + "</h2>\n";
  if (!hit.place.empty()) {
    // Where the page is in its site: what tells pages of one name apart (two classes Timer).
    out += "<nav class=\"place\" aria-label=\"Place in the site\"><ol>";
    for (const std::string& crumb : hit.place) out += "<li>" + escape_html(crumb) + "</li>";
    out += "</ol></nav>\n";
  }
  out += "<div class=\"url\">" + escape_html(links.shown(hit.url)) + "</div>\n";
  if (!hit.snippet.empty())
    out += "<p class=\"snippet\">" + highlight_snippet(hit.snippet) + "</p>\n";
  out += render_sections(hit, links);
  out += render_alternates(hit, links);
  return out + "</li>\n";
}

std::string render_pager(const SearchPage& page) {
  const SearchResults& results = *page.results;
  const bool has_previous = results.offset > 0;
  if (!has_previous && !page.has_next) return "";
  std::string out = "<nav class=\"pager\" aria-label=\"Result pages\">\n";
  if (has_previous) {
    const std::size_t previous = results.offset > kPageSize ? results.offset - kPageSize : 0;
    out += "<a rel=\"prev\" href=\"" + escape_html(search_page_url(page.query, previous, page.as_typed, page.filters)) +
           "\">← Previous</a>\n";
  } else {
    out += "<span></span>\n";  // keeps Next on the right
  }
  if (page.has_next) {
    out += "<a rel=\"next\" href=\"" +
           escape_html(search_page_url(page.query, results.offset + results.hits.size(), page.as_typed, page.filters)) +
           "\">Next →</a>\n";
  }
  return out + "</nav>\n";
}

/// One value of a facet: a link adding it to the page's filters (with its count), or, when it
/// is one of them, the value with a link dropping it.
std::string render_filter_value(const SearchPage& page, index_format::Facet facet, const FacetCount& value) {
  const std::string name(index_format::facet_name(facet));
  std::vector<FacetFilter> others;
  bool picked = false;
  for (const FacetFilter& filter : page.filters) {
    if (filter.facet == facet) {
      picked = picked || filter.value == value.value;
    } else {
      others.push_back(filter);
    }
  }
  if (picked) {
    return " <strong>" + escape_html(value.value) + "</strong> <a class=\"drop\" href=\"" +
           escape_html(search_page_url(page.query, 0, page.as_typed, others)) + "\" aria-label=\"Remove filter " + name +
           " " + escape_html(value.value) + "\">×</a>";
  }
  others.push_back({facet, value.value});
  return " <a href=\"" + escape_html(search_page_url(page.query, 0, page.as_typed, others)) + "\">" +
         escape_html(value.value) + "</a> <span class=\"n\">" + std::to_string(value.count) + "</span>";
}

/// The facets of the results as filters: each value a link narrowing the search to it, with
/// its count; a picked one shown with a link dropping it.
std::string render_filters(const SearchPage& page) {
  const SearchResults& results = *page.results;
  if (results.facets.empty()) return "";
  std::string out = "<nav class=\"filters\" aria-label=\"Filters\">\n";
  for (const FacetCounts& facet : results.facets) {
    const std::string name(index_format::facet_name(facet.facet));
    out += "<div class=\"facet\"><span class=\"facet-name\">" + name + "</span>";
    for (const FacetCount& value : facet.values) out += render_filter_value(page, facet.facet, value);
    out += "</div>\n";
  }
  return out + "</nav>\n";
}

std::string render_body(const SearchPage& page) {
  if (!page.error.empty()) {
    return "<p class=\"error\" role=\"alert\">" + escape_html(page.error) + "</p>\n";
  }
  if (page.results == nullptr) {
    std::string out = "<p class=\"hint\">";
    if (page.document_count > 0)
      out += "Search " + plural(page.document_count, "page", "pages") + ". ";
    return out +
           "All words are required; use \"quotes\" for a phrase, OR, NOT, <code>title:word</code> "
           "and <code>site:host</code>.</p>\n";
  }
  const SearchResults& results = *page.results;
  // Shards that did not answer: say so above whatever the others found.
  const std::string missing =
      results.missing_shards.empty()
          ? ""
          : "<p class=\"missing\" role=\"status\">" + escape_html(missing_shards_notice(results)) + "</p>\n";
  if (results.hits.empty()) {
    if (results.offset == 0) {
      return missing + "<p class=\"empty\">No results for <strong>" + escape_html(page.query) +
             "</strong>.</p>\n<p class=\"hint\">Check the spelling, or try fewer or other "
             "words.</p>\n";
    }
    return missing + "<p class=\"empty\">No more results for <strong>" + escape_html(page.query) +
           "</strong>.</p>\n<p><a href=\"" + escape_html(search_page_url(page.query, 0)) +
           "\">Back to the first results</a></p>\n";
  }
  std::string out = missing;
  if (!results.corrected_query.empty()) {
    // "Did you mean": the corrected query's results, and a way back to the query as typed.
    out += "<p class=\"corrected\" role=\"status\">Showing results for <strong>" + escape_html(results.corrected_query) +
           "</strong>. Search instead for <a href=\"" + escape_html(search_page_url(results.query, 0, true)) + "\">" +
           escape_html(results.query) + "</a>.</p>\n";
  }
  out += render_count(results);
  out += render_filters(page);
  out += "<ol class=\"results\" start=\"" + std::to_string(results.hits.front().rank) + "\">\n";
  const Links links(page.local_base_url);
  for (const SearchHit& hit : results.hits) out += render_hit(hit, links);
  out += "</ol>\n";
  return out + render_pager(page);
}

}  // namespace


bool is_http_url(std::string_view url) {
  auto starts_with_nocase = [url](std::string_view prefix) {
    if (url.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      const char c = url[i];
      const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
      if (lower != prefix[i]) return false;
    }
    return true;
  };
  if (!starts_with_nocase("http://") && !starts_with_nocase("https://")) return false;
  return std::none_of(url.begin(), url.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u <= 0x20 || u == 0x7f;
  });
}

std::string highlight_snippet(std::string_view snippet) {
  std::string out;
  bool open = false;
  std::size_t pos = 0;
  while (pos < snippet.size()) {
    const std::size_t start = snippet.find(kHighlightStart, pos);
    const std::size_t end = snippet.find(kHighlightEnd, pos);
    const std::size_t next = std::min(start, end);
    out += escape_html(
        snippet.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos));
    if (next == std::string_view::npos) break;
    if (next == start) {
      if (!open) out += "<mark>";
      open = true;
      pos = start + kHighlightStart.size();
    } else {
      if (open) out += "</mark>";
      open = false;
      pos = end + kHighlightEnd.size();
    }
  }
  if (open) out += "</mark>";
  return out;
}

std::string search_page_url(std::string_view query, std::size_t offset, bool as_typed,
                            const std::vector<FacetFilter>& filters) {
  std::string url = "/search?q=" + percent_encode(query, KeepInUrl::kUnreserved);
  if (offset > 0) url += "&offset=" + std::to_string(offset);
  if (as_typed) url += "&correct=0";
  for (const FacetFilter& filter : filters) {
    url += "&" + std::string(index_format::facet_name(filter.facet)) + "=" + percent_encode(filter.value, KeepInUrl::kUnreserved);
  }
  return url;
}

std::string render_search_page(const SearchPage& page, const PageTemplate& page_template) {
  PageSlots slots;
  slots.title = page.query.empty() ? "canon search" : escape_html(page.query) + " — canon search";
  slots.query = escape_html(page.query);
  slots.style = std::string(kStyle);
  slots.form =
      "<form class=\"search\" method=\"get\" action=\"/search\" role=\"search\">\n"
      "<a class=\"brand\" href=\"/\">canon</a>\n"
      "<input type=\"search\" name=\"q\" value=\"" +
      slots.query +
      "\" aria-label=\"Search query\" placeholder=\"Search the site\" required>\n"
      "<button type=\"submit\">Search</button>\n</form>\n";
  slots.results = render_body(page);
  return page_template.render(slots);
}

}  // namespace canon::web
