/// @file test_urls_cli.cpp
/// @brief `canon urls learn|normalize|export` end to end: runs the built canon binary
/// (CANON_BINARY) on a small site with /print/ copies, and on bad rule files.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/canon_cli.h"
#include "support/temp_dir.h"

namespace {

using canon::testing::read_file;
using canon::testing::Run;
using canon::testing::run_canon;

/// A page of ~150 words of its own (pages differ in every word, so only copies cluster).
std::string page_html(int n) {
  std::string body;
  for (int w = 0; w < 150; ++w) body += "w" + std::to_string(n * 1000 + (w * 7919) % 997) + " ";
  return "<html><head><title>Page " + std::to_string(n) + "</title></head><body><h1>Page " + std::to_string(n) +
         "</h1><p>" + body + "</p></body></html>";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("canon urls: learn /print/ copies, normalise with the rules, export duplicates") {
  canon::testing::TempDir dir;
  for (int i = 0; i < 40; ++i) {
    dir.write("site/docs/p" + std::to_string(i) + ".html", page_html(i));
    if (i < 30) dir.write("site/print/docs/p" + std::to_string(i) + ".html", page_html(i));
  }
  const Run index = run_canon(dir, "index site --out idx --quiet");
  REQUIRE(index.exit_code == 0);

  const Run learn = run_canon(dir, "urls learn idx");
  REQUIRE(learn.exit_code == 0);
  CHECK(learn.out.find("Learned 1 URL rule ") != std::string::npos);
  const auto rules = nlohmann::json::parse(read_file(dir.path() / "idx/url-rules.json"));
  CHECK(rules["format"] == "canon url rules");
  REQUIRE(rules["rules"].size() == 1);
  CHECK(rules["rules"][0]["kind"] == "path");
  CHECK(rules["rules"][0]["precision"] == 1.0);
  CHECK(rules["parameters"]["min_support"] == 2);

  // One line per input URL, in input order; untouched URLs come back RFC-normalised only.
  const Run normalized = run_canon(dir, "urls normalize --rules idx/url-rules.json "
                                        "http://localhost/print/docs/new.html HTTP://LOCALHOST:80/docs/./p1.html "
                                        "http://localhost/print/docs/p3.html");
  REQUIRE(normalized.exit_code == 0);
  CHECK(lines_of(normalized.out) ==
        std::vector<std::string>{"http://localhost/print/docs/new.html\thttp://localhost/docs/new.html",
                                 "HTTP://LOCALHOST:80/docs/./p1.html\thttp://localhost/docs/p1.html",
                                 "http://localhost/print/docs/p3.html\thttp://localhost/docs/p3.html"});
  dir.write("urls.txt", "http://localhost/print/a.html\nhttp://localhost/b.html\n");
  const Run from_stdin = run_canon(dir, "urls normalize --rules idx/url-rules.json - < urls.txt");
  REQUIRE(from_stdin.exit_code == 0);
  CHECK(lines_of(from_stdin.out) == std::vector<std::string>{"http://localhost/print/a.html\thttp://localhost/a.html",
                                                             "http://localhost/b.html\thttp://localhost/b.html"});
  // A bad URL is reported, the others still printed, and the exit status says so.
  const Run bad_url = run_canon(dir, "urls normalize --rules idx/url-rules.json 'not a url' http://localhost/print/x.html");
  CHECK(bad_url.exit_code == 1);
  CHECK(bad_url.err.find("URL 1 ('not a url')") != std::string::npos);
  CHECK(lines_of(bad_url.out) == std::vector<std::string>{"http://localhost/print/x.html\thttp://localhost/x.html"});

  const Run tsv = run_canon(dir, "urls export idx");
  REQUIRE(tsv.exit_code == 0);
  const auto pairs = lines_of(tsv.out);
  CHECK(pairs.size() == 30);
  for (const std::string& line : pairs) {
    CAPTURE(line);
    CHECK(line.starts_with("http://localhost/print/docs/p"));
    CHECK(line.find("\thttp://localhost/docs/p") != std::string::npos);
  }
  const Run nutch = run_canon(dir, "urls export idx --format nutch");
  REQUIRE(nutch.exit_code == 0);
  CHECK(nutch.out.find("<regex-normalize>") != std::string::npos);
  CHECK(nutch.out.find("print") != std::string::npos);
}

TEST_CASE("canon urls learn: a small site's print folder with its own listing page gets its rule") {
  // 50 print copies and print/index.html, a page of its own listing them: the rule /print/ -> /
  // would make the listing page http://localhost/, a URL the site does not have.
  canon::testing::TempDir dir;
  std::string listing = "<html><head><title>Printable pages</title></head><body><h1>Printable pages</h1><ul>";
  for (int i = 0; i < 60; ++i) {
    dir.write("site/docs/p" + std::to_string(i) + ".html", page_html(i));
    if (i < 50) {
      dir.write("site/print/docs/p" + std::to_string(i) + ".html", page_html(i));
      listing += "<li><a href=\"docs/p" + std::to_string(i) + ".html\">Page " + std::to_string(i) + "</a></li>";
    }
  }
  dir.write("site/print/index.html", listing + "</ul></body></html>");
  REQUIRE(run_canon(dir, "index site --out idx --quiet").exit_code == 0);
  const Run learn = run_canon(dir, "urls learn idx");
  REQUIRE(learn.exit_code == 0);
  CHECK(learn.out.find("Learned 1 URL rule ") != std::string::npos);
  CHECK(learn.out.find("1 exception: http://localhost/print/") != std::string::npos);
  CHECK(learn.out.find("0 indexed pages changed") != std::string::npos);
  const auto rules = nlohmann::json::parse(read_file(dir.path() / "idx/url-rules.json"));
  REQUIRE(rules["rules"].size() == 1);
  CHECK(rules["rules"][0]["except"] == nlohmann::json::array({"http://localhost/print/"}));
  CHECK(rules["rules"][0]["originals_changed"] == 1);
  const Run normalized =
      run_canon(dir, "urls normalize --rules idx/url-rules.json http://localhost/print/ http://localhost/print/docs/p7.html");
  REQUIRE(normalized.exit_code == 0);
  CHECK(lines_of(normalized.out) == std::vector<std::string>{"http://localhost/print/\thttp://localhost/print/",
                                                             "http://localhost/print/docs/p7.html\thttp://localhost/docs/p7.html"});
}

TEST_CASE("canon index --url-rules: pages the rules map to another page are duplicates, not read") {
  canon::testing::TempDir dir;
  for (int i = 0; i < 40; ++i) {
    dir.write("site/docs/p" + std::to_string(i) + ".html", page_html(i));
    if (i < 30) dir.write("site/print/docs/p" + std::to_string(i) + ".html", page_html(i));
  }
  REQUIRE(run_canon(dir, "index site --out idx --quiet").exit_code == 0);
  REQUIRE(run_canon(dir, "urls learn idx --out rules.json --quiet").exit_code == 0);
  // New print pages whose text differs from their page: only the rule can say they are copies.
  // One more print page whose page does not exist: the rule does not apply, it is read.
  dir.write("site/print/docs/p35.html", page_html(1035));
  dir.write("site/print/docs/p99.html", page_html(99));
  const Run index = run_canon(dir, "index site --out ruled --url-rules rules.json");  // its summary
  REQUIRE(index.exit_code == 0);
  CHECK(index.out.find("URL rules: 31 pages recorded as duplicates without being read (1 rules).") != std::string::npos);
  const auto lines = lines_of(read_file(dir.path() / "ruled/pages.jsonl"));
  std::size_t by_rule = 0;
  for (const std::string& line : lines) {
    const auto page = nlohmann::json::parse(line);
    const std::string path = page["path"];
    CAPTURE(path);
    if (path.starts_with("print/") && path != "print/docs/p99.html") {
      ++by_rule;
      CHECK(page["status"] == "duplicate");
      CHECK(page.contains("url_rule"));
      CHECK_FALSE(page.contains("title"));  // not read
      CHECK(page["authoritative"] == "http://localhost/docs/" + path.substr(std::string("print/docs/").size()));
    } else {
      CHECK_FALSE(page.contains("url_rule"));
    }
    if (path == "print/docs/p99.html") CHECK(page["status"] == "indexed");
  }
  CHECK(by_rule == 31);
  const auto summary = nlohmann::json::parse(read_file(dir.path() / "ruled/summary.json"));
  CHECK(summary["url_rules"]["pages_not_parsed"] == 31);

  // A re-index with the same rules gives what a full build gives, also after the page a rule
  // duplicate points to is deleted (the duplicate is then read).
  std::filesystem::remove(dir.path() / "site/docs/p3.html");
  const Run again = run_canon(dir, "index site --out ruled --url-rules rules.json");
  REQUIRE(again.exit_code == 0);
  CHECK(again.out.find("Re-indexed: 0 new, 0 changed, 1 deleted") != std::string::npos);
  REQUIRE(run_canon(dir, "index site --out full --url-rules rules.json --full --quiet").exit_code == 0);
  CHECK(read_file(dir.path() / "ruled/pages.jsonl") == read_file(dir.path() / "full/pages.jsonl"));
  CHECK(read_file(dir.path() / "ruled/pages.jsonl").find("\"path\":\"print/docs/p3.html\",\"status\":\"indexed\"") !=
        std::string::npos);
  // Without the rules, the store is not re-used: the pages it never read must be read now.
  const Run without = run_canon(dir, "index site --out ruled");
  REQUIRE(without.exit_code == 0);
  CHECK(without.out.find("Full build: the index was built with url_rules") != std::string::npos);
}

TEST_CASE("canon urls: bad rule files and bad directories get a clear error and a non-zero exit") {
  canon::testing::TempDir dir;
  dir.write("broken.json", "{\"rules\": [");
  dir.write("badregex.json", R"j({"rules": [{"kind": "path", "pattern": "(a", "rewrite": "x"}]})j");
  struct Case {
    std::string args;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"urls normalize --rules broken.json http://h/", 1, "canon: broken.json: not valid JSON"},
      {"urls normalize --rules badregex.json http://h/", 1, "canon: badregex.json: rule 1: pattern '(a'"},
      {"urls normalize --rules missing.json http://h/", 2, "canon: cannot open URL rule file missing.json"},
      {"urls learn no-such-index", 2, "no-such-index"},
      {"urls export no-such-index", 2, "no-such-index"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const Run run = run_canon(dir, c.args);
    CHECK(run.exit_code == c.exit_code);
    CHECK(run.err.find(c.message) != std::string::npos);
  }
}
