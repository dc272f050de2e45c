/// @file test_findability.cpp
/// @brief `canon eval findability`: plain_query's table, and every page of sample_site found by
/// its title through the page it was collapsed into (the alternates' titles are indexed there).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "eval/findability.h"
#include "indexer/pipeline.h"
#include "query/searcher.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::eval::plain_query;

TEST_CASE("plain_query: titles as a person would type them, without query syntax") {
  struct Case {
    const char* title;
    const char* query;
  };
  const Case cases[] = {
      {"Installing Larder — Larder", "installing larder — larder"},
      {"std::gmtime - cppreference.com", "std gmtime cppreference.com"},  // ':' is a prefix, ' -' hate
      {"Upgrading Larder (1.x)", "upgrading larder 1.x"},
      {"\"Quoted\" AND NOT this*", "quoted and not this"},                 // no phrase, no operators
      {"a-b +c", "a-b c"},                                                  // '-' inside a word stays
      // Regression: "libstdc++" became "libstdc", a word no page has, and no title query of
      // libstdc++'s Doxygen pages found anything.
      {"libstdc++: std::vector Class", "libstdc++ std vector class"},
      {"", ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.title);
    CHECK(plain_query(c.title) == c.query);
  }
}

TEST_CASE("title_and_heading_query: the title, then the heading unless it repeats the title") {
  struct Case {
    const char* title;
    const char* heading;
    const char* query;
  };
  const Case cases[] = {
      {"libstdc++: Member List", "std::vector< _Tp, _Alloc > Member List", "libstdc++ member list std vector< _tp, _alloc > member list"},
      {"DECLARE", "DECLARE", "declare"},  // a heading that repeats the title adds nothing
      // Words compare as the index reads them: the pilcrow of Sphinx's heading link is no letter.
      {"Introduction — Python 3.11.2 documentation", "Introduction¶", "introduction — python 3.11.2 documentation"},
      {"Timer (Java SE 17 & JDK 17)", "Class Timer", "timer java se 17 & jdk 17 class timer"},
      // The heading's words stay together, though the title has some of them.
      {"Index — Python 3.11.2 documentation", "Index – P", "index — python 3.11.2 documentation index – p"},
      {"", "Heading only", "heading only"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.title);
    CHECK(canon::eval::title_and_heading_query(c.title, c.heading) == c.query);
  }
}

TEST_CASE("sample_site: every page found by its title; duplicates through their authoritative page") {
  const char* source = std::getenv("CANON_SOURCE_DIR");
  REQUIRE(source != nullptr);
  canon::testing::TempDir dir;
  canon::indexer::IndexOptions options;
  options.site_dir = fs::path(source) / "sample_site";
  options.out_dir = dir.path() / "index";
  options.show_progress = false;
  REQUIRE(canon::indexer::index_site(options).ok());
  auto result = canon::eval::evaluate_findability(options.out_dir, 3);
  REQUIRE(result.ok());
  CHECK(result->unique_title.pages == 29);
  CHECK(result->unique_title.found == 29);
  CHECK(result->duplicates.pages == 3);
  CHECK(result->duplicates.found == 3);
  CHECK(result->shared_title.found == result->shared_title.pages);
  CHECK(result->missed.empty());

  // The old edition's own title finds the current guide, which lists it among its alternates.
  auto searcher = canon::query::Searcher::open(options.out_dir);
  REQUIRE(searcher.ok());
  canon::query::SearchRequest request;
  request.query = "title:1.x";
  const auto hits = searcher.value()->search(request);
  REQUIRE(hits.ok());
  REQUIRE(hits->hits.size() == 1);
  CHECK(hits->hits[0].url == "http://localhost/docs/upgrading.html");

  CHECK_FALSE(canon::eval::evaluate_findability(dir.path() / "nothing", 3).ok());
}
