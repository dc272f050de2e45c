/// @file test_html_extract.cpp
/// @brief extract_page and check_page_bytes: one table row per behaviour.
#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "html/html_extract.h"

using canon::html::check_page_bytes;
using canon::html::extract_page;
using canon::html::ExtractedPage;
using namespace std::string_literals;

namespace {

constexpr const char* kPageUrl = "http://example.com/dir/page.html";

/// Row for one string field of the extracted page.
struct TextCase {
  std::string comment;
  std::string html;
  std::string expected;
};

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

TEST_CASE("title: <title> text, else the first heading of the main content") {
  const TextCase cases[] = {
      {"plain", "<title>Hello</title><p>x", "Hello"},
      {"entities decoded", "<title>Fish &amp; Chips &lt;3 caf&eacute; &#x263A;</title>",
       "Fish & Chips <3 caf\u00e9 \u263a"},
      {"whitespace collapsed", "<title>\n   Two \t words\n  </title>", "Two words"},
      {"markup inside title is text (RCDATA)", "<title>a <b>c</b></title>", "a <b>c</b>"},
      {"first title wins", "<title>One</title><title>Two</title>", "One"},
      {"UTF-8 BOM ignored", "\xEF\xBB\xBF<title>T</title>", "T"},
      {"missing: first heading", "<body><p>x</p><h2>First</h2><h1>Second</h1>", "First"},
      {"blank title: first heading", "<title>  </title><h3>H</h3>", "H"},
      {"missing: heading of main content, not of nav",
       "<nav><h2>Menu</h2></nav><main><h1>Real</h1></main>", "Real"},
      {"heading text collapsed", "<h1>  Big\n<em>News</em> </h1>", "Big News"},
      // Browsers' document.title only reads an HTML-namespace <title>.
      {"an inline SVG's <title> is not the page title",
       "<body><svg><title>icon</title></svg><h1>Head</h1></body>", "Head"},
      {"no title, no heading", "<p>just text</p>", ""},
  };
  for (const TextCase& c : cases) {
    INFO(c.comment);
    CHECK(extract_page(c.html, kPageUrl).title == c.expected);
  }
}

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

TEST_CASE("main_heading: the name a reader sees on the page") {
  struct Case {
    std::string comment;
    std::string html;
    std::string expected;
  };
  const Case cases[] = {
      {"the main content's first h1", "<h2>Intro</h2><main><h2>A</h2><h1>Main</h1><h1>Second</h1></main>", "Main"},
      {"an h1 in a banner when the main content has none",
       "<header><h1>Page name</h1></header><main><h2>Section</h2></main>", "Page name"},
      // Doxygen: the page's name is a <div class="title"> inside the banner-like div.header.
      {"a class=\"title\" element when there is no h1",
       "<div class=\"header\"><div class=\"headertitle\"><div class=\"title\">std::vector&lt; _Tp &gt; "
       "Member List</div></div></div><div class=\"contents\"><h2>Members</h2></div>",
       "std::vector< _Tp > Member List"},
      {"a class ending in -title", "<p class=\"lead page-title\">Named</p><h2>Sec</h2>", "Named"},
      {"role=heading aria-level=1", "<div role=\"heading\" aria-level=\"1\">Aria</div><h2>Sec</h2>", "Aria"},
      {"role=heading of another level is not the page's name",
       "<div role=\"heading\" aria-level=\"2\">Sub</div><h3>Third</h3>", "Third"},
      {"not from navigation or hidden text",
       "<nav><h1>Menu</h1><div class=\"title\">Nav title</div></nav><div hidden><h1>H</h1></div><h2>Body</h2>",
       "Body"},
      {"a class containing 'title' as part of a word does not count",
       "<div class=\"subtitles\">x</div><h3>Third</h3>", "Third"},
      {"the first heading of any level when nothing names the page", "<h3>c</h3><h2>b</h2>", "c"},
      {"none", "<p>x</p>", ""},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    CHECK(extract_page(c.html, kPageUrl).main_heading == c.expected);
  }
}

TEST_CASE("headings h1-h6 of the main content, in document order") {
  struct Case {
    std::string comment;
    std::string html;
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      {"all six levels in order",
       "<h3>c</h3><h1>a</h1><h2>b</h2><h4>d</h4><h5>e</h5><h6>f</h6>",
       {"c", "a", "b", "d", "e", "f"}},
      {"inline markup inside", "<h1>Hello <em>big</em> World</h1>", {"Hello big World"}},
      {"empty heading skipped", "<h1> </h1><h2>x</h2>", {"x"}},
      {"only <main>'s headings", "<h1>Site</h1><main><h2>A</h2><h3>B</h3></main><h2>After</h2>",
       {"A", "B"}},
      {"only <article>'s headings without <main>", "<h1>Site</h1><article><h2>Art</h2></article>",
       {"Art"}},
      {"chrome's headings left out",
       "<header><h1>Banner</h1></header><nav><h2>Menu</h2></nav><h1>Body</h1>"
       "<aside><h3>Side</h3></aside><footer><h4>Foot</h4></footer>",
       {"Body"}},
      {"header inside <main> kept, nav inside <main> not",
       "<main><header><h1>Title</h1></header><nav><h2>Toc</h2></nav><h2>Sec</h2></main>",
       {"Title", "Sec"}},
      {"hidden and template headings left out",
       "<div hidden><h1>H</h1></div><template><h1>T</h1></template><h2>V</h2>", {"V"}},
      {"no headings", "<p>x</p>", {}},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    CHECK(extract_page(c.html, kPageUrl).headings == c.expected);
  }
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

TEST_CASE("sections: each heading's anchor, text and place in the main text (table)") {
  struct Case {
    std::string comment;
    std::string html;
    /// "anchor|heading" per section, in order.
    std::vector<std::string> expected;
  };
  const Case cases[] = {
      {"the heading's own id", "<h2 id=\"intro\">Intro</h2><p>text</p>", {"intro|Intro"}},
      {"an id inside the heading (MediaWiki)",
       "<h2><span class=\"mw-headline\" id=\"Member_functions\">Member functions</span></h2><p>x</p>",
       {"Member_functions|Member functions"}},
      {"the enclosing section's, with Sphinx's permalink sign left out of the text",
       "<section id=\"reading-and-writing-files\"><h2>Reading and Writing Files"
       "<a class=\"headerlink\" href=\"#reading-and-writing-files\">\xC2\xB6</a></h2><p>x</p></section>",
       {"reading-and-writing-files|Reading and Writing Files"}},
      {"an enclosing element holding an earlier heading is not the second one's anchor",
       "<div id=\"content\"><h1>Page</h1><p>x</p><h2>Later</h2><p>y</p></div>", {"content|Page", "|Later"}},
      {"nested sections: each heading the first in its own",
       "<section id=\"a\"><h1>A</h1><p>x</p><section id=\"b\"><h2>B</h2><p>y</p></section></section>",
       {"a|A", "b|B"}},
      {"rustdoc's member section, a source link before the heading",
       "<main><section id=\"method.push\" class=\"method\"><a class=\"src\" href=\"../src/x.rs\">source</a>"
       "<h4 class=\"code-header\">pub fn <a href=\"#method.push\" class=\"fn\">push</a>(&amp;mut self, value: T)</h4>"
       "</section></main>",
       {"method.push|pub fn push(&mut self, value: T)"}},
      {"an anchor right before the heading (Doxygen)",
       "<p>before</p><a id=\"a3f2\"></a><h2 class=\"memtitle\">push_back()</h2><p>x</p>", {"a3f2|push_back()"}},
      {"text between the anchor and the heading: not its anchor",
       "<a name=\"old\"></a><p>words</p><h2>Next</h2>", {"|Next"}},
      {"a defined term with an id (Sphinx's API entries)",
       "<dl><dt id=\"os.makedirs\">os.makedirs(name)\xC2\xB6</dt><dd>Make dirs.</dd></dl>",
       {"os.makedirs|os.makedirs(name)"}},
      {"a <dt> without id is no section", "<dl><dt>Parameters</dt><dd>x</dd></dl>", {}},
      {"headings in navigation are not the main text's", "<nav><h2 id=\"menu\">Menu</h2></nav><h2 id=\"x\">X</h2>",
       {"x|X"}},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    const ExtractedPage page = extract_page("<body>" + c.html + "</body>", kPageUrl);
    std::vector<std::string> found;
    for (const canon::html::PageSection& section : page.sections) {
      found.push_back(section.anchor + "|" + section.heading);
      // The offsets locate the heading's text in the main text.
      CHECK(section.text_begin <= section.text_end);
      CHECK(section.text_end <= page.main_text.size() + 1);
      CHECK(page.main_text.substr(section.text_begin).find(section.heading) <= 1);
    }
    CHECK(found == c.expected);
  }
}

TEST_CASE("main text: content root, chrome and hidden text, word boundaries") {
  const TextCase cases[] = {
      // Choosing the content root.
      {"<main> preferred", "<p>outside</p><main><p>inside</p></main><p>after</p>", "inside"},
      {"<main> preferred over <article>", "<article>art</article><main>m</main>", "m"},
      {"role=main", R"(<div>x</div><div role="main">y</div>)", "y"},
      {"role=main, any case", R"(<div>x</div><div ROLE="Main">y</div>)", "y"},
      {"<article> without <main>", "<div>x</div><article>a</article><p>z</p>", "a"},
      {"several articles, in order", "<article>one</article><p>x</p><article>two</article>",
       "one two"},
      {"body minus nav/header/footer/aside",
       "<header>H</header><nav>N</nav><p>body</p><aside>A</aside><footer>F</footer>", "body"},
      {"ARIA chrome roles", R"(<div role="navigation">N</div><div role="banner">B</div>)"
                            R"(<p>t</p><div role="complementary">C</div>)"
                            R"(<div role="contentinfo">I</div>)",
       "t"},
      {"header/footer inside <main> kept, nav/aside not",
       "<main><header>Title</header><nav>toc</nav><p>t</p><aside>s</aside><footer>end</footer>"
       "</main>",
       "Title t end"},
      {"head content is not text", "<title>T</title><meta name=x content=y><p>body</p>", "body"},
      // Chrome named by class or id (generators without <nav>/<header>/<footer>).
      // Regression: DocBook's navigation header and footer name the neighbouring pages, which
      // made postgres reference pages (sql-droptsconfig ~ sql-droptsdictionary) look alike.
      {"DocBook navheader/navfooter",
       R"(<div class="navheader"><a href=p>Prev</a> DROP TEXT SEARCH</div>)"
       R"(<div class="refentry"><p>remove a configuration</p></div>)"
       R"(<div class="navfooter"><a href=n>Next</a></div>)",
       "remove a configuration"},
      {"Sphinx related bar and sphinxsidebar (no role)",
       R"(<div class="related">index modules</div><div class="body">text</div>)"
       R"(<div class="sphinxsidebar">Table of Contents</div>)",
       "text"},
      {"camelCase and id: Javadoc topNav, id=breadcrumbs, main-menu",
       R"(<div class="topNav">T</div><ul id="breadcrumbs"><li>B</li></ul>)"
       R"(<div class="main-menu">M</div><p>t</p>)",
       "t"},
      {"one matching word among several classes", R"(<div class="x navbar-dark y">N</div><p>t</p>)",
       "t"},
      {"banner words outside main content", R"(<div id="header">H</div><p>t</p><div class="site_footer">F</div>)",
       "t"},
      {"banner words inside main content are the article's",
       R"(<main><div class="header">Title</div><p>t</p><div class="nav">toc</div></main>)",
       "Title t"},
      {"whole words only: unavailable, canvas, subheader are content",
       R"(<div class="unavailable">u</div><div class="canvas">c</div><div id="subheader-x">s</div>)",
       "u c s"},
      {"a class on <body> never hides the page", R"(<body class="navbar-fixed"><p>t</p></body>)",
       "t"},
      // Never text.
      {"script/style/noscript/template",
       "<p>a</p><script>var x = 1;</script><style>p{}</style><noscript>ns</noscript>"
       "<template><p>tpl</p></template><p>b</p>",
       "a b"},
      {"script inside <main>", "<main>a<script>x()</script>b</main>", "ab"},
      {"hidden attribute", "<p>a</p><div hidden>secret</div><p>b <span hidden>x</span>c</p>",
       "a b c"},
      {"comments are not text", "<p>a<!-- note -->b</p>", "ab"},
      // Word boundaries.
      {"inline elements don't split words", "<p><b>wa</b>ter</p>", "water"},
      {"more inline elements", "<p>w<span>a</span><em>t</em><a href=x>e</a><code>r</code></p>",
       "water"},
      {"paragraphs split words", "<p>a</p><p>b</p>", "a b"},
      {"divs split words", "<div>a</div><div>b</div>", "a b"},
      {"<br> splits words", "a<br>b", "a b"},
      {"list items split words", "<ul><li>a</li><li>b</li></ul>", "a b"},
      {"table cells split words", "<table><tr><td>a</td><td>b</td></tr></table>", "a b"},
      {"headings split words", "<h1>a</h1>b", "a b"},
      {"whitespace collapsed and trimmed", "<p>\n  a \t\n\n b  </p>\n", "a b"},
      {"entities decoded", "<p>Fish &amp; chips &lt;3</p>", "Fish & chips <3"},
      {"UTF-8 passes through", "<p>caf\u00e9 \u65e5\u672c</p>", "caf\u00e9 \u65e5\u672c"},
      {"empty body", "<html><body></body></html>", ""},
  };
  for (const TextCase& c : cases) {
    INFO(c.comment);
    CHECK(extract_page(c.html, kPageUrl).main_text == c.expected);
  }
}

namespace {

/// Prose of a documentation page: the sentences a reader came for.
const std::string kIntro =
    "<p>The archive command stores every file of a directory tree in one compressed bundle, keeping "
    "permissions, owners and modification times so that a restore gives back the tree as it was.</p>";
const std::string kDetails =
    "<p>Large trees are split into chunks of at most sixty-four mebibytes, and each chunk is checked "
    "with a cyclic redundancy code before it is written, so that a damaged medium is noticed at once.</p>"
    "<p>Pass the verbose flag to list every file as it is stored, or the quiet flag to print nothing "
    "but errors, which suits scheduled jobs run by the system.</p>";
/// A site's navigation: links and a label or two.
const std::string kNavLinks =
    "<a href=/>Home</a> <a href=/docs/>Documentation</a> <a href=/news/>News</a> "
    "<a href=/download/>Download</a> <a href=/about/>About</a> Search:";

/// Row for a malformed or unusual template: what the main text must hold, and not hold.
struct TemplateCase {
  std::string comment;
  std::string html;
  std::vector<std::string> kept;
  std::vector<std::string> dropped;
};

}  // namespace

TEST_CASE("main text: chrome left open around the content is content; real chrome still goes (table)") {
  const TemplateCase cases[] = {
      // The template mistake that hid a whole site's text: the banner's divs never closed, so
      // the parser nests the page inside the banner.
      {"an unclosed banner before the content",
       R"(<div class="header"><div class="logo">Acme Tools</div><div class="links">)" + kNavLinks +
           R"(<div class="content"><h1>Archiving files</h1>)" + kIntro + kDetails + "</div>",
       {"Archiving files", "compressed bundle", "cyclic redundancy code", "scheduled jobs"},
       {}},
      {"an unclosed navigation bar before the content",
       R"(<div class="navbar">)" + kNavLinks + "<h1>Archiving files</h1>" + kIntro + kDetails,
       {"Archiving files", "compressed bundle", "scheduled jobs"},
       {}},
      {"an unclosed <nav> element before the content",
       "<nav>" + kNavLinks + "<div><h1>Archiving files</h1>" + kIntro + kDetails,
       {"compressed bundle", "scheduled jobs"},
       {}},
      {"the content inside the page's <header>",
       "<header><h1>Archiving files</h1>" + kIntro + kDetails + "</header><footer>Copyright Acme</footer>",
       {"Archiving files", "compressed bundle", "scheduled jobs"},
       {"Copyright Acme"}},
      {"a footer opened early: the last section inside it",
       R"(<nav>)" + kNavLinks + R"(</nav><div class="body"><h1>Archiving files</h1>)" + kIntro +
           R"(<div class="footer"><h2>Options</h2>)" + kDetails + "<p>Copyright Acme</p></div></div>",
       {"compressed bundle", "Options", "cyclic redundancy code", "scheduled jobs"},
       {"Documentation"}},
      {"a layout table: banner row, navigation cell, content cell",
       R"(<table><tr><td id="header" colspan="2">Acme Tools</td></tr><tr><td class="navmenu">)" + kNavLinks +
           "</td><td><h1>Archiving files</h1>" + kIntro + kDetails + "</td></tr></table>",
       {"Archiving files", "compressed bundle", "scheduled jobs"},
       {"Acme Tools", "Documentation"}},
      {"a layout table inside an unclosed banner cell",
       R"(<table><tr><td class="masthead">Acme Tools <table><tr><td>)" + kNavLinks +
           "<h1>Archiving files</h1>" + kIntro + kDetails,
       {"Archiving files", "compressed bundle", "scheduled jobs"},
       {}},
      {"role=banner left open around the content",
       R"(<div role="banner"><span>Acme Tools</span><div><h1>Archiving files</h1>)" + kIntro + kDetails,
       {"compressed bundle", "scheduled jobs"},
       {}},
      {"role=navigation and role=complementary holding the content",
       R"(<div role="navigation">)" + kNavLinks + R"(<div role="complementary"><h1>Archiving files</h1>)" +
           kIntro + kDetails,
       {"compressed bundle", "scheduled jobs"},
       {}},
      {"chrome nested inside kept chrome is judged again",
       R"(<div class="header"><div class="sidebar">)" + kNavLinks + R"(</div><h1>Archiving files</h1>)" + kIntro +
           kDetails,
       {"compressed bundle", "scheduled jobs"},
       {"Documentation"}},
      // Regression (python3.11-doc's IDLE page): Sphinx names a section by its heading's slug;
      // "editing-and-navigation" is a subject, not a navigation bar.
      {"a section whose id is its heading's slug",
       "<h1>Archiving files</h1>" + kIntro + kDetails + kDetails + kDetails +
           R"(<section id="file-menu-and-navigation"><h2>File menu and navigation</h2><p>Open a file.</p></section>)",
       {"File menu and navigation", "Open a file."},
       {}},
      {"an id that is not its heading's slug still names chrome",
       "<h1>Archiving files</h1>" + kIntro + kDetails +
           R"(<div id="file-menu"><h2>Files</h2><p>Open a file.</p></div>)",
       {"compressed bundle"},
       {"Open a file."}},
      {"a menu table of labels, holding most of a short page's words, is still navigation",
       R"(<table class="navmenu"><tr><td>Readable</td><td>Writable</td><td>Sentinel</td></tr>)"
       R"(<tr><td>Iterator concepts</td><td>Range concepts</td><td>Sortable</td><td>Mergeable</td></tr>)"
       R"(<tr><td>Indirectly movable storable</td><td>Permutable</td></tr></table><h1>BidirectionalRange</h1>)" +
           kIntro,
       {"compressed bundle"},
       {"Readable", "Permutable"}},
      // Real chrome: links and labels, or far less prose than the page, still goes.
      {"a sidebar of links beside the content",
       R"(<div class="sidebar"><h3>Contents</h3>)" + kNavLinks + kNavLinks + R"(</div><h1>Archiving files</h1>)" +
           kIntro + kDetails,
       {"compressed bundle"},
       {"Documentation", "Contents"}},
      {"a footer with a long copyright line",
       "<h1>Archiving files</h1>" + kIntro + kDetails +
           "<footer><p>Copyright 2024 Acme Tools and contributors. Licensed under the Apache License, version "
           "2.0; documentation under Creative Commons Attribution 4.0. Built with the site generator.</p></footer>",
       {"compressed bundle", "scheduled jobs"},
       {"Copyright", "Creative Commons"}},
      {"an aside with a heading and under a quarter of the prose",
       "<h1>Archiving files</h1>" + kIntro + kDetails + kDetails + kDetails +
           "<aside><h2>Related</h2><p>Restoring an archive takes the bundle and writes the tree back where "
           "it was, or below a directory you name. Listing an archive prints the files it holds with their "
           "sizes and times, without writing any of them to the disk.</p></aside>",
       {"compressed bundle", "scheduled jobs"},
       {"Related", "Restoring an archive"}},
      {"a banner with the site's name as its <h1>",
       R"(<header><h1>Acme Tools</h1><p>Backups that work</p></header><div><h2>Archiving files</h2>)" + kIntro +
           kDetails + "</div>",
       {"compressed bundle", "scheduled jobs"},
       {"Acme Tools", "Backups that work"}},
  };
  for (const TemplateCase& c : cases) {
    INFO(c.comment);
    const ExtractedPage page = extract_page("<html><body>" + c.html + "</body></html>", kPageUrl);
    for (const std::string& text : c.kept) CHECK_MESSAGE(page.main_text.find(text) != std::string::npos, text);
    for (const std::string& text : c.dropped) CHECK_MESSAGE(page.main_text.find(text) == std::string::npos, text);
    CHECK(page.warnings.empty());
  }
}

TEST_CASE("warnings: a page whose main text holds far less prose than it shows") {
  // The main content is a short note; four sidebars around it hold the prose.
  const std::string box = R"(<div class="sidebar">)" + kIntro + kDetails + "</div>";
  const ExtractedPage hidden = extract_page("<body>" + box + box + box + box + "<main><p>Only this short note.</p></main></body>", kPageUrl);
  CHECK(hidden.main_text == "Only this short note.");
  REQUIRE(hidden.warnings.size() == 1);
  CHECK(hidden.warnings[0].starts_with("main text: 18 of the "));  // its four words, spaces not counted

  const ExtractedPage plain = extract_page("<body><nav>" + kNavLinks + "</nav><main>" + kIntro + kDetails + "</main></body>", kPageUrl);
  CHECK(plain.warnings.empty());
  // Too little prose to judge.
  CHECK(extract_page("<body><div class=sidebar>" + kIntro + "</div><p>x</p></body>", kPageUrl).warnings.empty());
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

TEST_CASE("broken markup never crashes and still yields text") {
  const TextCase cases[] = {
      {"unclosed <p>", "<p>one<p>two", "one two"},
      {"unclosed <li>", "<ul><li>a<li>b</ul>", "a b"},
      {"unclosed <div>", "<div><div>x", "x"},
      {"stray </div>", "</div>text</div></span>", "text"},
      {"unclosed comment", "<p>kept<!-- the rest is a comment <p>lost", "kept"},
      {"misnested inline", "<b><i>x</b></i>y", "xy"},
      {"unclosed table cells", "<table><tr><td>a<td>b</table>", "a b"},
      {"unclosed attribute quote", "<p>before</p><a href=\"x>y</a><p>after</p>", "before"},
      {"unterminated tag at the end", "<p>text</p><div", "text"},
      {"bare angle brackets", "a < b > c", "a < b > c"},
      {"no tags at all", "just text", "just text"},
      {"only a doctype", "<!DOCTYPE html>", ""},
      {"empty input", "", ""},
      {"lone '<'", "<", "<"},
      {"end tags only", "</p></p></body></html>", ""},
  };
  for (const TextCase& c : cases) {
    INFO(c.comment);
    CHECK(extract_page(c.html, kPageUrl).main_text == c.expected);
  }
}

TEST_CASE("random tag soup: no crash, text always collapsed and trimmed") {
  const std::string pieces[] = {
      "<p>", "</p>", "<div>", "</div>", "<main>", "</main>", "<nav>", "<article>", "<li>",
      "<table>", "<td>", "<script>", "</script>", "<!--", "-->", "<a href=\"x.html\">", "</a>",
      "<b>", "</i>", "<title>", "<h1>", "</h2>", "<template>", "<svg>", "<base href=\"/q/\">",
      "word", " ", "\n", "&amp;", "&", "<", ">", "\"", "'", "caf\u00e9", "<meta name=robots "
      "content=none>", "<meta http-equiv=refresh content=\"0;url=", "<link rel=canonical href="};
  std::mt19937 rng(42);
  for (int round = 0; round < 300; ++round) {
    std::string html;
    const int count = static_cast<int>(rng() % 40);
    for (int i = 0; i < count; ++i) html += pieces[rng() % std::size(pieces)];
    INFO("html: " << html);
    const ExtractedPage page = extract_page(html, kPageUrl);
    for (const std::string* text : {&page.main_text, &page.title}) {
      CHECK(text->find("  ") == std::string::npos);
      CHECK_FALSE(text->starts_with(' '));
      CHECK_FALSE(text->ends_with(' '));
    }
    for (const auto& link : page.links) CHECK(link.url.starts_with("http"));
  }
}

TEST_CASE("check_page_bytes") {
  struct Case {
    std::string comment;
    std::string bytes;
    /// "" = accepted; otherwise a word the error message must contain.
    const char* error_word;
  };
  const Case cases[] = {
      // Empty.
      {"empty", "", "empty"},
      {"whitespace only", " \t\r\n\f \n", "empty"},
      {"BOM only", "\xEF\xBB\xBF", "empty"},
      {"BOM and whitespace only", "\xEF\xBB\xBF \n", "empty"},
      // Binary.
      {"NUL byte", "<p>a</p>\0<p>b</p>"s, "NUL"},
      {"only a NUL byte", "\0"s, "NUL"},
      {"NUL checked before UTF-8", "\x80\0"s, "NUL"},
      // Accepted: not UTF-8 is for decode_page (html/page_encoding.h) to read.
      {"lone continuation byte", "ab\x80" "cd", ""},
      {"Latin-1 text", "caf\xE9 au lait", ""},
      {"UTF-16LE with its byte order mark: NUL bytes are its ASCII", "\xFF\xFE<\0p\0>\0"s, ""},
      {"UTF-16BE with its byte order mark", "\xFE\xFF\0<\0p\0>"s, ""},
      {"NUL bytes without a UTF-16 byte order mark", "<\0p\0>\0"s, "NUL"},
      {"ASCII page", "<html><body>hi</body></html>", ""},
      {"valid multibyte text", "h\u00e9llo \u65e5\u672c\u8a9e \U0001F600 \u20ac", ""},
      {"UTF-8 BOM then a page", "\xEF\xBB\xBF<p>x</p>", ""},
      {"a single non-space character", "x", ""},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    const canon::Status status = check_page_bytes(c.bytes);
    if (std::string(c.error_word).empty()) {
      CHECK_MESSAGE(status.ok(), status.message());
    } else {
      CHECK_FALSE(status.ok());
      CHECK_MESSAGE(status.message().find(c.error_word) != std::string::npos, status.message());
    }
  }
}

TEST_CASE("check_page_bytes: the message locates the bad byte") {
  CHECK(check_page_bytes("ab\0"s).message().find("offset 2") != std::string::npos);
}

TEST_CASE("page limits: what each one cuts, and the line it leaves in cuts (table)") {
  canon::html::PageLimits small;
  small.max_title_bytes = 8;
  small.max_attribute_bytes = 24;
  small.max_links = 2;
  small.max_nesting = 3;
  struct Row {
    const char* name;
    std::string html;
    std::vector<std::string> cuts;
  };
  const Row rows[] = {
      {"nothing to cut", "<title>Short</title><main><h1>Head</h1><p>text</p></main>", {}},
      {"title, at a character", "<title>caf\xC3\xA9 au lait</title>", {"title: 13 bytes, the first 8 kept"}},
      {"headings", "<main><h1>A long heading</h1><h2>short</h2><h2>another long one</h2></main>",
       // the title (the first heading, for want of a <title>), the main heading and two headings
       {"title: 14 bytes, the first 8 kept", "headings: 3 cut to 8 bytes"}},
      {"meta", "<meta name=description content='a description longer than the limit'>",
       {"meta: 1 cut to 24 bytes"}},
      {"long URLs, canonical included",
       "<link rel=canonical href='/a-canonical-url-that-is-too-long.html'><a href='/x'>x</a>"
       "<a href='/a-link-that-is-far-too-long-to-keep.html'>y</a>",
       {"urls: 2 longer than 24 bytes ignored"}},
      {"links past the limit", "<a href=/1>1</a><a href=/2>2</a><a href=/3>3</a>", {"links: 3, the first 2 followed"}},
      {"anchor texts", "<a href=/1>a long anchor text</a>", {"anchor texts: 1 cut to 8 bytes"}},
      {"ids", "<main><dl><dt id=short>a</dt><dt id=an-id-that-is-far-too-long-to-keep>b</dt></dl></main>",
       {"ids: 1 longer than 24 bytes ignored"}},
      {"nesting", "<div><div><div><div><div>deep</div></div></div></div></div>",
       {"nesting: elements 5 deep, 4 tags deeper than 3 removed"}},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const auto page = extract_page(row.html, "http://localhost/dir/page.html", small);
    CHECK(page.cuts == row.cuts);
  }
  const auto page = extract_page("<title>caf\xC3\xA9 au lait</title>", "http://localhost/", small);
  CHECK(page.title == "caf\xC3\xA9 au");  // 8 bytes end on a character
  const auto deep = extract_page("<div><div><div><div><div>deep</div></div></div></div></div>", "http://localhost/", small);
  CHECK(deep.main_text == "deep");
}
