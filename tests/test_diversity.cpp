/// @file test_diversity.cpp
/// @brief `canon eval diversity`'s metrics against hand-computed cases (perfect, empty,
/// all-in-one, chained clusters, an α-nDCG worked example), the query file reader, the query
/// draw, and the three views of sample_site end to end (eval/diversity.h).
#include <doctest/doctest.h>

#include <cmath>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "eval/diversity.h"
#include "indexer/pipeline.h"
#include "support/canon_index.h"
#include "support/site_files.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::eval::alpha_ndcg_at_k;
using canon::eval::cluster_recall_at_k;
using canon::eval::distinct_at_k;
using canon::eval::dup_at_k;
using canon::eval::QueryRelevance;
using canon::testing::TempDir;
using Ranking = std::vector<std::uint64_t>;

using canon::testing::sample_site;

namespace {

QueryRelevance relevance(std::initializer_list<std::pair<const std::uint64_t, std::size_t>> sizes) {
  return QueryRelevance{{sizes}};
}

/// 1 / log2(1 + rank), rank 1-based.
double d(int rank) { return 1.0 / std::log2(1.0 + rank); }

}  // namespace

TEST_CASE("perfect ranking: one page of every relevant cluster") {
  const Ranking ranking{1, 2, 3};
  const auto rel = relevance({{1, 1}, {2, 1}, {3, 1}});
  CHECK(dup_at_k(ranking, 10) == 0.0);
  CHECK(distinct_at_k(ranking, 10) == 3);
  CHECK(cluster_recall_at_k(ranking, rel, 10) == 1.0);  // 3 of min(10, 3)
  CHECK(alpha_ndcg_at_k(ranking, rel, 10) == doctest::Approx(1.0));
  // Bigger relevant clusters do not change the ideal's first three gains.
  CHECK(alpha_ndcg_at_k(ranking, relevance({{1, 5}, {2, 2}, {3, 1}}), 3) == doctest::Approx(1.0));
}

TEST_CASE("empty ranking and empty relevance") {
  const Ranking none;
  const auto rel = relevance({{1, 2}});
  CHECK(dup_at_k(none, 10) == 0.0);  // nothing shown, nothing wasted
  CHECK(distinct_at_k(none, 10) == 0);
  CHECK(cluster_recall_at_k(none, rel, 10) == 0.0);
  CHECK(alpha_ndcg_at_k(none, rel, 10) == 0.0);
  // Nothing relevant: nothing to find (0/0 is 1, as in eval/metrics.h).
  CHECK(cluster_recall_at_k(none, QueryRelevance{}, 10) == 1.0);
  CHECK(alpha_ndcg_at_k(Ranking{4, 5}, QueryRelevance{}, 10) == 1.0);
  // Results of no relevant cluster gain nothing.
  CHECK(alpha_ndcg_at_k(Ranking{4, 5}, rel, 10) == 0.0);
  CHECK(cluster_recall_at_k(Ranking{4, 5}, rel, 10) == 0.0);
}

TEST_CASE("all results in one cluster") {
  const Ranking ranking{7, 7, 7, 7};
  CHECK(dup_at_k(ranking, 4) == 0.75);  // every result after the first repeats it
  CHECK(dup_at_k(ranking, 10) == 0.75);  // the share of the results there are
  CHECK(dup_at_k(ranking, 2) == 0.5);
  CHECK(distinct_at_k(ranking, 10) == 1);
  // The only relevant cluster, fully shown: ideal, recall 1 of min(4, 1).
  CHECK(cluster_recall_at_k(ranking, relevance({{7, 4}}), 4) == 1.0);
  CHECK(alpha_ndcg_at_k(ranking, relevance({{7, 4}}), 4) == doctest::Approx(1.0));
  // With a second relevant singleton cluster the ideal shows it second:
  // DCG = 1 + .5 d(2) + .25 d(3) + .125 d(4); ideal = 1 + d(2) + .5 d(3) + .25 d(4) -> 0.7514.
  const auto two = relevance({{7, 4}, {8, 1}});
  CHECK(alpha_ndcg_at_k(ranking, two, 4) == doctest::Approx(0.7514333090184517));
  CHECK(cluster_recall_at_k(ranking, two, 4) == 0.5);
}

TEST_CASE("chained clusters: the labels decide what counts as a duplicate") {
  // Pages A, B, C shown in that order. The detector chained A~B and B~C into one cluster; the
  // truth is {A, B}, {C}. Scored with detected labels the list looks more redundant than it is.
  const Ranking detected{5, 5, 5};
  const Ranking truth{0, 0, 1};
  CHECK(dup_at_k(detected, 10) == doctest::Approx(2.0 / 3));
  CHECK(distinct_at_k(detected, 10) == 1);
  CHECK(dup_at_k(truth, 10) == doctest::Approx(1.0 / 3));
  CHECK(distinct_at_k(truth, 10) == 2);
  CHECK(cluster_recall_at_k(truth, relevance({{0, 2}, {1, 1}}), 10) == 1.0);
  // Ideal for the truth: A (1), C (1), B (.5); shown: A (1), B (.5), C (1).
  CHECK(alpha_ndcg_at_k(truth, relevance({{0, 2}, {1, 1}}), 10) ==
        doctest::Approx((1 + 0.5 * d(2) + d(3)) / (1 + d(2) + 0.5 * d(3))));
}

TEST_CASE("alpha-nDCG worked example") {
  // Relevant clusters 1 (two pages), 2 and 3 (one page each); 9 is not relevant.
  // Ranking 1, 1, 2, 9 at k = 4, alpha = 0.5:
  //   gains 1, 0.5, 1, 0 -> DCG = 1 + 0.5/log2 3 + 1/log2 4          = 1.815465
  //   ideal 1, 1, 1, 0.5 -> IDCG = 1 + 1/log2 3 + 1/log2 4 + 0.5/log2 5 = 2.346268
  const Ranking ranking{1, 1, 2, 9};
  const auto rel = relevance({{1, 2}, {2, 1}, {3, 1}});
  CHECK(alpha_ndcg_at_k(ranking, rel, 4, 0.5) == doctest::Approx(0.7737670426202863));
  CHECK(dup_at_k(ranking, 4) == 0.25);
  CHECK(distinct_at_k(ranking, 4) == 3);                                 // 1, 2 and 9
  CHECK(cluster_recall_at_k(ranking, rel, 4) == doctest::Approx(2.0 / 3));  // 1, 2 of 3
  // alpha = 0: a repeat gains as much as a new cluster (binary nDCG over the relevant pages).
  CHECK(alpha_ndcg_at_k(ranking, rel, 4, 0.0) ==
        doctest::Approx((1 + d(2) + d(3)) / (1 + d(2) + d(3) + d(4))));
  // alpha = 1: only the first page of a cluster gains anything.
  CHECK(alpha_ndcg_at_k(ranking, rel, 4, 1.0) == doctest::Approx((1 + d(3)) / (1 + d(2) + d(3))));
  // The cut-off: only the top k count.
  CHECK(alpha_ndcg_at_k(ranking, rel, 1) == doctest::Approx(1.0));
  CHECK(dup_at_k(ranking, 1) == 0.0);
  CHECK(cluster_recall_at_k(ranking, rel, 1) == 1.0);  // 1 of min(1, 3)
}

TEST_CASE("read_queries: one per line, blank lines and # comments skipped") {
  TempDir dir;
  const auto file = dir.write("q.txt", "# queries\nshell completions\r\n\n  \"exact phrase\"  \n#x\n");
  auto queries = canon::eval::read_queries(file);
  REQUIRE(queries.ok());
  CHECK(queries.value() == std::vector<std::string>{"shell completions", "\"exact phrase\""});
  CHECK(!canon::eval::read_queries(dir.write("empty.txt", "# nothing\n\n")).ok());
  CHECK(!canon::eval::read_queries(dir.path() / "missing.txt").ok());
}

TEST_CASE("sample_queries: titles without the site name, reproducible for a seed") {
  TempDir dir;
  std::string pages;
  for (int i = 0; i < 30; ++i) {
    pages += R"({"authoritative":"x","cluster":)" + std::to_string(i) + R"(,"path":"p)" + std::to_string(i) +
             R"(.html","status":"indexed","title":"The )" +
             "Walrus" + std::to_string(i) + " Manual of Carpentry " + std::to_string(i) +
             R"( \u2014 Example Site 3.1 documentation"})" + "\n";
  }
  pages += R"({"authoritative":"x","cluster":0,"path":"z.html","status":"duplicate","title":"Zebra duplicate"})" "\n";
  dir.write("index/pages.jsonl", pages);
  canon::testing::make_empty_canon_index(dir.path() / "index");
  auto a = canon::eval::sample_queries(dir.path() / "index", "", 20, 7);
  REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.status().message()));
  auto b = canon::eval::sample_queries(dir.path() / "index", "", 20, 7);
  REQUIRE(b.ok());
  CHECK(a.value() == b.value());
  CHECK(a->size() == 20);
  std::set<std::string> distinct(a->begin(), a->end());
  CHECK(distinct.size() == a->size());
  for (const std::string& query : a.value()) {
    std::istringstream words(query);
    std::vector<std::string> w{std::istream_iterator<std::string>(words), {}};
    CHECK(!w.empty());
    CHECK(w.size() <= 3);
    for (const std::string& word : w) {
      // The site name, stop words, numbers and duplicates' titles never make a query.
      CHECK(word != "example");
      CHECK(word != "documentation");
      CHECK(word != "the");
      CHECK(word != "of");
      CHECK(word != "zebra");
      CHECK(word.find_first_not_of("0123456789") != std::string::npos);
    }
  }
  auto other = canon::eval::sample_queries(dir.path() / "index", "", 20, 8);
  REQUIRE(other.ok());
  CHECK(other.value() != a.value());
  // More queries asked for than titles: each title gives at most one.
  auto all = canon::eval::sample_queries(dir.path() / "index", "", 100, 7);
  REQUIRE(all.ok());
  CHECK(all->size() <= 30);
  CHECK(!canon::eval::sample_queries(dir.path() / "missing", "", 5, 1).ok());
}

TEST_CASE("evaluate_diversity on sample_site: three views, collapsed views without duplicates") {
  TempDir dir;
  canon::indexer::IndexOptions options;
  options.site_dir = sample_site();
  options.out_dir = dir.path() / "query-index";
  options.collapse = canon::indexer::CollapseMode::kQueryTime;
  options.show_progress = false;
  auto summary = canon::indexer::index_site(options);
  REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));
  const std::size_t indexed = summary->status_counts.at("indexed");
  const std::size_t duplicates = summary->status_counts.at("duplicate");

  canon::eval::DiversityOptions diversity;
  diversity.index_dir = options.out_dir;
  diversity.work_dir = dir.path();
  // "shell completions" matches the installation guide, its mirror and its printable copy.
  diversity.queries = {"shell completions", "install", "larder", "nosuchwordanywhere"};
  diversity.k = 5;
  auto e = canon::eval::evaluate_diversity(diversity);
  REQUIRE_MESSAGE(e.ok(), (e.ok() ? "" : e.status().message()));
  MESSAGE(canon::eval::render_text(e.value()));
  CHECK(e->subtopics == "detected");
  CHECK(e->scored_queries == 3);  // the last query matches nothing
  REQUIRE(e->modes.size() == 3);
  CHECK(e->modes[0].mode == "none");
  CHECK(e->modes[1].mode == "query");
  CHECK(e->modes[2].mode == "index");
  CHECK(e->modes[0].documents == indexed + duplicates);
  CHECK(e->modes[1].documents == indexed + duplicates);
  CHECK(e->modes[2].documents == indexed);
  CHECK(e->modes[2].index_bytes < e->modes[1].index_bytes);
  CHECK(e->modes[0].mean.dup > 0.0);
  CHECK(e->modes[1].mean.dup == 0.0);  // a detected cluster is one result
  CHECK(e->modes[2].mean.dup == 0.0);
  CHECK(e->modes[1].mean.distinct >= e->modes[0].mean.distinct);
  CHECK(e->modes[1].mean.cluster_recall >= e->modes[0].mean.cluster_recall);
  // Queries drawn from titles and, with the site, headings.
  auto drawn = canon::eval::sample_queries(options.out_dir, sample_site(), 200, 1);
  REQUIRE(drawn.ok());
  auto titles_only = canon::eval::sample_queries(options.out_dir, "", 200, 1);
  REQUIRE(titles_only.ok());
  CHECK(drawn->size() > titles_only->size());
  // The derived views are removed again.
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);

  // An index-time index does not hold the duplicates: a clear error.
  options.out_dir = dir.path() / "index-index";
  options.collapse = canon::indexer::CollapseMode::kIndexTime;
  REQUIRE(canon::indexer::index_site(options).ok());
  diversity.index_dir = options.out_dir;
  auto refused = canon::eval::evaluate_diversity(diversity);
  REQUIRE(!refused.ok());
  CHECK(refused.status().message().find("--no-collapse") != std::string::npos);

  // A truth of another site is an error; a malformed query names itself.
  diversity.index_dir = dir.path() / "query-index";
  diversity.truth_path = dir.write("truth.json", R"({"clusters": [["other.html"]]})");
  CHECK(!canon::eval::evaluate_diversity(diversity).ok());
  diversity.truth_path.reset();
  diversity.queries = {"\"unclosed"};
  auto malformed = canon::eval::evaluate_diversity(diversity);
  REQUIRE(!malformed.ok());
  CHECK(malformed.status().message().find("unclosed") != std::string::npos);
}
