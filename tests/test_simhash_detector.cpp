/// @file test_simhash_detector.cpp
/// @brief Simhash fingerprints, the permuted-table search against brute-force Hamming
/// distance, and the "simhash" detector on hand-made cases.
#include <doctest/doctest.h>

#include <bit>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "dedup/sketches/shingles.h"
#include "dedup/detectors/simhash_detector.h"
#include "support/detector_fixtures.h"
#include "dedup/sketches/tokenizer.h"

using namespace canon::dedup;
using canon::testing::similarity;
using canon::testing::documents;
using canon::testing::words;

namespace {

/// All pairs within `k` bits, by brute force.
std::vector<SimilarPair> brute_force(const std::vector<std::optional<std::uint64_t>>& fps,
                                     unsigned k) {
  std::vector<SimilarPair> pairs;
  for (std::uint32_t a = 0; a < fps.size(); ++a) {
    for (std::uint32_t b = a + 1; b < fps.size(); ++b) {
      if (!fps[a] || !fps[b]) continue;
      const int d = std::popcount(*fps[a] ^ *fps[b]);
      if (d <= static_cast<int>(k)) pairs.push_back({a, b, 1.0 - d / 64.0});
    }
  }
  return pairs;
}

}  // namespace

TEST_CASE("simhash_features: tf-weighted shingles, short-text rule") {
  const std::vector<std::string> abc = {"a", "b", "c", "a", "b", "c", "a", "b"};
  const auto features = simhash_features(abc, 3);
  REQUIRE(features.size() == 3);  // abc x2, bca x2, cab x2
  for (const TermCount& f : features) CHECK(f.count == 2);
  // Same hashes as minhash's shingles.
  const ShingleSet set = shingle_set(abc, 3);
  for (std::size_t i = 0; i < set.size(); ++i) CHECK(features[i].term == set[i]);
  CHECK(simhash_features(std::vector<std::string>{"hello"}, 3).size() == 1);
  CHECK(simhash_features(std::vector<std::string>{}, 3).empty());
}

TEST_CASE("simhash_fingerprint: Charikar's weighted sign vector") {
  CHECK(simhash_fingerprint({}, 1) == 0);
  const std::vector<TermCount> one = {{42, 1}};
  const std::vector<TermCount> heavy = {{42, 5}, {7, 1}};
  // One feature: the fingerprint is that feature's hash (all its bits win).
  CHECK(simhash_fingerprint(one, 9) == simhash_fingerprint(std::vector<TermCount>{{42, 3}}, 9));
  // A feature with weight 5 outvotes one with weight 1 on every bit.
  CHECK(simhash_fingerprint(heavy, 9) == simhash_fingerprint(one, 9));
  CHECK(simhash_fingerprint(one, 9) != simhash_fingerprint(one, 10));  // the seed keys h
}

TEST_CASE("simhash_join finds exactly the pairs of brute-force Hamming distance") {
  std::mt19937_64 rng(17);
  for (const unsigned k : {0u, 1u, 3u, 6u, 10u, 63u}) {
    std::vector<std::optional<std::uint64_t>> fps;
    for (int family = 0; family < 40; ++family) {
      const std::uint64_t base = rng();
      for (int member = 0; member < 4; ++member) {
        std::uint64_t fp = base;
        const unsigned flips = rng() % (k + 4);  // within k, at k, and beyond it
        for (unsigned f = 0; f < flips; ++f) fp ^= std::uint64_t{1} << (rng() % 64);
        fps.push_back(fp);
      }
    }
    fps.push_back(std::nullopt);
    fps.push_back(fps[0]);  // an identical copy
    fps.insert(fps.begin() + 3, std::nullopt);
    const std::vector<SimilarPair> oracle = brute_force(fps, k);
    for (const unsigned threads : {1u, 3u}) {
      CAPTURE(k);
      CAPTURE(threads);
      const JoinResult join = simhash_join(fps, k, threads);
      REQUIRE(join.pairs.size() == oracle.size());
      for (std::size_t i = 0; i < oracle.size(); ++i) {
        CHECK(join.pairs[i].a == oracle[i].a);
        CHECK(join.pairs[i].b == oracle[i].b);
        CHECK(join.pairs[i].similarity == oracle[i].similarity);
      }
      CHECK(join.candidates >= join.pairs.size());
      if (k <= 6) CHECK(join.candidates < fps.size() * fps.size() / 10);  // tables prune
    }
  }
}

TEST_CASE("simhash: a long copy with a small edit is found; boilerplate alone is not") {
  const std::string boilerplate =
      "This website uses cookies to improve your experience and by continuing to browse the "
      "site you agree to our use of cookies as described in the privacy policy. ";
  std::string edited = words(0, 1000);
  edited.replace(edited.find("w500 "), 5, "changed ");
  const std::vector<std::string> texts = {words(0, 1000), boilerplate + words(0, 60, "alpha"),
                                          edited, boilerplate + words(0, 60, "beta"),
                                          "W0, w1; w2 -- " + words(3, 1000)};
  SimhashDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 0, 3, 0});
  CHECK(similarity(detector, docs, 0, 4) == 1.0);  // same words: same fingerprint
  CHECK(similarity(detector, docs, 0, 2) >= 1.0 - 3 / 64.0);
  CHECK(similarity(detector, docs, 0, 2) < 1.0);
  CHECK(similarity(detector, docs, 1, 3) < 1.0 - 3 / 64.0);
  for (const SimilarPair& p : c.pairs) {
    CHECK(p.similarity == similarity(detector, docs, p.a, p.b));
    CHECK(std::popcount(*detector.fingerprint(p.a) ^ *detector.fingerprint(p.b)) <= 3);
  }
}

TEST_CASE("simhash: empty and tiny documents") {
  const std::vector<std::string> texts = {"", "  ...  ", "Hello", "hello!", "Goodbye",
                                          "two words", "Two, Words", "words two"};
  SimhashDetector detector(DedupOptions{});
  const std::vector<DedupDocument> docs = documents(texts);
  const Clusters c = find_clusters(detector, docs);
  CHECK(c.cluster_of == std::vector<std::uint32_t>{0, 1, 2, 2, 4, 5, 5, 7});
  CHECK(!detector.fingerprint(0));
  CHECK(!detector.fingerprint(1));
  CHECK(similarity(detector, docs, 0, 1) == 0.0);
  CHECK(similarity(detector, docs, 0, 2) == 0.0);
  CHECK(similarity(detector, docs, 2, 3) == 1.0);
  CHECK(find_clusters(detector, {}).cluster_of.empty());
}

TEST_CASE("simhash: the detector equals brute force over its fingerprints; threads") {
  std::mt19937_64 rng(3);
  std::vector<std::string> texts;
  for (int family = 0; family < 12; ++family) {
    std::vector<std::string> base(150 + rng() % 150);
    for (auto& w : base) w = "v" + std::to_string(rng() % 5000);
    for (int member = 0; member < 4; ++member) {
      std::string text;
      for (const auto& w : base) text += (rng() % 100 == 0 ? "x" : w) + " ";
      texts.push_back(text);
    }
  }
  texts.push_back("");
  const auto run = [&](unsigned threads, unsigned k) {
    DedupOptions options;
    options.threads = threads;
    options.simhash_max_distance = k;
    SimhashDetector detector(options);
    const std::vector<DedupDocument> docs = documents(texts);
    Clusters c = find_clusters(detector, docs);
    std::vector<std::optional<std::uint64_t>> fps;
    for (std::uint32_t d = 0; d < texts.size(); ++d) fps.push_back(detector.fingerprint(d));
    const std::vector<SimilarPair> oracle = brute_force(fps, k);
    REQUIRE(c.pairs.size() == oracle.size());
    for (std::size_t i = 0; i < oracle.size(); ++i) {
      CHECK(c.pairs[i].a == oracle[i].a);
      CHECK(c.pairs[i].b == oracle[i].b);
    }
    return c;
  };
  for (const unsigned k : {3u, 8u}) {
    const Clusters one = run(1, k);
    CHECK(!one.pairs.empty());
    for (const unsigned threads : {0u, 3u}) {
      const Clusters other = run(threads, k);
      CHECK(other.cluster_of == one.cluster_of);
      CHECK(other.candidates_examined == one.candidates_examined);
      CHECK(other.pairs.size() == one.pairs.size());
    }
  }
}
