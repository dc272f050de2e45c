/// @file test_detector_contract.cpp
/// @brief The Detector contract, one body run over every registered detector
/// (dedup::detector_names(), made by dedup::make_detector): a copy with a small edit is found
/// and unrelated pages are not, documents without words are singletons, results do not depend
/// on the thread count, and every pair find_clusters reports compares as near-duplicate with the
/// same similarity. Each detector's own file tests what is particular to it (its oracle, its
/// features, its templates).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "dedup/detectors/detector.h"
#include "dedup/detectors/registry.h"
#include "support/detector_fixtures.h"

using namespace canon::dedup;
using canon::testing::documents;

namespace {

std::unique_ptr<Detector> make(const std::string& name, unsigned threads = 0) {
  DedupOptions options;
  options.threads = threads;
  auto detector = make_detector(name, options);
  REQUIRE(detector.ok());
  return std::move(detector.value());
}

/// `words` words drawn from a vocabulary of 5000 by `rng`.
std::string random_text(std::mt19937_64& rng, int words) {
  std::string text;
  for (int w = 0; w < words; ++w) text += "w" + std::to_string(rng() % 5000) + " ";
  return text;
}

/// Eight families of a 1000-word page, a copy with the same words and a copy with one word
/// changed; two unrelated pages; two pages without words. Every detector must find the copy
/// with the same words; the one-word edit is found by all but simhash, whose 64-bit fingerprints
/// of 1000 equally weighted random shingles move by more than its 3 bits for one edit (its own
/// tests use text with repeated words, as real pages have).
std::vector<std::string> corpus() {
  std::mt19937_64 rng(17);
  std::vector<std::string> texts;
  for (int family = 0; family < 8; ++family) {
    const std::string page = random_text(rng, 1000);
    texts.push_back(page);
    texts.push_back(page);
    const std::size_t at = page.find(' ', rng() % (page.size() / 2));
    texts.push_back(page.substr(0, at) + " edited" + page.substr(at));
  }
  texts.push_back(random_text(rng, 1000));
  texts.push_back(random_text(rng, 1000));
  texts.push_back("");
  texts.push_back("");
  return texts;
}

}  // namespace

TEST_CASE("every detector: copies are found, unrelated pages and empty ones stay alone") {
  const std::vector<std::string> texts = corpus();
  const std::vector<DedupDocument> docs = documents(texts);
  const std::uint32_t unrelated = 24, empty = 26;
  for (const std::string& name : detector_names()) {
    CAPTURE(name);
    auto detector = make(name);
    const Clusters c = find_clusters(*detector, docs);
    REQUIRE(c.cluster_of.size() == docs.size());
    for (std::uint32_t family = 0; family < 8; ++family) {
      const std::uint32_t page = family * 3;
      CHECK(c.cluster_of[page + 1] == c.cluster_of[page]);
      if (name != "simhash") CHECK(c.cluster_of[page + 2] == c.cluster_of[page]);
      CHECK(c.cluster_of[page] != c.cluster_of[(page + 3) % 24]);
    }
    for (const std::uint32_t d : {unrelated, unrelated + 1, empty, empty + 1}) CHECK(c.cluster_of[d] == d);
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> asked = {{0, 1}, {0, unrelated}, {0, empty}, {empty, empty + 1}};
    const std::vector<Comparison> verdicts = compare(*detector, docs, asked);
    CHECK(verdicts[0].near_duplicate);
    CHECK_FALSE(verdicts[1].near_duplicate);
    CHECK_FALSE(verdicts[2].near_duplicate);
    CHECK(verdicts[2].similarity == 0.0);
    CHECK_FALSE(verdicts[3].near_duplicate);
    CHECK(verdicts[3].similarity == 0.0);
    CHECK(detector->state_bytes_per_document() > 0);
  }
}

TEST_CASE("every detector: reported pairs are ordered, build the clusters and compare as near-duplicates") {
  const std::vector<std::string> texts = corpus();
  const std::vector<DedupDocument> docs = documents(texts);
  for (const std::string& name : detector_names()) {
    CAPTURE(name);
    auto detector = make(name);
    const Clusters c = find_clusters(*detector, docs);
    REQUIRE_FALSE(c.pairs.empty());
    std::vector<std::pair<std::uint32_t, std::uint32_t>> asked;
    for (const SimilarPair& p : c.pairs) {
      CHECK(p.a < p.b);
      CHECK(c.cluster_of[p.a] == c.cluster_of[p.b]);
      asked.emplace_back(p.a, p.b);
    }
    const std::vector<Comparison> verdicts = compare(*detector, docs, asked);
    for (std::size_t i = 0; i < c.pairs.size(); ++i) {
      CHECK(verdicts[i].near_duplicate);
      CHECK(verdicts[i].similarity == doctest::Approx(c.pairs[i].similarity));
    }
  }
}

TEST_CASE("every detector: results do not depend on the thread count") {
  const std::vector<std::string> texts = corpus();
  const std::vector<DedupDocument> docs = documents(texts);
  for (const std::string& name : detector_names()) {
    CAPTURE(name);
    auto one = make(name, 1);
    const Clusters base = find_clusters(*one, docs);
    for (const unsigned threads : {2u, 3u, 8u}) {
      CAPTURE(threads);
      auto many = make(name, threads);
      const Clusters other = find_clusters(*many, docs);
      CHECK(other.cluster_of == base.cluster_of);
      CHECK(other.candidates_examined == base.candidates_examined);
      REQUIRE(other.pairs.size() == base.pairs.size());
      for (std::size_t i = 0; i < base.pairs.size(); ++i) {
        CHECK(other.pairs[i].a == base.pairs[i].a);
        CHECK(other.pairs[i].b == base.pairs[i].b);
        CHECK(other.pairs[i].similarity == base.pairs[i].similarity);
      }
    }
  }
}
