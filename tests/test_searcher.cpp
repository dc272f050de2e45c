/// @file test_searcher.cpp
/// @brief Searching an index written by IndexWriter: results, syntax, paging, errors, a hit's
/// place, path: filters, and collapse at index or query time.
#include <doctest/doctest.h>
#include <xapian.h>

#include <filesystem>
#include <set>
#include <string>

#include "indexer/stages/index_writer.h"
#include "query/searcher.h"
#include "support/searcher_fixtures.h"
#include "support/temp_dir.h"

using canon::indexer::IndexedPage;
using canon::query::Searcher;
using canon::query::SearchRequest;
using canon::testing::build_index;
using canon::testing::must_search;
using canon::testing::write_with_filler;

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
  CHECK(must_search(s, "backup").hits.size() == 2);             // stems match "backups"
  CHECK(must_search(s, "backups installer").hits.size() == 1);  // default AND
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

TEST_CASE("a hit's place: its breadcrumb trail, else its URL's directories") {
  canon::testing::TempDir dir;
  {
    IndexedPage trail;
    trail.url = "http://localhost/library/urllib.request.html";
    trail.title = "urllib.request";
    trail.main_text = "Extensible library for opening URLs.";
    trail.place = {"Python", "The Python Standard Library", "Internet Protocols and Support"};
    IndexedPage plain;
    plain.url = "http://localhost/java.desktop/javax/swing/Timer.html";
    plain.title = "Timer";
    plain.main_text = "Fires action events; opening URLs is not its job.";
    write_with_filler(dir.path(), {trail, plain});
  }
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  const auto results = must_search(*searcher.value(), "opening URLs");
  REQUIRE(results.hits.size() == 2);
  for (const canon::query::SearchHit& hit : results.hits) {
    CAPTURE(hit.url);
    if (hit.url.ends_with("urllib.request.html")) {
      CHECK(hit.place == std::vector<std::string>{"Python", "The Python Standard Library", "Internet Protocols and Support"});
      CHECK(hit.place_from_breadcrumbs);
    } else {
      CHECK(hit.place == std::vector<std::string>{"java.desktop", "javax", "swing"});
      CHECK_FALSE(hit.place_from_breadcrumbs);
    }
  }
}

TEST_CASE("path: filters on the directories a page is in") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  Searcher& s = *searcher.value();
  for (const char* query : {"backups path:/docs/", "backups path:/docs", "backups path:docs"}) {
    CAPTURE(query);
    const auto results = must_search(s, query);
    REQUIRE(results.hits.size() == 1);
    CHECK(results.hits[0].url == "http://localhost/docs/backups.html");
  }
  CHECK(must_search(s, "backups path:/2024/").hits.size() == 1);
  CHECK(must_search(s, "backups path:/").hits.size() == 2);  // the root holds everything
  CHECK(must_search(s, "backups path:/doc").hits.empty());   // whole directory names only
  CHECK(must_search(s, "path:/docs/").hits.size() == 2);     // a filter alone lists its pages
  CHECK(must_search(s, "backups -path:/docs/").hits.size() == 1);
}

namespace {

const std::string install_text =
    "Tern installs from Debian packages. Run the installer and answer its questions.";

/// A query-time-collapse index: the install cluster (authoritative page, a printable copy with
/// one extra word, an exact mirror), and two singletons.
void build_query_collapse_index(const std::filesystem::path& index_dir) {
  auto writer = canon::indexer::IndexWriter::create(
      (index_dir / "xapian").string(), {canon::indexer::CollapseMode::kQueryTime, 3.0});
  REQUIRE(writer.ok());
  const std::string text = install_text;
  IndexedPage install;
  install.url = "http://localhost/docs/install.html";
  install.title = "Installing Tern";
  install.main_text = text;
  install.cluster_pagerank = 0.5;
  install.cluster_id = 1;
  install.alternates = {
      {"http://localhost/mirror/install.html", "Installing Tern", 1.0},
      {"http://localhost/print/install.html", "Installing Tern (printable)", 0.9}};
  IndexedPage mirror = install;
  mirror.url = "http://localhost/mirror/install.html";
  mirror.alternates.clear();
  mirror.authoritative_url = install.url;
  IndexedPage print = mirror;
  print.url = "http://localhost/print/install.html";
  print.title = "Installing Tern (printable)";
  print.main_text = text + " This is the printable version.";
  IndexedPage backups;
  backups.url = "http://localhost/docs/backups.html";
  backups.title = "Scheduling backups";
  backups.main_text = "Backups run every night; the installer sets up the schedule.";
  backups.cluster_pagerank = 0.3;
  backups.cluster_id = 2;
  IndexedPage news;
  news.url = "http://localhost/news/release.html";
  news.title = "Tern 2.0 released";
  news.main_text = "Tern 2.0 brings a faster installer.";
  news.cluster_pagerank = 0.2;
  news.cluster_id = 3;
  for (const IndexedPage& page : {install, mirror, print, backups, news})
    REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
}

}  // namespace

TEST_CASE("query-time collapse: one hit per cluster, shown as its authoritative page") {
  canon::testing::TempDir dir;
  build_query_collapse_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  Searcher& s = *searcher.value();
  CHECK(s.collapses_at_query_time());
  CHECK(s.document_count() == 5);

  // All three members of the install cluster match; it appears once.
  const auto installer = must_search(s, "installer");
  CHECK(installer.collapse == "query");
  REQUIRE(installer.hits.size() == 3);
  std::set<std::string> urls;
  for (const auto& hit : installer.hits) urls.insert(hit.url);
  CHECK(urls == std::set<std::string>{"http://localhost/docs/install.html",
                                      "http://localhost/docs/backups.html",
                                      "http://localhost/news/release.html"});
  CHECK(installer.estimated_matches == 3);

  // Only the printable copy has "printable": the cluster is found through it, shown as the
  // authoritative page (its title, URL, snippet, alternates), and the copy is named.
  SearchRequest request;
  request.query = "printable";
  request.highlight_start = "[";
  request.highlight_end = "]";
  auto printable = s.search(request);
  REQUIRE(printable.ok());
  REQUIRE(printable->hits.size() == 1);
  const auto& hit = printable->hits[0];
  CHECK(hit.url == "http://localhost/docs/install.html");
  CHECK(hit.title == "Installing Tern");
  CHECK(hit.matched_url == "http://localhost/print/install.html");
  CHECK(hit.pagerank == doctest::Approx(0.5));
  CHECK(hit.snippet == install_text);  // the authoritative text (no match in it: its start)
  REQUIRE(hit.alternates.size() == 2);
  CHECK(hit.alternates[1].url == "http://localhost/print/install.html");

  // When the authoritative page itself matches best, nothing is named.
  const auto debian = must_search(s, "debian");
  REQUIRE(debian.hits.size() == 1);
  CHECK(debian.hits[0].url == "http://localhost/docs/install.html");

  // Paging is over clusters.
  request = SearchRequest{};
  request.query = "installer";
  request.offset = 1;
  request.limit = 5;
  auto page = s.search(request);
  REQUIRE(page.ok());
  REQUIRE(page->hits.size() == 2);
  CHECK(page->hits[0].rank == 2);
  CHECK(page->hits[0].url == installer.hits[1].url);
}

TEST_CASE("snippets and alternates can be left out") {
  canon::testing::TempDir dir;
  build_index(dir.path());
  auto searcher = Searcher::open(dir.path());
  REQUIRE(searcher.ok());
  SearchRequest request;
  request.query = "debian";
  request.with_snippets = false;
  request.with_alternates = false;
  auto results = searcher.value()->search(request);
  REQUIRE(results.ok());
  REQUIRE(results->hits.size() == 1);
  CHECK(results->hits[0].url == "http://localhost/docs/install.html");
  CHECK(results->hits[0].snippet.empty());
  CHECK(results->hits[0].alternates.empty());
  CHECK(results->collapse == "index");
  CHECK_FALSE(searcher.value()->collapses_at_query_time());
}

TEST_CASE("collapse metadata: a database without it is not a canon index; an unknown mode is an error") {
  canon::testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "old");
  std::filesystem::create_directories(dir.path() / "odd");
  {
    Xapian::WritableDatabase db((dir.path() / "old" / "xapian").string(),
                                Xapian::DB_CREATE_OR_OVERWRITE);
    Xapian::Document doc;
    doc.add_term("word");
    doc.add_term("Zword");
    doc.set_data("url=http://localhost/\ncaption=Old\n");
    db.add_document(doc);
    db.commit();
  }
  auto old = Searcher::open(dir.path() / "old");
  REQUIRE_FALSE(old.ok());
  CHECK(old.status().message().find("was not written by canon") != std::string::npos);

  {
    Xapian::WritableDatabase db((dir.path() / "odd" / "xapian").string(),
                                Xapian::DB_CREATE_OR_OVERWRITE);
    db.set_metadata("canon_collapse", "sideways");
    db.commit();
  }
  auto odd = Searcher::open(dir.path() / "odd");
  REQUIRE_FALSE(odd.ok());
  CHECK(odd.status().message().find("unknown collapse mode 'sideways'") != std::string::npos);
}
