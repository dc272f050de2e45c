/// @file test_render.cpp
/// @brief Text and JSON renderings of search results.
#include <doctest/doctest.h>

#include "query/render.h"

using canon::query::SearchResults;

namespace {

SearchResults two_hits() {
  SearchResults results;
  results.query = "install";
  results.estimated_matches = 12;
  results.offset = 0;
  canon::query::SearchHit first;
  first.rank = 1;
  first.url = "http://localhost/docs/install.html";
  first.title = "Installing";
  first.snippet = "Run the installer.";
  first.alternates = {{"http://localhost/print/install.html", "Installing (print)", 0.954}};
  canon::query::SearchHit second;
  second.rank = 2;
  second.url = "http://localhost/untitled.html";
  results.hits = {first, second};
  return results;
}

}  // namespace

TEST_CASE("text: count line, numbered results, alternates under their result") {
  const std::string text = canon::query::render_text(two_hits());
  CHECK(text.starts_with("About 12 results; showing 1-2.\n"));
  const auto first =
      text.find("1. Installing\n   http://localhost/docs/install.html\n   Run the installer.\n");
  const auto alternate = text.find("   also at: http://localhost/print/install.html (0.95)\n");
  const auto second =
      text.find("2. http://localhost/untitled.html\n");  // no title: the URL stands in
  CHECK(first != std::string::npos);
  CHECK(alternate != std::string::npos);
  CHECK(second != std::string::npos);
  CHECK(first < alternate);
  CHECK(alternate < second);
}

TEST_CASE("text: no results says so") {
  SearchResults none;
  none.query = "zebra";
  CHECK(canon::query::render_text(none) == "No results for \"zebra\".\n");
}

TEST_CASE("json: the same facts as fields") {
  const nlohmann::json j = canon::query::to_json(two_hits());
  CHECK(j["query"] == "install");
  CHECK(j["estimated_matches"] == 12);
  REQUIRE(j["results"].size() == 2);
  CHECK(j["results"][0]["url"] == "http://localhost/docs/install.html");
  CHECK(j["results"][0]["alternates"][0]["similarity"].get<double>() == doctest::Approx(0.954));
  CHECK(j["results"][1]["alternates"].empty());
}

TEST_CASE("query-time collapse: the alternate that matched best is marked, in text and JSON") {
  SearchResults results = two_hits();
  results.collapse = "query";
  results.hits[0].alternates.push_back({"http://localhost/mirror/install.html", "Installing", 1.0});
  results.hits[0].matched_url = "http://localhost/mirror/install.html";
  const std::string text = canon::query::render_text(results);
  CHECK(text.find("   also at: http://localhost/print/install.html (0.95)\n") != std::string::npos);
  CHECK(text.find("   also at: http://localhost/mirror/install.html (1.00, best match)\n") !=
        std::string::npos);

  const nlohmann::json j = canon::query::to_json(results);
  CHECK(j["collapse"] == "query");
  CHECK(j["results"][0]["matched_url"] == "http://localhost/mirror/install.html");
  CHECK(j["results"][1]["matched_url"] == "");
}
