/// @file test_metrics.cpp
/// @brief `canon eval dedup`'s scores against hand-computed cases: perfect, empty, all-in-one,
/// chained clusters, pairwise vs after union-find, page-level and authority counts, the 0/0
/// conventions, and the readers' errors (eval/metrics.h, eval/truth.h).
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "eval/metrics.h"
#include "eval/truth.h"
#include "support/canon_index.h"
#include "support/temp_dir.h"

using canon::eval::count_cluster_pairs;
using canon::eval::count_pairs;
using canon::eval::PageCounts;
using canon::eval::PairCounts;
using Labels = std::vector<std::uint64_t>;
using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

namespace {

PairCounts counts(std::uint64_t tp, std::uint64_t fp, std::uint64_t fn) { return {tp, fp, fn}; }

}  // namespace

TEST_CASE("perfect clustering: every true pair found, nothing else") {
  // Pages 0..5; true clusters {0,1,2} {3} {4,5}: 3 + 1 true pairs.
  const Labels truth{0, 0, 0, 1, 2, 2};
  const Labels detected{7, 7, 7, 3, 9, 9};
  const PairCounts after = count_cluster_pairs(truth, detected);
  CHECK(after == counts(4, 0, 0));
  CHECK(after.precision() == 1.0);
  CHECK(after.recall() == 1.0);
  CHECK(after.f1() == 1.0);
  const PairCounts before = count_pairs(truth, Pairs{{0, 1}, {1, 2}, {0, 2}, {4, 5}});
  CHECK(before == counts(4, 0, 0));
}

TEST_CASE("no duplicates at all: 0/0 scores are 1") {
  const Labels truth{0, 1, 2, 3};
  const PairCounts none = count_cluster_pairs(truth, Labels{5, 6, 7, 8});
  CHECK(none == counts(0, 0, 0));
  CHECK(none.precision() == 1.0);  // no detected pair: nothing claimed wrongly
  CHECK(none.recall() == 1.0);     // no true pair: nothing to find
  CHECK(none.f1() == 1.0);
  CHECK(count_pairs(truth, Pairs{}) == counts(0, 0, 0));

  // Nothing detected but something to find: precision 1 (vacuous), recall 0, F1 0.
  const PairCounts missed = count_pairs(Labels{0, 0, 1}, Pairs{});
  CHECK(missed == counts(0, 0, 1));
  CHECK(missed.precision() == 1.0);
  CHECK(missed.recall() == 0.0);
  CHECK(missed.f1() == 0.0);

  // Something detected, nothing to find: precision 0, recall 1 (vacuous), F1 0.
  const PairCounts spurious = count_pairs(truth, Pairs{{0, 3}});
  CHECK(spurious == counts(0, 1, 0));
  CHECK(spurious.precision() == 0.0);
  CHECK(spurious.recall() == 1.0);
  CHECK(spurious.f1() == 0.0);

  // Page-level counts over no pages, and over negatives only.
  const PageCounts empty;
  CHECK(empty.sensitivity() == 1.0);
  CHECK(empty.specificity() == 1.0);
  CHECK(empty.precision() == 1.0);
  CHECK(empty.accuracy() == 1.0);
  CHECK(empty.f1() == 1.0);
  const PageCounts negatives{0, 0, 5, 0};
  CHECK(negatives.sensitivity() == 1.0);
  CHECK(negatives.specificity() == 1.0);
  CHECK(negatives.f1() == 1.0);
}

TEST_CASE("all pages in one detected cluster") {
  // True {0,1} {2} {3}; detected {0,1,2,3}: 6 detected pairs, 1 true.
  const PairCounts c = count_cluster_pairs(Labels{0, 0, 1, 2}, Labels{4, 4, 4, 4});
  CHECK(c == counts(1, 5, 0));
  CHECK(c.precision() == doctest::Approx(1.0 / 6));
  CHECK(c.recall() == 1.0);
  CHECK(c.f1() == doctest::Approx(2.0 / 7));  // 2PR/(P+R) = (2/6)/(7/6)
}

TEST_CASE("chained pairs: A~B and B~C against truth {A,B},{C}") {
  const Labels truth{0, 0, 1};  // A, B, C
  const Pairs detected{{0, 1}, {1, 2}};
  const PairCounts before = count_pairs(truth, detected);
  CHECK(before == counts(1, 1, 0));
  CHECK(before.precision() == 0.5);
  CHECK(before.recall() == 1.0);
  CHECK(before.f1() == doctest::Approx(2.0 / 3));
  // Union-find merges A, B and C: A~C is claimed too.
  const PairCounts after = count_cluster_pairs(truth, Labels{0, 0, 0});
  CHECK(after == counts(1, 2, 0));
  CHECK(after.precision() == doctest::Approx(1.0 / 3));
  CHECK(after.f1() == doctest::Approx(0.5));
}

TEST_CASE("union-find recovers a pair the detector missed") {
  // True {A,B,C}; verified A~B and B~C, but A~C fell below the threshold.
  const Labels truth{0, 0, 0};
  const PairCounts before = count_pairs(truth, Pairs{{0, 1}, {2, 1}});
  CHECK(before == counts(2, 0, 1));
  CHECK(before.recall() == doctest::Approx(2.0 / 3));
  CHECK(before.f1() == doctest::Approx(0.8));
  const PairCounts after = count_cluster_pairs(truth, Labels{1, 1, 1});
  CHECK(after == counts(3, 0, 0));
  CHECK(after.f1() == 1.0);
}

TEST_CASE("detected pairs: order, repeats and self-pairs do not count twice") {
  const Labels truth{0, 0, 1, 1};
  CHECK(count_pairs(truth, Pairs{{1, 0}, {0, 1}, {0, 1}, {2, 2}, {3, 2}, {0, 3}}) ==
        counts(2, 1, 0));
}

namespace {

canon::eval::IndexRecord record(std::string path, std::string status,
                                std::optional<std::uint64_t> cluster = {},
                                std::string authoritative = "") {
  canon::eval::IndexRecord r;
  r.path = path;
  r.url = "http://localhost/" + path;
  r.status = canon::indexer::parse_page_status(status).value();
  r.cluster = cluster;
  if (!authoritative.empty()) r.authoritative = "http://localhost/" + authoritative;
  return r;
}

/// Truth {a, a1, a2} {b, b1} {c}. The index finds a~a1, misses a2, collapses b into its copy
/// b1 and skips c.
canon::eval::Truth sample_truth() { return {{{"a", "a1", "a2"}, {"b", "b1"}, {"c"}}, {}}; }

canon::eval::IndexVerdict sample_verdict() {
  canon::eval::IndexVerdict v;
  v.pages = {record("a", "indexed", 0, "a"),   record("a1", "duplicate", 0, "a"),
             record("a2", "indexed", 5, "a2"), record("b", "duplicate", 1, "b1"),
             record("b1", "indexed", 1, "b1"), record("c", "skipped")};
  v.pairs = std::vector<canon::eval::IndexPair>{{"http://localhost/a", "http://localhost/a1", 0.9},
                                                {"http://localhost/b", "http://localhost/b1", 0.8}};
  return v;
}

}  // namespace

TEST_CASE("evaluate_dedup: pairwise, page-level and authority counts of a small verdict") {
  auto e = canon::eval::evaluate_dedup(sample_truth(), sample_verdict());
  REQUIRE_MESSAGE(e.ok(), (e.ok() ? "" : e.status().message()));
  CHECK(e->pages == 6);
  CHECK(e->true_clusters == 2);
  CHECK(e->copies == 3);
  // True pairs: aa1 aa2 a1a2 bb1. Detected clusters {a,a1} {a2} {b,b1} {c}.
  REQUIRE(e->before_union_find);
  CHECK(*e->before_union_find == counts(2, 0, 2));
  CHECK(e->after_union_find == counts(2, 0, 2));
  // Positives (copies): a1 a2 b1. Predicted (duplicate): a1 b.
  CHECK(e->page_counts == PageCounts{1, 1, 2, 2});
  CHECK(e->page_counts.sensitivity() == doctest::Approx(1.0 / 3));
  CHECK(e->page_counts.specificity() == doctest::Approx(2.0 / 3));
  CHECK(e->page_counts.precision() == doctest::Approx(0.5));
  CHECK(e->page_counts.accuracy() == doctest::Approx(0.5));
  CHECK(e->page_counts.f1() == doctest::Approx(0.4));
  // a keeps its place; b lost it to its copy. Both clusters were found.
  CHECK(e->authority.clusters == 2);
  CHECK(e->authority.original_indexed == 1);
  CHECK(e->authority.found == 2);
  CHECK(e->authority.found_original_indexed == 1);
  CHECK(e->authority.accuracy() == 0.5);

  const auto j = canon::eval::to_json(e.value());
  CHECK(j["pairwise"]["after_union_find"]["recall"] == 0.5);
  CHECK(j["page_level"]["true_negatives"] == 2);
  CHECK(j["authority"]["found_accuracy"] == 0.5);
  const std::string text = canon::eval::render_text(e.value());
  CHECK(text.find("before union-find") != std::string::npos);
  CHECK(text.find("after union-find") != std::string::npos);
}

TEST_CASE("evaluate_dedup: skipped and redirect pages are singletons; pairs.tsv is optional") {
  canon::eval::IndexVerdict v = sample_verdict();
  v.pairs.reset();
  v.pages[0] = record("a", "redirect");
  v.pages[1] = record("a1", "skipped");
  auto e = canon::eval::evaluate_dedup(sample_truth(), v);
  REQUIRE(e.ok());
  CHECK_FALSE(e->before_union_find);
  CHECK(e->after_union_find == counts(1, 0, 3));  // only b~b1
  CHECK(e->authority.found == 1);
  CHECK(canon::eval::to_json(e.value())["pairwise"]["before_union_find"].is_null());
}

TEST_CASE("evaluate_dedup: an index of another site is an error") {
  auto extra = sample_verdict();
  extra.pages.push_back(record("d", "indexed", 9, "d"));
  auto e = canon::eval::evaluate_dedup(sample_truth(), extra);
  REQUIRE_FALSE(e.ok());
  CHECK(e.status().message().find("'d'") != std::string::npos);

  auto missing = sample_verdict();
  missing.pages.pop_back();
  e = canon::eval::evaluate_dedup(sample_truth(), missing);
  REQUIRE_FALSE(e.ok());
  CHECK(e.status().message().find("'c'") != std::string::npos);

  auto bad_pair = sample_verdict();
  bad_pair.pairs->push_back({"http://localhost/a", "http://localhost/c", 0.7});  // c was skipped
  e = canon::eval::evaluate_dedup(sample_truth(), bad_pair);
  REQUIRE_FALSE(e.ok());
  CHECK(e.status().message().find("pairs.tsv") != std::string::npos);
}

TEST_CASE(
    "read_truth: valid files, and clear errors for missing, malformed and inconsistent ones") {
  canon::testing::TempDir dir;
  const auto good = dir.write(
      "truth.json", R"({"seed": 1, "clusters": [["a.html", "mirror/a.html"], ["b.html"]]})");
  auto truth = canon::eval::read_truth(good);
  REQUIRE(truth.ok());
  CHECK(truth->clusters ==
        std::vector<std::vector<std::string>>{{"a.html", "mirror/a.html"}, {"b.html"}});

  auto missing = canon::eval::read_truth(dir.path() / "nope.json");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message().find("cannot read truth file") != std::string::npos);

  const struct {
    const char* json;
    const char* message;
  } bad[] = {
      {"{\"clusters\": [[\"a\"]", "not valid JSON"},
      {"[]", "\"clusters\" array"},
      {"{\"clusters\": [\"a\"]}", "array of paths"},
      {"{\"clusters\": [[1]]}", "path string"},
      {"{\"clusters\": [[]]}", "empty"},
      {"{\"clusters\": [[\"a\"], [\"b\", \"a\"]]}", "more than one cluster"},
  };
  for (const auto& c : bad) {
    CAPTURE(c.json);
    auto t = canon::eval::read_truth(dir.write("bad.json", c.json));
    REQUIRE_FALSE(t.ok());
    CHECK(t.status().message().find(c.message) != std::string::npos);
  }
}

TEST_CASE("read_index_verdict: pages.jsonl and pairs.tsv, and their errors") {
  canon::testing::TempDir dir;
  auto none = canon::eval::read_index_verdict(dir.path());
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message().find("is not a canon index") != std::string::npos);
  canon::testing::make_empty_canon_index(dir.path() / "index");
  none = canon::eval::read_index_verdict(dir.path() / "index");
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message().find("has no pages.jsonl") != std::string::npos);

  dir.write(
      "index/pages.jsonl",
      R"({"path":"a.html","url":"http://localhost/a.html","status":"indexed","cluster":0,)"
      R"("authoritative":"http://localhost/a.html"})"
      "\n"
      R"({"path":"b.html","status":"skipped","reason":"empty file"})"
      "\n");
  auto v = canon::eval::read_index_verdict(dir.path() / "index");
  REQUIRE(v.ok());
  REQUIRE(v->pages.size() == 2);
  CHECK(v->pages[0].cluster == std::optional<std::uint64_t>(0));
  CHECK_FALSE(v->pages[1].cluster);
  CHECK_FALSE(v->pairs);

  dir.write("index/pairs.tsv", "http://localhost/a.html\thttp://localhost/b.html\t0.75\n");
  v = canon::eval::read_index_verdict(dir.path() / "index");
  REQUIRE(v.ok());
  REQUIRE(v->pairs);
  REQUIRE(v->pairs->size() == 1);
  CHECK((*v->pairs)[0].similarity == 0.75);

  dir.write("index/pairs.tsv", "http://localhost/a.html\t0.75\n");
  v = canon::eval::read_index_verdict(dir.path() / "index");
  REQUIRE_FALSE(v.ok());
  CHECK(v.status().message().find("pairs.tsv' line 1") != std::string::npos);

  dir.write("index/pages.jsonl", "{\"path\":\"a.html\",\"status\":\"indexed\"}\n");
  v = canon::eval::read_index_verdict(dir.path() / "index");
  REQUIRE_FALSE(v.ok());
  CHECK(v.status().message().find("line 1") != std::string::npos);
  dir.write("index/pages.jsonl", "not json\n");
  v = canon::eval::read_index_verdict(dir.path() / "index");
  REQUIRE_FALSE(v.ok());
  CHECK(v.status().message().find("not a JSON object") != std::string::npos);
}

TEST_CASE("parse_truth: \"names\", how many of each cluster's first pages are the source's own (table)") {
  struct Case {
    const char* comment;
    const char* json;
    bool ok;
    std::vector<std::size_t> names;
  };
  const std::vector<Case> cases = {
      {"absent: one name per cluster", R"({"clusters": [["a", "a1"], ["b"]]})", true, {}},
      {"two names, then a copy", R"({"clusters": [["a", "b", "a1"], ["c"]], "names": [2, 1]})", true, {2, 1}},
      {"a count per cluster", R"({"clusters": [["a"], ["b"]], "names": [1]})", false, {}},
      {"no name", R"({"clusters": [["a", "a1"]], "names": [0]})", false, {}},
      {"more names than pages", R"({"clusters": [["a"]], "names": [2]})", false, {}},
      {"not counts", R"({"clusters": [["a"]], "names": ["1"]})", false, {}},
      {"not an array", R"({"clusters": [["a"]], "names": 1})", false, {}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.comment);
    const auto truth = canon::eval::parse_truth(c.json, "t.json");
    CHECK(truth.ok() == c.ok);
    if (truth.ok()) {
      CHECK(truth.value().names == c.names);
    } else {
      CHECK(truth.status().message().find("t.json") != std::string::npos);
    }
  }
}
