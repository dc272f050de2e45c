/// @file test_hostile_site.cpp
/// @brief A site of hostile pages, indexed as a whole (issue 16): deep nesting, a page larger
/// than the size limit, 300,000 links, multi-megabyte titles and attributes, NUL bytes, invalid
/// UTF-8, redirect and canonical loops, a FIFO, a symbolic link loop and a directory named like
/// a page. The run succeeds, every file is accounted for in pages.jsonl with what was cut or why
/// it was skipped, and the pages' text is searchable.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "indexer/pipeline.h"
#include "query/searcher.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string repeat(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

/// Writes the hostile site below `site`.
void write_hostile_site(const canon::testing::TempDir& dir, const fs::path& site) {
  const auto write = [&](const std::string& name, const std::string& content) {
    dir.write((site / name).lexically_relative(dir.path()).string(), content);
  };
  write("ok.html", "<title>Plain page</title><p>an ordinary page about walruses</p>");
  write("deep.html", "<title>Deep</title>" + repeat("<div>", 200'000) + "abyssal walrus" + repeat("</div>", 200'000));
  write("huge.html", "<title>Huge</title><pre>" + repeat("enormous walrus ", 1'250'000) + "</pre>");  // 20 MB
  std::string links = "<title>Links</title>";
  for (int i = 0; i < 300'000; ++i) links += "<a href=p" + std::to_string(i) + ".html>l</a>";
  write("links.html", links);
  write("title.html", "<title>" + repeat("T", 2'000'000) + "</title><p>titled walrus</p>");
  write("attributes.html", "<title>Attributes</title><a href='" + repeat("a", 3'000'000) + "' class='" +
                               repeat("c", 3'000'000) + "'>long link</a><p>attributed walrus</p>");
  write("nul.html", std::string("<title>Nul</title>\0<p>x</p>", 26));
  write("latin1.html", "<title>caf\xE9</title><p>not UTF-8</p>");
  write("r1.html", "<meta http-equiv=refresh content='0;url=r2.html'><title>R1</title>");
  write("r2.html", "<meta http-equiv=refresh content='0;url=r1.html'><title>R2</title>");
  write("c1.html", "<link rel=canonical href=c2.html><title>C</title><p>canonical circle walrus text here</p>");
  write("c2.html", "<link rel=canonical href=c1.html><title>C</title><p>canonical circle walrus text here</p>");
  REQUIRE(::mkfifo((site / "fifo.html").c_str(), 0600) == 0);
  fs::create_directory_symlink(".", site / "loop");
  fs::create_directory(site / "directory.html");
}

}  // namespace

TEST_CASE("a site of hostile pages: indexed, every file accounted for, the cuts recorded") {
  canon::testing::TempDir dir;
  const fs::path site = dir.path() / "site";
  fs::create_directories(site);
  write_hostile_site(dir, site);

  canon::indexer::IndexOptions options;
  options.site_dir = site;
  options.out_dir = dir.path() / "index";
  options.show_progress = false;
  auto summary = canon::indexer::index_site(options);
  REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));

  std::map<std::string, json> pages;
  std::ifstream in(options.out_dir / "pages.jsonl");
  for (std::string line; std::getline(in, line);) {
    json page = json::parse(line);
    pages[page["path"].get<std::string>()] = page;
  }
  std::map<std::string, std::string> status;
  for (const auto& [path, page] : pages) status[path] = page["status"].get<std::string>();
  CHECK(status == std::map<std::string, std::string>{
                      {"attributes.html", "indexed"}, {"c1.html", "indexed"},    {"c2.html", "duplicate"},
                      {"deep.html", "indexed"},       {"fifo.html", "skipped"},  {"huge.html", "indexed"},
                      {"latin1.html", "indexed"},     {"links.html", "indexed"}, {"nul.html", "skipped"},
                      {"ok.html", "indexed"},         {"r1.html", "skipped"},    {"r2.html", "skipped"},
                      {"title.html", "indexed"}});
  const auto cut = [&](const std::string& path) { return pages.at(path).value("cut", json::array()).dump(); };
  CHECK(cut("deep.html") == R"(["nesting: elements 200000 deep, 398976 tags deeper than 512 removed"])");
  CHECK(cut("huge.html") == R"(["size: 20000030 bytes, the first 8388608 read"])");
  CHECK(cut("links.html") == R"(["links: 300000, the first 100000 followed"])");
  CHECK(cut("title.html") == R"(["title: 2000000 bytes, the first 1024 kept"])");
  CHECK(cut("attributes.html") == R"(["urls: 1 longer than 8192 bytes ignored"])");
  CHECK(cut("ok.html") == "[]");
  CHECK(pages.at("title.html")["title"].get<std::string>().size() == 1024);
  CHECK(pages.at("fifo.html")["reason"] == "not a regular file");
  CHECK(pages.at("nul.html")["reason"].get<std::string>().starts_with("binary content"));
  // Undeclared Latin-1 is read as browsers read it (html/page_encoding.h), not skipped.
  CHECK(pages.at("latin1.html")["title"] == "caf\xC3\xA9");
  // Which single-byte encoding four words are in is a guess (ICU's detector says ISO-8859-2 here,
  // where 0xE9 is "é" too); that one is recorded is what matters.
  CHECK(pages.at("latin1.html")["encoding_source"] == "detected");
  CHECK(pages.at("r1.html")["reason"] == "redirect loop (or a chain of more than 20 redirects)");

  auto searcher = canon::query::Searcher::open(options.out_dir);
  REQUIRE(searcher.ok());
  for (const char* query : {"abyssal", "enormous", "titled", "attributed", "ordinary"}) {
    CAPTURE(query);
    canon::query::SearchRequest request;
    request.query = query;
    auto results = searcher.value()->search(request);
    REQUIRE(results.ok());
    CHECK(results->hits.size() == 1);
  }
}
