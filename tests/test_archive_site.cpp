/// @file test_archive_site.cpp
/// @brief indexer/input/archive_site.h: web archives built here read as the plan of a site: what each
/// kind of capture becomes (a page, a redirect, a skipped capture with its reason), the newest
/// capture of a URL, revisits, a cut archive, the base URL; and which inputs are archives.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/progress.h"
#include "indexer/input/archive_site.h"
#include "support/temp_dir.h"

using canon::Progress;
using canon::indexer::archive_inputs;
using canon::indexer::ArchiveSite;
using canon::indexer::read_archives;
using canon::indexer::SitePlan;
using canon::indexer::warc_date_seconds;

namespace {

/// A WARC/1.1 record.
std::string record(const std::string& type, const std::string& uri, const std::string& date, const std::string& block,
                   const std::string& extra_headers = "",
                   const std::string& content_type = "application/http; msgtype=response") {
  return "WARC/1.1\r\nWARC-Type: " + type + "\r\nWARC-Record-ID: <urn:uuid:" + uri + date +
         ">\r\nWARC-Date: " + date + "\r\nWARC-Target-URI: " + uri + "\r\n" + extra_headers +
         "Content-Type: " + content_type + "\r\nContent-Length: " + std::to_string(block.size()) + "\r\n\r\n" + block +
         "\r\n\r\n";
}

/// An HTTP response block.
std::string response(const std::string& status_line, const std::string& headers, const std::string& body) {
  return "HTTP/1.1 " + status_line + "\r\n" + headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
         body;
}

std::string html(const std::string& title) {
  return "<html><head><title>" + title + "</title></head><body><p>" + title + " text</p></body></html>";
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The index of `relative_path` among the plan's files; -1 when absent.
int file_of(const SitePlan& plan, const std::string& relative_path) {
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    if (plan.files[i].relative_path == relative_path) return static_cast<int>(i);
  }
  return -1;
}

/// The reason the plan gives for skipping a capture of `url` whose reason contains `part`; "" for none.
std::string skipped_reason(const SitePlan& plan, const std::string& url, const std::string& part = "") {
  for (const auto& skipped : plan.skipped) {
    if (skipped.url == url && skipped.reason.find(part) != std::string::npos) return skipped.reason;
  }
  return "";
}

ArchiveSite read_one(const canon::testing::TempDir& dir, const std::string& archive_bytes) {
  const auto archive = dir.write("crawl.warc", archive_bytes);
  Progress quiet(false);
  auto site = read_archives({archive}, dir.path() / "bodies", 1, quiet);
  REQUIRE(site.ok());
  return std::move(site).value();
}

const std::string kHtml = "Content-Type: text/html; charset=windows-1252\r\n";

}  // namespace

TEST_CASE("what each capture becomes: a page, a redirect, or skipped with its reason") {
  canon::testing::TempDir dir;
  const std::string archive =
      record("warcinfo", "", "2024-05-01T12:00:00Z", "software: test\r\n", "", "application/warc-fields") +
      record("request", "http://example.org/", "2024-05-01T12:00:00Z", "GET / HTTP/1.1\r\n\r\n") +
      record("response", "http://example.org/index.html", "2024-05-01T12:00:01Z", response("200 OK", kHtml, html("Home"))) +
      record("response", "http://example.org/old", "2024-05-01T12:00:02Z",
             response("301 Moved Permanently", "Location: /new.html\r\n", "")) +
      record("response", "http://example.org/gone.html", "2024-05-01T12:00:03Z", response("404 Not Found", "", "no")) +
      record("response", "http://example.org/logo.png", "2024-05-01T12:00:04Z",
             response("200 OK", "Content-Type: image/png\r\n", "\x89PNG")) +
      record("response", "http://example.org/bare.html", "2024-05-01T12:00:05Z", response("200 OK", "", html("Bare"))) +
      record("resource", "http://example.org/res.html", "2024-05-01T12:00:06Z", html("Resource"), "", "text/html") +
      record("response", "dns:example.org", "2024-05-01T12:00:07Z", "93.184.216.34", "", "text/dns") +
      record("response", "http://example.org/304", "2024-05-01T12:00:08Z", response("304 Not Modified", "", ""));
  const ArchiveSite site = read_one(dir, archive);
  CHECK(site.base_url == "http://example.org/");
  CHECK(site.problems.empty());

  const SitePlan& plan = site.plan;
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    CHECK(plan.serves_url(i));
    CHECK(plan.url_owner(i) == i);
    CHECK(plan.url(i).value() == plan.files[i].relative_path);
  }
  // The page: its URL (the index page stripped), its body written with the capture's date.
  const int home = file_of(plan, "http://example.org/");
  REQUIRE(home >= 0);
  CHECK(read_text(plan.files[home].absolute_path) == html("Home"));
  CHECK(plan.files[home].content_type == "text/html; charset=windows-1252");
  CHECK(plan.files[home].record.starts_with("crawl.warc@"));
  struct stat st {};
  REQUIRE(::stat(plan.files[home].absolute_path.c_str(), &st) == 0);
  CHECK(st.st_mtime == *warc_date_seconds("2024-05-01T12:00:01Z"));
  // No Content-Type: HTML by its first bytes; a resource record: its block.
  CHECK(file_of(plan, "http://example.org/bare.html") >= 0);
  CHECK(file_of(plan, "http://example.org/res.html") >= 0);
  // The redirect: no body, its Location resolved.
  const int old = file_of(plan, "http://example.org/old");
  REQUIRE(old >= 0);
  CHECK(plan.files[old].redirect == "http://example.org/new.html");
  CHECK(plan.files.size() == 4);

  CHECK(skipped_reason(plan, "http://example.org/gone.html").starts_with("HTTP 404 Not Found (crawl.warc@"));
  CHECK(skipped_reason(plan, "http://example.org/logo.png").starts_with("not HTML (Content-Type image/png)"));
  CHECK(skipped_reason(plan, "http://example.org/304").starts_with("HTTP 304 Not Modified, without a Location"));
  CHECK(plan.skipped.size() == 3);

  CHECK(site.counts.archives == 1);
  CHECK(site.counts.records.at("response") == 7);
  CHECK(site.counts.records.at("request") == 1);
  CHECK(site.counts.records.at("warcinfo") == 1);
  CHECK(site.counts.pages == 3);
  CHECK(site.counts.redirects == 1);
  CHECK(site.counts.skipped == 3);
  CHECK(site.counts.other_schemes == 1);
}

TEST_CASE("the newest capture of a URL is read; the older ones are recorded; revisits take what they repeat") {
  canon::testing::TempDir dir;
  const std::string digest = "WARC-Payload-Digest: sha1:AAAA\r\n";
  const std::string archive =
      // Out of date order: the later record is older.
      record("response", "http://example.org/a.html", "2024-05-02T00:00:00Z", response("200 OK", kHtml, html("A new"))) +
      record("response", "http://example.org/a.html", "2024-05-01T00:00:00Z", response("200 OK", kHtml, html("A old"))) +
      // A page, then a revisit of the same payload under another URL.
      record("response", "http://example.org/b.html", "2024-05-01T00:00:00Z", response("200 OK", kHtml, html("B")),
             digest) +
      record("revisit", "http://example.org/b-copy.html", "2024-05-03T00:00:00Z", response("200 OK", kHtml, ""),
             digest + "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\n") +
      // Not modified since the URL's earlier capture.
      record("response", "http://example.org/c.html", "2024-05-01T00:00:00Z", response("200 OK", kHtml, html("C"))) +
      record("revisit", "http://example.org/c.html", "2024-05-04T00:00:00Z", response("304 Not Modified", "", ""),
             "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/server-not-modified\r\n") +
      // A revisit of nothing the archive holds.
      record("revisit", "http://example.org/d.html", "2024-05-04T00:00:00Z", response("200 OK", "", ""),
             "WARC-Payload-Digest: sha1:ZZZZ\r\nWARC-Profile: http://netpreserve.org/warc/1.1/revisit/"
             "identical-payload-digest\r\n");
  const ArchiveSite site = read_one(dir, archive);
  const SitePlan& plan = site.plan;

  const int a = file_of(plan, "http://example.org/a.html");
  REQUIRE(a >= 0);
  CHECK(read_text(plan.files[a].absolute_path) == html("A new"));
  CHECK(skipped_reason(plan, "http://example.org/a.html", "an older capture (2024-05-01T00:00:00Z").size() > 0);

  const int copy = file_of(plan, "http://example.org/b-copy.html");
  REQUIRE(copy >= 0);
  CHECK(read_text(plan.files[copy].absolute_path) == html("B"));
  CHECK(file_of(plan, "http://example.org/b.html") >= 0);

  const int c = file_of(plan, "http://example.org/c.html");
  REQUIRE(c >= 0);
  CHECK(read_text(plan.files[c].absolute_path) == html("C"));
  CHECK(skipped_reason(plan, "http://example.org/c.html", "an older capture").size() > 0);

  CHECK(file_of(plan, "http://example.org/d.html") < 0);
  CHECK(skipped_reason(plan, "http://example.org/d.html").starts_with("a revisit of a capture the archives do not hold"));

  CHECK(site.counts.pages == 4);
  CHECK(site.counts.older_captures == 2);
  CHECK(site.counts.skipped == 1);
  // The older capture's body is not kept; the bodies read are.
  std::size_t bodies = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path() / "bodies")) ++bodies;
  CHECK(bodies == 3);  // a new, b (also b-copy's), c
}

TEST_CASE("a cut archive: the captures before the cut are read, the cut is a problem and a skipped entry") {
  canon::testing::TempDir dir;
  const std::string whole =
      record("response", "http://example.org/a.html", "2024-05-01T00:00:00Z", response("200 OK", kHtml, html("A"))) +
      record("response", "http://example.org/b.html", "2024-05-01T00:00:00Z", response("200 OK", kHtml, html("B")));
  const ArchiveSite site = read_one(dir, whole.substr(0, whole.size() - 40));
  CHECK(file_of(site.plan, "http://example.org/a.html") >= 0);
  CHECK(file_of(site.plan, "http://example.org/b.html") < 0);
  REQUIRE(site.problems.size() == 1);
  CHECK(site.problems.front().find("crawl.warc") != std::string::npos);
  REQUIRE(site.plan.skipped.size() == 1);
  CHECK(site.plan.skipped.front().relative_path == "crawl.warc");
  CHECK(site.plan.skipped.front().url == "");
}

TEST_CASE("an archive without an HTML page of an http(s) URL is an error, and so is one that is missing") {
  canon::testing::TempDir dir;
  const auto archive = dir.write(
      "crawl.warc", record("response", "http://example.org/x.png", "2024-05-01T00:00:00Z",
                           response("200 OK", "Content-Type: image/png\r\n", "png")));
  Progress quiet(false);
  auto site = read_archives({archive}, dir.path() / "bodies", 1, quiet);
  REQUIRE_FALSE(site.ok());
  CHECK(site.status().message().find("no HTML page") != std::string::npos);
  CHECK_FALSE(read_archives({dir.path() / "missing.warc"}, dir.path() / "bodies2", 1, quiet).ok());
}

TEST_CASE("archive_inputs: files are archives, a directory of archives is, a site directory is not") {
  canon::testing::TempDir dir;
  dir.write("site/index.html", html("Home"));
  dir.write("crawls/b.warc.gz", "");
  dir.write("crawls/a.warc", "");
  dir.write("crawls/notes.txt", "");
  const auto one = dir.write("one.warc", "");

  auto site = archive_inputs({dir.path() / "site"});
  REQUIRE(site.ok());
  CHECK_FALSE(site.value().has_value());

  auto crawls = archive_inputs({dir.path() / "crawls"});
  REQUIRE(crawls.ok());
  REQUIRE(crawls.value().has_value());
  CHECK(*crawls.value() == std::vector<std::filesystem::path>{dir.path() / "crawls/a.warc", dir.path() / "crawls/b.warc.gz"});

  auto files = archive_inputs({one, dir.path() / "crawls"});
  REQUIRE(files.ok());
  CHECK(files.value()->size() == 3);

  CHECK_FALSE(archive_inputs({one, dir.path() / "site"}).ok());
  CHECK_FALSE(archive_inputs({dir.path() / "missing"}).ok());
}

TEST_CASE("warc_date_seconds") {
  CHECK(warc_date_seconds("1970-01-01T00:00:00Z") == 0);
  CHECK(warc_date_seconds("2024-05-01T12:00:00Z") == 1714564800);
  CHECK(warc_date_seconds("2024-05-01T12:00:00.123456Z") == 1714564800);
  CHECK(warc_date_seconds("2024-05-01") == 1714521600);
  CHECK_FALSE(warc_date_seconds("yesterday"));
  CHECK_FALSE(warc_date_seconds("2024-13-01T00:00:00Z"));
}

TEST_CASE("the pages are planned in the order a saved copy of the site lists its files") {
  canon::testing::TempDir dir;
  std::string archive;
  for (const char* url : {"http://example.org/", "http://example.org/a/", "http://example.org/a/b.html",
                          "http://example.org/a.html", "http://example.org/a.html?x=1", "http://other.org/z.html"}) {
    archive += record("response", url, "2024-05-01T00:00:00Z", response("200 OK", kHtml, html(url)));
  }
  const ArchiveSite site = read_one(dir, archive);
  std::vector<std::string> order;
  for (const auto& file : site.plan.files) order.push_back(file.relative_path);
  // a.html, a.html?x=1, a/b.html, a/index.html, index.html, then the other host's other.org/z.html.
  CHECK(order == std::vector<std::string>{"http://example.org/a.html", "http://example.org/a.html?x=1",
                                          "http://example.org/a/b.html", "http://example.org/a/",
                                          "http://example.org/", "http://other.org/z.html"});
}

TEST_CASE("several archives: the same plan on one thread and on several; the newest capture across them wins") {
  canon::testing::TempDir dir;
  std::vector<std::filesystem::path> archives;
  for (int a = 0; a < 5; ++a) {
    std::string archive;
    for (int p = 0; p < 6; ++p) {
      const std::string url = "http://example.org/" + std::to_string(p) + ".html";
      // Page 0 is captured by every archive, the later archive on a later day.
      if (p != 0 && p % 5 != a) continue;
      archive += record("response", url, "2024-05-0" + std::to_string(a + 1) + "T00:00:00Z",
                        response("200 OK", kHtml, html(url + " from archive " + std::to_string(a))));
    }
    archive += record("response", "http://example.org/missing-" + std::to_string(a), "2024-05-01T00:00:00Z",
                      response("404 Not Found", "", ""));
    archives.push_back(dir.write("crawl-" + std::to_string(a) + ".warc", archive));
  }
  Progress quiet(false);
  auto one = read_archives(archives, dir.path() / "one", 1, quiet);
  auto several = read_archives(archives, dir.path() / "several", 3, quiet);
  REQUIRE(one.ok());
  REQUIRE(several.ok());
  REQUIRE(one->plan.files.size() == several->plan.files.size());
  for (std::size_t i = 0; i < one->plan.files.size(); ++i) {
    CAPTURE(i);
    CHECK(one->plan.files[i].relative_path == several->plan.files[i].relative_path);
    CHECK(one->plan.files[i].record == several->plan.files[i].record);
    CHECK(read_text(one->plan.files[i].absolute_path) == read_text(several->plan.files[i].absolute_path));
  }
  REQUIRE(one->plan.skipped.size() == several->plan.skipped.size());
  for (std::size_t i = 0; i < one->plan.skipped.size(); ++i) {
    CHECK(one->plan.skipped[i].reason == several->plan.skipped[i].reason);
  }
  CHECK(one->counts.records == several->counts.records);
  CHECK(several->counts.archives == 5);
  CHECK(several->counts.older_captures == 4);
  const int first = file_of(several->plan, "http://example.org/0.html");
  REQUIRE(first >= 0);
  CHECK(several->plan.files[first].record.starts_with("crawl-4.warc@"));
  CHECK(read_text(several->plan.files[first].absolute_path) == html("http://example.org/0.html from archive 4"));
}
