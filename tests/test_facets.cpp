/// @file test_facets.cpp
/// @brief page_facets (table), and facet counts and filters in search against counting the
/// results themselves (model).
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "format/facets.h"
#include "format/index_format.h"
#include "indexer/stages/index_writer.h"
#include "query/searcher.h"
#include "support/temp_dir.h"

using canon::index_format::page_facets;

TEST_CASE("page_facets: section, release and language of a page (table)") {
  struct Row {
    const char* comment;
    const char* path;
    const char* lang;
    const char* section;
    const char* release;
    const char* language;
  };
  const Row rows[] = {
      {"the first directory is the section", "/library/os.html", "en", "library", "", "en"},
      {"a page at the root has no section", "/index.html", "", "", "", ""},
      {"a directory's index page", "/tutorial/", "", "tutorial", "", ""},
      {"a release directory, then the section", "/0.50/user/jit.html", "", "user", "0.50", ""},
      {"a release deeper in the path", "/numba-doc/0.51.2/reference/api.html", "", "reference", "0.51.2", ""},
      {"v and a number is a release", "/docs/v2/guide/start.html", "", "guide", "v2", ""},
      {"a bare number is not (a year, a chapter)", "/2024/news/a.html", "", "2024", "", ""},
      {"a page at a release's root", "/0.50/index.html", "", "", "0.50", ""},
      {"a directory named for the page's language is skipped", "/en/cpp/container/vector.html", "en", "cpp", "", "en"},
      {"language: the primary subtag, lowercased", "/a/b.html", "de-CH", "a", "", "de"},
      {"a lang that is not a language tag is none", "/a/b.html", "12", "a", "", ""},
  };
  for (const Row& row : rows) {
    INFO(row.comment);
    const auto facets = page_facets(row.path, row.lang);
    CHECK(facets.section == row.section);
    CHECK(facets.release == row.release);
    CHECK(facets.language == row.language);
  }
}

TEST_CASE("facets: counted over every match, as the matches themselves say; a filter narrows to its value (model)") {
  canon::testing::TempDir dir;
  {
    auto writer = canon::indexer::IndexWriter::create((dir.path() / "xapian").string());
    REQUIRE(writer.ok());
    const char* const sections[] = {"guide", "reference", "faq"};
    for (int i = 0; i < 60; ++i) {
      canon::indexer::IndexedPage page;
      const std::string release = i % 4 == 0 ? "0.50" : "0.51";
      page.url = "http://localhost/" + release + "/" + sections[i % 3] + "/p" + std::to_string(i) + ".html";
      page.title = "Page " + std::to_string(i);
      page.main_text = std::string("kestrel ") + (i % 5 == 0 ? "harrier " : "") + "falcon";
      page.language = i % 7 == 0 ? "fr" : "en";
      REQUIRE(writer.value()->add(page).ok());
    }
    REQUIRE(writer.value()->finish().ok());
  }
  auto searcher = canon::query::Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  for (const char* query : {"kestrel", "harrier"}) {
    canon::query::SearchRequest request;
    request.query = query;
    request.limit = 100;
    request.count_facets = true;
    auto results = searcher.value()->search(request);
    REQUIRE(results.ok());
    // The oracle: the facets of the hits themselves, read back from their URLs.
    std::map<std::string, std::size_t> sections, releases;
    for (const auto& hit : results->hits) {
      const auto facets = page_facets(hit.url.substr(std::string("http://localhost").size()), "");
      ++sections[facets.section];
      ++releases[facets.release];
    }
    REQUIRE(results->facets.size() == 3);  // section, release, language: each has two values
    for (const auto& facet : results->facets) {
      if (facet.facet == canon::index_format::Facet::kLanguage) continue;
      const auto& expected = facet.facet == canon::index_format::Facet::kSection ? sections : releases;
      std::map<std::string, std::size_t> counted;
      for (const auto& value : facet.values) counted[value.value] = value.count;
      CHECK(counted == expected);
      for (std::size_t i = 1; i < facet.values.size(); ++i) CHECK(facet.values[i - 1].count >= facet.values[i].count);
    }
    request.filters = {{canon::index_format::Facet::kRelease, "0.50"}, {canon::index_format::Facet::kSection, "guide"}};
    auto narrowed = searcher.value()->search(request);
    REQUIRE(narrowed.ok());
    CHECK(!narrowed->hits.empty());
    for (const auto& hit : narrowed->hits) CHECK(hit.url.starts_with("http://localhost/0.50/guide/"));
  }
  CHECK(canon::query::parse_facet_filter("release=0.50")->value == "0.50");
  CHECK_FALSE(canon::query::parse_facet_filter("colour=red"));
  CHECK_FALSE(canon::query::parse_facet_filter("section="));
}
