/// @file test_shingles.cpp
/// @brief shingle_set() rules and jaccard() against a std::set oracle.
#include <doctest/doctest.h>

#include <iterator>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dedup/detectors/detector_support.h"
#include "dedup/sketches/sorted_sets.h"
#include "dedup/sketches/shingles.h"

using canon::dedup::jaccard;
using canon::dedup::shingle_set;
using canon::dedup::ShingleSet;
using Words = std::vector<std::string>;

TEST_CASE("shingle_set: empty and short-text rules") {
  CHECK(shingle_set(Words{}, 3).empty());
  CHECK(shingle_set(Words{}, 1).empty());
  // Fewer than k words: one element standing for exactly those words, in order.
  const ShingleSet one = shingle_set(Words{"hello"}, 3);
  const ShingleSet two = shingle_set(Words{"hello", "world"}, 3);
  CHECK(one.size() == 1);
  CHECK(two.size() == 1);
  CHECK(one != two);
  CHECK(shingle_set(Words{"hello", "world"}, 3) == two);
  CHECK(shingle_set(Words{"world", "hello"}, 3) != two);
  // A short text never matches a shingle of a longer text that contains its words.
  const ShingleSet three = shingle_set(Words{"hello", "world", "again"}, 3);
  CHECK(three.size() == 1);
  CHECK(jaccard(two, three) == 0.0);
  CHECK(jaccard(one, shingle_set(Words{"hello", "hello", "hello"}, 3)) == 0.0);
}

TEST_CASE("shingle_set: k-word windows, order matters, duplicates collapse, sorted") {
  const Words abc = {"a", "b", "c", "a", "b", "c", "a", "b", "c"};
  const ShingleSet s = shingle_set(abc, 3);
  CHECK(s.size() == 3);  // abc, bca, cab
  CHECK(std::is_sorted(s.begin(), s.end()));
  CHECK(std::adjacent_find(s.begin(), s.end()) == s.end());
  CHECK(shingle_set(Words{"a", "b", "c", "d"}, 3).size() == 2);
  // k = 1 is the set of words: order is irrelevant.
  CHECK(shingle_set(Words{"x", "y", "z", "x"}, 1) == shingle_set(Words{"z", "y", "x"}, 1));
  // k = 2 sees order.
  CHECK(shingle_set(Words{"x", "y", "z"}, 2) != shingle_set(Words{"z", "y", "x"}, 2));
  // Word boundaries are part of the shingle: "ab c" differs from "a bc".
  CHECK(shingle_set(Words{"ab", "c"}, 2) != shingle_set(Words{"a", "bc"}, 2));
  // Deterministic.
  CHECK(shingle_set(abc, 2) == shingle_set(abc, 2));
}

namespace {

double oracle_jaccard(const std::set<std::uint64_t>& a, const std::set<std::uint64_t>& b) {
  std::set<std::uint64_t> all = a;
  all.insert(b.begin(), b.end());
  if (all.empty()) return 0.0;
  const std::size_t common = a.size() + b.size() - all.size();
  return static_cast<double>(common) / static_cast<double>(all.size());
}

}  // namespace

TEST_CASE("jaccard matches a std::set oracle on random sets") {
  CHECK(jaccard({}, {}) == 0.0);
  const ShingleSet x = {1, 5, 9};
  CHECK(jaccard(x, {}) == 0.0);
  CHECK(jaccard(x, x) == 1.0);
  CHECK(jaccard(x, ShingleSet{5, 9, 12}) == doctest::Approx(0.5));
  std::mt19937_64 rng(42);
  for (int round = 0; round < 300; ++round) {
    // A small universe makes overlaps of every size likely.
    const std::uint64_t universe = 1 + rng() % 60;
    std::set<std::uint64_t> a, b;
    for (std::uint64_t i = rng() % 40; i > 0; --i) a.insert(rng() % universe);
    for (std::uint64_t i = rng() % 40; i > 0; --i) b.insert(rng() % universe);
    const ShingleSet va(a.begin(), a.end()), vb(b.begin(), b.end());
    CAPTURE(round);
    CHECK(jaccard(va, vb) == doctest::Approx(oracle_jaccard(a, b)));
    CHECK(jaccard(va, vb) == jaccard(vb, va));
  }
}

TEST_CASE("shingle_set over JoinedWords equals shingle_set over the word vector") {
  std::mt19937_64 rng(3);
  canon::dedup::JoinedWords joined;
  ShingleSet from_joined;
  std::vector<std::uint64_t> hashes, scratch;
  for (int round = 0; round < 300; ++round) {
    std::string text;
    for (std::uint64_t i = rng() % 30; i > 0; --i) {
      text += "W" + std::to_string(rng() % 8) + (rng() % 5 == 0 ? "é, " : " ");
    }
    const Words words = canon::dedup::tokenize(text);
    canon::dedup::tokenize_joined(text, joined);
    for (const unsigned k : {1u, 2u, 3u, 5u}) {
      CAPTURE(round);
      CAPTURE(k);
      const ShingleSet expected = shingle_set(words, k);
      canon::dedup::shingle_set(joined, k, from_joined);
      CHECK(from_joined == expected);
      canon::dedup::shingle_hashes(joined, k, hashes);
      CHECK(canon::dedup::count_distinct(hashes, scratch) == expected.size());
      std::sort(hashes.begin(), hashes.end());
      hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
      CHECK(hashes == expected);
    }
    CHECK(canon::dedup::hash_all_words(joined) == canon::dedup::hash_words(words));
  }
}

TEST_CASE("count_distinct counts repeats and zero once") {
  std::vector<std::uint64_t> scratch;
  CHECK(canon::dedup::count_distinct(std::vector<std::uint64_t>{}, scratch) == 0);
  CHECK(canon::dedup::count_distinct(std::vector<std::uint64_t>{0, 0, 7, 7, 1ULL << 40}, scratch) == 3);
  std::mt19937_64 rng(8);
  for (int round = 0; round < 100; ++round) {
    std::vector<std::uint64_t> values;
    std::set<std::uint64_t> oracle;
    const std::uint64_t universe = 1 + rng() % 1000;
    for (std::uint64_t i = rng() % 2000; i > 0; --i) {
      // Small values collide in the probe table (equal high bits): linear probing must cope.
      values.push_back(rng() % universe);
      oracle.insert(values.back());
    }
    CHECK(canon::dedup::count_distinct(values, scratch) == oracle.size());
  }
}

TEST_CASE("intersection_size equals std::set_intersection's count (random sorted sets)") {
  std::mt19937_64 rng(23);
  for (int round = 0; round < 200; ++round) {
    std::set<std::uint64_t> x, y;
    const std::size_t nx = rng() % 40, ny = rng() % 40;
    while (x.size() < nx) x.insert(rng() % 60);
    while (y.size() < ny) y.insert(rng() % 60);
    const std::vector<std::uint64_t> a(x.begin(), x.end()), b(y.begin(), y.end());
    std::vector<std::uint64_t> both;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
    CHECK(canon::dedup::intersection_size<std::uint64_t>(a, b) == both.size());
    CHECK(canon::dedup::intersection_size<std::uint64_t>(b, a) == both.size());
  }
}
