/// @file test_pipeline_options.cpp
/// @brief `canon index`'s options on sample_site and small sites written here: --no-canonical,
/// --keep-chains (chains split by default), --no-collapse (query-time collapse: the same records,
/// a cluster one result), and the thread count and the chunking, which change nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <xapian.h>

#include "indexer/pipeline.h"
#include "query/searcher.h"
#include "support/pipeline_fixtures.h"
#include "support/site_files.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::indexer::IndexOptions;
using nlohmann::json;

using canon::testing::options_for;
using canon::testing::read_pages;
using canon::testing::sample_index;
using canon::testing::sample_site;
using canon::testing::search_in;
using canon::testing::url_of;

namespace {

/// One --no-collapse (query-time collapse) index of sample_site, shared by the tests below.
const fs::path& query_collapse_index() {
  static canon::testing::TempDir dir;
  static const fs::path index = [] {
    const fs::path out = dir.path() / "index";
    IndexOptions options = options_for(sample_site(), out);
    options.collapse = canon::indexer::CollapseMode::kQueryTime;
    auto summary = canon::indexer::index_site(options);
    REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));
    return out;
  }();
  return index;
}

}  // namespace

TEST_CASE("--no-canonical: the better-linked feed copy wins the survey cluster") {
  canon::testing::TempDir dir;
  IndexOptions options = options_for(sample_site(), dir.path() / "index");
  options.honour_canonical = false;
  REQUIRE(canon::indexer::index_site(options).ok());
  const auto pages = read_pages(dir.path() / "index");
  CHECK(pages.at("news/feed/2024-community-survey.html")["status"] == "indexed");
  CHECK(pages.at("news/2024-community-survey.html")["status"] == "duplicate");
  CHECK(pages.at("news/2024-community-survey.html")["authority_reason"] == "pagerank");
}

TEST_CASE("chains split by default: a page chained into a cluster leaves it; --keep-chains keeps it") {
  // a, b, c are windows of 100 words, 40 apart: a~b and b~c (Jaccard 0.42), a and c not (0.10).
  // One title at mirrored paths (guide.html, mirror/guide.html, old/mirror/guide.html): the
  // threshold, 0.2, is needed. Two hubs link to a, one to b: a has the highest PageRank.
  const auto window = [](int first) {
    std::string text;
    for (int w = first; w < first + 100; ++w) text += "word" + std::to_string(w) + " ";
    return "<title>Guide</title><main>" + text + "</main>";
  };
  canon::testing::TempDir dir;
  dir.write("site/guide.html", window(0));
  dir.write("site/mirror/guide.html", window(40));
  dir.write("site/old/mirror/guide.html", window(80));
  dir.write("site/hub1.html", "<title>Hub one</title><main>The first hub <a href='guide.html'>guide</a></main>");
  dir.write("site/hub2.html", "<title>Hub two</title><main>The second hub <a href='guide.html'>guide</a> "
                              "<a href='mirror/guide.html'>guide</a></main>");
  IndexOptions options = options_for(dir.path() / "site", dir.path() / "kept");
  options.split_chains = false;  // --keep-chains
  auto kept = canon::indexer::index_site(options);
  REQUIRE(kept.ok());
  const auto chained = read_pages(dir.path() / "kept");
  CHECK(chained.at("old/mirror/guide.html")["status"] == "duplicate");
  CHECK(chained.at("old/mirror/guide.html")["authoritative"] == url_of("guide.html"));
  CHECK(chained.at("old/mirror/guide.html")["similarity"].get<double>() < 0.2);  // in by the chain alone
  CHECK(kept->split_off == 0);

  options.out_dir = dir.path() / "split";
  options.split_chains = true;  // the default
  auto split = canon::indexer::index_site(options);
  REQUIRE(split.ok());
  const auto pages = read_pages(dir.path() / "split");
  CHECK(pages.at("mirror/guide.html")["status"] == "duplicate");
  CHECK(pages.at("mirror/guide.html")["authoritative"] == url_of("guide.html"));
  CHECK(pages.at("mirror/guide.html")["similarity"].get<double>() >= 0.2);
  CHECK(pages.at("old/mirror/guide.html")["status"] == "indexed");
  CHECK(pages.at("old/mirror/guide.html")["cluster"] != pages.at("guide.html")["cluster"]);
  CHECK(split->split_off == 1);
  CHECK(split->duplicate_clusters == 1);
  std::ifstream summary(dir.path() / "split" / "summary.json");
  const json recorded = json::parse(summary);
  CHECK(recorded["parameters"]["split_chains"] == true);
  CHECK(recorded["split_off"] == 1);
  CHECK(search_in(dir.path() / "split", "word150").hits.size() == 1);  // only c has words 140..179
}

TEST_CASE("--no-collapse: the same records, every indexable page a document, the mode recorded") {
  const auto collapsed = read_pages(sample_index());
  const auto pages = read_pages(query_collapse_index());
  REQUIRE(pages.size() == collapsed.size());
  std::size_t documents = 0;
  for (const auto& [path, record] : pages) {
    CAPTURE(path);
    json without_flag = record;
    without_flag.erase("indexed_for_query_time_collapse");
    CHECK(without_flag == collapsed.at(path));  // statuses, clusters, authorities: unchanged
    const bool duplicate = record["status"] == "duplicate";
    CHECK(record.value("indexed_for_query_time_collapse", false) == duplicate);
    CHECK_FALSE(collapsed.at(path).contains("indexed_for_query_time_collapse"));
    if (duplicate || record["status"] == "indexed") ++documents;
  }
  CHECK(documents == 37);

  std::ifstream summary_file(query_collapse_index() / "summary.json");
  CHECK(json::parse(summary_file)["parameters"]["collapse"] == "query");
  std::ifstream default_summary(sample_index() / "summary.json");
  CHECK(json::parse(default_summary)["parameters"]["collapse"] == "index");

  auto searcher = canon::query::Searcher::open(query_collapse_index());
  REQUIRE(searcher.ok());
  CHECK(searcher.value()->collapses_at_query_time());
  CHECK(searcher.value()->document_count() == documents);
  auto default_searcher = canon::query::Searcher::open(sample_index());
  REQUIRE(default_searcher.ok());
  CHECK_FALSE(default_searcher.value()->collapses_at_query_time());
  CHECK(default_searcher.value()->document_count() == 30);
}

TEST_CASE("--no-collapse: each cluster is one result, shown as its authoritative page") {
  const auto pages = read_pages(query_collapse_index());
  const auto install = search_in(query_collapse_index(), "shell completions");
  REQUIRE_FALSE(install.hits.empty());
  CHECK(install.hits[0].url == url_of("docs/install.html"));
  std::set<std::string> alternates;
  for (const auto& alt : install.hits[0].alternates) alternates.insert(alt.url);
  CHECK(alternates ==
        std::set<std::string>{url_of("mirror/docs/install.html"), url_of("print/install.html")});

  const auto page_of = [&](const std::string& url) {
    return std::find_if(pages.begin(), pages.end(),
                        [&](const auto& p) { return p.second["url"] == url; });
  };
  // Hits are authoritative pages, one per cluster, as with index-time collapse.
  for (const char* query :
       {"larder", "backup OR restore OR repository", "survey", "upgrading", "install", "path:/"}) {
    CAPTURE(query);
    std::set<int> clusters;
    for (const auto& hit : search_in(query_collapse_index(), query).hits) {
      CAPTURE(hit.url);
      const auto it = page_of(hit.url);
      REQUIRE(it != pages.end());
      CHECK(it->second["status"] == "indexed");
      CHECK(clusters.insert(it->second["cluster"].get<int>()).second);
      if (!hit.matched_url.empty()) {
        const auto matched = page_of(hit.matched_url);
        REQUIRE(matched != pages.end());
        CHECK(matched->second["authoritative"] == hit.url);
      }
    }
  }
  // Every authoritative page is under the root: "path:/" lists each cluster once.
  CHECK(search_in(query_collapse_index(), "path:/").hits.size() == 30);
}

TEST_CASE("--no-collapse finds a cluster through words only a duplicate has") {
  // "chunk_max_size" is in the v1 copy of the upgrading guide (and the changelog), not in the
  // current guide that represents their cluster.
  const auto query_time = search_in(query_collapse_index(), "chunk_max_size");
  const auto it =
      std::find_if(query_time.hits.begin(), query_time.hits.end(),
                   [](const auto& hit) { return hit.url == url_of("docs/upgrading.html"); });
  REQUIRE(it != query_time.hits.end());
  CHECK(it->matched_url == url_of("docs/v1/upgrading.html"));
  for (const auto& hit : search_in(sample_index(), "chunk_max_size").hits) {
    CHECK(hit.url != url_of("docs/upgrading.html"));  // index-time collapse dropped those words
  }
}

TEST_CASE("the thread count and the chunking change nothing in the outputs") {
  canon::testing::TempDir dir;
  const auto read = [](const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const auto result_urls = [](const fs::path& index, const std::string& query) {
    std::vector<std::string> urls;  // in rank order: equal weights are ordered by document id
    for (const auto& hit : search_in(index, query).hits) urls.push_back(hit.url);
    return urls;
  };
  std::vector<fs::path> indexes;
  // Every document under its id, whatever the threads and the chunks (down to a file a chunk).
  const auto documents = [](const fs::path& index) {
    Xapian::Database db((index / "xapian").string());
    std::string out;
    for (auto id = db.postlist_begin(""); id != db.postlist_end(""); ++id) {
      const Xapian::Document doc = db.get_document(*id);
      out += std::to_string(*id) + " " + doc.get_data() + "|";
      for (auto term = doc.termlist_begin(); term != doc.termlist_end(); ++term) {
        out += " " + *term + ":" + std::to_string(term.get_wdf());
      }
      out += "\n";
    }
    return out;
  };
  for (const auto& [threads, chunk_files] :
       {std::pair{1u, std::size_t{0}}, std::pair{2u, std::size_t{3}}, std::pair{3u, std::size_t{7}},
        std::pair{2u, std::size_t{1000}}, std::pair{2u, std::size_t{1}}, std::pair{1u, std::size_t{2}}}) {
    CAPTURE(threads);
    CAPTURE(chunk_files);
    IndexOptions options = options_for(sample_site(), dir.path() / ("index-" + std::to_string(indexes.size())));
    options.threads = threads;
    options.chunk_files = chunk_files;
    REQUIRE(canon::indexer::index_site(options).ok());
    indexes.push_back(options.out_dir);
  }
  for (std::size_t i = 1; i < indexes.size(); ++i) {
    CAPTURE(i);
    for (const char* file : {"pages.jsonl", "graph.tsv", "pairs.tsv"}) {
      CHECK(read(indexes[i] / file) == read(indexes[0] / file));
    }
    for (const char* query : {"path:/", "backup", "larder", "install OR restore"}) {
      CHECK(result_urls(indexes[i], query) == result_urls(indexes[0], query));
    }
    CHECK(documents(indexes[i]) == documents(indexes[0]));
  }
}
