/// @file test_html_extract.cpp
/// @brief extract_page: the title, the main heading, headings and sections, and the main text
/// (content root, chrome, word boundaries, warnings); one table row per behaviour.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "html/html_extract.h"
#include "support/html_extract_cases.h"

using canon::html::extract_page;
using canon::html::ExtractedPage;
using canon::testing::kPageUrl;
using canon::testing::TextCase;

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
