/// @file test_main_text.cpp
/// @brief The one main-text walk (html::walk_main_text): the extractor's main text and
/// the places `canon synth` inserts words agree. Each row marks every word end synth finds
/// with " zzq" and extracts the copy: the marks stand after whole words of the extractor's
/// text, never inside one.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "eval/synth.h"
#include "html/html_extract.h"

namespace {

constexpr const char* kPageUrl = "http://example.com/page.html";
constexpr const char* kMark = "zzq";

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

/// `html` with " zzq" inserted at every word end canon synth finds.
std::string marked_copy(const std::string& html) {
  std::string out;
  std::size_t done = 0;
  for (const std::size_t at : canon::eval::main_text_word_ends(html)) {
    REQUIRE(at >= done);  // in document order
    out.append(html, done, at - done);
    out += std::string(" ") + kMark;
    done = at;
  }
  out.append(html, done, std::string::npos);
  return out;
}

std::string main_text(const std::string& html) {
  return canon::html::extract_page(html, kPageUrl).main_text;
}

}  // namespace

TEST_CASE("synth's word ends are the ends of the words the extractor indexes") {
  struct Row {
    const char* comment;
    std::string html;
    /// The copy's main text: the page's, with a mark after each word synth can edit.
    std::string marked;
  };
  const Row rows[] = {
      {"paragraphs", "<p>one two</p><p>three</p>", "one zzq two zzq three zzq"},
      {"inline elements do not end a word", "<p><b>wa</b>ter and <a href=x>more</a></p>",
       "water zzq and zzq more zzq"},
      {"white space between blocks", "<p>a</p>\n<p> b </p>", "a zzq b zzq"},
      {"comments are not text, and do not end a word", "<p>a<!-- c -->b</p>", "ab zzq"},
      {"entities: the end is after the reference", "<p>Fish &amp; chips</p>",
       "Fish zzq & zzq chips zzq"},
      // A reference that decodes to a space is inside a source word: one end, after it.
      {"a space written as a reference", "<p>a&#32;b c</p>", "a b zzq c zzq"},
      {"script and style", "<p>a</p><script>var x;</script><style>p{}</style><p>b</p>",
       "a zzq b zzq"},
      {"script inside a word", "<main>a<script>x()</script>b</main>", "ab zzq"},
      {"nav, template, header and footer outside the main content",
       "<nav>menu</nav><template><p>tpl</p></template><header>H</header><p>body text</p>"
       "<footer>F</footer>",
       "body zzq text zzq"},
      {"chrome named by class", R"(<div class="sidebar">s</div><p>t</p>)", "t zzq"},
      {"hidden text", "<p>a <span hidden>x</span>b</p>", "a zzq b zzq"},
      {"<main> preferred", "<p>outside</p><main><p>in side</p></main>", "in zzq side zzq"},
      {"nested main: the outermost", "<main><p>x</p><div role=main><p>y</p></div></main><p>o</p>",
       "x zzq y zzq"},
      {"article", "<p>x</p><article><header>h</header><p>a</p></article>", "h zzq a zzq"},
      // Regression: synth ended a word between roots, the extractor joins inline roots.
      {"inline main roots are not separated",
       R"(<p><span role="main">a</span><span role="main">b</span></p>)", "ab zzq"},
      // Regression: synth ended a word at a CDATA section, which the extractor reads as text
      // (here joined to the word before it by the inline SVG <a>).
      {"CDATA joined to a word", "<p>x</p><svg><text><a>y</a><![CDATA[z w]]></text></svg>",
       "x zzq yz w"},
      {"CDATA on its own is read, not edited", "<p>a</p><svg><![CDATA[only this]]></svg><p>b</p>",
       "a zzq only this b zzq"},
      {"text and CDATA in one node", "<p>a</p><svg><text>x<![CDATA[b c]]>y</text></svg>",
       "a zzq xb cy"},
      {"an empty CDATA section joins its neighbours",
       "<svg><text><a>x</a><![CDATA[]]><a>y</a></text></svg>", "xy zzq"},
      // Regression: a '<' that is text made synth end the word before it, inside "xy".
      {"a literal '<' in the text", "<p><b>x</b>y < z</p>", "xy < z"},
      {"a literal '<' after a space", "<p><b>x</b> y < z</p>", "x zzq y < z"},
  };
  for (const Row& row : rows) {
    INFO(row.comment);
    const std::string copy = main_text(marked_copy(row.html));
    CHECK(copy == row.marked);
    // Without the marks, the copy's words are the page's: no word split or joined.
    std::vector<std::string> unmarked;
    for (const std::string& word : words_of(copy)) {
      if (word != kMark) unmarked.push_back(word);
    }
    CHECK(unmarked == words_of(main_text(row.html)));
  }
}
