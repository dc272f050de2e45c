/// @file test_rank_cli.cpp
/// @brief `canon rank` end to end: runs the built canon binary (CANON_BINARY, from CMake) on
/// small edge lists and checks its output format, order, scores, stdin, and errors.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/canon_cli.h"
#include "support/temp_dir.h"

namespace {

using canon::testing::Run;
using canon::testing::run_canon;

struct Line {
  std::string id;
  double score;
};

/// Parses `id<TAB>score` lines; fails the test on anything else.
std::vector<Line> parse(const std::string& out) {
  std::vector<Line> lines;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    REQUIRE(line.find('\t', tab + 1) == std::string::npos);
    char* end = nullptr;
    const double score = std::strtod(line.c_str() + tab + 1, &end);
    REQUIRE(*end == '\0');
    lines.push_back({line.substr(0, tab), score});
  }
  return lines;
}

double total(const std::vector<Line>& lines) {
  double sum = 0;
  for (const Line& l : lines) sum += l.score;
  return sum;
}

bool sorted(const std::vector<Line>& lines) {
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const Line &a = lines[i - 1], &b = lines[i];
    if (a.score < b.score || (a.score == b.score && a.id >= b.id)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("hand-computed graph: sorted scores summing to 1, summary on stderr") {
  canon::testing::TempDir dir;
  // 0 -> 1, 0 -> 2, 1 -> 2 (2 dangling): x = (800, 1140, 2109) / 4049 (test_pagerank.cpp).
  dir.write("g.tsv", "# a small graph\nzero\tone\nzero\ttwo\none\ttwo\none\ttwo\ntwo\ttwo\n");
  const Run run = run_canon(dir, "rank g.tsv");
  CHECK(run.exit_code == 0);
  CHECK(run.err.starts_with("canon rank: 3 nodes, 3 edges, "));
  CHECK(run.err.ends_with(" iterations, converged\n"));
  const std::vector<Line> lines = parse(run.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].id == "two");
  CHECK(lines[1].id == "one");
  CHECK(lines[2].id == "zero");
  CHECK(lines[0].score == doctest::Approx(2109.0 / 4049).epsilon(1e-9));
  CHECK(lines[1].score == doctest::Approx(1140.0 / 4049).epsilon(1e-9));
  CHECK(lines[2].score == doctest::Approx(800.0 / 4049).epsilon(1e-9));
  CHECK(std::abs(total(lines) - 1.0) <= 1e-12);
}

TEST_CASE("stdin, CRLF, threads and --nodes") {
  canon::testing::TempDir dir;
  std::string tsv, crlf;
  for (int i = 0; i < 3000; ++i) {  // enough nodes for several blocks of work
    const std::string line = "p" + std::to_string(i) + "\tp" + std::to_string((i * 7 + 3) % 2000);
    tsv += line + "\n";
    crlf += line + "\r\n";
  }
  dir.write("g.tsv", tsv);
  dir.write("crlf.tsv", crlf);
  const Run file = run_canon(dir, "rank g.tsv --threads 1");
  REQUIRE(file.exit_code == 0);
  const std::vector<Line> lines = parse(file.out);
  CHECK(lines.size() == 3000);
  CHECK(sorted(lines));
  CHECK(std::abs(total(lines) - 1.0) <= 1e-12);

  SUBCASE("stdin via -") {
    const Run piped = run_canon(dir, "rank - --threads 1 < g.tsv");
    CHECK(piped.exit_code == 0);
    CHECK(piped.out == file.out);
    const Run cat = run_canon(dir, "rank - < /dev/null");
    CHECK(cat.exit_code == 0);
    CHECK(cat.out.empty());
    CHECK(cat.err == "canon rank: 0 nodes, 0 edges, 0 iterations, converged\n");
  }
  SUBCASE("CRLF files give the same output") {
    CHECK(run_canon(dir, "rank crlf.tsv --threads 1").out == file.out);
  }
  SUBCASE("thread counts give the same output") {
    CHECK(run_canon(dir, "rank g.tsv --threads 2").out == file.out);
    CHECK(run_canon(dir, "rank g.tsv --threads 0").out == file.out);
  }
  SUBCASE("--nodes adds isolated nodes, tied and ordered by id") {
    dir.write("nodes.txt", "p5\nlonely-b\nlonely-a\n");
    const Run with_nodes = run_canon(dir, "rank g.tsv --nodes nodes.txt -q");
    CHECK(with_nodes.exit_code == 0);
    CHECK(with_nodes.err.empty());
    const std::vector<Line> all = parse(with_nodes.out);
    REQUIRE(all.size() == 3002);
    CHECK(sorted(all));
    CHECK(std::abs(total(all) - 1.0) <= 1e-12);
    // The lowest score is shared by the nodes without in-links: p2000..p2999 and the two new
    // ones, which sort first among them by id.
    CHECK(all[2000].id == "lonely-a");
    CHECK(all[2001].id == "lonely-b");
    CHECK(all[2002].id == "p2000");
    CHECK(all.back().id == "p2999");
    CHECK(all[2000].score == all.back().score);
    CHECK(all[1999].score > all[2000].score);
  }
}

TEST_CASE("options: --max-iterations, --damping, --timings") {
  canon::testing::TempDir dir;
  dir.write("g.tsv", "a\tb\nb\tc\nc\ta\na\tc\n");
  const Run one = run_canon(dir, "rank g.tsv --max-iterations 1");
  CHECK(one.exit_code == 0);
  CHECK(one.err == "canon rank: 3 nodes, 4 edges, 1 iterations, stopped at max iterations\n");
  CHECK(std::abs(total(parse(one.out)) - 1.0) <= 1e-12);

  const Run zero = run_canon(dir, "rank g.tsv --damping 0");
  CHECK(zero.exit_code == 0);
  for (const Line& l : parse(zero.out)) CHECK(l.score == doctest::Approx(1.0 / 3).epsilon(1e-15));

  const Run timed = run_canon(dir, "rank g.tsv --timings -q");
  CHECK(timed.exit_code == 0);
  CHECK(timed.err.starts_with("canon rank timings: load_s="));
  CHECK(timed.err.find(" pagerank_s=") != std::string::npos);

  CHECK(run_canon(dir, "rank g.tsv --damping 1").exit_code != 0);
  CHECK(run_canon(dir, "rank g.tsv --tolerance 0").exit_code != 0);
  CHECK(run_canon(dir, "rank").exit_code != 0);
}

TEST_CASE("errors: exit status 1, 'canon: EDGES:LINE: ...' on stderr, nothing on stdout") {
  canon::testing::TempDir dir;
  struct Case {
    std::string text, error;
  };
  const std::vector<Case> cases{
      {"a\tb\nb c\n", "canon: bad.tsv:2: no tab; expected 'source<TAB>target'\n"},
      {"a\tb\tc\n", "canon: bad.tsv:1: more than one tab; expected 'source<TAB>target'\n"},
      {"# x\r\n\tb\r\n", "canon: bad.tsv:2: empty source id\n"},
      {"a\t\n", "canon: bad.tsv:1: empty target id\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    dir.write("bad.tsv", c.text);
    const Run run = run_canon(dir, "rank bad.tsv");
    CHECK(run.exit_code == 1);
    CHECK(run.err == c.error);
    CHECK(run.out.empty());
  }
  dir.write("bad.tsv", "x\n");
  const Run piped = run_canon(dir, "rank - < bad.tsv");
  CHECK(piped.exit_code == 1);
  CHECK(piped.err == "canon: stdin:1: no tab; expected 'source<TAB>target'\n");

  const Run missing = run_canon(dir, "rank missing.tsv");
  CHECK(missing.exit_code == 1);
  CHECK(missing.err == "canon: cannot open missing.tsv: No such file or directory\n");

  dir.write("g.tsv", "a\tb\n");
  dir.write("nodes.txt", "c\td\n");
  const Run bad_nodes = run_canon(dir, "rank g.tsv --nodes nodes.txt");
  CHECK(bad_nodes.exit_code == 1);
  CHECK(bad_nodes.err == "canon: nodes.txt:1: a node id cannot contain a tab\n");

  const Run directory = run_canon(dir, "rank .");
  CHECK(directory.exit_code == 1);
  CHECK(directory.err == "canon: .: is a directory\n");
}
