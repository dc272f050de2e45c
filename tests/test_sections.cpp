/// @file test_sections.cpp
/// @brief Sections as parts of results: pages extracted from HTML, indexed with their
/// sections' positions, searched; and a model test of matching_sections against the sections'
/// texts read directly.
#include <doctest/doctest.h>
#include <xapian.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "format/index_format.h"
#include "html/html_extract.h"
#include "indexer/stages/index_writer.h"
#include "query/searcher.h"
#include "support/temp_dir.h"

using canon::indexer::IndexedPage;
using canon::query::SearchRequest;
using canon::query::Searcher;

namespace {

/// The document of the page `html` at `url` (extracted as `canon index` does).
IndexedPage page_from_html(const std::string& url, const std::string& html) {
  canon::html::ExtractedPage extracted = canon::html::extract_page(html, url);
  IndexedPage page;
  page.url = url;
  page.title = extracted.title;
  page.headings = extracted.headings;
  page.main_heading = extracted.main_heading;
  page.main_text = extracted.main_text;
  page.sections = extracted.sections;
  page.cluster_pagerank = 0.1;
  return page;
}

const char* const kVecPage =
    "<title>Vec in std::vec</title><main><section id=\"main-content\"><h1>Struct Vec</h1>"
    "<p>A contiguous growable array type, written as Vec, short for vector.</p>"
    "<section id=\"method.push\"><h4>pub fn push(&amp;mut self, value: T)</h4>"
    "<p>Appends an element to the back of a collection.</p></section>"
    "<section id=\"method.pop\"><h4>pub fn pop(&amp;mut self) -&gt; Option&lt;T&gt;</h4>"
    "<p>Removes the last element from a vector and returns it.</p></section>"
    "<h2>Trait Implementations</h2><p>Implementations of traits for Vec, and the push of capacity.</p>"
    "<section id=\"method.len\"><h4>pub fn len(&amp;self) -&gt; usize</h4>"
    "<p>Returns the number of elements in the vector.</p></section></section></main>";

const char* const kTutorialPage =
    "<title>Input and Output</title><body><section id=\"input-and-output\"><h1>Input and Output</h1>"
    "<p>There are several ways to present the output of a program.</p>"
    "<section id=\"reading-and-writing-files\"><h2>Reading and Writing Files</h2>"
    "<p>open() returns a file object, and is most commonly used with two arguments.</p></section>"
    "<section id=\"methods-of-file-objects\"><h2>Methods of File Objects</h2>"
    "<p>To read a file's contents, call f.read(size), which reads some quantity of data.</p></section>"
    "<section id=\"saving-structured-data\"><h2>Saving structured data with json</h2>"
    "<p>Strings can easily be written to and read from a file; numbers take a bit more effort.</p>"
    "</section></section></body>";

/// An index of the two pages above at `dir`.
void build_index(const std::filesystem::path& dir) {
  auto writer = canon::indexer::IndexWriter::create((dir / "xapian").string());
  REQUIRE(writer.ok());
  REQUIRE(writer.value()->add(page_from_html("http://localhost/std/vec/struct.Vec.html", kVecPage)).ok());
  REQUIRE(writer.value()->add(page_from_html("http://localhost/tutorial/inputoutput.html", kTutorialPage)).ok());
  REQUIRE(writer.value()->finish().ok());
}

/// "URL-fragment heading" of each section of the first hit of `query`.
std::vector<std::string> first_hit_sections(Searcher& searcher, const std::string& query, std::size_t most = 3) {
  SearchRequest request;
  request.query = query;
  request.sections = most;
  auto results = searcher.search(request);
  REQUIRE_MESSAGE(results.ok(), results.status().message());
  REQUIRE(!results->hits.empty());
  std::vector<std::string> out;
  for (const auto& section : results->hits.front().sections) {
    const std::string& url = section.url;
    CHECK(url.starts_with(results->hits.front().url + "#"));
    out.push_back(url.substr(url.find('#') + 1) + " " + section.heading);
  }
  return out;
}

}  // namespace

TEST_CASE("sections: a result lists the sections holding the query's words, each linking PAGE#ID") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  Searcher& s = *searcher.value();
  struct Row {
    const char* comment;
    const char* query;
    std::vector<std::string> expected;
  };
  const Row rows[] = {
      {"the heading that is the query comes first", "reading and writing files",
       {"reading-and-writing-files Reading and Writing Files", "methods-of-file-objects Methods of File Objects"}},
      {"the name's words are the page's (Vec): the member's word (push) picks the section; the heading without "
       "an id is never shown",
       "vec push", {"method.push pub fn push(&mut self, value: T)"}},
      {"a word only in a section's text: the sections holding it", "returns", {"method.pop pub fn pop(&mut self) -> Option<T>", "method.len pub fn len(&self) -> usize"}},
      {"a stem's other forms count (structure, structured)", "structure json", {"saving-structured-data Saving structured data with json"}},
      {"every word in the title: the heading holding them all, fewest other words first", "input and output",
       {"input-and-output Input and Output"}},
  };
  for (const Row& row : rows) {
    INFO(std::string(row.comment));
    const std::vector<std::string> found = first_hit_sections(s, row.query);
    std::string shown;
    for (const std::string& f : found) shown += "[" + f + "] ";
    INFO(shown);
    CHECK(found == row.expected);
  }
  CHECK(first_hit_sections(s, "reading and writing files", 1).size() == 1);
  CHECK(first_hit_sections(s, "reading and writing files", 0).empty());
}

TEST_CASE("sections: a fragment a URL cannot hold as written is percent-encoded; '%' is kept") {
  CHECK(canon::query::section_url("http://a/p.html", "impl-Shl%3C%26usize%3E") == "http://a/p.html#impl-Shl%3C%26usize%3E");
  CHECK(canon::query::section_url("http://a/p.html#old", "a b\"<c>`") == "http://a/p.html#a%20b%22%3Cc%3E%60");
}

namespace {

/// The oracle's view of one section: its words read from the text that made it.
struct ModelSection {
  std::string anchor;
  std::vector<std::string> heading, body;
};

/// What matching_sections should return for `query` (distinct words, none in the title), read
/// from the sections' words directly: the rules of query/sections.h over text, not positions.
std::vector<std::string> oracle(const std::vector<ModelSection>& sections, const std::vector<std::string>& query,
                                std::size_t most) {
  struct Scored {
    std::size_t index;
    long heading_words, section_words, other, occurrences;
  };
  std::vector<Scored> scored;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const ModelSection& s = sections[i];
    Scored x{i, 0, 0, 0, 0};
    for (const std::string& word : query) {
      const long in_heading = std::count(s.heading.begin(), s.heading.end(), word);
      const long in_body = std::count(s.body.begin(), s.body.end(), word);
      x.heading_words += in_heading > 0;
      x.section_words += in_heading + in_body > 0;
      x.occurrences += in_heading + in_body;
    }
    x.other = x.heading_words == 0 ? 0 : static_cast<long>(s.heading.size()) - x.heading_words;
    scored.push_back(x);
  }
  const bool pointed = std::any_of(scored.begin(), scored.end(), [](const Scored& x) { return x.heading_words > 0; });
  std::erase_if(scored, [&](const Scored& x) {
    return pointed ? x.heading_words == 0 : x.section_words < static_cast<long>(query.size());
  });
  std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    return std::make_tuple(-a.heading_words, -a.section_words, a.other, -a.occurrences) <
           std::make_tuple(-b.heading_words, -b.section_words, b.other, -b.occurrences);
  });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < std::min(most, scored.size()); ++i) out.push_back(sections[scored[i].index].anchor);
  return out;
}

}  // namespace

TEST_CASE("sections: matching_sections over term positions agrees with the sections' words read directly (model)") {
  const std::vector<std::string> vocabulary = {"amber", "basalt", "cobalt", "dune", "ember", "fjord", "glacier"};
  std::mt19937 random(20261129);
  const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
  const auto words = [&](std::size_t least, std::size_t most) {
    std::vector<std::string> out(least + pick(most - least + 1));
    for (std::string& w : out) w = vocabulary[pick(vocabulary.size())];
    return out;
  };
  const auto join = [](const std::vector<std::string>& w) {
    std::string out;
    for (const std::string& x : w) out += (out.empty() ? "" : " ") + x;
    return out;
  };
  for (int round = 0; round < 40; ++round) {
    // One to three pages: a search reads the words' positions for all its hits at once.
    canon::testing::TempDir dir;
    std::map<std::string, std::vector<ModelSection>> pages;  // by URL
    std::map<std::string, std::string> htmls;
    {
      auto writer = canon::indexer::IndexWriter::create((dir.path() / "xapian").string());
      REQUIRE(writer.ok());
      for (std::size_t page = 0, pages_made = 1 + pick(3); page < pages_made; ++page) {
        const std::string url = "http://localhost/model" + std::to_string(page) + ".html";
        std::vector<ModelSection>& sections = pages[url];
        std::string html = "<title>Model page</title><body><p>" + join(words(0, 6)) + "</p>";
        for (std::size_t i = 0, n = 1 + pick(8); i < n; ++i) {
          ModelSection s{"s" + std::to_string(i), words(1, 3), words(0, 8)};
          html += "<section id=\"" + s.anchor + "\"><h2>" + join(s.heading) + "</h2><p>" + join(s.body) + "</p></section>";
          sections.push_back(std::move(s));
        }
        REQUIRE(writer.value()->add(page_from_html(url, html)).ok());
        htmls[url] = html;
      }
      REQUIRE(writer.value()->finish().ok());
    }
    auto searcher = Searcher::open(dir.path());
    REQUIRE(searcher.ok());
    std::vector<std::string> query = words(1, 3);
    std::sort(query.begin(), query.end());
    query.erase(std::unique(query.begin(), query.end()), query.end());
    SearchRequest request;
    request.query = join(query) + " OR model";  // every page matches; the sections are what is tested
    request.sections = 3;
    auto results = searcher.value()->search(request);
    REQUIRE(results.ok());
    REQUIRE(results->hits.size() == pages.size());
    for (const auto& hit : results->hits) {
      std::vector<std::string> found;
      for (const auto& section : hit.sections) found.push_back(section.url.substr(section.url.find('#') + 1));
      INFO(htmls[hit.url]);
      INFO(join(query));
      CHECK(found == oracle(pages[hit.url], query, 3));
    }
  }
}

TEST_CASE("canon_sections: decoded as encoded; separators in a heading made spaces; damaged entries skipped (table)") {
  using canon::index_format::decode_sections;
  using canon::index_format::encode_sections;
  using canon::index_format::SectionPlace;
  const std::vector<SectionPlace> sections = {
      {"intro", "Introduction", 10, 11}, {"", "", 20, 22}, {"a\x1f" "b", "x\x1ey\nz", 30, 33}, {"", "", 40, 40}};
  const std::string line = encode_sections(sections);
  const auto decoded = decode_sections(line);  // views into `line`
  REQUIRE(decoded.size() == 4);
  CHECK(decoded[0].anchor == "intro");
  CHECK(decoded[0].heading == "Introduction");
  CHECK(decoded[0].heading_start == 10);
  CHECK(decoded[0].body_start == 11);
  CHECK(decoded[1].anchor.empty());
  CHECK(decoded[1].body_start == 22);
  CHECK(decoded[2].anchor == "a b");
  CHECK(decoded[2].heading == "x y z");
  CHECK(decoded[3].heading_start == 40);
  struct Row {
    const char* comment;
    std::string line;
    std::size_t sections;
  };
  const Row rows[] = {
      {"empty", "", 0},
      {"not numbers", "x y\x1e" "1 2", 1},
      {"one number", "7\x1e" "1 2", 1},
      {"an anchor without a heading field", "1 2\x1f" "a\x1e" "3 4", 1},
      {"trailing separator", "1 2\x1e", 1},
  };
  for (const Row& row : rows) {
    INFO(row.comment);
    CHECK(decode_sections(row.line).size() == row.sections);
  }
}
