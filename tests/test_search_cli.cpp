/// @file test_search_cli.cpp
/// @brief `canon index` and `canon search` run as the built binary: output, exit codes, errors.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/temp_dir.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Run {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string shell_quote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Runs the canon binary with `args`, stdin from /dev/null, capturing stdout and stderr.
Run run_canon(const std::vector<std::string>& args) {
  static canon::testing::TempDir scratch;
  std::string command = shell_quote(CANON_BINARY);
  for (const std::string& arg : args) command += " " + shell_quote(arg);
  const fs::path out = scratch.path() / "out", err = scratch.path() / "err";
  command += " </dev/null >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  const int status = std::system(command.c_str());
  REQUIRE(status != -1);
  Run run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = slurp(out);
  run.err = slurp(err);
  return run;
}

fs::path sample_site() {
  const char* source = std::getenv("CANON_SOURCE_DIR");
  REQUIRE_MESSAGE(source != nullptr, "CANON_SOURCE_DIR is set by ctest");
  return fs::path(source) / "sample_site";
}

/// sample_site indexed by the binary, once per collapse mode.
const fs::path& sample_index(bool query_time_collapse = false) {
  static canon::testing::TempDir dir;
  static fs::path built[2];
  fs::path& index = built[query_time_collapse ? 1 : 0];
  if (index.empty()) {
    const fs::path out = dir.path() / (query_time_collapse ? "query" : "index");
    std::vector<std::string> args{"index", sample_site().string(), "--out", out.string()};
    if (query_time_collapse) args.push_back("--no-collapse");
    const Run run = run_canon(args);
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(run.out.find("30 indexed") != std::string::npos);
    index = out;
  }
  return index;
}

}  // namespace

TEST_CASE("search prints ranked results with their alternates and exits 0") {
  const Run run =
      run_canon({"search", sample_index().string(), "shell", "completions", "--limit", "1"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  CHECK(run.err.empty());
  CHECK(run.out.starts_with("About 2 results; showing 1-1.\n"));
  // The sample site's titles all end in " — Larder": the result shows the title without it.
  CHECK(run.out.find("1. Installing Larder\n   http://localhost/docs/install.html\n") != std::string::npos);
  CHECK(run.out.find("   also at: http://localhost/mirror/docs/install.html (1.00)\n") !=
        std::string::npos);
  CHECK(run.out.find("\033[") == std::string::npos);  // no highlighting when not on a terminal

  const Run none = run_canon({"search", sample_index().string(), "zeppelin"});
  CHECK(none.exit_code == 0);
  CHECK(none.out == "No results for \"zeppelin\".\n");
}

TEST_CASE("--json, --limit, --offset, --static-weight") {
  const Run first =
      run_canon({"search", sample_index().string(), "backup", "--json", "--limit", "3"});
  REQUIRE_MESSAGE(first.exit_code == 0, first.err);
  const json page1 = json::parse(first.out);
  CHECK(page1["query"] == "backup");
  CHECK(page1["collapse"] == "index");
  REQUIRE(page1["results"].size() == 3);
  CHECK(page1["results"][0]["rank"] == 1);

  const Run second = run_canon(
      {"search", sample_index().string(), "backup", "--json", "--limit", "3", "--offset", "3"});
  REQUIRE(second.exit_code == 0);
  const json page2 = json::parse(second.out);
  REQUIRE_FALSE(page2["results"].empty());
  CHECK(page2["results"][0]["rank"] == 4);
  for (const auto& hit : page1["results"]) CHECK(hit["url"] != page2["results"][0]["url"]);

  // With no static score the weights are BM25's alone: lower than with the default.
  const Run bm25 =
      run_canon({"search", sample_index().string(), "backup", "--json", "--static-weight", "0"});
  REQUIRE(bm25.exit_code == 0);
  const Run boosted =
      run_canon({"search", sample_index().string(), "backup", "--json", "--static-weight", "5"});
  REQUIRE(boosted.exit_code == 0);
  const json bm25_results = json::parse(bm25.out), boosted_results = json::parse(boosted.out);
  double bm25_max = 0, boosted_max = 0;
  for (const auto& hit : bm25_results["results"])
    bm25_max = std::max(bm25_max, hit["weight"].get<double>());
  for (const auto& hit : boosted_results["results"])
    boosted_max = std::max(boosted_max, hit["weight"].get<double>());
  CHECK(boosted_max > bm25_max);
}

TEST_CASE("query syntax through the CLI: phrases, title:, site:, path:, NOT") {
  const auto urls = [](const std::vector<std::string>& query) {
    std::vector<std::string> args{"search", sample_index().string()};
    args.insert(args.end(), query.begin(), query.end());
    args.insert(args.end(), {"--json", "--limit", "100"});
    const Run run = run_canon(args);
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const json results = json::parse(run.out);
    std::vector<std::string> found;
    for (const auto& hit : results["results"]) found.push_back(hit["url"]);
    return found;
  };
  CHECK(urls({"\"millions of chunks\""}) ==
        std::vector<std::string>{"http://localhost/news/release-2-0.html"});
  for (const std::string& url : urls({"backup", "path:/docs/tutorials/"})) {
    CHECK(url.starts_with("http://localhost/docs/tutorials/"));
  }
  CHECK_FALSE(urls({"backup", "path:/docs/tutorials/"}).empty());
  CHECK(urls({"backup", "site:example.org"}).empty());
  CHECK(urls({"backup", "site:localhost"}).size() == urls({"backup"}).size());
  CHECK(urls({"title:installing"}).front() == "http://localhost/docs/install.html");
  CHECK(urls({"backup", "NOT", "path:/docs/"}).size() < urls({"backup"}).size());
}

TEST_CASE("--no-collapse index: one result per cluster, the best-matching copy marked") {
  const Run run = run_canon({"search", sample_index(true).string(), "chunk_max_size"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  CHECK(run.out.find("   http://localhost/docs/upgrading.html\n") != std::string::npos);
  CHECK(run.out.find("   also at: http://localhost/docs/v1/upgrading.html (") != std::string::npos);
  CHECK(run.out.find(", best match)\n") != std::string::npos);
  const Run json_run =
      run_canon({"search", sample_index(true).string(), "shell completions", "--json"});
  REQUIRE(json_run.exit_code == 0);
  const json results = json::parse(json_run.out);
  CHECK(results["collapse"] == "query");
  CHECK(results["results"][0]["url"] == "http://localhost/docs/install.html");
}

TEST_CASE("errors: a message on stderr and the exit status of the error's kind") {
  canon::testing::TempDir dir;
  dir.write("corrupt/xapian/iamglass", "garbage");
  dir.write("corrupt/summary.json", "{}");
  dir.write("plain/notes.txt", "not an index");
  constexpr int kOptionError = 100;  // CLI11's own codes for bad options are above this
  struct Row {
    std::vector<std::string> args;
    const char* message_part;
    int exit_code;  // README, "Exit status"
  };
  const Row rows[] = {
      {{"search", sample_index().string(), "\"unclosed phrase"},
       "canon: malformed query: a phrase is missing", 1},
      {{"search", sample_index().string(), "(backup", "OR", "restore"},
       "canon: malformed query: '(' without", 1},
      {{"search", sample_index().string(), "-"}, "canon: the query has no searchable words", 1},
      {{"search", (dir.path() / "missing").string(), "backup"}, "does not exist", 2},
      {{"search", (dir.path() / "plain").string(), "backup"}, "is not a canon index", 3},
      {{"search", (dir.path() / "corrupt").string(), "backup"}, "canon: cannot open the index", 5},
      {{"search", sample_index().string(), "backup", "--limit", "0"}, "--limit", kOptionError},
      {{"search", sample_index().string(), "backup", "--static-weight", "-1"}, "--static-weight", kOptionError},
      {{"search", sample_index().string(), "backup", "--static-score", "magic"}, "--static-score", kOptionError},
      {{"search", sample_index().string()}, "QUERY is required", kOptionError},
      {{"index", (dir.path() / "no-site").string(), "--out", (dir.path() / "o").string()},
       "does not exist", 2},
  };
  for (const Row& row : rows) {
    std::string joined;
    for (const auto& arg : row.args) joined += arg + " ";
    CAPTURE(joined);
    const Run run = run_canon(row.args);
    if (row.exit_code == kOptionError) {
      CHECK(run.exit_code > kOptionError);
    } else {
      CHECK(run.exit_code == row.exit_code);
    }
    CHECK(run.out.empty());
    CHECK_MESSAGE(run.err.find(row.message_part) != std::string::npos, run.err);
  }
}
