/// @file test_pipeline.cpp
/// @brief `canon index` end to end: sample_site's expected clusters (sample_site/README.md), the
/// files beside the index and search over the result; real copies whose titles differ, and pages
/// in other encodings and in Chinese and Japanese. A failed run and replacing an index:
/// test_pipeline_failures.cpp; the options of a run: test_pipeline_options.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/utf8.h"
#include "indexer/pipeline.h"
#include "query/searcher.h"
#include "support/pipeline_fixtures.h"
#include "support/site_files.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using nlohmann::json;

using canon::testing::options_for;
using canon::testing::read_pages;
using canon::testing::sample_index;
using canon::testing::sample_site;
using canon::testing::search_in;
using canon::testing::url_of;

namespace {

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
