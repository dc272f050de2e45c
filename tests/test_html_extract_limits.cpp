/// @file test_html_extract_limits.cpp
/// @brief extract_page and check_page_bytes on what is not a clean page: broken markup, tag
/// soup, bytes that are empty or binary, and the page limits.
#include <doctest/doctest.h>

#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "html/html_extract.h"
#include "support/html_extract_cases.h"

using canon::html::check_page_bytes;
using canon::html::extract_page;
using canon::html::ExtractedPage;
using canon::testing::kPageUrl;
using canon::testing::TextCase;
using namespace std::string_literals;

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
