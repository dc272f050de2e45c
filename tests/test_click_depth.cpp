/// @file test_click_depth.cpp
/// @brief click_depths against hand values, the depth bound, and a plain breadth-first search
/// over random graphs cut among 1 to 5 simulated processes.
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ranking/click_depth.h"
#include "support/thread_collective.h"

using canon::ranking::click_depths;
using canon::ranking::Edge;
using canon::ranking::kMaxClickDepth;
using canon::ranking::kUnreached;
using canon::ranking::NodeId;
using canon::ranking::OutLinkRows;

namespace {

constexpr std::uint32_t U = kUnreached;

/// The rows of nodes [first, end) of the graph of `edges`, as the process holding them has them.
OutLinkRows rows_of(NodeId n, const std::vector<Edge>& edges, NodeId first, NodeId end) {
  std::vector<Edge> mine;
  for (const Edge& e : edges) {
    if (e.source >= first && e.source < end) mine.push_back(e);
  }
  return OutLinkRows::build(n, first, end, std::move(mine));
}

/// The model: a queue, every edge as given (self-links and repeats included), depths past
/// kMaxClickDepth unreached.
std::vector<std::uint32_t> plain_bfs(NodeId n, const std::vector<Edge>& edges, const std::vector<NodeId>& entries) {
  std::vector<std::vector<NodeId>> out(n);
  for (const Edge& e : edges) out[e.source].push_back(e.target);
  std::vector<std::uint32_t> depth(n, U);
  std::deque<NodeId> queue;
  for (const NodeId e : entries) {
    if (depth[e] == U) {
      depth[e] = 0;
      queue.push_back(e);
    }
  }
  while (!queue.empty()) {
    const NodeId u = queue.front();
    queue.pop_front();
    for (const NodeId v : out[u]) {
      if (depth[v] == U) {
        depth[v] = depth[u] + 1;
        queue.push_back(v);
      }
    }
  }
  for (std::uint32_t& d : depth) {
    if (d != U && d > kMaxClickDepth) d = U;
  }
  return depth;
}

/// click_depths over processes owning [cuts[p], cuts[p + 1]), each given the entries in its
/// range: every node's depth, the processes' results joined in rank order.
std::vector<std::uint32_t> partitioned_depths(NodeId n, const std::vector<Edge>& edges, const std::vector<NodeId>& entries,
                                              const std::vector<NodeId>& cuts) {
  const auto processes = static_cast<unsigned>(cuts.size() - 1);
  std::vector<std::vector<std::uint32_t>> results(processes);
  canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
    const unsigned p = collective.rank();
    std::vector<NodeId> mine;
    for (const NodeId e : entries) {
      if (e >= cuts[p] && e < cuts[p + 1]) mine.push_back(e);
    }
    results[p] = click_depths(rows_of(n, edges, cuts[p], cuts[p + 1]), mine, collective);
  });
  std::vector<std::uint32_t> all;
  for (unsigned p = 0; p < processes; ++p) {
    CHECK(results[p].size() == cuts[p + 1] - cuts[p]);
    all.insert(all.end(), results[p].begin(), results[p].end());
  }
  return all;
}

/// Random multigraph with self-links and repeated links; `chain` adds v -> v + 1 for most v, so
/// that depths run past kMaxClickDepth on large graphs.
std::vector<Edge> random_edges(std::mt19937& rng, NodeId n, std::size_t m, bool chain) {
  std::vector<Edge> edges;
  if (n == 0) return edges;
  std::uniform_int_distribution<NodeId> node(0, n - 1);
  for (std::size_t i = 0; i < m; ++i) {
    const Edge e{node(rng), node(rng)};
    edges.push_back(e);
    if (i % 5 == 0) edges.push_back(e);
    if (i % 7 == 0) edges.push_back({e.source, e.source});
  }
  for (NodeId v = 0; chain && v + 1 < n; ++v) {
    if (rng() % 100 != 0) edges.push_back({v, v + 1});
  }
  std::shuffle(edges.begin(), edges.end(), rng);
  return edges;
}

/// 0 and n, and processes - 1 cuts at random between (some ranges empty).
std::vector<NodeId> random_cuts(std::mt19937& rng, NodeId n, unsigned processes) {
  std::vector<NodeId> cuts{0, n};
  for (unsigned p = 1; p < processes; ++p) cuts.push_back(std::uniform_int_distribution<NodeId>(0, n)(rng));
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

struct HandCase {
  std::string name;
  NodeId n;
  std::vector<Edge> edges;
  std::vector<NodeId> entries;
  std::vector<std::uint32_t> expected;
};

}  // namespace

TEST_CASE("hand-written graphs, in one process and cut in two at every node") {
  const std::vector<HandCase> cases = {
      {"chain", 4, {{0, 1}, {1, 2}, {2, 3}}, {0}, {0, 1, 2, 3}},
      {"diamond, then a tail", 5, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}}, {0}, {0, 1, 1, 2, 3}},
      {"a shortcut beats the long way", 4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}}, {0}, {0, 1, 2, 1}},
      {"a node nothing links to, one linking in only", 4, {{0, 1}, {2, 0}, {1, 0}}, {0}, {0, 1, U, U}},
      {"self-links", 3, {{0, 0}, {0, 1}, {1, 1}, {2, 2}}, {0}, {0, 1, U}},
      {"entries given twice, a link back to one", 4, {{0, 1}, {2, 3}, {1, 3}, {3, 2}}, {2, 2, 0, 0}, {0, 1, 0, 1}},
      {"the entry is not node 0", 5, {{3, 1}, {1, 0}, {0, 4}, {4, 3}, {2, 3}}, {3}, {2, 1, U, 0, 3}},
      {"no entries", 3, {{0, 1}, {1, 2}}, {}, {U, U, U}},
      {"no links", 3, {}, {1}, {U, 0, U}},
      {"one node", 1, {}, {0}, {0}},
      {"no nodes", 0, {}, {}, {}},
  };
  for (const HandCase& c : cases) {
    CAPTURE(c.name);
    CHECK(plain_bfs(c.n, c.edges, c.entries) == c.expected);  // the model agrees
    CHECK(click_depths(rows_of(c.n, c.edges, 0, c.n), c.entries, canon::LocalCollective()) == c.expected);
    for (NodeId cut = 0; cut <= c.n; ++cut) {
      CAPTURE(cut);
      CHECK(partitioned_depths(c.n, c.edges, c.entries, {0, cut, c.n}) == c.expected);
    }
  }
}

TEST_CASE("a chain longer than kMaxClickDepth: the nodes past it are unreached") {
  const NodeId n = kMaxClickDepth + 40;
  std::vector<Edge> edges;
  for (NodeId v = 0; v + 1 < n; ++v) edges.push_back({v, v + 1});
  for (const NodeId entry : {0u, 10u}) {
    std::vector<std::uint32_t> expected(n, U);
    for (NodeId v = entry; v < n && v - entry <= kMaxClickDepth; ++v) expected[v] = v - entry;
    CAPTURE(entry);
    CHECK(expected[entry + kMaxClickDepth] == kMaxClickDepth);
    CHECK(expected[entry + kMaxClickDepth + 1] == U);
    CHECK(click_depths(rows_of(n, edges, 0, n), std::vector<NodeId>{entry}, canon::LocalCollective()) == expected);
    CHECK(partitioned_depths(n, edges, {entry}, {0, 30, 30, 70, n}) == expected);
  }
}

TEST_CASE("random graphs cut among 1, 2, 3 and 5 processes give the plain breadth-first search's depths") {
  std::mt19937 rng(4711);
  int cut_off = 0;  // graphs where the bound on the depth mattered
  for (const NodeId n : {0u, 1u, 2u, 7u, 40u, 300u, 3000u}) {
    for (int round = 0; round < 6; ++round) {
      const bool chain = round % 2 == 1;
      const std::size_t m = std::uniform_int_distribution<std::size_t>(0, chain ? n / 50 : 2 * std::size_t{n})(rng);
      const std::vector<Edge> edges = random_edges(rng, n, m, chain);
      std::vector<NodeId> entries;
      const int entry_count = n == 0 ? 0 : round % 4;  // 0 .. 3, repeats possible
      for (int i = 0; i < entry_count; ++i) entries.push_back(std::uniform_int_distribution<NodeId>(0, n - 1)(rng));
      const std::vector<std::uint32_t> expected = plain_bfs(n, edges, entries);
      cut_off += std::count(expected.begin(), expected.end(), kMaxClickDepth) > 0 ? 1 : 0;
      for (const unsigned processes : {1u, 2u, 3u, 5u}) {
        const std::vector<NodeId> cuts = random_cuts(rng, n, processes);
        CAPTURE(n);
        CAPTURE(round);
        CAPTURE(processes);
        CHECK(partitioned_depths(n, edges, entries, cuts) == expected);
      }
    }
  }
  CHECK(cut_off > 0);
}
