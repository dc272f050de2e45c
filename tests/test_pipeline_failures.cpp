/// @file test_pipeline_failures.cpp
/// @brief `canon index`'s safety rules: a failed run leaves the previous index in place and a
/// foreign directory is never replaced, a page file that changes or goes during the run, small
/// sites' URL clashes, redirect loops and a bad base URL, and re-indexing into the same directory.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "indexer/pipeline.h"
#include "query/searcher.h"
#include "support/pipeline_fixtures.h"
#include "support/site_files.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::indexer::IndexOptions;

using canon::testing::options_for;
using canon::testing::read_pages;
using canon::testing::sample_site;
using canon::testing::search_in;
using canon::testing::url_of;

TEST_CASE("a failed run leaves the previous index in place; a foreign directory is never replaced") {
  canon::testing::TempDir dir;
  dir.write("site/a.html", "<title>A</title><main>An only page about apples and pears.</main>");
  const fs::path out = dir.path() / "index";
  REQUIRE(canon::indexer::index_site(options_for(dir.path() / "site", out)).ok());
  const auto before = read_pages(out);

  auto failed = canon::indexer::index_site(options_for(dir.path() / "missing-site", out));
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.status().message().find("does not exist") != std::string::npos);
  CHECK(read_pages(out) == before);
  auto searcher = canon::query::Searcher::open(out);
  REQUIRE(searcher.ok());
  CHECK(searcher.value()->document_count() == 1);
  // Nothing half-built is left beside it.
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    CHECK(entry.path().filename().string().find(".building-") == std::string::npos);
  }

  // A build directory left by an interrupted run whose process is gone is cleaned up.
  const pid_t child = fork();
  if (child == 0) _exit(0);
  REQUIRE(child > 0);
  waitpid(child, nullptr, 0);
  const fs::path stale = dir.path() / (".index.building-" + std::to_string(child));
  dir.write(stale.filename().string() + "/half-written", "x");
  REQUIRE(canon::indexer::index_site(options_for(dir.path() / "site", out)).ok());
  CHECK_FALSE(fs::exists(stale));

  dir.write("precious/notes.txt", "mine");
  auto refused = canon::indexer::index_site(options_for(dir.path() / "site", dir.path() / "precious"));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("not a canon index") != std::string::npos);
  CHECK(fs::exists(dir.path() / "precious" / "notes.txt"));
}

TEST_CASE("a page file that changes or goes after the parse: the run uses what it parsed") {
  // The detector reads near-duplicate candidates again to verify them, and the index writer
  // each page's document, both from the page store: a file that changes or goes after the
  // parse changes nothing in the run, so the index holds the text its duplicates were judged
  // on. The next run sees the change.
  const std::vector<std::string> vocabulary = {"apple", "pear",  "orchard", "harvest", "tree",   "branch", "leaf",
                                                "root",  "soil",  "water",   "frost",   "bloom",  "seed",   "prune",
                                                "graft", "cider", "press",   "ripe",    "autumn", "market"};
  std::string words;
  std::minstd_rand random(7);
  for (int i = 0; i < 200; ++i) words += vocabulary[random() % vocabulary.size()] + " ";
  const auto page = [&](const std::string& title, const std::string& extra) {
    return "<title>" + title + "</title><main><p>" + words + extra + "</p></main>";
  };
  for (const bool remove : {false, true}) {
    CAPTURE(remove);
    canon::testing::TempDir dir;
    dir.write("site/a.html", page("Apples", "crisp"));
    dir.write("site/b.html", page("Apples", "crisp tart"));
    for (int other = 0; other < 8; ++other) {  // other pages: the pair's text is its own, not the site's
      std::string text;
      for (int i = 0; i < 120; ++i) text += "topic" + std::to_string(other) + "w" + std::to_string(i) + " ";
      dir.write("site/other" + std::to_string(other) + ".html",
                "<title>Other " + std::to_string(other) + "</title><main><p>" + text + "</p></main>");
    }
    const fs::path out = dir.path() / "index";
    auto first = canon::indexer::index_site(options_for(dir.path() / "site", out));
    REQUIRE(first.ok());
    REQUIRE(first->near_duplicate_pairs == 1);  // the pair is verified, so read again
    const auto before = read_pages(out);

    IndexOptions options = options_for(dir.path() / "site", out);
    std::vector<std::string> stages;
    options.after_stage = [&](std::string_view stage) {
      stages.emplace_back(stage);
      if (stage != "parse") return;
      if (remove) {
        fs::remove(dir.path() / "site/a.html");
      } else {
        dir.write("site/a.html", page("Pears", "now a page about pears"));
      }
    };
    auto second = canon::indexer::index_site(options);
    REQUIRE_MESSAGE(second.ok(), (second.ok() ? "" : second.status().message()));
    CHECK(std::find(stages.begin(), stages.end(), "records") != stages.end());
    CHECK(second->near_duplicate_pairs == 1);  // judged on the text parsed
    CHECK(read_pages(out) == before);
    // The next run indexes the site as it now is: no pair.
    auto third = canon::indexer::index_site(options_for(dir.path() / "site", out));
    REQUIRE(third.ok());
    CHECK(third->near_duplicate_pairs == 0);
  }
}

TEST_CASE("small sites: URL clashes, redirect chains and loops, nofollow, bad base URL") {
  canon::testing::TempDir dir;
  const std::string body = "<main>Some words that make this page its own page number ";
  dir.write("site/docs/index.html", "<title>Docs</title>" + body + "one.</main>");
  dir.write("site/docs/index.htm", "<title>Docs too</title>" + body + "two.</main>");
  dir.write("site/r1.html", "<meta http-equiv=refresh content='0;url=r2.html'>");
  dir.write("site/r2.html", "<meta http-equiv=refresh content='0;url=docs/'>");
  dir.write("site/loop1.html", "<meta http-equiv=refresh content='0;url=loop2.html'>");
  dir.write("site/loop2.html", "<meta http-equiv=refresh content='0;url=loop1.html'>");
  dir.write("site/hub.html", "<title>Hub</title><a href='r1.html'>via redirects</a><a href='loop1.html'>loop</a>"
                             "<a href='x.html' rel=nofollow>x</a>" + body + "three.</main>");
  dir.write("site/x.html", "<title>X</title><meta name=robots content=nofollow><a href='hub.html'>hub</a>" + body +
                               "four.</main>");
  const fs::path out = dir.path() / "index";
  auto summary = canon::indexer::index_site(options_for(dir.path() / "site", out));
  REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));
  const auto pages = read_pages(out);
  CHECK(pages.size() == 8);
  CHECK(pages.at("docs/index.htm")["status"] == "skipped");
  CHECK(pages.at("docs/index.htm")["reason"].get<std::string>().find("same URL as docs/index.html") != std::string::npos);
  CHECK(pages.at("r1.html")["redirect_to"] == url_of("docs/"));
  CHECK(pages.at("loop1.html")["status"] == "skipped");
  CHECK(pages.at("loop1.html")["reason"] == "redirect loop (or a chain of more than 20 redirects)");

  std::ifstream graph(out / "graph.tsv");
  std::set<std::string> lines;
  for (std::string line; std::getline(graph, line);) lines.insert(line);
  // hub -> r1 -> r2 -> docs/ counts as hub -> docs/; the nofollow link and x's links do not count.
  CHECK(lines == std::set<std::string>{url_of("hub.html") + "\t" + url_of("docs/")});

  IndexOptions bad = options_for(dir.path() / "site", dir.path() / "other");
  bad.base_url = "not a url";
  auto refused = canon::indexer::index_site(bad);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("--base-url") != std::string::npos);
}

TEST_CASE("re-indexing a site into the same directory gives the same documents") {
  canon::testing::TempDir dir;
  const fs::path out = dir.path() / "index";
  const auto urls = [&] {
    std::set<std::string> found;
    for (const auto& hit : search_in(out, "path:/").hits) found.insert(hit.url);
    return found;
  };
  REQUIRE(canon::indexer::index_site(options_for(sample_site(), out)).ok());
  const auto first = urls();
  REQUIRE(canon::indexer::index_site(options_for(sample_site(), out)).ok());
  CHECK(urls() == first);
  CHECK(first.size() == 30);
  auto searcher = canon::query::Searcher::open(out);
  REQUIRE(searcher.ok());
  CHECK(searcher.value()->document_count() == 30);
}
