/// @file test_web_page.cpp
/// @brief The search page's HTML: escaping of untrusted text, links, highlights, paging, and
/// the start, no-results and error pages.
#include <doctest/doctest.h>

#include <string>

#include "web/web_page.h"

using canon::query::Alternate;
using canon::query::SearchHit;
using canon::web::SearchPage;
using canon::query::SearchResults;

namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + 1))
    ++n;
  return n;
}

/// The page with the given results for "install".
std::string page_for(const SearchResults& results, bool has_next = false,
                     std::string query = "install") {
  SearchPage page;
  page.query = std::move(query);
  page.results = &results;
  page.has_next = has_next;
  return canon::web::render_search_page(page);
}

SearchHit hit(std::size_t rank, std::string url, std::string title, std::string snippet = "") {
  SearchHit h;
  h.rank = rank;
  h.url = std::move(url);
  h.title = std::move(title);
  h.snippet = std::move(snippet);
  return h;
}

SearchResults results_of(std::vector<SearchHit> hits, std::size_t estimated,
                         std::size_t offset = 0) {
  SearchResults results;
  results.query = "install";
  results.estimated_matches = estimated;
  results.matches_lower_bound = estimated;
  results.matches_upper_bound = estimated;
  results.offset = offset;
  results.hits = std::move(hits);
  return results;
}

}  // namespace

TEST_CASE("escape_html: markup characters become entities, controls are dropped") {
  struct Case {
    std::string input;
    std::string expected;
  };
  const Case cases[] = {
      {"plain text", "plain text"},
      {"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
      {"a & b", "a &amp; b"},
      {"&amp; stays visible", "&amp;amp; stays visible"},
      {"\" onmouseover=\"x", "&quot; onmouseover=&quot;x"},
      {"it's", "it&#39;s"},
      {"tab\tnew\nline\r", "tab\tnew\nline\r"},
      {std::string("nul\0byte", 8), "nulbyte"},
      {"mark\x01start\x02"
       "end\x7f",
       "markstartend"},
      {"héllo — ✓", "héllo — ✓"},
      {"", ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.input);
    CHECK(canon::web::escape_html(c.input) == c.expected);
  }
}

TEST_CASE("is_http_url: only http and https become links") {
  struct Case {
    std::string url;
    bool linkable;
  };
  const Case cases[] = {
      {"http://localhost/docs/", true},
      {"https://example.org/a?b=c&d=e", true},
      {"HTTPS://EXAMPLE.ORG/", true},
      {"javascript:alert(1)", false},
      {"JavaScript:alert(1)", false},
      {" javascript:alert(1)", false},
      {"data:text/html,<script>alert(1)</script>", false},
      {"vbscript:x", false},
      {"//evil.example/", false},
      {"/relative/path", false},
      {"http:/missing-slash", false},
      {"http://a b/", false},
      {"http://a\tb/", false},
      {"http://a\nb/", false},
      {"ftp://example.org/", false},
      {"", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.url);
    CHECK(canon::web::is_http_url(c.url) == c.linkable);
  }
}

TEST_CASE("highlight_snippet: escaped text, markers become well-formed <mark>s") {
  struct Case {
    std::string snippet;
    std::string expected;
  };
  const Case cases[] = {
      {"run \x01install\x02 now", "run <mark>install</mark> now"},
      {"\x01<b>\x02 & \x01\"x\"\x02", "<mark>&lt;b&gt;</mark> &amp; <mark>&quot;x&quot;</mark>"},
      {"<mark>fake</mark>", "&lt;mark&gt;fake&lt;/mark&gt;"},
      {"stray end\x02 here", "stray end here"},
      {"open \x01never closed", "open <mark>never closed</mark>"},
      {"\x01twice \x01open\x02", "<mark>twice open</mark>"},
      {"no markers", "no markers"},
      {"", ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.snippet);
    CHECK(canon::web::highlight_snippet(c.snippet) == c.expected);
  }
}

TEST_CASE("search_page_url") {
  CHECK(canon::web::search_page_url("shell completions", 0) == "/search?q=shell%20completions");
  CHECK(canon::web::search_page_url("x&offset=5", 20) == "/search?q=x%26offset%3D5&offset=20");
}

TEST_CASE("untrusted titles, URLs, snippets and alternates are escaped in text and attributes") {
  SearchHit h = hit(1, "http://localhost/a.html?x=\"><script>alert(1)</script>",
                    "<script>document.title='pwned'</script> Payload",
                    "see \x01<img src=x onerror=alert(1)>\x02");
  h.alternates = {{"http://localhost/b.html", "<img src=x onerror=\"window.pwned=1\">", 0.97},
                  {"javascript:alert(1)", "Innocent title", 0.9},
                  {"http://localhost/c.html\"onclick=\"alert(1)", "", 0.8},
                  {"http://localhost/d.html\" onclick=\"alert(2)", "D", 0.7}};
  const SearchResults results = results_of({h}, 1);
  const std::string html = page_for(results, false, "\"><script>alert('q')</script>");

  // Not one tag from the data, in text or attributes.
  CHECK_FALSE(contains(html, "<script"));
  CHECK_FALSE(contains(html, "<img"));
  CHECK_FALSE(contains(html, "\" onclick="));
  CHECK_FALSE(contains(html, "onerror=\""));
  CHECK(contains(html, "&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt; Payload"));
  CHECK(contains(html, "<mark>&lt;img src=x onerror=alert(1)&gt;</mark>"));
  CHECK(contains(html, "&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;"));
  // The query in the box and the title.
  CHECK(contains(html, "value=\"&quot;&gt;&lt;script&gt;alert(&#39;q&#39;)&lt;/script&gt;\""));
  CHECK(contains(
      html,
      "<title>&quot;&gt;&lt;script&gt;alert(&#39;q&#39;)&lt;/script&gt; — canon search</title>"));
  // Quotes in an href stay inside it.
  CHECK(contains(
      html, "href=\"http://localhost/a.html?x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\""));
  CHECK(contains(html, "href=\"http://localhost/c.html&quot;onclick=&quot;alert(1)\""));
  // A URL with a space is not a URL to link: text.
  CHECK(contains(html,
                 "<span class=\"nolink\">D</span><div class=\"meta\"><span class=\"url\">"
                 "http://localhost/d.html&quot; onclick=&quot;alert(2)</span>"));
  // javascript: is shown as text, never as a link.
  CHECK_FALSE(contains(html, "href=\"javascript"));
  CHECK(contains(html, "<span class=\"nolink\">Innocent title</span>"));
  CHECK(contains(html, "javascript:alert(1)"));
  // The page itself has no script at all.
  CHECK_FALSE(contains(html, "<script"));
}

TEST_CASE("a result: title link, URL, snippet with marks, alternates in <details>") {
  SearchHit h = hit(1, "http://localhost/docs/install.html", "Installing Larder",
                    "Run the \x01installer\x02 and answer its questions.");
  h.alternates = {{"http://localhost/print/install.html", "Installing Larder (print)", 0.966},
                  {"http://localhost/mirror/install.html", "", 1.0}};
  h.matched_url = "http://localhost/print/install.html";
  SearchHit untitled = hit(2, "http://localhost/untitled.html", "");
  const SearchResults results = results_of({h, untitled}, 2);
  const std::string html = page_for(results);

  CHECK(contains(html,
                 "<h2><a href=\"http://localhost/docs/install.html\">Installing Larder</a></h2>"));
  CHECK(contains(html, "<div class=\"url\">http://localhost/docs/install.html</div>"));
  CHECK(contains(
      html, "<p class=\"snippet\">Run the <mark>installer</mark> and answer its questions.</p>"));
  CHECK(contains(html, "<details class=\"alternates\"><summary>2 other versions</summary>"));
  CHECK(contains(
      html,
      "<li><a href=\"http://localhost/print/install.html\">Installing Larder (print)</a>"
      "<div class=\"meta\"><span class=\"url\">http://localhost/print/install.html</span> · "
      "<span class=\"similarity\">97% similar, best match</span></div></li>"));
  // An untitled alternate is linked by its URL, not listed twice.
  CHECK(contains(
      html,
      "<li><a "
      "href=\"http://localhost/mirror/install.html\">http://localhost/mirror/install.html</a>"
      "<div class=\"meta\"><span class=\"similarity\">100% similar</span></div></li>"));
  // An untitled result is linked by its URL; no alternates, no <details>.
  CHECK(contains(
      html,
      "<h2><a href=\"http://localhost/untitled.html\">http://localhost/untitled.html</a></h2>"));
  CHECK(count(html, "<details") == 1);
  CHECK(contains(html, "<p class=\"count\">2 results</p>"));
  CHECK(contains(html, "<ol class=\"results\" start=\"1\">"));
  CHECK_FALSE(contains(html, "class=\"pager\""));  // one page only
}

TEST_CASE("a result's place in the site: its crumbs as a list, escaped; none without a place") {
  SearchHit timer = hit(1, "http://localhost/java.desktop/javax/swing/Timer.html", "Timer");
  timer.place = {"java.desktop", "javax", "<swing>"};
  SearchHit root = hit(2, "http://localhost/index.html", "Home");
  const std::string html = page_for(results_of({timer, root}, 2));
  CHECK(contains(html, "<nav class=\"place\" aria-label=\"Place in the site\"><ol><li>java.desktop</li>"
                       "<li>javax</li><li>&lt;swing&gt;</li></ol></nav>"));
  CHECK(count(html, "class=\"place\"") == 1);
}

TEST_CASE("one alternate is 'other version', singular") {
  SearchHit h = hit(1, "http://localhost/a.html", "A");
  h.alternates = {{"http://localhost/b.html", "B", 0.5}};
  const SearchResults results = results_of({h}, 1);
  const std::string html = page_for(results);
  CHECK(contains(html, "<summary>1 other version</summary>"));
  CHECK(contains(html, "<p class=\"count\">1 result</p>"));
}

TEST_CASE("paging: Previous and Next keep the query, offsets step by the page size") {
  std::vector<SearchHit> hits;
  for (std::size_t rank = 11; rank <= 20; ++rank) {
    hits.push_back(hit(rank, "http://localhost/" + std::to_string(rank) + ".html", "Page"));
  }
  SearchResults results = results_of(hits, 42, 10);
  results.matches_lower_bound = 30;
  results.matches_upper_bound = 50;
  const std::string html = page_for(results, /*has_next=*/true, "shell & completions");
  CHECK(contains(html, "<p class=\"count\">About 42 results · showing 11–20</p>"));
  CHECK(contains(html, "<ol class=\"results\" start=\"11\">"));
  CHECK(contains(html, "<a rel=\"prev\" href=\"/search?q=shell%20%26%20completions\">"));
  CHECK(contains(html,
                 "<a rel=\"next\" href=\"/search?q=shell%20%26%20completions&amp;offset=20\">"));

  // The last page: Previous only.
  const std::string last = page_for(results, /*has_next=*/false, "shell");
  CHECK(contains(last, "rel=\"prev\""));
  CHECK_FALSE(contains(last, "rel=\"next\""));

  // The first page of several: Next only.
  std::vector<SearchHit> first_hits(hits.begin(), hits.begin() + 3);
  for (std::size_t i = 0; i < first_hits.size(); ++i) first_hits[i].rank = i + 1;
  const SearchResults first = results_of(first_hits, 42, 0);
  const std::string first_html = page_for(first, /*has_next=*/true, "shell");
  CHECK(contains(first_html, "<a rel=\"next\" href=\"/search?q=shell&amp;offset=3\">"));
  CHECK_FALSE(contains(first_html, "rel=\"prev\""));
}

TEST_CASE("the estimate never reads lower than the results shown") {
  std::vector<SearchHit> hits = {hit(11, "http://localhost/a.html", "A"),
                                 hit(12, "http://localhost/b.html", "B")};
  SearchResults results = results_of(hits, 5, 10);
  results.matches_upper_bound = 20;
  CHECK(contains(page_for(results), "About 12 results · showing 11–12"));
}

TEST_CASE("no results, no more results") {
  const SearchResults none = results_of({}, 0);
  const std::string html = page_for(none, false, "zebra <b>");
  CHECK(contains(html, "No results for <strong>zebra &lt;b&gt;</strong>."));
  CHECK_FALSE(contains(html, "class=\"results\""));

  const SearchResults past_end = results_of({}, 3, 50);
  const std::string more = page_for(past_end, false, "zebra");
  CHECK(contains(more, "No more results for <strong>zebra</strong>."));
  CHECK(contains(more, "<a href=\"/search?q=zebra\">Back to the first results</a>"));
}

TEST_CASE("error page: the message, escaped, instead of results; the query stays in the box") {
  SearchPage page;
  page.query = "\"unclosed <phrase>";
  page.error = "malformed query: a phrase is missing its closing '\"'";
  const std::string html = canon::web::render_search_page(page);
  CHECK(
      contains(html,
               "<p class=\"error\" role=\"alert\">malformed query: a phrase is missing its closing "
               "&#39;&quot;&#39;</p>"));
  CHECK(contains(html, "value=\"&quot;unclosed &lt;phrase&gt;\""));
  CHECK_FALSE(contains(html, "class=\"results\""));
  CHECK_FALSE(contains(html, "No results"));
}

TEST_CASE("start page: a GET form to /search, the document count, no script") {
  SearchPage page;
  page.document_count = 30;
  const std::string html = canon::web::render_search_page(page);
  CHECK(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
  CHECK(contains(html, "<meta charset=\"utf-8\">"));
  CHECK(contains(html, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"));
  CHECK(contains(html, "<title>canon search</title>"));
  CHECK(
      contains(html, "<form class=\"search\" method=\"get\" action=\"/search\" role=\"search\">"));
  CHECK(contains(html, "<input type=\"search\" name=\"q\" value=\"\""));
  CHECK(contains(html, "Search 30 pages."));
  CHECK_FALSE(contains(html, "<script"));
  CHECK_FALSE(contains(html, "class=\"error\""));
}

TEST_CASE("did you mean: the corrected query's results, and a link to the query as typed (escaped)") {
  SearchResults results = results_of({hit(1, "http://localhost/a.html", "Gathering tasks")}, 1);
  results.query = "gathr <b>";
  results.corrected_query = "gather <b>";
  const std::string html = page_for(results, /*has_next=*/true, "gathr <b>");
  CHECK(contains(html, "Showing results for <strong>gather &lt;b&gt;</strong>."));
  CHECK(contains(html, "Search instead for <a href=\"/search?q=gathr%20%3Cb%3E&amp;correct=0\">gathr &lt;b&gt;</a>."));
  // Without a correction, no such line.
  CHECK_FALSE(contains(page_for(results_of({hit(1, "http://localhost/a.html", "A")}, 1)), "Showing results for"));
  // A page searched as typed keeps it so in its pager.
  SearchPage page;
  page.query = "gathr";
  page.results = &results;
  page.has_next = true;
  page.as_typed = true;
  CHECK(contains(canon::web::render_search_page(page), "href=\"/search?q=gathr&amp;offset=1&amp;correct=0\""));
}

TEST_CASE("search_page_url: correct=0 for the query as typed") {
  CHECK(canon::web::search_page_url("gathr", 0, true) == "/search?q=gathr&correct=0");
  CHECK(canon::web::search_page_url("gathr", 10, true) == "/search?q=gathr&offset=10&correct=0");
}

TEST_CASE("PageTemplate: slots named {{title}} {{query}} {{style}} {{form}} {{results}}; others refused (table)") {
  struct Row {
    const char* text;
    const char* error;  // "" when it parses
  };
  const Row rows[] = {
      {"{{results}}", ""},
      {"<title>{{title}}</title><style>{{style}}</style>{{form}}<p>{{query}}</p>{{results}}{{results}}", ""},
      {"<p>no results slot</p>", "no {{results}} slot"},
      {"{{results}}{{resluts}}", "unknown slot {{resluts}}"},
      {"{{results}} {{title", "'{{' without '}}'"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    const auto parsed = canon::web::PageTemplate::parse(row.text);
    if (std::string(row.error).empty()) {
      CHECK(parsed.ok());
    } else {
      REQUIRE_FALSE(parsed.ok());
      CHECK(contains(parsed.status().message(), row.error));
    }
  }
  canon::web::PageSlots slots;
  slots.title = "T";
  slots.query = "Q";
  slots.results = "R";
  CHECK(canon::web::PageTemplate::parse("a{{title}}b{{query}}c{{results}}d{{style}}").value().render(slots) == "aTbQcRd");
}

TEST_CASE("a result shows its short title and its sections, each linking to its place (escaped)") {
  SearchResults results;
  results.query = "open file";
  results.estimated_matches = 1;
  SearchHit h = hit(1, "http://localhost/tutorial/io.html", "Input and Output — Python 3.11 documentation");
  h.short_title = "Input and Output";
  h.sections = {{"http://localhost/tutorial/io.html#reading-and-writing-files", "Reading and Writing <Files>"},
                {"javascript:alert(1)#x", "Not a link"}};
  results.hits = {h};
  const std::string html = page_for(results);
  CHECK(contains(html, ">Input and Output</a></h2>"));
  CHECK_FALSE(contains(html, "Python 3.11 documentation</a>"));
  CHECK(contains(html, "<a href=\"http://localhost/tutorial/io.html#reading-and-writing-files\">Reading and Writing &lt;Files&gt;</a>"));
  CHECK_FALSE(contains(html, "href=\"javascript:"));
  CHECK(contains(html, "Not a link"));
}

TEST_CASE("filters: each facet value a link narrowing the search, a picked one with a link dropping it") {
  SearchResults results;
  results.query = "open";
  results.estimated_matches = 3;
  results.hits = {hit(1, "http://localhost/library/os.html", "os")};
  results.facets = {{canon::index_format::Facet::kSection, {{"library", 2}, {"tutorial", 1}}},
                    {canon::index_format::Facet::kRelease, {{"3.11", 3}, {"<3.12>", 1}}}};
  SearchPage page;
  page.query = "open";
  page.results = &results;
  page.filters = {{canon::index_format::Facet::kRelease, "3.11"}};
  const std::string html = canon::web::render_search_page(page);
  CHECK(contains(html, "<a href=\"/search?q=open&amp;release=3.11&amp;section=library\">library</a> <span class=\"n\">2</span>"));
  CHECK(contains(html, "<strong>3.11</strong> <a class=\"drop\" href=\"/search?q=open\""));
  CHECK(contains(html, "&lt;3.12&gt;</a>"));  // values are escaped
  CHECK(canon::web::search_page_url("x", 10, false, page.filters) == "/search?q=x&offset=10&release=3.11");
}
