/// @file test_union_find.cpp
/// @brief UnionFind, and component_labels over the processes of a partitioned run, against BFS
/// connected components on random graphs.
#include <doctest/doctest.h>

#include <queue>
#include <random>
#include <vector>

#include "dedup/sketches/components.h"
#include "dedup/sketches/union_find.h"
#include "support/thread_collective.h"

using canon::dedup::UnionFind;

namespace {

using Edges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

/// Oracle: for each vertex, the smallest vertex of its connected component (BFS).
std::vector<std::uint32_t> bfs_labels(std::uint32_t n, const Edges& edges) {
  std::vector<std::vector<std::uint32_t>> adj(n);
  for (auto [a, b] : edges) {
    adj[a].push_back(b);
    adj[b].push_back(a);
  }
  constexpr std::uint32_t kUnseen = UINT32_MAX;
  std::vector<std::uint32_t> label(n, kUnseen);
  for (std::uint32_t start = 0; start < n; ++start) {
    if (label[start] != kUnseen) continue;
    std::queue<std::uint32_t> queue;
    queue.push(start);
    label[start] = start;  // vertices are started in increasing order: start is the smallest
    while (!queue.empty()) {
      const std::uint32_t v = queue.front();
      queue.pop();
      for (std::uint32_t w : adj[v]) {
        if (label[w] == kUnseen) {
          label[w] = start;
          queue.push(w);
        }
      }
    }
  }
  return label;
}

}  // namespace

TEST_CASE("UnionFind basics") {
  UnionFind uf(5);
  CHECK(uf.size() == 5);
  CHECK(uf.find(3) == 3);
  CHECK(uf.unite(3, 4));
  CHECK_FALSE(uf.unite(4, 3));
  CHECK(uf.unite(1, 4));
  CHECK(uf.find(1) == uf.find(3));
  CHECK(uf.smallest_member_labels() == std::vector<std::uint32_t>{0, 1, 2, 1, 1});
  CHECK(UnionFind(0).smallest_member_labels().empty());
}

TEST_CASE("UnionFind matches BFS components on random graphs") {
  std::mt19937 rng(2024);
  for (int round = 0; round < 200; ++round) {
    const std::uint32_t n = 1 + rng() % 80;
    const std::uint32_t m = rng() % (2 * n);
    Edges edges;
    UnionFind uf(n);
    std::size_t merges = 0;
    for (std::uint32_t e = 0; e < m; ++e) {
      edges.emplace_back(rng() % n, rng() % n);
      merges += uf.unite(edges.back().first, edges.back().second);
    }
    const auto expected = bfs_labels(n, edges);
    CAPTURE(round);
    CHECK(uf.smallest_member_labels() == expected);
    std::size_t components = 0;
    for (std::uint32_t v = 0; v < n; ++v) components += expected[v] == v;
    CHECK(merges == n - components);  // unite() returns true exactly once per merge
    for (auto [a, b] : edges) CHECK(uf.find(a) == uf.find(b));
  }
}

TEST_CASE("pair_component_labels: the pairs spread over processes, labels kept by owners, give the BFS labels") {
  std::mt19937 rng(77);
  for (int round = 0; round < 60; ++round) {
    const std::uint32_t n = 1 + rng() % 300;
    const std::uint32_t m = rng() % (2 * n);
    Edges edges;
    // Long chains too: a label has to travel far (pointer jumping keeps the rounds few).
    for (std::uint32_t e = 0; e < m; ++e) edges.emplace_back(rng() % n, rng() % n);
    if (round % 3 == 0) {
      for (std::uint32_t v = 1; v < n; ++v) edges.emplace_back(n - v, n - v - 1);
    }
    const auto expected = bfs_labels(n, edges);
    const std::uint64_t salt = rng();
    for (const unsigned processes : {1u, 2u, 3u, 4u}) {
      CAPTURE(round);
      CAPTURE(processes);
      // Owners by a hash of the element, or by ranges: every element has one owner.
      const auto owner_of = [&](std::uint32_t e) {
        return round % 2 ? static_cast<unsigned>((e * 2654435761u ^ salt) % processes)
                         : static_cast<unsigned>(std::uint64_t{e} * processes / n);
      };
      std::vector<Edges> mine(processes);  // the pairs each process found: at random
      for (const auto& edge : edges) mine[rng() % processes].push_back(edge);
      std::vector<std::vector<std::uint32_t>> labels(processes);
      canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
        labels[collective.rank()] = canon::dedup::pair_component_labels(mine[collective.rank()], owner_of, collective);
      });
      for (unsigned p = 0; p < processes; ++p) {
        REQUIRE(labels[p].size() == mine[p].size());
        for (std::size_t k = 0; k < mine[p].size(); ++k) CHECK(labels[p][k] == expected[mine[p][k].first]);
      }
    }
  }
}
