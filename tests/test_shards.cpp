/// @file test_shards.cpp
/// @brief Stub files, `canon shard`'s split, wildcards rewritten for shards, and a Searcher that
/// leaves out a shard that does not answer (format/shards.h, query/shard_set.h,
/// query/wildcards.h). The remote shards themselves: tests/remote_shards.py.
#include <doctest/doctest.h>
#include <xapian.h>

#include <string>
#include <vector>

#include "format/index_format.h"
#include "format/shards.h"
#include "indexer/stages/index_writer.h"
#include "query/searcher.h"
#include "query/wildcards.h"
#include "support/temp_dir.h"

namespace fmt = canon::index_format;
using canon::query::Searcher;
using canon::query::SearchRequest;

namespace {

/// An index of `pages` pages on a few themes, with alternates on some.
void build_index(const std::filesystem::path& index_dir, int pages) {
  std::filesystem::create_directories(index_dir);
  auto writer = canon::indexer::IndexWriter::create(fmt::IndexLayout{index_dir}.xapian().string());
  REQUIRE(writer.ok());
  const std::vector<std::string> themes = {
      "backups run nightly and keep daily snapshots of every volume",
      "the installer asks questions and installs from Debian packages",
      "restoring a single file from a snapshot takes one command",
      "background jobs and the backend retry a failed connection",
      "crème brûlée recipes in the café's kitchen notebook"};
  for (int i = 0; i < pages; ++i) {
    canon::indexer::IndexedPage page;
    page.url = "http://localhost/docs/page" + std::to_string(i) + ".html";
    page.title = "Page " + std::to_string(i) + ": " + themes[i % themes.size()].substr(0, 24);
    for (int repeat = 0; repeat <= i % 3; ++repeat) page.main_text += themes[(i + repeat) % themes.size()] + ". ";
    page.cluster_pagerank = 1.0 / (i + 2);
    if (i % 4 == 0) page.alternates = {{"http://localhost/print/page" + std::to_string(i) + ".html", "print copy", 0.95}};
    REQUIRE(writer.value()->add(page).ok());
  }
  REQUIRE(writer.value()->finish().ok());
}

std::vector<std::string> urls_of(Searcher& searcher, const std::string& query) {
  SearchRequest request;
  request.query = query;
  request.limit = 50;
  auto results = searcher.search(request);
  REQUIRE_MESSAGE(results.ok(), results.status().message());
  std::vector<std::string> urls;
  for (const auto& hit : results.value().hits) {
    std::string alternates;
    for (const auto& alternate : hit.alternates) alternates += " " + alternate.url;
    urls.push_back(hit.url + " | " + hit.snippet + " |" + alternates);
  }
  return urls;
}

}  // namespace

TEST_CASE("read_stub: Xapian's stub lines, relative paths against the stub's directory") {
  canon::testing::TempDir dir;
  struct Row {
    std::string text;
    std::vector<std::string> names;  // empty: an error
    std::string error_part;
  };
  const std::string base = (dir.path() / "stubs").string();
  const std::vector<Row> rows = {
      {"auto shard-1\nauto /srv/shard-2\n", {base + "/shard-1", "/srv/shard-2"}, ""},
      {"# comment\n\nglass ../db\nremote 127.0.0.1:7001\n", {dir.path().string() + "/db", "127.0.0.1:7001"}, ""},
      {"remote search-3.example:33333\nremote [::1]:7002\n", {"search-3.example:33333", "[::1]:7002"}, ""},
      {"remote 127.0.0.1\n", {}, ":1: 'remote' needs HOST:PORT"},
      {"remote 127.0.0.1:0\n", {}, ":1: 'remote' needs HOST:PORT"},
      {"remote 127.0.0.1:70000\n", {}, ":1: 'remote' needs HOST:PORT"},
      {"auto a\nremote :xapian-progsrv /srv/db\n", {}, ":2: a shard reached through a program"},
      {"inmemory\n", {}, ":1: not a shard canon opens"},
      {"auto\n", {}, ":1: 'auto' needs the path"},
      {"# nothing\n", {}, "lists no shard"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    const auto stub = dir.write("stubs/stub", row.text);
    auto shards = fmt::read_stub(stub);
    if (row.names.empty()) {
      REQUIRE_FALSE(shards.ok());
      CHECK(shards.status().message().find(row.error_part) != std::string::npos);
      continue;
    }
    REQUIRE(shards.ok());
    std::vector<std::string> names;
    for (const auto& shard : shards.value()) names.push_back(shard.name());
    CHECK(names == row.names);
  }
  CHECK_FALSE(fmt::read_stub(dir.path() / "none").ok());
}

TEST_CASE("stub_file_at: a stub file, a stub directory, or nothing") {
  canon::testing::TempDir dir;
  const auto file = dir.write("a.stub", "auto x\n");
  CHECK(fmt::stub_file_at(file) == file);
  dir.write("stubdir/XAPIANDB", "auto x\n");
  CHECK(fmt::stub_file_at(dir.path() / "stubdir") == dir.path() / "stubdir" / "XAPIANDB");
  std::filesystem::create_directories(dir.path() / "plain");
  CHECK_FALSE(fmt::stub_file_at(dir.path() / "plain").has_value());
  CHECK_FALSE(fmt::stub_file_at(dir.path() / "missing").has_value());
}

TEST_CASE("rewrite_wildcards: wildcard words outside quotes become fields, the rest stays") {
  struct Row {
    std::string query;
    bool title_default;
    std::string expected;
  };
  const std::vector<Row> rows = {
      {"back*", false, "canonwildcard:back"},
      {"back*", true, "canontitlewildcard:back"},
      {"title:back* restore", false, "canontitlewildcard:back restore"},
      {"(back* OR restor*) -daily", false, "(canonwildcard:back OR canonwildcard:restor) -daily"},
      {"+crè* -caf*", false, "+canonwildcard:crè -canonwildcard:caf"},
      {"\"back* up\" back*", false, "\"back* up\" canonwildcard:back"},
      {"path:/docs/ back*", false, "path:/docs/ canonwildcard:back"},
      {"a*b", false, "a*b"},
      {"*", false, "*"},
      {"x.y*", false, "x.y*"},
      {"site:back*", false, "site:back*"},
      {"backup", false, "backup"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.query);
    CHECK(canon::query::rewrite_wildcards(row.query, row.title_default) == row.expected);
  }
}

TEST_CASE("split_index: shards that Xapian searches as the index, each document at its id") {
  canon::testing::TempDir dir;
  build_index(dir.path() / "index", 23);
  REQUIRE(fmt::split_index(dir.path() / "index", 3, dir.path() / "sharded").ok());
  const fmt::IndexLayout sharded{dir.path() / "sharded"};
  for (unsigned part = 1; part <= 3; ++part) CHECK(std::filesystem::is_directory(sharded.shard(part)));

  Xapian::Database one(fmt::IndexLayout{dir.path() / "index"}.xapian().string());
  Xapian::Database split(sharded.xapian().string());  // Xapian reads the stub directory
  REQUIRE(split.get_doccount() == one.get_doccount());
  for (Xapian::docid id = 1; id <= one.get_lastdocid(); ++id) {
    CAPTURE(id);
    CHECK(split.get_document(id).get_data() == one.get_document(id).get_data());
  }
  for (auto key = one.metadata_keys_begin(); key != one.metadata_keys_end(); ++key) {
    Xapian::Database shard(sharded.shard(2).string());
    CHECK(shard.get_metadata(*key) == one.get_metadata(*key));
  }

  auto whole = Searcher::open(dir.path() / "index");
  auto shards = Searcher::open(dir.path() / "sharded");
  REQUIRE(whole.ok());
  REQUIRE(shards.ok());
  for (const std::string query : {"backups", "snapshot file", "\"single file\"", "back*", "title:page",
                                  "crème", "installer NOT snapshots", "back* OR restor*"}) {
    CAPTURE(query);
    const auto expected = urls_of(*whole.value(), query);
    CHECK_FALSE(expected.empty());
    CHECK(urls_of(*shards.value(), query) == expected);
  }

  // Splitting again replaces the split; a directory that is not a canon index is not replaced.
  CHECK(fmt::split_index(dir.path() / "index", 2, dir.path() / "sharded").ok());
  CHECK_FALSE(std::filesystem::exists(sharded.shard(3)));
  dir.write("precious/notes.txt", "keep");
  const auto refused = fmt::split_index(dir.path() / "index", 2, dir.path() / "precious");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.message().find("not replacing it") != std::string::npos);
  CHECK_FALSE(fmt::split_index(dir.path() / "index", 0, dir.path() / "zero").ok());
  CHECK_FALSE(fmt::split_index(dir.path() / "nothing", 2, dir.path() / "none").ok());
}

TEST_CASE("a shard that does not answer is left out and named; none answering is an error") {
  canon::testing::TempDir dir;
  build_index(dir.path() / "index", 9);
  REQUIRE(fmt::split_index(dir.path() / "index", 3, dir.path() / "sharded").ok());
  // Port 1 on loopback: nothing listens there, the connection is refused at once.
  const auto stub = dir.write("partial.stub", "auto sharded/shard-1\nauto sharded/shard-2\nremote 127.0.0.1:1\n");
  canon::query::ShardOptions options;
  options.deadline = std::chrono::milliseconds(500);
  auto searcher = Searcher::open(stub, options);
  REQUIRE_MESSAGE(searcher.ok(), searcher.status().message());
  SearchRequest request;
  request.query = "backups OR installer OR snapshot";
  auto results = searcher.value()->search(request);
  REQUIRE(results.ok());
  CHECK(results.value().missing_shards == std::vector<std::string>{"127.0.0.1:1"});
  CHECK(searcher.value()->document_count() == 6);

  const auto dead = dir.write("dead.stub", "remote 127.0.0.1:1\n");
  auto none = Searcher::open(dead, options);
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message().find("no shard") != std::string::npos);
}
