/// @file searcher_fixtures.h
/// @brief Indexes the Searcher tests share (three pages; given pages among filler) and a search that must succeed.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <string>

#include "indexer/stages/index_writer.h"
#include "query/searcher.h"

namespace canon::testing {

/// An index directory (INDEX_DIR/xapian) with three pages; the first has an alternate.
inline void build_index(const std::filesystem::path& index_dir) {
  using canon::indexer::IndexedPage;
  auto writer = canon::indexer::IndexWriter::create((index_dir / "xapian").string());
  REQUIRE(writer.ok());
  IndexedPage install;
  install.url = "http://localhost/docs/install.html";
  install.title = "Installing Tern";
  install.main_text =
      "Tern installs from Debian packages. Run the installer and answer its questions.";
  install.cluster_pagerank = 0.5;
  install.alternates = {{"http://localhost/print/install.html", "Installing Tern (print)", 0.96},
                        {"http://localhost/mirror/install.html", "Installing Tern", 0.91}};
  IndexedPage backups;
  backups.url = "http://localhost/docs/backups.html";
  backups.title = "Scheduling backups";
  backups.main_text =
      "Backups run every night. The scheduler keeps seven daily snapshots of each volume.";
  backups.cluster_pagerank = 0.3;
  IndexedPage news;
  news.url = "http://news.localhost/2024/release.html";
  news.title = "Tern 2.0 released";
  news.main_text = "Version 2.0 brings incremental backups and a faster installer.";
  news.cluster_pagerank = 0.2;
  for (const IndexedPage& page : {install, backups, news}) REQUIRE(writer.value()->add(page).ok());
  REQUIRE(writer.value()->finish().ok());
}

/// The results of `query` (at most `limit` hits); the test fails when the search does.
inline canon::query::SearchResults must_search(canon::query::Searcher& searcher, const std::string& query,
                                               std::size_t limit = 10) {
  canon::query::SearchRequest request;
  request.query = query;
  request.limit = limit;
  auto results = searcher.search(request);
  REQUIRE_MESSAGE(results.ok(), results.status().message());
  return results.value();
}

/// Writes `pages` and 40 pages without their words (so that those words are rare ones) into
/// an index at `index_dir`.
inline void write_with_filler(const std::filesystem::path& index_dir,
                              std::initializer_list<canon::indexer::IndexedPage> pages) {
  using canon::indexer::IndexedPage;
  auto writer = canon::indexer::IndexWriter::create((index_dir / "xapian").string());
  REQUIRE(writer.ok());
  for (const IndexedPage& page : pages) REQUIRE(writer.value()->add(page).ok());
  for (int i = 0; i < 40; ++i) {
    IndexedPage filler;
    filler.url = "http://localhost/other" + std::to_string(i) + ".html";
    filler.title = "Glossary";
    filler.main_text = "Terms used in this documentation.";
    REQUIRE(writer.value()->add(filler).ok());
  }
  REQUIRE(writer.value()->finish().ok());
}

}  // namespace canon::testing
