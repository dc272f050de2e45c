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

TEST_CASE("component_labels: the pairs spread over processes give the BFS labels on every process") {
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
    for (const unsigned processes : {1u, 2u, 3u, 4u}) {
      CAPTURE(round);
      CAPTURE(processes);
      std::vector<std::vector<std::uint32_t>> labels(processes);
      canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
        Edges mine;  // the pairs this process found: every processes-th one
        for (std::size_t e = collective.rank(); e < edges.size(); e += processes) mine.push_back(edges[e]);
        labels[collective.rank()] = canon::dedup::component_labels(n, mine, collective);
      });
      for (const auto& l : labels) CHECK(l == expected);
    }
  }
}
