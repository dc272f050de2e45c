/// @file test_link_graph.cpp
/// @brief LinkGraph: cleaning (self-links, parallel links), accessors, and a std::set model.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "ranking/link_graph.h"

using canon::ranking::Edge;
using canon::ranking::LinkGraph;
using canon::ranking::NodeId;

namespace {

std::vector<NodeId> to_vector(std::span<const NodeId> s) { return {s.begin(), s.end()}; }

std::vector<std::pair<NodeId, NodeId>> pairs(const std::vector<Edge>& edges) {
  std::vector<std::pair<NodeId, NodeId>> result;
  for (const Edge& e : edges) result.emplace_back(e.source, e.target);
  return result;
}

}  // namespace

TEST_CASE("self-links are dropped and parallel links merged") {
  const std::vector<Edge> edges{{0, 1}, {0, 1}, {1, 1}, {2, 0}, {0, 2}, {2, 2}, {0, 1}, {2, 1}};
  const LinkGraph g = LinkGraph::build(3, edges);
  CHECK(g.node_count() == 3);
  CHECK(g.edge_count() == 4);
  CHECK(g.out_degree(0) == 2);
  CHECK(g.out_degree(1) == 0);
  CHECK(g.out_degree(2) == 2);
  CHECK(to_vector(g.in_links(0)) == std::vector<NodeId>{2});
  CHECK(to_vector(g.in_links(1)) == std::vector<NodeId>{0, 2});
  CHECK(to_vector(g.in_links(2)) == std::vector<NodeId>{0});
  using P = std::pair<NodeId, NodeId>;
  CHECK(pairs(g.edges()) == std::vector<P>{{0, 1}, {0, 2}, {2, 0}, {2, 1}});
}

TEST_CASE("empty graph") {
  const LinkGraph g = LinkGraph::build(0, {});
  CHECK(g.node_count() == 0);
  CHECK(g.edge_count() == 0);
  CHECK(g.edges().empty());
}

TEST_CASE("isolated nodes and a graph of only self-links") {
  const std::vector<Edge> edges{{3, 3}, {1, 1}};
  const LinkGraph g = LinkGraph::build(5, edges);
  CHECK(g.node_count() == 5);
  CHECK(g.edge_count() == 0);
  for (NodeId v = 0; v < 5; ++v) {
    CHECK(g.out_degree(v) == 0);
    CHECK(g.in_links(v).empty());
  }
  CHECK(g.edges().empty());
}

TEST_CASE("a moved graph keeps its contents") {
  const std::vector<Edge> edges{{0, 1}, {1, 0}};
  LinkGraph a = LinkGraph::build(2, edges);
  LinkGraph b = std::move(a);
  CHECK(b.edge_count() == 2);
  a = LinkGraph::build(1, {});
  CHECK(a.node_count() == 1);
  CHECK(to_vector(b.in_links(0)) == std::vector<NodeId>{1});
}

TEST_CASE("random graphs match a std::set model") {
  std::mt19937 rng(12345);
  for (int round = 0; round < 200; ++round) {
    const NodeId n = std::uniform_int_distribution<NodeId>(1, 60)(rng);
    const std::size_t m = std::uniform_int_distribution<std::size_t>(0, 4 * n)(rng);
    std::uniform_int_distribution<NodeId> node(0, n - 1);
    std::vector<Edge> edges;
    std::set<std::pair<NodeId, NodeId>> model;
    for (std::size_t i = 0; i < m; ++i) {
      const Edge e{node(rng), node(rng)};
      edges.push_back(e);
      if (i % 3 == 0) edges.push_back(e);  // parallel copies
      if (e.source != e.target) model.emplace(e.source, e.target);
    }
    std::shuffle(edges.begin(), edges.end(), rng);
    const LinkGraph g = LinkGraph::build(n, edges);
    CAPTURE(round);
    REQUIRE(g.node_count() == n);
    CHECK(g.edge_count() == model.size());
    CHECK(pairs(g.edges()) ==
          std::vector<std::pair<NodeId, NodeId>>(model.begin(), model.end()));
    std::vector<std::uint32_t> out(n, 0);
    std::vector<std::vector<NodeId>> in(n);
    for (const auto& [s, t] : model) {  // ascending (s, t): in[t] comes out ascending
      ++out[s];
      in[t].push_back(s);
    }
    for (NodeId v = 0; v < n; ++v) {
      CHECK(g.out_degree(v) == out[v]);
      CHECK(to_vector(g.in_links(v)) == in[v]);
    }
    // build_consuming builds the same graph and releases the input.
    std::vector<Edge> owned = edges;
    const LinkGraph consumed = LinkGraph::build_consuming(n, std::move(owned));
    CHECK(owned.empty());
    CHECK(pairs(consumed.edges()) == pairs(g.edges()));
    for (NodeId v = 0; v < n; ++v) CHECK(consumed.out_degree(v) == g.out_degree(v));
  }
}

TEST_CASE("hubs: long in-link lists in input order come out sorted and deduplicated") {
  // Node 0 is linked from every other node several times, in descending order.
  const NodeId n = 5000;
  std::vector<Edge> edges;
  for (int copy = 0; copy < 3; ++copy) {
    for (NodeId u = n - 1; u >= 1; --u) edges.push_back({u, 0});
  }
  const LinkGraph g = LinkGraph::build_consuming(n, std::move(edges));
  CHECK(g.edge_count() == n - 1);
  const auto in = g.in_links(0);
  REQUIRE(in.size() == n - 1);
  CHECK(std::is_sorted(in.begin(), in.end()));
  CHECK(in.front() == 1);
  CHECK(in.back() == n - 1);
  for (NodeId u = 1; u < n; ++u) CHECK(g.out_degree(u) == 1);
}
