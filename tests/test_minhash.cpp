/// @file test_minhash.cpp
/// @brief MinHash estimates vs exact Jaccard, banding choice, LSH candidates vs oracles.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dedup/sketches/minhash.h"
#include "support/thread_collective.h"

using namespace canon::dedup;
using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

TEST_CASE("MinHasher sketches: size, empty set, determinism") {
  const MinHasher h(64, 1);
  CHECK(h.num_hashes() == 64);
  CHECK(h.sketch({}) == Sketch(64, UINT64_MAX));
  const ShingleSet s = {3, 17, 99, 1000};
  CHECK(h.sketch(s) == MinHasher(64, 1).sketch(s));
  CHECK(h.sketch(s) != MinHasher(64, 2).sketch(s));
  CHECK(estimate_jaccard(h.sketch(s), h.sketch(s)) == 1.0);
  CHECK(estimate_jaccard(h.sketch(s), h.sketch(ShingleSet{4, 18})) == 0.0);
  // Order and repeats do not matter (the detector sketches unsorted shingle hashes).
  CHECK(h.sketch(std::vector<std::uint64_t>{1000, 3, 99, 17, 3, 1000}) == h.sketch(s));
  // Densification leaves no position empty, even for one element in 64 bins.
  for (const std::uint64_t v : h.sketch(ShingleSet{42})) CHECK(v != UINT64_MAX);
  std::vector<std::uint32_t> empty32(64);
  h.sketch32({}, empty32);
  CHECK(empty32 == std::vector<std::uint32_t>(64, UINT32_MAX));
}

TEST_CASE("sketch32 keeps the high 32 bits of sketch") {
  std::mt19937_64 rng(4);
  for (const unsigned n : {1u, 7u, 128u, 200u}) {
    const MinHasher h(n, rng());
    for (int round = 0; round < 20; ++round) {
      std::vector<std::uint64_t> set(rng() % 400);
      for (auto& x : set) x = rng();
      const Sketch full = h.sketch(set);
      std::vector<std::uint32_t> compact(n);
      h.sketch32(set, compact);
      for (unsigned i = 0; i < n; ++i) CHECK(compact[i] == std::uint32_t(full[i] >> 32));
    }
  }
}

TEST_CASE("one-permutation sketches: every position collides with probability J") {
  // Over many seeds, the fraction of sketches equal at position i must be J for every i: this
  // is what LSH banding needs, and what a wrong densification (copying from bins filled by
  // densification, or from a neighbour chosen by the set) breaks for small sets.
  struct Case {
    ShingleSet a, b;
    double j;
  };
  ShingleSet big_a, big_b;  // 30 and 30 elements, 20 common: J = 20/40, more elements than bins
  for (std::uint64_t x = 100; x < 130; ++x) big_a.push_back(x);
  for (std::uint64_t x = 110; x < 140; ++x) big_b.push_back(x);
  const Case cases[] = {{{1, 2, 3}, {2, 3, 4, 5}, 2.0 / 5.0},  // far fewer elements than bins
                        {{7}, {7, 8}, 1.0 / 2.0},
                        {big_a, big_b, 20.0 / 40.0}};
  constexpr unsigned kBins = 16;
  constexpr int kSeeds = 4000;
  for (const Case& c : cases) {
    REQUIRE(jaccard(c.a, c.b) == doctest::Approx(c.j));
    std::vector<int> equal(kBins, 0);
    for (int seed = 0; seed < kSeeds; ++seed) {
      const MinHasher h(kBins, 1000 + seed);
      const Sketch sa = h.sketch(c.a), sb = h.sketch(c.b);
      for (unsigned i = 0; i < kBins; ++i) equal[i] += sa[i] == sb[i];
    }
    const double sd = std::sqrt(c.j * (1 - c.j) / kSeeds);
    for (unsigned i = 0; i < kBins; ++i) {
      CAPTURE(c.j);
      CAPTURE(i);
      CHECK(std::abs(double(equal[i]) / kSeeds - c.j) <= 4.5 * sd);  // 16 x 3 cases at 4.5 sd
    }
  }
}

TEST_CASE("estimate_jaccard tracks exact Jaccard without bias, small and large sets") {
  // One-permutation hashing with optimal densification: each position equals with probability
  // J, and positions are nearly independent (densified bins copy a random non-empty bin each,
  // independently of the others), so an estimate's standard deviation is close to
  // sqrt(J(1-J)/n) <= 0.5/sqrt(n) (Shrivastava 2017); the test checks each estimate against a
  // bound of 6 such worst-case deviations, the mean squared error against the variance of n
  // independent positions, and the mean error for bias. Union sizes run from 1 to 600, so many
  // sets have fewer elements than bins (where densification does most of the work).
  std::mt19937_64 rng(11);
  for (const unsigned n : {128u, 256u}) {
    CAPTURE(n);
    const MinHasher hasher(n, rng());
    constexpr int kTrials = 400;
    double sum_abs = 0, sum_signed = 0, sum_sq = 0, sum_var = 0;
    int small = 0;
    for (int t = 0; t < kTrials; ++t) {
      // A union of u random values: `common` in both, the rest split between a and b.
      const std::size_t u = 1 + rng() % 600;
      const std::size_t common = rng() % (u + 1);
      small += u < n;
      ShingleSet a, b;
      for (std::size_t i = 0; i < u; ++i) {
        const std::uint64_t x = rng();
        if (i < common) {
          a.push_back(x);
          b.push_back(x);
        } else {
          (rng() % 2 ? a : b).push_back(x);
        }
      }
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      const double exact = jaccard(a, b);
      REQUIRE(exact == doctest::Approx(double(common) / double(u)));
      const double err = estimate_jaccard(hasher.sketch(a), hasher.sketch(b)) - exact;
      CHECK(std::abs(err) <= 3.0 / std::sqrt(double(n)));  // >= 6 worst-case deviations
      sum_abs += std::abs(err);
      sum_signed += err;
      sum_sq += err * err;
      sum_var += exact * (1 - exact) / n;
    }
    const double sd = 0.5 / std::sqrt(double(n));
    const double variance_ratio = sum_sq / sum_var;
    MESSAGE("n=", n, ": ", small, " of ", kTrials, " unions smaller than n; mean squared error / "
            "mean J(1-J)/n = ", variance_ratio);
    CHECK(small >= kTrials / 10);
    CHECK(sum_abs / kTrials <= sd);  // expected about 0.8 * 0.39/0.5 sd for uniform J
    // The ratio of 400 squared errors to their variances: about 1 +- 0.07 for independent
    // positions; densification's correlation may add a little, never 40 %.
    CHECK(variance_ratio <= 1.4);
    CHECK(std::abs(sum_signed / kTrials) <= 3 * sd / std::sqrt(double(kTrials)));  // no bias
  }
}

TEST_CASE("choose_banding: fits the sketch, reaches 99% recall, uses the most rows") {
  CHECK(choose_banding(128, 0.5).bands == 42);
  CHECK(choose_banding(128, 0.5).rows == 3);
  CHECK(candidate_probability({42, 3}, 0.5) == doctest::Approx(0.99633).epsilon(1e-4));
  for (const unsigned n : {1u, 8u, 64u, 100u, 128u, 256u}) {
    for (const double t : {0.3, 0.5, 0.7, 0.8, 0.9, 1.0}) {
      CAPTURE(n);
      CAPTURE(t);
      const LshBanding b = choose_banding(n, t);
      CHECK(b.bands >= 1);
      CHECK(b.rows >= 1);
      CHECK(b.bands * b.rows <= n);
      CHECK(b.bands == n / b.rows);
      if (candidate_probability({n, 1}, t) >= 0.99) {
        CHECK(candidate_probability(b, t) >= 0.99);
        if (b.rows < n) CHECK(candidate_probability({n / (b.rows + 1), b.rows + 1}, t) < 0.99);
      } else {
        CHECK(b.rows == 1);  // unreachable: best recall available
      }
    }
  }
}

TEST_CASE("candidate_probability is the S-curve") {
  const LshBanding b{20, 5};
  CHECK(candidate_probability(b, 0.0) == 0.0);
  CHECK(candidate_probability(b, 1.0) == 1.0);
  CHECK(candidate_probability({1, 1}, 0.3) == doctest::Approx(0.3));
  for (double s = 0.05; s < 1.0; s += 0.05) {
    CHECK(candidate_probability(b, s) < candidate_probability(b, s + 0.05));
  }
}

TEST_CASE("lsh_candidates equals the any-band-equal oracle") {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 100; ++round) {
    const LshBanding banding{1 + unsigned(rng() % 5), 1 + unsigned(rng() % 3)};
    const std::size_t docs = rng() % 30;
    // Tiny value alphabet so equal bands are common; a spare trailing value is ignored.
    std::vector<Sketch> sketches(docs, Sketch(banding.bands * banding.rows + 1));
    for (Sketch& s : sketches) {
      for (auto& v : s) v = rng() % 3;
    }
    std::unique_ptr<bool[]> skip(new bool[docs]);
    for (std::size_t d = 0; d < docs; ++d) skip[d] = rng() % 5 == 0;
    const bool use_skip = round % 2;
    Pairs expected;
    for (std::uint32_t a = 0; a < docs; ++a) {
      for (std::uint32_t b = a + 1; b < docs; ++b) {
        if (use_skip && (skip[a] || skip[b])) continue;
        for (unsigned band = 0; band < banding.bands; ++band) {
          const auto first = sketches[a].begin() + band * banding.rows;
          if (std::equal(first, first + banding.rows, sketches[b].begin() + band * banding.rows)) {
            expected.emplace_back(a, b);
            break;
          }
        }
      }
    }
    CAPTURE(round);
    const auto skip_span = use_skip ? std::span<const bool>(skip.get(), docs)
                                    : std::span<const bool>();
    CHECK(lsh_candidates(sketches, banding, skip_span) == expected);
  }
}

namespace {

/// Shingle sets of `families` families of documents, each made by editing a random base text
/// (substituting, deleting and inserting words at a random rate of up to `max_rate`).
std::vector<ShingleSet> near_duplicate_families(std::mt19937_64& rng, int families, int size,
                                                double max_rate) {
  std::vector<ShingleSet> sets;
  const auto word = [&] { return "w" + std::to_string(rng() % 2000); };
  for (int f = 0; f < families; ++f) {
    std::vector<std::string> base(40 + rng() % 200);
    for (auto& w : base) w = word();
    for (int m = 0; m < size; ++m) {
      // Integer arithmetic only: mt19937_64 is specified exactly, the distributions are not.
      const double rate = max_rate * double(rng() % 1001) / 1000.0;
      std::vector<std::string> doc;
      for (const auto& w : base) {
        if (double(rng() % 1000000) / 1e6 >= rate) {
          doc.push_back(w);
          continue;
        }
        switch (rng() % 3) {
          case 0: doc.push_back(word()); break;   // substitute
          case 1: break;                          // delete
          default: doc.push_back(w); doc.push_back(word());  // insert
        }
      }
      sets.push_back(shingle_set(doc, 3));
    }
  }
  return sets;
}

}  // namespace

TEST_CASE("LSH recall on near-duplicate families vs all-pairs exact Jaccard") {
  std::mt19937_64 rng(99);
  struct Config {
    unsigned n;
    double threshold, max_edit_rate;
  };
  for (const Config& c : {Config{128, 0.5, 0.15}, Config{128, 0.8, 0.05}}) {
    const auto [n, threshold, max_edit_rate] = c;
    CAPTURE(n);
    CAPTURE(threshold);
    const auto sets = near_duplicate_families(rng, 60, 6, max_edit_rate);
    const MinHasher hasher(n, rng());
    std::vector<Sketch> sketches;
    for (const auto& s : sets) sketches.push_back(hasher.sketch(s));
    const auto candidates = lsh_candidates(sketches, choose_banding(n, threshold));
    const std::set<std::pair<std::uint32_t, std::uint32_t>> found(candidates.begin(),
                                                                  candidates.end());
    std::size_t similar = 0, missed = 0, near = 0;
    for (std::uint32_t a = 0; a < sets.size(); ++a) {
      for (std::uint32_t b = a + 1; b < sets.size(); ++b) {
        const double j = jaccard(sets[a], sets[b]);
        if (j < threshold) continue;
        ++similar;
        near += j < threshold + 0.1;
        missed += !found.count({a, b});
      }
    }
    MESSAGE("n=", n, " threshold=", threshold, ": ", similar, " similar pairs, ", missed,
            " missed, ", near, " within 0.1 of the threshold, ", candidates.size(), " candidates");
    CHECK(similar >= 100);
    CHECK(double(missed) <= 0.01 * double(similar));
  }
}

TEST_CASE("lsh_candidates bounds a group of alike pages: neighbours in a run, candidates per page, still connected") {
  // 1000 documents alike in every band, 100 unrelated: the oracle would give 499,500 pairs.
  const LshBanding banding{8, 2};
  const std::size_t alike = 1000, docs = 1100;
  std::mt19937_64 rng(9);
  std::vector<Sketch> sketches(docs, Sketch(banding.bands * banding.rows));
  for (std::size_t d = 0; d < docs; ++d) {
    for (auto& v : sketches[d]) v = d < alike ? 7 : rng();
  }
  const auto pairs = lsh_candidates(sketches, banding);
  CHECK(pairs.size() <= alike * kLshRunNeighbours);
  std::vector<std::size_t> degree(docs, 0);
  std::vector<std::uint32_t> parent(docs);
  for (std::uint32_t d = 0; d < docs; ++d) parent[d] = d;
  const auto root = [&](std::uint32_t d) {
    while (parent[d] != d) d = parent[d];
    return d;
  };
  for (const auto& [a, b] : pairs) {
    CHECK(b < alike);  // the unrelated documents take no part
    ++degree[a];
    ++degree[b];
    parent[root(a)] = root(b);
  }
  CHECK(*std::max_element(degree.begin(), degree.end()) <= kLshCandidatesPerDocument);
  for (std::uint32_t d = 1; d < alike; ++d) CHECK(root(d) == root(0));  // one group still
  // Below the bounds, every pair of the run is a candidate.
  const std::vector<Sketch> few(kLshRunNeighbours, Sketch(banding.bands * banding.rows, 7));
  CHECK(lsh_candidates(few, banding).size() == kLshRunNeighbours * (kLshRunNeighbours - 1) / 2);
}

TEST_CASE("lsh_candidates by several processes (band keys and pairs sent to their owners) equals one process's") {
  std::mt19937_64 rng(2029);
  for (int round = 0; round < 40; ++round) {
    // Rows of 1 and 2 values give exact keys, 3 and more hashed ones (rows compared).
    // In the first rounds, 700 pages of two values in bands of one row: each band's runs pass
    // kLshRunNeighbours, pages pass kLshCandidatesPerDocument, and the band order decides which
    // pairs are kept. Then a tiny alphabet makes equal bands common.
    const bool crowded = round < 4;
    const LshBanding banding{crowded ? 4 + unsigned(rng() % 3) : 1 + unsigned(rng() % 6),
                             crowded ? 1 : 1 + unsigned(rng() % 4)};
    const std::size_t width = banding.bands * banding.rows + rng() % 3;
    const std::size_t docs = crowded ? 700 + rng() % 100 : rng() % 200;
    const unsigned alphabet = crowded ? 2 : 2 + unsigned(rng() % 3);
    std::vector<std::uint32_t> matrix(docs * width);
    for (auto& v : matrix) v = static_cast<std::uint32_t>(rng() % alphabet);
    std::unique_ptr<bool[]> skip(new bool[docs]);
    for (std::size_t d = 0; d < docs; ++d) skip[d] = rng() % 6 == 0;
    const auto skip_span = round % 2 ? std::span<const bool>(skip.get(), docs) : std::span<const bool>();
    const unsigned threads = crowded ? 2 + unsigned(rng() % 3) : 1 + unsigned(rng() % 2);
    const Pairs one = lsh_candidates(matrix, width, banding, skip_span, threads);
    for (const unsigned processes : {1u, 2u, 3u, 5u}) {
      CAPTURE(round);
      CAPTURE(processes);
      std::vector<Pairs> owned(processes);
      // Uneven ranges of held rows for the owned candidates: process p holds [cut[p], cut[p + 1]).
      std::vector<std::size_t> cut{0};
      for (unsigned p = 1; p < processes; ++p) cut.push_back(std::max(cut.back(), std::size_t(rng() % (docs + 1))));
      cut.push_back(docs);
      std::sort(cut.begin(), cut.end());
      canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
        const unsigned r = collective.rank();
        const std::span<const std::uint32_t> held(matrix.data() + cut[r] * width, (cut[r + 1] - cut[r]) * width);
        const auto held_skip = skip_span.empty() ? skip_span : skip_span.subspan(cut[r], cut[r + 1] - cut[r]);
        owned[r] = owned_lsh_candidates(held, cut[r], docs, width, banding, held_skip, threads, collective);
      });
      // Each candidate returned once, by the process holding its handling page.
      Pairs together;
      for (unsigned r = 0; r < processes; ++r) {
        for (const auto& [a, b] : owned[r]) {
          const std::uint32_t page = handling_page(a, b);
          CHECK((page == a || page == b));
          CHECK((cut[r] <= page && page < cut[r + 1]));
          together.emplace_back(a, b);
        }
      }
      std::sort(together.begin(), together.end());
      CHECK(together == one);
    }
  }
}
