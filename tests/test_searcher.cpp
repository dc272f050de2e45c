/// @file test_searcher.cpp
/// @brief Searching an index written by IndexWriter: ranking, alternates, syntax, errors.
#include <doctest/doctest.h>

#include "indexer/index_writer.h"
#include "query/searcher.h"
#include "support/temp_dir.h"

using canon::indexer::IndexedPage;
using canon::query::SearchRequest;
using canon::query::Searcher;

namespace {

/// An index directory (INDEX_DIR/xapian) with three pages; the first has an alternate.
void build_index(const std::filesystem::path& index_dir) {
  auto writer = canon::indexer::IndexWriter::create((index_dir / "xapian").string());
  REQUIRE(writer.ok());
  IndexedPage install;
  install.url = "http://localhost/docs/install.html";
  install.title = "Installing Tern";
  install.main_text = "Tern installs from Debian packages. Run the installer and answer its questions.";
  install.cluster_pagerank = 0.5;
  install.alternates = {{"http://localhost/print/install.html", "Installing Tern (print)", 0.96},
                        {"http://localhost/mirror/install.html", "Installing Tern", 0.91}};
  IndexedPage backups;
  backups.url = "http://localhost/docs/backups.html";
  backups.title = "Scheduling backups";
  backups.main_text = "Backups run every night. The scheduler keeps seven daily snapshots of each volume.";
  backups.cluster_pagerank = 0.3;
  IndexedPage news;
  news.url = "http://news.localhost/2024/release.html";
  news.title = "Tern 2.0 released";
  news.main_text = "Version 2.0 brings incremental backups and a faster installer.";
  news.cluster_pagerank = 0.2;
  for (const IndexedPage& page : {install, backups, news}) REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
}

canon::query::SearchResults must_search(Searcher& searcher, const std::string& query, std::size_t limit = 10) {
  SearchRequest request;
  request.query = query;
  request.limit = limit;
  auto results = searcher.search(request);
  REQUIRE_MESSAGE(results.ok(), results.status().message());
  return results.value();
}

}  // namespace

TEST_CASE("results carry title, URL, snippet, static score and alternates") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  CHECK(searcher.value()->document_count() == 3);

  SearchRequest request;
  request.query = "debian packages";
  request.highlight_start = "[";
  request.highlight_end = "]";
  auto results = searcher.value()->search(request);
  REQUIRE(results.ok());
  REQUIRE(results->hits.size() == 1);
  const auto& hit = results->hits.front();
  CHECK(hit.rank == 1);
  CHECK(hit.url == "http://localhost/docs/install.html");
  CHECK(hit.title == "Installing Tern");
  CHECK(hit.pagerank == doctest::Approx(0.5));
  CHECK(hit.snippet.find("[Debian]") != std::string::npos);
  REQUIRE(hit.alternates.size() == 2);
  CHECK(hit.alternates[0].url == "http://localhost/print/install.html");
  CHECK(hit.alternates[0].similarity == doctest::Approx(0.96));
  CHECK(hit.alternates[1].title == "Installing Tern");
}

TEST_CASE("query syntax: stemming, AND by default, OR, NOT, phrases, title:, site:") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  Searcher& s = *searcher.value();
  CHECK(must_search(s, "backup").hits.size() == 2);               // stems match "backups"
  CHECK(must_search(s, "backups installer").hits.size() == 1);    // default AND
  CHECK(must_search(s, "snapshots OR questions").hits.size() == 2);
  CHECK(must_search(s, "backups NOT nightly NOT night").hits.size() == 1);
  CHECK(must_search(s, "\"daily snapshots\"").hits.size() == 1);
  CHECK(must_search(s, "\"snapshots daily\"").hits.empty());
  CHECK(must_search(s, "title:backups").hits.size() == 1);
  const auto on_news = must_search(s, "backups site:news.localhost");
  REQUIRE(on_news.hits.size() == 1);
  CHECK(on_news.hits[0].url == "http://news.localhost/2024/release.html");
}

TEST_CASE("offset and limit page through the results") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  SearchRequest request;
  request.query = "tern OR backups";
  request.limit = 1;
  request.offset = 1;
  auto page = searcher.value()->search(request);
  REQUIRE(page.ok());
  REQUIRE(page->hits.size() == 1);
  CHECK(page->hits[0].rank == 2);
  CHECK(page->estimated_matches == 3);
}

TEST_CASE("malformed and empty queries are clear errors") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  struct Row {
    const char* query;
    const char* message_part;
  };
  const Row rows[] = {
      {"\"daily snapshots", "closing '\"'"},
      {"(backups OR tern", "'(' without a matching ')'"},
      {"backups)", "')' without a matching '('"},
      {"", "no searchable words"},
      {"   ", "no searchable words"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.query);
    SearchRequest request;
    request.query = row.query;
    auto results = searcher.value()->search(request);
    REQUIRE_FALSE(results.ok());
    CHECK(results.status().message().find(row.message_part) != std::string::npos);
  }
}

TEST_CASE("opening a missing or foreign directory is a clear error") {
  canon::testing::TempDir dir;
  auto missing = Searcher::open(dir.path() / "nope");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message().find("does not exist") != std::string::npos);

  auto foreign = Searcher::open(dir.path());
  REQUIRE_FALSE(foreign.ok());
  CHECK(foreign.status().message().find("not a canon index") != std::string::npos);

  dir.write("broken/xapian/iamglass", "garbage");
  auto corrupt = Searcher::open(dir.path() / "broken");
  REQUIRE_FALSE(corrupt.ok());
  CHECK(corrupt.status().message().find("cannot open the index") != std::string::npos);
}
