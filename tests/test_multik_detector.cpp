/// @file test_multik_detector.cpp
/// @brief Multik profiles and dissimilarity by hand, and the "multik" detector on hand-made
/// cases and against an all-pairs oracle.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "dedup/detectors/multik_detector.h"
#include "support/detector_fixtures.h"
#include "dedup/sketches/tokenizer.h"

using namespace canon::dedup;
using canon::testing::similarity;
using canon::testing::documents;
using canon::testing::words;

namespace {

MultikProfile profile(const std::string& text) { return multik_profile(tokenize(text)); }

}  // namespace

TEST_CASE("multik_profile: 1 + log10 tf, each group sums to 1") {
  // "a" x10, "b" x1: unigram weights 2 and 1 -> 2/3 and 1/3.
  const MultikProfile p = profile("a a a a a a a a a a b");
  REQUIRE(p.groups[0].size() == 2);
  double heavy = std::max(p.groups[0][0].weight, p.groups[0][1].weight);
  CHECK(heavy == doctest::Approx(2.0 / 3));
  // bigrams: "a a" x9 (1 + log10 9), "a b" x1.
  REQUIRE(p.groups[1].size() == 2);
  heavy = std::max(p.groups[1][0].weight, p.groups[1][1].weight);
  CHECK(heavy == doctest::Approx((1 + std::log10(9.0)) / (2 + std::log10(9.0))));
  for (const auto& group : p.groups) {
    double sum = 0.0;
    for (const WeightedTerm& w : group) sum += w.weight;
    CHECK(sum == doctest::Approx(1.0));
  }
  const MultikProfile tiny = profile("two words");
  CHECK(tiny.groups[0].size() == 2);
  CHECK(tiny.groups[1].size() == 1);
  CHECK(tiny.groups[2].empty());
  CHECK(tiny.groups[3].empty());
}

TEST_CASE("multik_dissimilarity: hand-computed values") {
  CHECK(multik_dissimilarity(profile(words(0, 20)), profile(words(0, 20))) == 0.0);
  CHECK(multik_dissimilarity(profile(words(0, 20)), profile(words(0, 20, "x"))) == 1.0);
  CHECK(multik_dissimilarity(profile(""), profile("")) == 1.0);
  CHECK(multik_dissimilarity(profile("hello"), profile("goodbye")) == 1.0);
  CHECK(multik_dissimilarity(profile("hello"), profile("Hello!")) == 0.0);
  // Same words, other order: unigrams equal, the one bigram differs: (2/4) / (1/4 + 2/4).
  CHECK(multik_dissimilarity(profile("two words"), profile("words two")) ==
        doctest::Approx(2.0 / 3));
  // "a b c d" vs "a b c e": unigrams share 3 of 4 (D = 1/4), bigrams 2 of 3 (D = 1/3),
  // trigrams 1 of 2 (D = 1/2), 4-grams none (D = 1):
  // (1/4·1/4 + 2/4·1/3 + 3/4·1/2 + 4/4·1) / (10/4).
  const double expected = (0.25 * 0.25 + 0.5 / 3 + 0.75 * 0.5 + 1.0) / 2.5;
  CHECK(multik_dissimilarity(profile("a b c d"), profile("a b c e")) ==
        doctest::Approx(expected));
  // A 3-word text against a longer one: its group 4 is empty, the other's is not: d >= 0.4.
  CHECK(multik_dissimilarity(profile("a b c"), profile("a b c d")) >= 0.4);
  // Symmetric.
  const MultikProfile x = profile(words(0, 30)), y = profile(words(3, 35));
  CHECK(multik_dissimilarity(x, y) == multik_dissimilarity(y, x));
}

TEST_CASE("multik: a copy with small edits is found; shared boilerplate alone is not") {
  const std::string boilerplate =
      "This website uses cookies to improve your experience and by continuing to browse the "
      "site you agree to our use of cookies as described in the privacy policy. ";
  std::string edited = words(0, 200);
  edited.replace(edited.find("w100 "), 5, "changed ");
  const std::vector<std::string> texts = {words(0, 200), boilerplate + words(0, 60, "alpha"),
                                          edited, boilerplate + words(0, 60, "beta")};
  MultikDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 0, 3});
  REQUIRE(c.pairs.size() == 1);
  CHECK(c.pairs[0].similarity > 0.8);
  CHECK(c.pairs[0].similarity < 1.0);
  CHECK(similarity(detector, docs, 2, 0) == c.pairs[0].similarity);
  CHECK(similarity(detector, docs, 1, 3) > 0.0);
  CHECK(similarity(detector, docs, 1, 3) < 0.8);
}

TEST_CASE("multik: empty and tiny documents") {
  const std::vector<std::string> texts = {"", "  ...  ", "Hello", "hello!", "Goodbye",
                                          "two words", "Two, Words", "words two", "a b c",
                                          "a b c"};
  MultikDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 2, 2, 4, 5, 5, 7, 8, 8});
  CHECK(similarity(detector, docs, 0, 1) == 0.0);
  CHECK(similarity(detector, docs, 0, 2) == 0.0);
  CHECK(similarity(detector, docs, 2, 3) == 1.0);
  CHECK(find_clusters(detector, {}).cluster_of.empty());
}

TEST_CASE("multik: the detector equals the all-pairs oracle, for tight and loose limits") {
  std::mt19937_64 rng(6);
  std::vector<std::string> texts;
  for (int family = 0; family < 16; ++family) {
    std::vector<std::string> base(1 + rng() % 30);
    for (auto& w : base) w = "v" + std::to_string(rng() % 12);
    for (int member = 0; member < 4; ++member) {
      std::string text;
      for (const auto& w : base) {
        text += (rng() % 12 == 0 ? "x" + std::to_string(rng() % 12) : w) + " ";
      }
      texts.push_back(text);
    }
  }
  texts.push_back("");
  std::vector<MultikProfile> profiles;
  for (const std::string& t : texts) profiles.push_back(profile(t));
  // 0.5 is beyond the 4-gram bound: the shared-word candidates are used instead.
  for (const double limit : {0.0, 0.1, 0.2, 0.3, 0.5}) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> oracle;
    for (std::uint32_t a = 0; a < texts.size(); ++a) {
      for (std::uint32_t b = a + 1; b < texts.size(); ++b) {
        if (profiles[a].groups[0].empty() || profiles[b].groups[0].empty()) continue;
        if (multik_dissimilarity(profiles[a], profiles[b]) <= limit) oracle.emplace_back(a, b);
      }
    }
    DedupOptions options;
    options.multik_max_dissimilarity = limit;
    Clusters one;
    for (const unsigned threads : {1u, 3u}) {
      options.threads = threads;
      MultikDetector detector(options);
      const std::vector<DedupDocument> docs = documents(texts);
      const Clusters c = find_clusters(detector, docs);
      CAPTURE(limit);
      REQUIRE(c.pairs.size() == oracle.size());
      for (std::size_t i = 0; i < oracle.size(); ++i) {
        CHECK(c.pairs[i].a == oracle[i].first);
        CHECK(c.pairs[i].b == oracle[i].second);
        CHECK(c.pairs[i].similarity == similarity(detector, docs, oracle[i].first, oracle[i].second));
      }
      if (threads == 1) one = c;
      CHECK(c.cluster_of == one.cluster_of);
      CHECK(c.candidates_examined == one.candidates_examined);
      if (limit >= 0.2) CHECK(!c.pairs.empty());
    }
  }
}
