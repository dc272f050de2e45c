/// @file test_html_extract_links_meta.cpp
/// @brief extract_page's links and metadata: links, their targets, cited places, breadcrumbs,
/// definition ids, meta description, keywords and robots, rel=canonical and meta refresh.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "html/html_extract.h"
#include "support/html_extract_cases.h"

using canon::html::extract_page;
using canon::html::ExtractedPage;
using canon::testing::kPageUrl;

namespace {

/// Row for an optional URL field (canonical, refresh).
struct UrlCase {
  std::string comment;
  std::string html;
  std::optional<std::string> expected;
};

std::string show(const std::optional<std::string>& value) {
  return value ? "'" + *value + "'" : "(none)";
}

}  // namespace

TEST_CASE("meta description and keywords") {
  struct Case {
    std::string comment;
    std::string html;
    std::string description;
    std::string keywords;
  };
  const Case cases[] = {
      {"both",
       R"(<meta name="description" content="About us"><meta name="keywords" content="a, b">)",
       "About us", "a, b"},
      {"name is case-insensitive",
       R"(<meta NAME="Description" content="D"><meta name="KEYWORDS" content="K">)", "D", "K"},
      {"entities decoded, whitespace collapsed",
       "<meta name=\"description\" content=\"  Tom &amp;\n  Jerry  \">", "Tom & Jerry", ""},
      {"no content attribute", R"(<meta name="description">)", "", ""},
      {"other names ignored", R"(<meta property="og:description" content="og">)", "", ""},
      {"none", "<p>x</p>", "", ""},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    const ExtractedPage page = extract_page(c.html, kPageUrl);
    CHECK(page.meta_description == c.description);
    CHECK(page.meta_keywords == c.keywords);
  }
}

TEST_CASE("meta robots") {
  struct Case {
    std::string comment;
    std::string content;
    bool noindex;
    bool nofollow;
  };
  const Case cases[] = {
      {"noindex", "noindex", true, false},
      {"nofollow", "nofollow", false, true},
      {"none = noindex, nofollow", "none", true, true},
      {"upper case, with follow", "NOINDEX, follow", true, false},
      {"both, no space", "noindex,nofollow", true, true},
      {"padded tokens", "  nofollow ,  noindex  ", true, true},
      {"index, follow", "index, follow", false, false},
      {"all", "all", false, false},
      {"not a token match", "noindexing, nofollowers", false, false},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    const ExtractedPage page =
        extract_page("<meta name=\"robots\" content=\"" + c.content + "\"><p>x", kPageUrl);
    CHECK(page.robots_noindex == c.noindex);
    CHECK(page.robots_nofollow == c.nofollow);
  }
}

TEST_CASE("meta robots: absent means indexed and followed; the name is case-insensitive") {
  const ExtractedPage plain = extract_page("<p>x</p>", kPageUrl);
  CHECK_FALSE(plain.robots_noindex);
  CHECK_FALSE(plain.robots_nofollow);
  const ExtractedPage upper = extract_page(R"(<meta name="ROBOTS" content="NoFollow">)", kPageUrl);
  CHECK_FALSE(upper.robots_noindex);
  CHECK(upper.robots_nofollow);
}

TEST_CASE("main link targets: the href of each <a> of the main content, as written, in document order") {
  struct Case {
    std::string comment;
    std::string html;
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      {"a module's items and a place in the page",
       "<main><a href=\"struct.Context.html\">Context</a> <a href=\"#method.map\">map</a></main>",
       {"struct.Context.html", "#method.map"}},
      {"only the main content's: navigation left out",
       "<nav><a href=\"/docs/\">Docs</a></nav><main><a href=\"trait.Wake.html\">Wake</a></main>", {"trait.Wake.html"}},
      {"an <a> without href, or with an empty one, left out", "<main><a name=\"x\">x</a><a href=\"\">y</a></main>", {}},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    CHECK(extract_page(c.html, kPageUrl).main_link_targets == c.expected);
  }
}

TEST_CASE("cited place: the main content's first link to a place in another page, resolved (table)") {
  struct Case {
    std::string comment;
    std::string html;
    std::string expected;
  };
  const Case cases[] = {
      {"a source line: resolved against the page, the fragment kept",
       "<main><a href=\"index.html\">core</a> <a class=\"srclink\" href=\"../src/cmp.rs.html#10-20\">source</a> "
       "<a href=\"../src/cmp.rs.html#40\">impl</a></main>",
       "http://example.com/src/cmp.rs.html#10-20"},
      {"places in the page itself, by fragment or by the page's own address, are not another page's",
       "<main><a href=\"#method.map\">map</a> <a href=\"page.html#x\">x</a> "
       "<a href=\"http://example.com/dir/page.html#y\">y</a> <a href=\"other.html#z\">z</a></main>",
       "http://example.com/dir/other.html#z"},
      {"links without a place, or with an empty fragment, cite none",
       "<main><a href=\"other.html\">o</a> <a href=\"other.html#\">e</a></main>", ""},
      {"only the main content's: navigation left out",
       "<nav><a href=\"/guide.html#start\">Start</a></nav><main><a href=\"def.html#l3\">d</a></main>",
       "http://example.com/dir/def.html#l3"},
      {"<base href> resolves it", "<head><base href=\"http://example.com/api/\"></head><main><a href=\"f.html#a\">f</a></main>",
       "http://example.com/api/f.html#a"},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    CHECK(extract_page(c.html, kPageUrl).cited_place == c.expected);
  }
}

TEST_CASE("breadcrumbs: the link texts of the first trail the markup names as one (table)") {
  using V = std::vector<std::string>;
  struct Case {
    const char* what;
    const char* html;
    V crumbs;
  };
  const Case cases[] = {
      {"aria-label, a list", R"(<nav aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li>)"
                             R"(<li><a href="/lib/">Library</a></li><li>Here</li></ol></nav>)",
       {"Home", "Library"}},
      {"a class naming a breadcrumb", R"(<div class="wy-breadcrumbs"><a href="/">Docs</a> » <a href="a/">API</a></div>)",
       {"Docs", "API"}},
      {"schema.org BreadcrumbList", R"(<ol itemscope itemtype="https://schema.org/BreadcrumbList">)"
                                    R"(<li><a href="/"><span>Top</span></a></li></ol>)",
       {"Top"}},
      {"the first trail only; empty links left out",
       R"(<ul class="breadcrumb"><a href="/"><img src="h.png"></a><a href="/x/"> X </a></ul>)"
       R"(<ul class="breadcrumb"><a href="/y/">Y</a></ul>)",
       {"X"}},
      {"no trail", R"(<nav aria-label="Main"><a href="/">Home</a></nav>)", {}},
      {"a nofollow link beside the trail is no crumb",
       R"(<div aria-label="breadcrumbs navigation"><ul class="wy-breadcrumbs"><li><a href="../">Docs</a></li>)"
       R"(<li class="wy-breadcrumbs-aside"><a href="_sources/x.txt" rel="nofollow">View page source</a></li></ul></div>)",
       {"Docs"}},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(extract_page(c.html, kPageUrl).breadcrumbs == c.crumbs);
  }
  std::string many = "<nav aria-label=breadcrumb>";
  for (int i = 0; i < 20; ++i) many += "<a href=\"/" + std::to_string(i) + "\">c" + std::to_string(i) + "</a>";
  CHECK(extract_page(many + "</nav>", kPageUrl).breadcrumbs.size() == canon::html::kMaxBreadcrumbs);
}

TEST_CASE("definition ids: the id of each <dt> of the main content, in document order") {
  struct Case {
    std::string comment;
    std::string html;
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      {"Sphinx's API entries",
       "<dl><dt id=\"numba.transforms.MathMixin\">class MathMixin</dt><dd>x</dd>"
       "<dt id=\"numba.transforms.Foo\">class Foo</dt></dl>",
       {"numba.transforms.MathMixin", "numba.transforms.Foo"}},
      {"a <dt> without id, or with an empty one, left out", "<dl><dt>Parameters:</dt><dt id=\"\">x</dt></dl>", {}},
      {"only the main content's", "<nav><dl><dt id=\"menu\">m</dt></dl></nav><main><dl><dt id=\"a\">a</dt></dl></main>",
       {"a"}},
      {"ids of other elements are not definitions", "<h2 id=\"intro\">Intro</h2><dd id=\"d\">d</dd>", {}},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    CHECK(extract_page(c.html, kPageUrl).definition_ids == c.expected);
  }
}

TEST_CASE("links: resolved, filtered, with anchor text, nofollow and whether they name a place") {
  struct Link {
    std::string url;
    std::string anchor_text;
    bool nofollow = false;
    bool to_place = false;
  };
  struct Case {
    std::string comment;
    std::string html;
    std::vector<Link> expected;
  };
  const Case cases[] = {
      {"relative", R"(<a href="other.html">Other</a>)",
       {{"http://example.com/dir/other.html", "Other"}}},
      {"root-relative and parent", R"(<a href="/r.html">R</a><a href="../p.html">P</a>)",
       {{"http://example.com/r.html", "R"}, {"http://example.com/p.html", "P"}}},
      {"absolute, normalised", R"(<a href="HTTP://Other.ORG:80/x">X</a>)",
       {{"http://other.org/x", "X"}}},
      {"<base href> absolute",
       R"(<head><base href="http://cdn.example.org/base/"></head><a href="x.html">x</a>)",
       {{"http://cdn.example.org/base/x.html", "x"}}},
      {"<base href> relative to the page", R"(<base href="/sub/"><a href="x.html">x</a>)",
       {{"http://example.com/sub/x.html", "x"}}},
      {"first <base href> wins",
       R"(<base href="/one/"><base href="/two/"><a href="x.html">x</a>)",
       {{"http://example.com/one/x.html", "x"}}},
      {"<base> without href ignored", R"(<base target="_blank"><a href="x.html">x</a>)",
       {{"http://example.com/dir/x.html", "x"}}},
      {"fragment dropped; the link names a place", R"(<a href="other.html#sec">o</a>)",
       {{"http://example.com/dir/other.html", "o", false, true}}},
      {"fragment-only link is the page itself, at a place", R"(<a href="#top">Top</a>)",
       {{"http://example.com/dir/page.html", "Top", false, true}}},
      {"an empty fragment names no place", R"(<a href="other.html#">o</a>)",
       {{"http://example.com/dir/other.html", "o"}}},
      {"mailto, javascript, tel dropped",
       R"x(<a href="mailto:a@b.c">m</a><a href="javascript:void(0)">j</a><a href="tel:1">t</a>)x",
       {}},
      {"a without href ignored", R"(<a name="anchor">n</a><a>x</a>)", {}},
      {"anchor text collapsed, inline markup kept",
       "<a href=\"a.html\">  Read <b>more</b>\n now </a>",
       {{"http://example.com/dir/a.html", "Read more now"}}},
      {"anchor text entities", R"(<a href="a.html">R&amp;D</a>)",
       {{"http://example.com/dir/a.html", "R&D"}}},
      {"empty anchor text", R"(<a href="a.html"><img src="i.png"></a>)",
       {{"http://example.com/dir/a.html", ""}}},
      {"rel=nofollow", R"(<a rel="nofollow" href="a.html">a</a>)",
       {{"http://example.com/dir/a.html", "a", true}}},
      {"nofollow among rel tokens, any case", R"(<a rel="noopener NoFollow" href="a.html">a</a>)",
       {{"http://example.com/dir/a.html", "a", true}}},
      {"'nofollowed' is not nofollow", R"(<a rel="nofollowed" href="a.html">a</a>)",
       {{"http://example.com/dir/a.html", "a", false}}},
      {"area[href]", R"(<map name="m"><area href="m.html" alt="M"><area alt="no"></map>)",
       {{"http://example.com/dir/m.html", ""}}},
      {"whole page: nav and footer links, document order",
       R"(<nav><a href="n.html">N</a></nav><main><a href="m.html">M</a></main>)"
       R"(<footer><a href="f.html">F</a></footer>)",
       {{"http://example.com/dir/n.html", "N"},
        {"http://example.com/dir/m.html", "M"},
        {"http://example.com/dir/f.html", "F"}}},
      {"template links included", R"(<template><a href="t.html">T</a></template>)",
       {{"http://example.com/dir/t.html", "T"}}},
      {"spaces in href", R"(<a href="  my page.html ">s</a>)",
       {{"http://example.com/dir/my%20page.html", "s"}}},
      {"duplicates kept", R"(<a href="a.html">1</a><a href="a.html#x">2</a>)",
       {{"http://example.com/dir/a.html", "1"}, {"http://example.com/dir/a.html", "2", false, true}}},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    const ExtractedPage page = extract_page(c.html, kPageUrl);
    REQUIRE(page.links.size() == c.expected.size());
    for (std::size_t i = 0; i < c.expected.size(); ++i) {
      INFO("link #" << i);
      CHECK(page.links[i].url == c.expected[i].url);
      CHECK(page.links[i].anchor_text == c.expected[i].anchor_text);
      CHECK(page.links[i].nofollow == c.expected[i].nofollow);
      CHECK(page.links[i].to_place == c.expected[i].to_place);
    }
  }
}

TEST_CASE("link rel=canonical") {
  const UrlCase cases[] = {
      {"relative href", R"(<link rel="canonical" href="/c.html">)", "http://example.com/c.html"},
      {"absolute href normalised", R"(<link rel="canonical" href="HTTPS://Example.com/C#x">)",
       "https://example.com/C"},
      {"token list, any case", R"(<link rel="Canonical alternate" href="c.html">)",
       "http://example.com/dir/c.html"},
      {"resolved against <base href>", R"(<base href="/b/"><link rel="canonical" href="c.html">)",
       "http://example.com/b/c.html"},
      {"first one wins",
       R"(<link rel="canonical" href="/1.html"><link rel="canonical" href="/2.html">)",
       "http://example.com/1.html"},
      {"other rel", R"(<link rel="alternate" href="c.html">)", std::nullopt},
      {"not a whole token", R"(<link rel="canonicalish" href="c.html">)", std::nullopt},
      {"no href", R"(<link rel="canonical">)", std::nullopt},
      {"not http(s)", R"(<link rel="canonical" href="mailto:a@b.c">)", std::nullopt},
      {"none", "<p>x</p>", std::nullopt},
  };
  for (const UrlCase& c : cases) {
    INFO(c.comment);
    const auto got = extract_page(c.html, kPageUrl).canonical_url;
    CHECK_MESSAGE(got == c.expected, "got " << show(got) << ", expected " << show(c.expected));
  }
}

TEST_CASE("meta refresh") {
  struct Case {
    std::string comment;
    const char* page_url;
    std::string content;
    std::optional<std::string> expected;
  };
  const Case cases[] = {
      {"root-relative url=", kPageUrl, "0; url=/x.html", "http://example.com/x.html"},
      {"URL= upper case, quoted, no space", kPageUrl, "5;URL='x.html'",
       "http://example.com/dir/x.html"},
      {"double-quoted", kPageUrl, "5; url=&quot;y.html&quot;", "http://example.com/dir/y.html"},
      {"absolute", kPageUrl, "0;url=https://other.org/", "https://other.org/"},
      {"spaces around '='", kPageUrl, "3 ; url = z.html", "http://example.com/dir/z.html"},
      {"comma separator", kPageUrl, "0, url=z.html", "http://example.com/dir/z.html"},
      // HTML's "shared declarative refresh steps": the "url=" prefix is optional.
      {"URL without url= prefix", kPageUrl, "0; /plain.html", "http://example.com/plain.html"},
      {"'url' inside a bare URL", kPageUrl, "0; /curly.html", "http://example.com/curly.html"},
      {"delay only: no refresh target", kPageUrl, "5", std::nullopt},
      {"delay and separator only", kPageUrl, "5; ", std::nullopt},
      {"empty url=", kPageUrl, "0; url=", std::nullopt},
      {"to the page itself", kPageUrl, "0; url=page.html", std::nullopt},
      {"to the page itself with a fragment", kPageUrl, "0; url=#top", std::nullopt},
      {"index page to its directory", "http://example.com/dir/index.html", "0; url=./",
       std::nullopt},
      {"directory to its index page", "http://example.com/dir/", "0; url=index.html",
       std::nullopt},
      {"not http(s)", kPageUrl, "0; url=javascript:alert(1)", std::nullopt},
      {"no delay: not a refresh (as browsers)", kPageUrl, "url=/x.html", std::nullopt},
      {"junk after the delay: not a refresh", kPageUrl, "5x; url=/x.html", std::nullopt},
      {"fractional delay", kPageUrl, "1.5; url=/x.html", "http://example.com/x.html"},
  };
  for (const Case& c : cases) {
    INFO(c.comment << " [" << c.content << "]");
    const std::string html =
        "<meta http-equiv=\"refresh\" content=\"" + c.content + "\"><p>Moved</p>";
    const auto got = extract_page(html, c.page_url).refresh_url;
    CHECK_MESSAGE(got == c.expected, "got " << show(got) << ", expected " << show(c.expected));
  }
}

TEST_CASE("meta refresh: http-equiv is case-insensitive; none without the meta") {
  const auto page =
      extract_page(R"(<meta HTTP-EQUIV="Refresh" content="0; url=/r.html">)", kPageUrl);
  CHECK(page.refresh_url == std::optional<std::string>("http://example.com/r.html"));
  CHECK_FALSE(extract_page("<p>x</p>", kPageUrl).refresh_url.has_value());
}
