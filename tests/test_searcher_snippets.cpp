/// @file test_searcher_snippets.cpp
/// @brief The Searcher's snippets: where in the page they come from (the text head and the
/// deflated tail, which are tested here too) and which of the query's words they highlight.
#include <doctest/doctest.h>

#include <string>

#include "format/index_format.h"
#include "format/text_head.h"
#include "format/text_tail.h"
#include "indexer/stages/index_writer.h"
#include "query/searcher.h"
#include "support/searcher_fixtures.h"
#include "support/temp_dir.h"

using canon::indexer::IndexedPage;
using canon::query::Searcher;
using canon::query::SearchRequest;
using canon::testing::build_index;
using canon::testing::must_search;

TEST_CASE("a page that matches outside its text gets the start of its text as snippet") {
  canon::testing::TempDir dir;
  auto writer = canon::indexer::IndexWriter::create((dir.path() / "xapian").string());
  REQUIRE(writer.ok());
  IndexedPage page;
  page.url = "http://localhost/airships.html";
  page.title = "Zeppelins";
  for (int i = 0; i < 60; ++i) page.main_text += "Airships float above the fields. ";
  REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  const auto results = must_search(*searcher.value(), "zeppelins");
  REQUIRE(results.hits.size() == 1);
  const std::string& snippet = results.hits[0].snippet;
  REQUIRE(snippet.ends_with("..."));
  const std::string kept = snippet.substr(0, snippet.size() - 3);
  CHECK(kept.size() <= 240);
  CHECK(page.main_text.starts_with(kept));
  CHECK(page.main_text[kept.size()] == ' ');  // cut after a whole word
}

TEST_CASE("snippets come from where the query's words are, however deep in the page") {
  canon::testing::TempDir dir;
  auto writer = canon::indexer::IndexWriter::create((dir.path() / "xapian").string());
  REQUIRE(writer.ok());
  IndexedPage page;
  page.url = "http://localhost/long.html";
  page.title = "A long page";
  for (int i = 0; i < 200; ++i) page.main_text += "Filler words about nothing in particular here. ";
  page.main_text += "Completion scripts make the shell complete commands for you. ";
  for (int i = 0; i < 100; ++i) page.main_text += "More filler words about nothing much. ";
  REQUIRE(page.main_text.size() > 9000);
  REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());

  SearchRequest request;
  request.query = "shell completions";  // "completions" stems to the "complet" of "Completion"
  request.highlight_start = "[";
  request.highlight_end = "]";
  auto results = searcher.value()->search(request);
  REQUIRE(results.ok());
  REQUIRE(results->hits.size() == 1);
  const std::string& snippet = results->hits[0].snippet;
  CAPTURE(snippet);
  CHECK(snippet.find("[Completion] scripts make the [shell] [complete] commands") !=
        std::string::npos);
  CHECK(snippet.ends_with("..."));
  CHECK(snippet.size() < 300);
}

TEST_CASE("snippets of long pages: words past the text the document's data holds come from its deflated tail") {
  canon::testing::TempDir dir;
  auto writer = canon::indexer::IndexWriter::create((dir.path() / "xapian").string());
  REQUIRE(writer.ok());
  // Words only past the head (kTextHeadBytes), and words in the head too; in the head, "turtle"
  // only inside another word, where the query's words are not.
  IndexedPage page;
  page.url = "http://localhost/contents.html";
  page.title = "Contents";
  while (page.main_text.size() < 3 * canon::index_format::kTextHeadBytes) {
    page.main_text += "Filler headings of the table of contents. ";
    if (page.main_text.size() % 7 == 0) page.main_text += "See turtledemo. ";
  }
  page.main_text += "Turtle motion moves the pen across the screen. ";
  for (int i = 0; i < 100; ++i) page.main_text += "More filler words about nothing much. ";
  REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  struct Row {
    const char* query;
    const char* expected;  // in the snippet
  };
  const Row rows[] = {
      {"turtle motion", "[Turtle] [motion] moves the pen"},
      {"filler headings", "[Filler] [headings] of the table"},
  };
  for (const Row& row : rows) {
    SearchRequest request;
    request.query = row.query;
    request.highlight_start = "[";
    request.highlight_end = "]";
    auto results = searcher.value()->search(request);
    REQUIRE(results.ok());
    REQUIRE(results->hits.size() == 1);
    CAPTURE(results->hits[0].snippet);
    CHECK(results->hits[0].snippet.find(row.expected) != std::string::npos);
  }
}

TEST_CASE("text tail: deflated and inflated back; bytes that are not one do not decode") {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "word" + std::to_string(i % 37) + " ";
  const std::string bytes = canon::index_format::encode_text_tail(text);
  CHECK(bytes.size() < text.size() / 4);
  CHECK(canon::index_format::decode_text_tail(bytes) == text);
  CHECK(canon::index_format::decode_text_tail(canon::index_format::encode_text_tail("")) == std::string());
  CHECK_FALSE(canon::index_format::decode_text_tail(bytes.substr(0, bytes.size() / 2)));
  CHECK_FALSE(canon::index_format::decode_text_tail(""));
  CHECK_FALSE(canon::index_format::decode_text_tail("\x05hello"));
  // A piece at a time: the same text; a cut tail ends bad.
  canon::index_format::TextTailReader reader(bytes);
  std::string pieces;
  std::size_t calls = 0;
  while (reader.append(pieces, 1000)) ++calls;
  CHECK_FALSE(reader.bad());
  CHECK(pieces == text);
  CHECK(calls == (text.size() + 999) / 1000);
  const std::string cut = bytes.substr(0, bytes.size() - 8);
  canon::index_format::TextTailReader short_reader(cut);
  std::string some;
  while (short_reader.append(some, 1000)) {
  }
  CHECK(short_reader.bad());
  CHECK(some.size() < text.size());
}

TEST_CASE("text head: compressed and back; bytes that are not one do not decode") {
  namespace fmt = canon::index_format;
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "wörd" + std::to_string(i % 37) + " ";
  const std::string bytes = fmt::encode_text_head(text);
  CHECK(bytes.size() < text.size() / 2);
  CHECK(fmt::decode_text_head(bytes) == text);
  CHECK(fmt::encode_text_head("").empty());
  CHECK(fmt::decode_text_head("") == std::string());  // a page without text has no head
  CHECK(fmt::decode_text_head(fmt::encode_text_head("x")) == "x");
  CHECK_FALSE(fmt::decode_text_head(bytes.substr(0, bytes.size() - 4)));  // cut
  CHECK_FALSE(fmt::decode_text_head("\x05hello"));                       // not LZ4 of 5 bytes
  CHECK_FALSE(fmt::decode_text_head("\xff\xff\xff\xff\x0f"));           // a length past any head
  std::string longer = bytes;
  longer[0] = static_cast<char>(longer[0] + 1);  // says one byte more than it holds
  CHECK_FALSE(fmt::decode_text_head(longer));
}

TEST_CASE("snippets highlight the query's stopwords only in a phrase or when the query is nothing else") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  const auto snippet_of = [&](const std::string& query) {
    SearchRequest request;
    request.query = query;
    request.highlight_start = "[";
    request.highlight_end = "]";
    auto results = searcher.value()->search(request);
    REQUIRE(results.ok());
    REQUIRE_FALSE(results->hits.empty());
    return results->hits.front().snippet;
  };
  struct Row {
    const char* query;
    const char* marked;    // in the snippet
    const char* unmarked;  // in it without marks
  };
  const Row rows[] = {
      {"the installer", "[installer]", "the"},
      {"answer its questions", "[questions]", "its"},
      {"\"answer its questions\"", "[answer its questions]", ""},  // a phrase is marked whole
      {"its", "[its]", ""},
  };
  for (const Row& row : rows) {
    const std::string snippet = snippet_of(row.query);
    INFO(std::string(row.query) << " -> " << snippet);
    CHECK(snippet.find(row.marked) != std::string::npos);
    if (*row.unmarked != '\0') {
      CHECK(snippet.find(std::string("[") + row.unmarked + "]") == std::string::npos);
      CHECK(snippet.find(std::string(" ") + row.unmarked + " ") != std::string::npos);
    }
  }
}
