/// @file test_keyword_detector.cpp
/// @brief Stop words, stemmed keywords, and the "keyword" detector on hand-made cases and
/// against an all-pairs oracle.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dedup/detectors/keyword_detector.h"
#include "support/detector_fixtures.h"

using namespace canon::dedup;
using canon::testing::clusters_of;
using canon::testing::similarity;
using canon::testing::documents;
using canon::testing::words;

namespace {

std::set<std::string> keyword_set(const std::string& text) {
  const std::vector<std::string> terms = keyword_terms(text);
  return {terms.begin(), terms.end()};
}

/// |A ∩ B| / max(|A|, |B|) of two keyword sets, with std::set.
double oracle_similarity(const std::set<std::string>& sa, const std::set<std::string>& sb) {
  if (sa.empty() || sb.empty()) return 0.0;
  std::size_t common = 0;
  for (const std::string& t : sa) common += sb.count(t);
  return static_cast<double>(common) / static_cast<double>(std::max(sa.size(), sb.size()));
}

}  // namespace

TEST_CASE("stop words: the Snowball English list, lowercase, no repeats") {
  const auto list = english_stop_words();
  CHECK(list.size() > 140);
  std::set<std::string_view> unique(list.begin(), list.end());
  CHECK(unique.size() == list.size());
  for (const std::string_view w : list) {
    CHECK(!w.empty());
    CHECK(std::none_of(w.begin(), w.end(), [](char c) { return c >= 'A' && c <= 'Z'; }));
  }
  CHECK(is_stop_word("the"));
  CHECK(is_stop_word("ourselves"));
  CHECK(is_stop_word("don"));  // "don't" as tokenize() splits it
  CHECK(!is_stop_word("python"));
  CHECK(!is_stop_word("can"));  // kept, as Snowball does (a tin can)
  CHECK(!is_stop_word("The"));  // words arrive lowercased
}

TEST_CASE("keyword_terms: words without stop words, Porter2-stemmed, in order") {
  CHECK(keyword_terms("The runners were running quickly; they don't stop!") ==
        std::vector<std::string>{"runner", "run", "quick", "stop"});
  CHECK(keyword_terms("Connections connected, connecting.") ==
        std::vector<std::string>{"connect", "connect", "connect"});
  CHECK(keyword_terms("").empty());
  CHECK(keyword_terms("the of and").empty());
}

TEST_CASE("keyword: a copy with small edits is found; similarity is overlap of the larger") {
  const std::string article =
      "The municipal library extends its opening hours during the examination period. "
      "Students can borrow up to twelve books at a time and reserve study rooms online. "
      "The reading room on the second floor stays open until midnight from Monday to "
      "Friday, while the archive keeps its usual schedule.";
  std::string edited = article;
  edited.replace(edited.find("twelve"), 6, "fifteen");
  const std::vector<std::string> texts = {article, words(0, 40), edited};
  KeywordDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 0});
  REQUIRE(c.pairs.size() == 1);
  CHECK(c.pairs[0].similarity ==
        doctest::Approx(oracle_similarity(keyword_set(article), keyword_set(edited))));
  CHECK(c.pairs[0].similarity < 1.0);
  CHECK(c.pairs[0].similarity >= 0.8);
  CHECK(similarity(detector, docs, 2, 0) == c.pairs[0].similarity);
  CHECK(similarity(detector, docs, 0, 1) == 0.0);
}

TEST_CASE("keyword: shared boilerplate alone does not merge different pages") {
  const std::string boilerplate =
      "This website uses cookies to improve your experience and by continuing to browse the "
      "site you agree to our use of cookies as described in the privacy policy. ";
  const std::vector<std::string> texts = {boilerplate + words(0, 40, "alpha"),
                                          boilerplate + words(0, 40, "beta")};
  KeywordDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1});
  CHECK(similarity(detector, docs, 0, 1) > 0.0);
  CHECK(similarity(detector, docs, 0, 1) < 0.8);
}

TEST_CASE("keyword: empty, stop-word-only and tiny documents") {
  const std::vector<std::string> texts = {
      "",             // 0: empty
      "the of and",   // 1: only stop words: no keywords, never clustered
      "Hello",        // 2
      "hello!",       // 3: same keyword
      "Goodbye",      // 4
      "two words",    // 5
      "words, two",   // 6: same keyword set (order is not part of it)
  };
  KeywordDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 2, 2, 4, 5, 5});
  CHECK(similarity(detector, docs, 0, 1) == 0.0);
  CHECK(similarity(detector, docs, 2, 3) == 1.0);
  CHECK(find_clusters(detector, {}).cluster_of.empty());
}

TEST_CASE("keyword: the detector equals the all-pairs oracle; threads; --threshold") {
  std::mt19937_64 rng(8);
  std::vector<std::string> texts;
  for (int family = 0; family < 20; ++family) {
    std::vector<std::string> base(3 + rng() % 25);
    for (auto& w : base) w = "v" + std::to_string(rng() % 60);
    for (int member = 0; member < 4; ++member) {
      std::string text;
      for (const auto& w : base) {
        text += (rng() % 8 == 0 ? "x" + std::to_string(rng() % 60) : w) + " ";
      }
      texts.push_back(text + (rng() % 2 ? "the and" : ""));
    }
  }
  texts.push_back("");
  std::vector<std::set<std::string>> sets;
  for (const std::string& text : texts) sets.push_back(keyword_set(text));
  for (const double t : {0.5, 0.8, 0.9, 1.0}) {
    DedupOptions options;
    options.keyword_threshold = t;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> oracle;
    for (std::uint32_t a = 0; a < texts.size(); ++a) {
      for (std::uint32_t b = a + 1; b < texts.size(); ++b) {
        if (oracle_similarity(sets[a], sets[b]) >= t) oracle.emplace_back(a, b);
      }
    }
    Clusters one;
    for (const unsigned threads : {1u, 3u}) {
      options.threads = threads;
      KeywordDetector detector(options);
      const std::vector<DedupDocument> docs = documents(texts);
      const Clusters c = find_clusters(detector, docs);
      CAPTURE(t);
      REQUIRE(c.pairs.size() == oracle.size());
      for (std::size_t i = 0; i < oracle.size(); ++i) {
        CHECK(c.pairs[i].a == oracle[i].first);
        CHECK(c.pairs[i].b == oracle[i].second);
        CHECK(c.pairs[i].similarity == similarity(detector, docs, c.pairs[i].a, c.pairs[i].b));
      }
      if (threads == 1) one = c;
      CHECK(c.cluster_of == one.cluster_of);
      CHECK(c.candidates_examined == one.candidates_examined);
    }
  }
  // --threshold replaces keyword_threshold only when given.
  DedupOptions loose;
  loose.threshold = 0.3;
  const std::vector<std::string> pair = {words(0, 10), words(5, 15)};  // 5 of 10 shared
  CHECK(clusters_of(KeywordDetector(loose), documents(pair)).pairs.empty());
  loose.threshold_explicit = true;
  CHECK(clusters_of(KeywordDetector(loose), documents(pair)).pairs.size() == 1);
}
