/// @file pipeline_fixtures.h
/// @brief Helpers the `canon index` tests share (test_pipeline*.cpp): a run's options, pages.jsonl
/// keyed by path, a page's URL, one index of sample_site built once, and a search of an index.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "indexer/pipeline.h"
#include "query/searcher.h"
#include "support/site_files.h"
#include "support/temp_dir.h"

namespace canon::testing {

/// The options that index `site` into `out`, without a progress display.
inline canon::indexer::IndexOptions options_for(const std::filesystem::path& site, const std::filesystem::path& out) {
  canon::indexer::IndexOptions options;
  options.site_dir = site;
  options.out_dir = out;
  options.show_progress = false;
  return options;
}

/// pages.jsonl keyed by path.
inline std::map<std::string, nlohmann::json> read_pages(const std::filesystem::path& index_dir) {
  std::map<std::string, nlohmann::json> pages;
  std::ifstream in(index_dir / "pages.jsonl");
  for (std::string line; std::getline(in, line);) {
    nlohmann::json record = nlohmann::json::parse(line);
    pages[record["path"].get<std::string>()] = record;
  }
  return pages;
}

/// The URL of the page at `path` of a site indexed with the default base URL.
inline std::string url_of(const std::string& path) { return "http://localhost/" + path; }

/// One index of sample_site shared by the test cases that only read it.
inline const std::filesystem::path& sample_index() {
  static TempDir dir;
  static const std::filesystem::path index = [] {
    const std::filesystem::path out = dir.path() / "index";
    auto summary = canon::indexer::index_site(options_for(sample_site(), out));
    REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));
    return out;
  }();
  return index;
}

/// The first 100 results of `query` on the index at `index`; the test fails when it cannot search.
inline canon::query::SearchResults search_in(const std::filesystem::path& index, const std::string& query) {
  auto searcher = canon::query::Searcher::open(index);
  REQUIRE(searcher.ok());
  canon::query::SearchRequest request;
  request.query = query;
  request.limit = 100;
  auto results = searcher.value()->search(request);
  REQUIRE_MESSAGE(results.ok(), results.status().message());
  return results.value();
}

}  // namespace canon::testing
