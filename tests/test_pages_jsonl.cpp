/// @file test_pages_jsonl.cpp
/// @brief pages.jsonl's encoder and decoder: round trips, the documented example lines, and
/// lines that are not canon's.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "indexer/records/pages_jsonl.h"
#include "support/canon_index.h"
#include "support/temp_dir.h"

using namespace canon::indexer;

TEST_CASE("encode_page_line then decode_page_line gives the page back") {
  PageLine duplicate;
  duplicate.path = "mirror/docs/install.html";
  duplicate.url = "http://localhost/mirror/docs/install.html";
  duplicate.status = PageStatus::kDuplicate;
  duplicate.title = "Installing — Larder";
  duplicate.heading = "Installing";
  duplicate.pagerank = 0.0049;
  duplicate.cluster = 8;
  duplicate.cluster_pagerank = 0.0253;
  duplicate.authoritative = "http://localhost/docs/install.html";
  duplicate.authority_reason = "original";
  duplicate.similarity = 1.0;
  duplicate.canonical = "http://localhost/docs/install.html";
  duplicate.indexed_for_query_time_collapse = true;
  PageLine skipped;
  skipped.path = "a b.html";
  skipped.reason = "empty file";
  PageLine redirect;
  redirect.path = "old.html";
  redirect.status = PageStatus::kRedirect;
  redirect.title = "";  // parsed, with an empty title: still written
  redirect.redirect_to = "http://localhost/new.html";
  PageLine warned = duplicate;
  warned.path = "chrome.html";
  warned.cut = {"links: 200000, the first 100000 followed"};
  warned.warnings = {"main text: 12 of the 9000 bytes of prose the page shows; the rest was taken for chrome"};
  for (const PageLine& page : {duplicate, skipped, redirect, warned}) {
    CAPTURE(page.path);
    const std::string line = encode_page_line(page);
    auto back = decode_page_line(line);
    REQUIRE(back.ok());
    CHECK(encode_page_line(back.value()) == line);
    CHECK(back->status == page.status);
    CHECK(back->title == page.title);
    CHECK(back->cluster == page.cluster);
    CHECK(back->similarity == page.similarity);
    CHECK(back->redirect_to == page.redirect_to);
    CHECK(back->indexed_for_query_time_collapse == page.indexed_for_query_time_collapse);
    CHECK(back->cut == page.cut);
    CHECK(back->warnings == page.warnings);
  }
  // Keys sorted, absent fields left out.
  CHECK(encode_page_line(skipped) == R"x({"path":"a b.html","reason":"empty file","status":"skipped","url":""})x");
}

TEST_CASE("decode_page_line: the example lines of docs/index-format.md, and lines that are not canon's") {
  struct Case {
    const char* line;
    const char* error;  // nullptr: decodes
  };
  const Case cases[] = {
      {R"x({"authoritative":"http://localhost/docs/install.html","authority_reason":"original","cluster":8,"cluster_pagerank":0.0253,"pagerank":0.0049,"path":"mirror/docs/install.html","similarity":1.0,"status":"duplicate","title":"Installing Larder — Larder","url":"http://localhost/mirror/docs/install.html"})x", nullptr},
      {R"x({"path":"old/download.html","redirect_to":"http://localhost/download.html","status":"redirect","title":"Moved — Larder","url":"http://localhost/old/download.html"})x", nullptr},
      {R"x({"path":"downloads/screenshot.html","reason":"binary content (NUL byte at offset 8)","status":"skipped","url":"http://localhost/downloads/screenshot.html"})x", nullptr},
      {R"x([1, 2])x", "not a JSON object"},
      {R"x({"path": "a.html")x", "not a JSON object"},
      {R"x({"status": "indexed"})x", "needs string \"path\" and \"status\""},
      {R"x({"path": "a.html", "status": 3})x", "needs string \"path\" and \"status\""},
      {R"x({"path": "a.html", "status": "hidden"})x", "unknown status \"hidden\""},
      {R"x({"path": "a.html", "status": "indexed", "cluster": 1})x", "an indexed page needs \"cluster\" and \"authoritative\""},
      {R"x({"path": "a.html", "status": "duplicate", "authoritative": "x", "cluster": -1})x", "a duplicate page needs"},
  };
  for (const Case& c : cases) {
    const std::string line = c.line;
    CAPTURE(line);
    const auto page = decode_page_line(line);
    if (c.error == nullptr) {
      CHECK(page.ok());
    } else {
      REQUIRE_FALSE(page.ok());
      const std::string message = page.status().message();
      CAPTURE(message);
      CHECK(message.find(c.error) != std::string::npos);
    }
  }
}

TEST_CASE("read_page_lines: every line, or the file and line that is wrong") {
  canon::testing::TempDir dir;
  CHECK(read_page_lines(dir.path()).status().message().find("is not a canon index (no xapian/ inside)") != std::string::npos);
  canon::testing::make_empty_canon_index(dir.path());
  CHECK(read_page_lines(dir.path()).status().message().find("has no pages.jsonl") != std::string::npos);
  std::ofstream(dir.path() / "pages.jsonl") << R"x({"path":"a.html","status":"skipped","url":""})x" "\n\n"
                                            << R"x({"path":"b.html","status":"skipped","url":""})x" "\n";
  auto pages = read_page_lines(dir.path());
  REQUIRE(pages.ok());
  CHECK(pages->size() == 2);
  std::ofstream(dir.path() / "pages.jsonl", std::ios::app) << "oops\n";
  const auto bad = read_page_lines(dir.path());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("pages.jsonl' line 4: not a JSON object") != std::string::npos);
}
