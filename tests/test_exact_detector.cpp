/// @file test_exact_detector.cpp
/// @brief ppjoin against an all-pairs oracle, the "exact" detector on hand-made cases and
/// against brute-force Jaccard, and the detector registry.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dedup/detectors/exact_detector.h"
#include "dedup/detectors/registry.h"
#include "support/detector_fixtures.h"
#include "dedup/detectors/minhash_detector.h"
#include "dedup/sketches/shingles.h"
#include "dedup/sketches/tokenizer.h"

using namespace canon::dedup;
using canon::testing::clusters_of;
using canon::testing::similarity;
using canon::testing::documents;
using canon::testing::words;

namespace {

using PairSet = std::set<std::pair<std::uint32_t, std::uint32_t>>;

PairSet pair_set(const std::vector<SimilarPair>& pairs) {
  PairSet s;
  for (const SimilarPair& p : pairs) s.emplace(p.a, p.b);
  return s;
}

/// Families of texts over a small vocabulary: each member is the family's base with ~`edit`
/// of its words replaced, so pairs land on both sides of any threshold.
std::vector<std::string> random_texts(std::mt19937_64& rng, int families, int members,
                                      int vocabulary, double edit) {
  std::vector<std::string> texts;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int f = 0; f < families; ++f) {
    std::vector<std::string> base(4 + rng() % 40);
    for (auto& w : base) w = "v" + std::to_string(rng() % vocabulary);
    for (int m = 0; m < members; ++m) {
      std::string text;
      for (const auto& w : base) {
        text += (unit(rng) < edit ? "x" + std::to_string(rng() % vocabulary) : w) + " ";
      }
      texts.push_back(text);
    }
  }
  return texts;
}

void check_same_pairs(const JoinResult& join, const std::vector<SimilarPair>& oracle) {
  REQUIRE(join.pairs.size() == oracle.size());
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    CHECK(join.pairs[i].a == oracle[i].a);
    CHECK(join.pairs[i].b == oracle[i].b);
    CHECK(join.pairs[i].similarity == oracle[i].similarity);
  }
  CHECK(join.candidates >= join.pairs.size());
}

}  // namespace

TEST_CASE("order_by_frequency: rarest first, overlaps kept") {
  const std::vector<std::vector<std::uint64_t>> sets = {{5, 7, 9}, {7, 9}, {9, 100}, {}};
  const std::vector<TokenRecord> r = order_by_frequency(sets);
  // 9 is in three sets, 7 in two, 5 and 100 in one: ranks 5->0, 100->1, 7->2, 9->3.
  CHECK(r[0] == TokenRecord{0, 2, 3});
  CHECK(r[1] == TokenRecord{2, 3});
  CHECK(r[2] == TokenRecord{1, 3});
  CHECK(r[3].empty());
}

TEST_CASE("set_similarity: Jaccard matches jaccard(); max containment") {
  const ShingleSet a = {1, 2, 3, 4, 5, 6, 7}, b = {2, 3, 4, 8};
  CHECK(set_similarity(SetMeasure::Jaccard, 3, a.size(), b.size()) == jaccard(a, b));
  CHECK(set_similarity(SetMeasure::MaxContainment, 3, 7, 4) == doctest::Approx(3.0 / 7));
  CHECK(set_similarity(SetMeasure::Jaccard, 0, 0, 0) == 0.0);
  CHECK(intersection_size(TokenRecord{1, 3, 5}, TokenRecord{2, 3, 5, 9}) == 2);
}

TEST_CASE("ppjoin finds exactly the pairs of an all-pairs loop (random records)") {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 12; ++round) {
    // Small universes and sizes make many pairs sit exactly at the threshold.
    const std::uint32_t universe = 8 + rng() % 40;
    std::vector<std::vector<std::uint64_t>> sets(10 + rng() % 60);
    for (auto& s : sets) {
      const std::size_t size = rng() % 12;
      for (std::size_t i = 0; i < size; ++i) s.push_back(rng() % universe);
      std::sort(s.begin(), s.end());
      s.erase(std::unique(s.begin(), s.end()), s.end());
    }
    // A few exact copies: identical records must pair at any threshold.
    sets.push_back(sets[0]);
    sets.push_back(sets[1]);
    const std::vector<TokenRecord> records = order_by_frequency(sets);
    for (const SetMeasure measure : {SetMeasure::Jaccard, SetMeasure::MaxContainment}) {
      for (const double t : {0.1, 1.0 / 3, 0.5, 0.6, 2.0 / 3, 0.75, 0.8, 0.9, 1.0}) {
        std::vector<SimilarPair> oracle;
        for (std::uint32_t a = 0; a < records.size(); ++a) {
          for (std::uint32_t b = a + 1; b < records.size(); ++b) {
            if (records[a].empty() || records[b].empty()) continue;
            const double s = set_similarity(measure, intersection_size(records[a], records[b]),
                                            records[a].size(), records[b].size());
            if (s >= t) oracle.push_back({a, b, s});
          }
        }
        CAPTURE(round);
        CAPTURE(t);
        check_same_pairs(ppjoin(records, measure, t, 1), oracle);
        check_same_pairs(ppjoin(records, measure, t, 3), oracle);
      }
    }
  }
}

TEST_CASE("exact detector equals brute-force Jaccard over shingle sets (random texts)") {
  std::mt19937_64 rng(5);
  for (const double edit : {0.02, 0.1, 0.3}) {
    const std::vector<std::string> texts = random_texts(rng, 12, 4, 30, edit);
    for (const double t : {0.3, 0.5, 0.8}) {
      DedupOptions options;
      options.threshold = t;
      options.title_rule = false;  // the join against brute force (the name rule: test_page_names)
      ExactDetector detector(options);
      const std::vector<DedupDocument> docs = documents(texts);
      const Clusters c = find_clusters(detector, docs);
      std::vector<SimilarPair> oracle;
      std::vector<ShingleSet> sets;
      for (const std::string& text : texts) sets.push_back(shingle_set(tokenize(text), 3));
      for (std::uint32_t a = 0; a < sets.size(); ++a) {
        for (std::uint32_t b = a + 1; b < sets.size(); ++b) {
          const double j = jaccard(sets[a], sets[b]);
          if (j >= t) oracle.push_back({a, b, j});
        }
      }
      CAPTURE(edit);
      CAPTURE(t);
      check_same_pairs(JoinResult{c.pairs, c.candidates_examined}, oracle);
      for (const SimilarPair& p : c.pairs) CHECK(similarity(detector, docs, p.a, p.b) == p.similarity);
    }
  }
}

TEST_CASE("exact: a copy with small edits is found; shared boilerplate alone is not") {
  const std::string boilerplate =
      "This website uses cookies to improve your experience and by continuing to browse the "
      "site you agree to our use of cookies as described in the privacy policy. ";
  std::string edited = words(0, 80);
  edited.replace(edited.find("w40 "), 4, "changed ");
  const std::vector<std::string> texts = {words(0, 80), boilerplate + words(0, 60, "alpha"),
                                          edited, boilerplate + words(0, 60, "beta")};
  ExactDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 0, 3});
  REQUIRE(c.pairs.size() == 1);
  CHECK(c.pairs[0].a == 0);
  CHECK(c.pairs[0].b == 2);
  CHECK(c.pairs[0].similarity == doctest::Approx(75.0 / 81));  // 3 shingles of 78 replaced
  CHECK(similarity(detector, docs, 1, 3) > 0.0);
  CHECK(similarity(detector, docs, 1, 3) < 0.5);
}

TEST_CASE("exact: empty and tiny documents") {
  const std::vector<std::string> texts = {"", "  ...  ", "Hello", "hello!", "Goodbye",
                                          "two words", "Two, Words", "words two"};
  ExactDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 2, 2, 4, 5, 5, 7});
  CHECK(similarity(detector, docs, 0, 1) == 0.0);
  CHECK(similarity(detector, docs, 2, 3) == 1.0);
  CHECK(find_clusters(detector, {}).cluster_of.empty());
}

TEST_CASE("exact: results do not depend on the thread count; minhash pairs are a subset") {
  std::mt19937_64 rng(3);
  const std::vector<std::string> texts = random_texts(rng, 25, 4, 500, 0.1);
  const auto run = [&](unsigned threads) {
    DedupOptions options;
    options.threads = threads;
    return clusters_of(ExactDetector(options), documents(texts));
  };
  const Clusters one = run(1);
  CHECK(!one.pairs.empty());
  for (const unsigned threads : {0u, 2u, 3u, 8u}) {
    CAPTURE(threads);
    const Clusters other = run(threads);
    CHECK(other.cluster_of == one.cluster_of);
    CHECK(other.candidates_examined == one.candidates_examined);
    check_same_pairs(JoinResult{other.pairs, other.candidates_examined}, one.pairs);
  }
  // minhash verifies its LSH candidates by exact Jaccard: it can miss pairs, never invent them.
  MinhashDetector minhash_detector(DedupOptions{});
  const Clusters minhash = find_clusters(minhash_detector, documents(texts));
  const PairSet exact_pairs = pair_set(one.pairs);
  for (const SimilarPair& p : minhash.pairs) CHECK(exact_pairs.count({p.a, p.b}) == 1);
}

TEST_CASE("registry: every detector by name, options checked") {
  const std::vector<std::string> names = detector_names();
  CHECK(names == std::vector<std::string>{"minhash", "simhash", "mwo", "multik", "keyword",
                                          "exact"});
  for (const std::string& name : names) {
    auto made = make_detector(name, DedupOptions{});
    REQUIRE(made.ok());
    CHECK(made.value()->name() == name);
    CHECK(find_clusters(*made.value(), documents({"a b c d e", "a b c d e", ""})).cluster_of ==
          std::vector<std::uint32_t>{0, 0, 2});
  }
  auto unknown = make_detector("nosuch", DedupOptions{});
  REQUIRE(!unknown.ok());
  CHECK(unknown.status().message() ==
        "unknown detector 'nosuch' (choose from: minhash, simhash, mwo, multik, keyword, exact)");
  DedupOptions bad;
  bad.simhash_max_distance = 64;
  CHECK(!make_detector("simhash", bad).ok());
  CHECK(make_detector("exact", bad).ok());
  bad = {};
  bad.keyword_threshold = 0.0;
  CHECK(!make_detector("keyword", bad).ok());
  bad.threshold_explicit = true;  // then --threshold (0.5) is used instead
  CHECK(make_detector("keyword", bad).ok());
  bad = {};
  bad.mwo_threshold = 1.5;
  CHECK(!make_detector("mwo", bad).ok());
  bad = {};
  bad.multik_max_dissimilarity = 1.0;
  CHECK(!make_detector("multik", bad).ok());
  bad = {};
  bad.threshold = 0.0;
  for (const std::string& name : names) CHECK(!make_detector(name, bad).ok());
}
