/// @file test_pipeline.cpp
/// @brief `canon index` end to end: sample_site's expected clusters (sample_site/README.md),
/// the files beside the index, search over the result, and the run's safety rules.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <xapian.h>

#include "common/utf8.h"
#include "indexer/pipeline.h"
#include "query/searcher.h"
#include "support/site_files.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::indexer::IndexOptions;
using nlohmann::json;

using canon::testing::sample_site;

namespace {

IndexOptions options_for(const fs::path& site, const fs::path& out) {
  IndexOptions options;
  options.site_dir = site;
  options.out_dir = out;
  options.show_progress = false;
  return options;
}

/// pages.jsonl keyed by path.
std::map<std::string, json> read_pages(const fs::path& index_dir) {
  std::map<std::string, json> pages;
  std::ifstream in(index_dir / "pages.jsonl");
  for (std::string line; std::getline(in, line);) {
    json record = json::parse(line);
    pages[record["path"].get<std::string>()] = record;
  }
  return pages;
}

std::string url_of(const std::string& path) { return "http://localhost/" + path; }

/// One index of sample_site shared by the test cases that only read it.
const fs::path& sample_index() {
  static canon::testing::TempDir dir;
  static const fs::path index = [] {
    const fs::path out = dir.path() / "index";
    auto summary = canon::indexer::index_site(options_for(sample_site(), out));
    REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));
    return out;
  }();
  return index;
}

canon::query::SearchResults search(const std::string& query) {
  auto searcher = canon::query::Searcher::open(sample_index());
  REQUIRE(searcher.ok());
  canon::query::SearchRequest request;
  request.query = query;
  request.limit = 50;
  auto results = searcher.value()->search(request);
  REQUIRE_MESSAGE(results.ok(), results.status().message());
  return results.value();
}

}  // namespace

TEST_CASE("sample_site: every file is accounted for in pages.jsonl") {
  std::set<std::string> on_disk;
  for (const auto& entry : fs::recursive_directory_iterator(sample_site())) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".html" || ext == ".htm")) {
      on_disk.insert(fs::relative(entry.path(), sample_site()).generic_string());
    }
  }
  const auto pages = read_pages(sample_index());
  std::set<std::string> recorded;
  for (const auto& [path, record] : pages) {
    recorded.insert(path);
    const std::string status = record["status"];
    CAPTURE(path);
    CHECK((status == "indexed" || status == "duplicate" || status == "redirect" || status == "skipped"));
    if (status == "skipped") CHECK_FALSE(record.value("reason", "").empty());
    if (status == "duplicate") {
      const std::string authoritative = record["authoritative"];
      const bool points_to_indexed = std::any_of(pages.begin(), pages.end(), [&](const auto& other) {
        return other.second["url"] == authoritative && other.second["status"] == "indexed";
      });
      CHECK(points_to_indexed);
    }
  }
  CHECK(recorded == on_disk);
}

TEST_CASE("sample_site: the expected clusters and their authoritative pages") {
  struct ExpectedCluster {
    std::vector<std::string> members;  // authoritative first
    const char* reason;
  };
  // sample_site/README.md, "Expected near-duplicate clusters".
  const ExpectedCluster expected[] = {
      {{"docs/install.html", "mirror/docs/install.html", "print/install.html"}, "original"},
      {{"docs/quickstart.html", "mirror/docs/quickstart.html"}, "original"},
      {{"docs/tutorials/nightly-backups.html", "print/nightly-backups.html"}, "pagerank"},
      {{"docs/upgrading.html", "docs/v1/upgrading.html"}, "pagerank"},
      {{"news/release-2-0.html", "news/release-2-0;jsessionid=8F3A9C21.html"}, "pagerank"},
      {{"news/2024-community-survey.html", "news/feed/2024-community-survey.html"}, "canonical"},
  };
  const auto pages = read_pages(sample_index());
  std::set<std::string> in_expected_clusters;
  for (const ExpectedCluster& cluster : expected) {
    const json& authority = pages.at(cluster.members.front());
    CAPTURE(cluster.members.front());
    CHECK(authority["status"] == "indexed");
    CHECK(authority["authority_reason"] == cluster.reason);
    for (const std::string& member : cluster.members) {
      in_expected_clusters.insert(member);
      const json& record = pages.at(member);
      CAPTURE(member);
      CHECK(record["cluster"] == authority["cluster"]);
      CHECK(record["authoritative"] == authority["url"]);
      if (member != cluster.members.front()) {
        CHECK(record["status"] == "duplicate");
        CHECK(record["similarity"].get<double>() >= 0.5);
        CHECK(record["similarity"].get<double>() <= 1.0);
      }
    }
  }
  // Everything else that was indexed is alone in its cluster.
  std::map<int, int> cluster_sizes;
  for (const auto& [path, record] : pages) {
    if (record.contains("cluster")) ++cluster_sizes[record["cluster"].get<int>()];
  }
  for (const auto& [path, record] : pages) {
    if (in_expected_clusters.count(path) || !record.contains("cluster")) continue;
    CAPTURE(path);
    CHECK(record["status"] == "indexed");
    CHECK(record["authority_reason"] == "singleton");
    CHECK(cluster_sizes[record["cluster"].get<int>()] == 1);
  }
}

TEST_CASE("sample_site: redirect, noindex, binary and alias pages") {
  const auto pages = read_pages(sample_index());
  CHECK(pages.at("old/download.html")["status"] == "redirect");
  CHECK(pages.at("old/download.html")["redirect_to"] == url_of("download.html"));
  CHECK(pages.at("search.html")["status"] == "skipped");
  CHECK(pages.at("search.html")["reason"].get<std::string>().find("noindex") != std::string::npos);
  CHECK(pages.at("search.html").contains("pagerank"));  // still part of the link graph
  CHECK(pages.at("downloads/screenshot.html")["status"] == "skipped");
  CHECK(pages.at("downloads/screenshot.html")["reason"].get<std::string>().find("binary") != std::string::npos);
  CHECK(pages.at("subscribed.html")["status"] == "indexed");
  CHECK(pages.at("docs/index.html")["url"] == url_of("docs/"));
  CHECK(pages.at("index.html")["url"] == url_of(""));

  std::ifstream summary_file(sample_index() / "summary.json");
  const json summary = json::parse(summary_file);
  CHECK(summary["status_counts"]["indexed"] == 30);
  CHECK(summary["status_counts"]["duplicate"] == 7);
  CHECK(summary["duplicate_clusters"] == 6);
  CHECK(summary["pagerank"]["converged"] == true);
  // The process's memory at the end of every stage timed, its peak never below what it holds.
  REQUIRE(summary["memory"].size() == summary["seconds"].size());
  for (const auto& [stage, seconds] : summary["seconds"].items()) {
    CAPTURE(stage);
    const json& memory = summary["memory"].at(stage);
    CHECK(memory["resident_bytes"].get<std::uint64_t>() > 0);
    CHECK(memory["peak_resident_bytes"].get<std::uint64_t>() >= memory["resident_bytes"].get<std::uint64_t>());
  }
  // The CPU of every stage timed: never negative, and the parse and the Xapian stage work.
  REQUIRE(summary["cpu_seconds"].size() == summary["seconds"].size());
  for (const auto& [stage, seconds] : summary["seconds"].items()) {
    CAPTURE(stage);
    CHECK(summary["cpu_seconds"].at(stage).get<double>() >= 0.0);
  }
  CHECK(summary["cpu_seconds"]["parse"].get<double>() > 0.0);
  CHECK(summary["cpu_seconds"]["xapian"].get<double>() > 0.0);
  // The kernel's share and the storage each stage used, for every stage timed; the Xapian stage
  // writes its database (the page cache takes it, but it is bound for storage).
  REQUIRE(summary["system_cpu_seconds"].size() == summary["seconds"].size());
  REQUIRE(summary["storage"].size() == summary["seconds"].size());
  for (const auto& [stage, seconds] : summary["seconds"].items()) {
    CAPTURE(stage);
    CHECK(summary["system_cpu_seconds"].at(stage).get<double>() >= 0.0);
    CHECK(summary["system_cpu_seconds"].at(stage).get<double>() <= summary["cpu_seconds"].at(stage).get<double>() + 1e-6);
    for (const char* key : {"read_bytes", "written_bytes", "major_faults"}) CHECK(summary["storage"].at(stage).contains(key));
  }
  CHECK(summary["storage"]["xapian"]["written_bytes"].get<std::uint64_t>() > 0);
  CHECK(summary["seconds"].contains("merge"));
}

TEST_CASE("sample_site: PageRank sums to 1 over the graph; graph.tsv is the graph it ran on") {
  const auto pages = read_pages(sample_index());
  double sum = 0.0;
  std::set<std::string> graph_urls;
  for (const auto& [path, record] : pages) {
    if (record.contains("pagerank")) {
      sum += record["pagerank"].get<double>();
      graph_urls.insert(record["url"]);
    }
  }
  CHECK(sum == doctest::Approx(1.0).epsilon(1e-9));

  std::ifstream graph(sample_index() / "graph.tsv");
  std::set<std::pair<std::string, std::string>> edges;
  for (std::string line; std::getline(graph, line);) {
    const auto tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    const std::string source = line.substr(0, tab), target = line.substr(tab + 1);
    CHECK(graph_urls.count(source) == 1);
    CHECK(graph_urls.count(target) == 1);
    CHECK(source != target);
    CHECK(edges.insert({source, target}).second);  // no parallel edges
  }
  // about.html links to the redirect page old/download.html: the link counts for its target.
  CHECK(edges.count({url_of("about.html"), url_of("download.html")}) == 1);
  // Links to the directory and to its index.html are one edge to one page.
  CHECK(edges.count({url_of(""), url_of("docs/")}) == 1);
}

TEST_CASE("sample_site: duplicates are not searchable on their own; alternates come with their page") {
  // "millions of chunks" is in the release notes and in their session-id copy.
  const auto release = search("\"millions of chunks\"");
  REQUIRE(release.hits.size() == 1);
  CHECK(release.hits[0].url == url_of("news/release-2-0.html"));
  REQUIRE(release.hits[0].alternates.size() == 1);
  CHECK(release.hits[0].alternates[0].url == url_of("news/release-2-0;jsessionid=8F3A9C21.html"));

  const auto install = search("shell completions");
  REQUIRE_FALSE(install.hits.empty());
  CHECK(install.hits[0].url == url_of("docs/install.html"));
  std::set<std::string> alternates;
  for (const auto& alt : install.hits[0].alternates) alternates.insert(alt.url);
  CHECK(alternates == std::set<std::string>{url_of("mirror/docs/install.html"), url_of("print/install.html")});

  // No query returns a duplicate, a redirect or a noindex page as a result.
  const auto pages = read_pages(sample_index());
  for (const char* query : {"larder", "backup OR restore OR repository", "survey", "upgrading", "download"}) {
    for (const auto& hit : search(query).hits) {
      const bool indexed = std::any_of(pages.begin(), pages.end(), [&](const auto& p) {
        return p.second["url"] == hit.url && p.second["status"] == "indexed";
      });
      CAPTURE(query);
      CAPTURE(hit.url);
      CHECK(indexed);
    }
  }
}

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

canon::query::SearchResults search_in(const fs::path& index, const std::string& query) {
  auto searcher = canon::query::Searcher::open(index);
  REQUIRE(searcher.ok());
  canon::query::SearchRequest request;
  request.query = query;
  request.limit = 100;
  auto results = searcher.value()->search(request);
  REQUIRE_MESSAGE(results.ok(), results.status().message());
  return results.value();
}

}  // namespace

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

TEST_CASE("real copies collapse though their titles differ: a re-export and a release's copy") {
  // rustdoc documents a re-exported item at both paths, titled by its module; versioned docs
  // print the release in every title. Both keep their text (two words differ), and the other
  // pages of the same template name other items, which must stay apart.
  // An item's text in the API reference (kind "api") or the guide (kind "guide").
  const auto body = [](const std::string& item, const std::string& kind, const std::string& extra) {
    std::string text = "<main><h1>" + item + "</h1><p>";
    for (int w = 0; w < 120; ++w) text += item + kind + std::to_string(w) + " ";
    return text + extra + "</p></main>";
  };
  canon::testing::TempDir dir;
  const char* items[] = {"Buffer", "Reader", "Writer", "Cursor", "Sink", "Empty", "Repeat", "Chain", "Take"};
  for (const char* item : items) {
    const std::string name = item;
    dir.write("site/lib/io/struct." + name + ".html",
              "<title>" + name + " in lib::io</title>" + body(name, "api", "see lib io"));
    // Its re-export: the crate's name is in every title of its directory.
    dir.write("site/core/io/struct." + name + ".html",
              "<title>" + name + " in core::io</title>" + body(name, "api", "see core io"));
    dir.write("site/docs/1.2/" + name + ".html", "<title>" + name + " — Docs 1.2</title>" + body(name, "guide", "since 1.0"));
  }
  // The 1.3 release of Buffer's guide page; Reader's 1.3 page is rewritten.
  dir.write("site/docs/1.3/Buffer.html", "<title>Buffer — Docs 1.3</title>" + body("Buffer", "guide", "since 1.3"));
  std::string rewritten = "<title>Reader — Docs 1.3</title><main><h1>Reader</h1><p>";
  for (int w = 0; w < 120; ++w) rewritten += "newword" + std::to_string(w) + " ";
  dir.write("site/docs/1.3/Reader.html", rewritten + "</p></main>");
  auto summary = canon::indexer::index_site(options_for(dir.path() / "site", dir.path() / "index"));
  REQUIRE(summary.ok());
  const auto pages = read_pages(dir.path() / "index");
  const auto cluster_of = [&](const std::string& path) { return pages.at(path)["cluster"]; };
  CHECK(cluster_of("lib/io/struct.Buffer.html") == cluster_of("core/io/struct.Buffer.html"));
  CHECK(pages.at("lib/io/struct.Buffer.html")["status"] != pages.at("core/io/struct.Buffer.html")["status"]);
  CHECK(cluster_of("docs/1.2/Buffer.html") == cluster_of("docs/1.3/Buffer.html"));
  CHECK(pages.at("docs/1.2/Buffer.html")["authoritative"] == url_of("docs/1.3/Buffer.html"));  // the newer
  CHECK(pages.at("docs/1.3/Buffer.html")["authority_reason"] == "release");
  CHECK(cluster_of("docs/1.2/Reader.html") != cluster_of("docs/1.3/Reader.html"));  // rewritten
  // Other items of one template stay apart.
  for (const char* item : items) {
    const std::string name = item;
    if (name == "Buffer") continue;
    CAPTURE(name);
    CHECK(cluster_of("lib/io/struct." + name + ".html") != cluster_of("lib/io/struct.Buffer.html"));
    CHECK(cluster_of("lib/io/struct." + name + ".html") == cluster_of("core/io/struct." + name + ".html"));
    CHECK(cluster_of("docs/1.2/" + name + ".html") != cluster_of("docs/1.2/Buffer.html"));
  }
}

TEST_CASE("a release that numbers its files anew: one title in the next release is the same document") {
  // A generator naming its files by number (Doxygen's SHORT_NAMES) gives a document another
  // file name in the next release, and its old number to another document.
  const auto page = [](const std::string& title, const std::string& kept, int kept_words, const std::string& added) {
    std::string html = "<title>" + title + "</title><main><h1>" + title + "</h1><p>";
    for (int w = 0; w < kept_words; ++w) html += kept + std::to_string(w) + " ";
    for (int w = 0; w < 120 - kept_words; ++w) html += added + std::to_string(w) + " ";
    return html + "</p></main>";
  };
  canon::testing::TempDir dir;
  dir.write("site/3.3/a001.html", page("Window guide", "window", 120, ""));
  dir.write("site/3.3/a002.html", page("Input guide", "input", 120, ""));
  // 3.4: the window guide is renumbered and a third of it rewritten; the input guide rewritten
  // whole; a new page takes the window guide's old number.
  dir.write("site/3.4/a003.html", page("Window guide", "window", 80, "rewritten"));
  dir.write("site/3.4/a004.html", page("Input guide", "other", 120, ""));
  dir.write("site/3.4/a001.html", page("Vulkan guide", "window", 120, ""));
  REQUIRE(canon::indexer::index_site(options_for(dir.path() / "site", dir.path() / "index")).ok());
  const auto pages = read_pages(dir.path() / "index");
  const auto cluster_of = [&](const std::string& path) { return pages.at(path)["cluster"]; };
  CHECK(cluster_of("3.3/a001.html") == cluster_of("3.4/a003.html"));
  CHECK(pages.at("3.3/a001.html")["authoritative"] == url_of("3.4/a003.html"));  // the newer release
  CHECK(cluster_of("3.3/a002.html") != cluster_of("3.4/a004.html"));  // nothing kept but the title
  CHECK(cluster_of("3.3/a001.html") != cluster_of("3.4/a001.html"));  // the old number, another document
}

TEST_CASE("pages in other encodings are read as browsers read them, recorded in pages.jsonl and found") {
  canon::testing::TempDir dir;
  const std::string body = " words of a page of its own, number ";
  dir.write("site/latin1.html",
            "<meta charset=\"iso-8859-1\"><title>Cr\xE8me br\xFBl\xE9""e</title><main>La cr\xE8me" + body + "one.</main>");
  dir.write("site/cp1252.html",
            "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"><title>Quotes</title>"
            "<main>\x93""cr\xE8me\x94 costs 5\x80" + body + "two.</main>");
  std::string utf16 = "\xFF\xFE";  // UTF-16LE with its byte order mark
  const std::u16string text = u"<title>Wide</title><main>A wide cr\u00E8me page words of a page of its own, number three.</main>";
  for (const char16_t unit : text) {
    utf16 += static_cast<char>(unit & 0xFF);
    utf16 += static_cast<char>(unit >> 8);
  }
  dir.write("site/utf16.html", utf16);
  dir.write("site/plain.html", "<title>Plain</title><main>Cr\xC3\xA8me in UTF-8" + body + "four.</main>");
  dir.write("site/binary.html", std::string("<title>x</title>\0\x01\x02", 19));
  const fs::path out = dir.path() / "index";
  auto summary = canon::indexer::index_site(options_for(dir.path() / "site", out));
  REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));
  const auto pages = read_pages(out);
  CHECK(pages.at("latin1.html")["title"] == "Cr\xC3\xA8me br\xC3\xBBl\xC3\xA9""e");
  CHECK(pages.at("latin1.html")["encoding"] == "windows-1252");  // what browsers read ISO-8859-1 as
  CHECK(pages.at("latin1.html")["encoding_source"] == "meta");
  CHECK(pages.at("cp1252.html")["encoding"] == "windows-1252");
  CHECK(pages.at("utf16.html")["encoding"] == "UTF-16LE");
  CHECK(pages.at("utf16.html")["encoding_source"] == "bom");
  CHECK(pages.at("utf16.html")["title"] == "Wide");
  CHECK_FALSE(pages.at("plain.html").contains("encoding"));  // UTF-8: nothing to say
  CHECK(pages.at("binary.html")["status"] == "skipped");   // still skipped, with its reason
  CHECK(pages.at("binary.html")["reason"].get<std::string>().find("binary") != std::string::npos);
  std::set<std::string> found;
  for (const auto& hit : search_in(out, "cr\xC3\xA8me").hits) found.insert(hit.url);
  CHECK(found == std::set<std::string>{url_of("latin1.html"), url_of("cp1252.html"), url_of("utf16.html"),
                                       url_of("plain.html")});
  // windows-1252's 0x80-0x9F are letters and signs, not controls: the quotes and the euro sign.
  const auto costs = search_in(out, "costs").hits;
  REQUIRE(costs.size() == 1);
  CHECK(costs[0].snippet.find("\xE2\x80\x9C" "cr\xC3\xA8me\xE2\x80\x9D costs 5\xE2\x82\xAC") != std::string::npos);
}

TEST_CASE("Chinese and Japanese are searchable by the words inside longer runs (table)") {
  // Written without spaces: a word inside a run of CJK characters is a term only because the
  // index and the queries split CJK runs into characters and pairs (Xapian's n-gram mode).
  canon::testing::TempDir dir;
  const std::string tail = " and some English words of page number ";
  dir.write("site/ja.html", "<title>\xE5\x85\xA5\xE9\x96\x80</title><main>"  // 入門
                            "\xE3\x82\xB3\xE3\x83\xB3\xE3\x83\x94\xE3\x83\xA5\xE3\x83\xBC\xE3\x82\xBF"    // コンピュータ
                            "\xE3\x83\x97\xE3\x83\xAD\xE3\x82\xB0\xE3\x83\xA9\xE3\x83\x9F\xE3\x83\xB3\xE3\x82\xB0"  // プログラミング
                            "\xE3\x81\xAE\xE5\x85\xA5\xE9\x96\x80\xE6\x9B\xB8\xE3\x81\xA7\xE3\x81\x99"  // の入門書です
                            + tail + "one.</main>");
  dir.write("site/zh.html", "<title>\xE5\xAD\xA6\xE4\xB9\xA0</title><main>"  // 学习
                            "\xE6\x88\x91\xE4\xBB\xAC\xE5\x9C\xA8\xE5\x8C\x97\xE4\xBA\xAC\xE5\xA4\xA7\xE5\xAD\xA6"  // 我们在北京大学
                            "\xE5\xAD\xA6\xE4\xB9\xA0\xE8\xAE\xA1\xE7\xAE\x97\xE6\x9C\xBA\xE7\xA7\x91\xE5\xAD\xA6"  // 学习计算机科学
                            + tail + "two.</main>");
  // A long run of three-byte characters with the word far into it: the snippet is cut at
  // characters, and shows the word.
  std::string run;
  for (int i = 0; i < 400; ++i) run += "\xE6\xBC\xA2";  // 漢
  dir.write("site/long.html", "<title>Long</title><main>" + run + "\xE7\xA7\x91\xE5\xAD\xA6" + run + tail +  // 科学
                                  "three.</main>");
  const fs::path out = dir.path() / "index";
  auto summary = canon::indexer::index_site(options_for(dir.path() / "site", out));
  REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));
  struct Case {
    const char* comment;
    std::string query;
    std::set<std::string> found;
  };
  const Case cases[] = {
      {"katakana inside a longer run", "\xE3\x83\x97\xE3\x83\xAD\xE3\x82\xB0\xE3\x83\xA9\xE3\x83\x9F\xE3\x83\xB3\xE3\x82\xB0",
       {"ja.html"}},
      {"a kanji pair inside a run", "\xE5\x85\xA5\xE9\x96\x80", {"ja.html"}},
      {"Chinese: a place name inside a sentence", "\xE5\x8C\x97\xE4\xBA\xAC", {"zh.html"}},
      {"Chinese: three characters", "\xE8\xAE\xA1\xE7\xAE\x97\xE6\x9C\xBA", {"zh.html"}},
      {"Chinese: in the title and the text", "\xE5\xAD\xA6\xE4\xB9\xA0", {"zh.html"}},
      {"a word neither page has", "\xE6\x9D\xB1\xE4\xBA\xAC", {}},  // 東京
      {"English words as before", "English", {"ja.html", "zh.html", "long.html"}},
      {"a word deep in a long run", "\xE7\xA7\x91\xE5\xAD\xA6", {"zh.html", "long.html"}},
  };
  for (const Case& c : cases) {
    INFO(c.comment);
    auto searcher = canon::query::Searcher::open(out);
    REQUIRE(searcher.ok());
    canon::query::SearchRequest request;
    request.query = c.query;
    auto results = searcher.value()->search(request);
    REQUIRE_MESSAGE(results.ok(), results.status().message());
    std::set<std::string> found;
    for (const auto& hit : results.value().hits) {
      found.insert(hit.url.substr(std::string("http://localhost/").size()));
      CHECK(canon::is_valid_utf8(hit.snippet));
      if (hit.url.ends_with("long.html") && c.query.starts_with("\xE7")) {
        CHECK(hit.snippet.find("\xE7\xA7\x91\xE5\xAD\xA6") != std::string::npos);
      }
    }
    CHECK(found == c.found);
  }
}
