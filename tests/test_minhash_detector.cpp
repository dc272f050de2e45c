/// @file test_minhash_detector.cpp
/// @brief The "minhash" detector on hand-made cases, plus the make_detector registry.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "dedup/detector.h"
#include "dedup/minhash_detector.h"

using namespace canon::dedup;

namespace {

/// Documents whose text is each of `texts` (the views point into `texts`).
std::vector<DedupDocument> documents(const std::vector<std::string>& texts) {
  std::vector<DedupDocument> docs;
  for (const std::string& t : texts) docs.push_back({"", "", t});
  return docs;
}

/// "p0 p1 ... " for words first..last-1 with the given prefix.
std::string words(int first, int last, const std::string& prefix = "w") {
  std::string s;
  for (int i = first; i < last; ++i) s += prefix + std::to_string(i) + " ";
  return s;
}

const SimilarPair* find_pair(const Clusters& c, std::uint32_t a, std::uint32_t b) {
  for (const SimilarPair& p : c.pairs) {
    if (p.a == a && p.b == b) return &p;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a copy with small edits is found; exact Jaccard reported") {
  const std::string article =
      "The municipal library extends its opening hours during the examination period. "
      "Students can borrow up to twelve books at a time and reserve study rooms online. "
      "The reading room on the second floor stays open until midnight from Monday to "
      "Friday, while the archive keeps its usual schedule. Visitors are asked to bring a "
      "valid card and to respect the quiet zones marked on every floor of the building. "
      "Lockers are available near the entrance for bags and coats.";
  std::string edited = article;
  edited.replace(edited.find("twelve"), 6, "fifteen");
  edited.replace(edited.find("midnight"), 8, "eleven o'clock");
  const std::vector<std::string> texts = {article, words(0, 80), edited};
  MinhashDetector detector(DedupOptions{});
  const Clusters c = detector.find_clusters(documents(texts));
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 0});
  const SimilarPair* p = find_pair(c, 0, 2);
  REQUIRE(p != nullptr);
  CHECK(p->similarity >= 0.5);
  CHECK(p->similarity < 1.0);
  CHECK(detector.similarity(0, 2) == p->similarity);
  CHECK(detector.similarity(2, 0) == p->similarity);
  CHECK(detector.similarity(0, 1) == 0.0);
  CHECK(c.candidates_examined >= c.pairs.size());
}

TEST_CASE("shared boilerplate alone does not merge different pages") {
  const std::string boilerplate =
      "This website uses cookies to improve your experience and by continuing to browse the "
      "site you agree to our use of cookies as described in the privacy policy. ";
  const std::vector<std::string> texts = {boilerplate + words(0, 60, "alpha"),
                                          boilerplate + words(0, 60, "beta")};
  MinhashDetector detector(DedupOptions{});
  const Clusters c = detector.find_clusters(documents(texts));
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1});
  CHECK(c.pairs.empty());
  CHECK(detector.similarity(0, 1) > 0.0);
  CHECK(detector.similarity(0, 1) < 0.5);
}

TEST_CASE("empty and tiny documents") {
  const std::vector<std::string> texts = {
      "",           // 0: empty: never clustered
      "  ...  ",    // 1: no words: never clustered, even with the other empty one
      "Hello",      // 2
      "hello!",     // 3: same word as 2
      "Goodbye",    // 4: a different tiny text
      "two words",  // 5
      "Two, Words", // 6: same words as 5
      "words two",  // 7: same words, other order: a different tiny text
  };
  MinhashDetector detector(DedupOptions{});
  const Clusters c = detector.find_clusters(documents(texts));
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 2, 2, 4, 5, 5, 7});
  CHECK(detector.similarity(0, 1) == 0.0);
  CHECK(detector.similarity(0, 0) == 0.0);
  CHECK(detector.similarity(2, 3) == 1.0);
  CHECK(detector.similarity(5, 7) == 0.0);
  // No documents at all.
  CHECK(detector.find_clusters({}).cluster_of.empty());
}

TEST_CASE("clusters chain: A~B and B~C merge A and C even though A and C differ") {
  // Overlapping windows of distinct words: J(A,B) = J(B,C) = 68/128, J(A,C) = 38/158.
  const std::vector<std::string> texts = {words(0, 100), words(30, 130), words(60, 160)};
  MinhashDetector detector(DedupOptions{});
  const Clusters c = detector.find_clusters(documents(texts));
  CHECK(detector.similarity(0, 1) == doctest::Approx(68.0 / 128));
  CHECK(detector.similarity(1, 2) == doctest::Approx(68.0 / 128));
  CHECK(detector.similarity(0, 2) == doctest::Approx(38.0 / 158));
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 0, 0});  // single linkage
  CHECK(find_pair(c, 0, 1) != nullptr);
  CHECK(find_pair(c, 1, 2) != nullptr);
  CHECK(find_pair(c, 0, 2) == nullptr);  // only verified pairs are reported
}

TEST_CASE("results do not depend on the thread count") {
  std::mt19937_64 rng(3);
  std::vector<std::string> texts;
  for (int family = 0; family < 25; ++family) {
    std::vector<std::string> base(30 + rng() % 60);
    for (auto& w : base) w = "v" + std::to_string(rng() % 500);
    for (int member = 0; member < 4; ++member) {
      std::string text;
      for (const auto& w : base) text += (rng() % 10 == 0 ? "x" + std::to_string(rng()) : w) + " ";
      texts.push_back(text);
    }
  }
  texts.push_back("");
  const auto run = [&](unsigned threads) {
    DedupOptions options;
    options.threads = threads;
    return MinhashDetector(options).find_clusters(documents(texts));
  };
  const Clusters one = run(1);
  CHECK(!one.pairs.empty());
  for (const unsigned threads : {0u, 2u, 3u, 8u}) {
    CAPTURE(threads);
    const Clusters other = run(threads);
    CHECK(other.cluster_of == one.cluster_of);
    CHECK(other.candidates_examined == one.candidates_examined);
    REQUIRE(other.pairs.size() == one.pairs.size());
    for (std::size_t i = 0; i < one.pairs.size(); ++i) {
      CHECK(other.pairs[i].a == one.pairs[i].a);
      CHECK(other.pairs[i].b == one.pairs[i].b);
      CHECK(other.pairs[i].similarity == one.pairs[i].similarity);
    }
  }
}

TEST_CASE("verified pairs are ordered, above the threshold, and build cluster ids") {
  const std::vector<std::string> texts = {words(0, 50), words(100, 150), words(0, 50),
                                          words(100, 149), words(200, 230)};
  MinhashDetector detector(DedupOptions{});
  const Clusters c = detector.find_clusters(documents(texts));
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 0, 1, 4});
  for (const SimilarPair& p : c.pairs) {
    CHECK(p.a < p.b);
    CHECK(p.similarity >= 0.5);
    CHECK(p.similarity == detector.similarity(p.a, p.b));
  }
  // A later call replaces the remembered documents.
  detector.find_clusters(documents({"one two three", "one two three"}));
  CHECK(detector.similarity(0, 1) == 1.0);
}

TEST_CASE("make_detector and detector_names") {
  CHECK(detector_names().front() == "minhash");  // all names: test_exact_detector.cpp
  auto made = make_detector("minhash", DedupOptions{});
  REQUIRE(made.ok());
  CHECK(made.value()->name() == "minhash");
  auto unknown = make_detector("nosuch", DedupOptions{});
  REQUIRE(!unknown.ok());
  CHECK(unknown.status().message().starts_with("unknown detector 'nosuch' (choose from: minhash"));
  DedupOptions bad;
  bad.shingle_size = 0;
  CHECK(!make_detector("minhash", bad).ok());
  bad = {};
  bad.num_hashes = 0;
  CHECK(!make_detector("minhash", bad).ok());
  bad = {};
  bad.threshold = 1.5;
  CHECK(!make_detector("minhash", bad).ok());
}
