/// @file test_pagerank.cpp
/// @brief compute_pagerank against a dense Google-matrix model, hand values, and Boost's page_rank.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/page_rank.hpp>

#include "ranking/pagerank.h"
#include "support/thread_collective.h"

using canon::ranking::compute_pagerank;
using canon::ranking::Edge;
using canon::ranking::LinkGraph;
using canon::ranking::NodeId;
using canon::ranking::OutLinkRows;
using canon::ranking::PageRankOptions;
using canon::ranking::PageRankResult;

namespace {

/// Slow and obviously correct: the explicit N x N Google matrix G (column u = where the surfer
/// goes from u), dangling columns uniform, then x <- G x until it stops moving (or `steps` times).
std::vector<double> dense_pagerank(NodeId n, const std::vector<Edge>& edges, double d,
                                   int steps = 100000) {
  std::set<std::pair<NodeId, NodeId>> links;  // distinct, no self-links
  for (const Edge& e : edges) {
    if (e.source != e.target) links.emplace(e.source, e.target);
  }
  std::vector<std::size_t> out(n, 0);
  for (const auto& [s, t] : links) ++out[s];
  std::vector<std::vector<double>> g(n, std::vector<double>(n, (1 - d) / n));
  for (const auto& [s, t] : links) g[t][s] += d / static_cast<double>(out[s]);
  for (NodeId u = 0; u < n; ++u) {
    if (out[u] == 0) {
      for (NodeId v = 0; v < n; ++v) g[v][u] += d / n;
    }
  }
  std::vector<double> x(n, 1.0 / n), next(n);
  for (int iter = 0; iter < steps; ++iter) {
    double change = 0;
    for (NodeId v = 0; v < n; ++v) {
      next[v] = 0;
      for (NodeId u = 0; u < n; ++u) next[v] += g[v][u] * x[u];
      change += std::abs(next[v] - x[v]);
    }
    x.swap(next);
    if (change < 1e-15) break;
  }
  return x;
}

double l1_distance(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
  return sum;
}

double total(const std::vector<double>& x) { return std::accumulate(x.begin(), x.end(), 0.0); }

/// The rows of nodes [first, end) of the graph of `edges`, as the process holding them has them.
OutLinkRows rows_of(NodeId n, const std::vector<Edge>& edges, NodeId first, NodeId end) {
  std::vector<Edge> mine;
  for (const Edge& e : edges) {
    if (e.source >= first && e.source < end) mine.push_back(e);
  }
  return OutLinkRows::build(n, first, end, std::move(mine));
}

PageRankResult rank(NodeId n, const std::vector<Edge>& edges, PageRankOptions options = {}) {
  return compute_pagerank(LinkGraph::build(n, edges), options);
}

/// Random multigraph with self-loops, parallel links, and (when sparse) dangling/isolated nodes.
std::vector<Edge> random_edges(std::mt19937& rng, NodeId n, std::size_t m) {
  std::uniform_int_distribution<NodeId> node(0, n - 1);
  std::vector<Edge> edges;
  for (std::size_t i = 0; i < m; ++i) {
    const Edge e{node(rng), node(rng)};
    edges.push_back(e);
    if (i % 5 == 0) edges.push_back(e);
    if (i % 7 == 0) edges.push_back({e.source, e.source});
  }
  return edges;
}

}  // namespace

TEST_CASE("empty graph: no scores, converged, no iterations") {
  const PageRankResult r = rank(0, {});
  CHECK(r.scores.empty());
  CHECK(r.converged);
  CHECK(r.iterations == 0);
}

TEST_CASE("single node scores 1, with or without a self-link") {
  for (const auto& edges : {std::vector<Edge>{}, std::vector<Edge>{{0, 0}}}) {
    const PageRankResult r = rank(1, edges);
    REQUIRE(r.scores.size() == 1);
    CHECK(r.scores[0] == doctest::Approx(1.0).epsilon(1e-15));
    CHECK(r.converged);
  }
}

TEST_CASE("hand-computed values") {
  SUBCASE("2-node cycle is 0.5 / 0.5, converged after one iteration") {
    const PageRankResult r = rank(2, {{0, 1}, {1, 0}, {1, 0}});
    CHECK(r.scores[0] == doctest::Approx(0.5).epsilon(1e-15));
    CHECK(r.scores[1] == doctest::Approx(0.5).epsilon(1e-15));
    CHECK(r.iterations == 1);
    CHECK(r.converged);
  }
  SUBCASE("3 nodes, 0->1, 0->2, 1->2, node 2 dangling") {
    // With b = (d*x2 + (1-d))/3 the common term: x0 = b, x1 = b + d*x0/2,
    // x2 = b + d*x0/2 + d*x1, so x = b * (1, 1 + d/2, 1 + 3d/2 + d^2/2). For d = 0.85 that is
    // b * (1, 1.425, 2.63625), and the sum 1 gives b = 1/5.06125 = 800/4049:
    // x = (800, 1140, 2109) / 4049. (Check: 3b = 0.85 * 2.63625 b + 0.15 holds.)
    const PageRankResult r = rank(3, {{0, 1}, {0, 2}, {1, 2}});
    CHECK(r.converged);
    CHECK(r.scores[0] == doctest::Approx(800.0 / 4049).epsilon(1e-9));
    CHECK(r.scores[1] == doctest::Approx(1140.0 / 4049).epsilon(1e-9));
    CHECK(r.scores[2] == doctest::Approx(2109.0 / 4049).epsilon(1e-9));
  }
  SUBCASE("no links at all: uniform") {
    const PageRankResult r = rank(4, {{2, 2}});
    for (double s : r.scores) CHECK(s == doctest::Approx(0.25).epsilon(1e-15));
  }
}

TEST_CASE("random graphs match the dense model") {
  std::mt19937 rng(2024);
  for (int round = 0; round < 300; ++round) {
    const NodeId n = std::uniform_int_distribution<NodeId>(1, 40)(rng);
    const std::size_t m = std::uniform_int_distribution<std::size_t>(0, 3 * n)(rng);
    const std::vector<Edge> edges = random_edges(rng, n, m);
    const double d = round % 4 == 0 ? 0.5 : 0.85;
    CAPTURE(round);
    CAPTURE(n);
    CAPTURE(m);
    PageRankOptions options;
    options.damping = d;
    options.threads = 1 + round % 3;
    const PageRankResult r = rank(n, edges, options);
    CHECK(r.converged);
    CHECK(r.last_change < options.tolerance);
    CHECK(std::abs(total(r.scores) - 1.0) <= 1e-12);
    CHECK(l1_distance(r.scores, dense_pagerank(n, edges, d)) <= 1e-9);
  }
}

TEST_CASE("each iteration matches the dense model step for step") {
  // The converged vector alone cannot tell how dangling mass is handled (spreading it uniformly
  // just adds to the uniform teleport term, which renormalisation absorbs); the iterates can.
  std::mt19937 rng(555);
  for (int round = 0; round < 40; ++round) {
    const NodeId n = std::uniform_int_distribution<NodeId>(2, 30)(rng);
    const std::vector<Edge> edges = random_edges(rng, n, n);
    for (int steps = 1; steps <= 4; ++steps) {
      CAPTURE(round);
      CAPTURE(steps);
      PageRankOptions options;
      options.max_iterations = static_cast<unsigned>(steps);
      const PageRankResult r = rank(n, edges, options);
      CHECK(l1_distance(r.scores, dense_pagerank(n, edges, 0.85, steps)) <= 1e-14);
    }
  }
}

TEST_CASE("converged flag and iteration count") {
  std::mt19937 rng(7);
  const std::vector<Edge> edges = random_edges(rng, 30, 60);
  PageRankOptions options;
  options.max_iterations = 1;
  PageRankResult r = rank(30, edges, options);
  CHECK_FALSE(r.converged);
  CHECK(r.iterations == 1);
  CHECK(r.last_change >= options.tolerance);
  CHECK(std::abs(total(r.scores) - 1.0) <= 1e-12);

  options.max_iterations = 0;
  r = rank(30, edges, options);
  CHECK_FALSE(r.converged);
  CHECK(r.iterations == 0);
  for (double s : r.scores) CHECK(s == doctest::Approx(1.0 / 30).epsilon(1e-15));

  options.max_iterations = 1000;
  r = rank(30, edges, options);
  CHECK(r.converged);
  CHECK(r.iterations > 1);
  CHECK(r.iterations < 1000);
  CHECK(r.last_change < options.tolerance);

  // One iteration short of convergence is reported as not converged.
  const unsigned needed = r.iterations;
  options.max_iterations = needed - 1;
  r = rank(30, edges, options);
  CHECK_FALSE(r.converged);
  CHECK(r.iterations == needed - 1);
}

TEST_CASE("thread counts agree, bit for bit") {
  std::mt19937 rng(99);
  const NodeId n = 30000;  // ~15 blocks of work to split
  const LinkGraph g = LinkGraph::build(n, random_edges(rng, n, 150000));
  PageRankOptions options;
  options.threads = 1;
  const PageRankResult one = compute_pagerank(g, options);
  for (unsigned threads : {2u, 3u, 0u, 64u}) {
    CAPTURE(threads);
    options.threads = threads;
    const PageRankResult many = compute_pagerank(g, options);
    CHECK(many.iterations == one.iterations);
    CHECK(many.converged == one.converged);
    CHECK(many.scores == one.scores);  // exactly: each row's sum in one order, exact totals
  }
}

TEST_CASE("a partitioned run gives every process the one-process scores, bit for bit: every node's, or its own") {
  std::mt19937 rng(2027);
  for (const NodeId n : {1u, 7u, 3000u, 30000u}) {
    // Some pages without out-links: their mass is spread, a partial sum of its own.
    std::vector<Edge> edges = random_edges(rng, n, 4 * std::size_t{n});
    std::erase_if(edges, [](const Edge& e) { return e.source % 5 == 0; });
    const PageRankResult one = compute_pagerank(LinkGraph::build(n, edges));
    for (const unsigned processes : {1u, 2u, 3u, 5u}) {
      // Each process's nodes a range, cut at random (some empty).
      std::vector<NodeId> cuts{0, n};
      for (unsigned p = 1; p < processes; ++p) cuts.push_back(std::uniform_int_distribution<NodeId>(0, n)(rng));
      std::sort(cuts.begin(), cuts.end());
      for (const unsigned threads : {1u, 2u}) {
        CAPTURE(n);
        CAPTURE(processes);
        CAPTURE(threads);
        PageRankOptions options;
        options.threads = threads;
        std::vector<PageRankResult> results(processes);
        canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
          const unsigned p = collective.rank();
          results[p] = compute_pagerank(rows_of(n, edges, cuts[p], cuts[p + 1]), options, collective);
        });
        for (const PageRankResult& r : results) {
          CHECK(r.iterations == one.iterations);
          CHECK(r.last_change == one.last_change);
          CHECK(r.scores == one.scores);  // exactly: the same sums in the same order
        }
        // Each process's own nodes' scores only: its slice of them.
        canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
          const unsigned p = collective.rank();
          results[p] = compute_pagerank(rows_of(n, edges, cuts[p], cuts[p + 1]), options, collective,
                                        canon::ranking::ScoresOf::kOwnNodes);
        });
        for (unsigned p = 0; p < processes; ++p) {
          CHECK(results[p].first_node == cuts[p]);
          CHECK(results[p].scores == std::vector<double>(one.scores.begin() + cuts[p], one.scores.begin() + cuts[p + 1]));
        }
      }
    }
  }
}

TEST_CASE("OutLinkRows: a range's rows, sorted, without self-links or repeats; of() is the whole graph") {
  std::mt19937 rng(5);
  for (int round = 0; round < 30; ++round) {
    const NodeId n = std::uniform_int_distribution<NodeId>(1, 300)(rng);
    std::vector<Edge> edges = random_edges(rng, n, 3 * std::size_t{n});
    for (NodeId v = 0; v < n; v += 7) edges.push_back({v, v});  // self-links
    if (!edges.empty()) edges.push_back(edges.front());          // a repeat
    NodeId first = std::uniform_int_distribution<NodeId>(0, n)(rng), end = std::uniform_int_distribution<NodeId>(0, n)(rng);
    if (first > end) std::swap(first, end);
    const OutLinkRows rows = rows_of(n, edges, first, end);
    CAPTURE(round);
    REQUIRE(rows.first() == first);
    REQUIRE(rows.end() == end);
    REQUIRE(rows.node_count() == n);
    std::size_t count = 0;
    for (NodeId u = 0; u < n; ++u) {
      if (u < first || u >= end) {
        CHECK(rows.out_links(u).empty());  // another process's row
        continue;
      }
      std::set<NodeId> expected;  // the model: distinct non-self targets, ascending
      for (const Edge& e : edges) {
        if (e.source == u && e.target != u) expected.insert(e.target);
      }
      const auto got = rows.out_links(u);
      CHECK(std::vector<NodeId>(got.begin(), got.end()) == std::vector<NodeId>(expected.begin(), expected.end()));
      count += expected.size();
    }
    CHECK(rows.edge_count() == count);
    const OutLinkRows whole = OutLinkRows::of(LinkGraph::build(n, edges)), built = rows_of(n, edges, 0, n);
    REQUIRE(whole.node_count() == n);
    CHECK(whole.edge_count() == built.edge_count());
    for (NodeId u = 0; u < n; ++u) {
      CHECK(std::vector<NodeId>(whole.out_links(u).begin(), whole.out_links(u).end()) ==
            std::vector<NodeId>(built.out_links(u).begin(), built.out_links(u).end()));
    }
  }
}

TEST_CASE("without dangling pages, Boost's page_rank normalised agrees") {
  using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  std::mt19937 rng(31337);
  for (int round = 0; round < 50; ++round) {
    const NodeId n = std::uniform_int_distribution<NodeId>(2, 200)(rng);
    std::vector<Edge> edges = random_edges(rng, n, 2 * n);
    for (NodeId v = 0; v < n; ++v) edges.push_back({v, (v + 1) % n});  // no dangling pages
    const LinkGraph g = LinkGraph::build(n, edges);
    BoostGraph bg(n);
    for (const Edge& e : g.edges()) boost::add_edge(e.source, e.target, bg);
    std::vector<double> boost_rank(n);
    boost::graph::page_rank(bg, boost::make_iterator_property_map(
                                    boost_rank.begin(), boost::get(boost::vertex_index, bg)),
                            boost::graph::n_iterations(200), 0.85);
    const double sum = total(boost_rank);
    for (double& s : boost_rank) s /= sum;
    CAPTURE(round);
    CHECK(l1_distance(compute_pagerank(g).scores, boost_rank) <= 1e-6);
  }
}

TEST_CASE("renumbering the nodes permutes the scores (the internal renumbering maps back)") {
  std::mt19937 rng(4242);
  for (int round = 0; round < 20; ++round) {
    const NodeId n = std::uniform_int_distribution<NodeId>(2, 5000)(rng);
    const std::vector<Edge> edges = random_edges(rng, n, 4 * std::size_t{n});
    std::vector<NodeId> perm(n);
    std::iota(perm.begin(), perm.end(), 0u);
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<Edge> permuted;
    for (const Edge& e : edges) permuted.push_back({perm[e.source], perm[e.target]});
    const PageRankResult a = rank(n, edges), b = rank(n, permuted);
    CAPTURE(round);
    CHECK(a.iterations == b.iterations);
    double max_diff = 0;
    for (NodeId v = 0; v < n; ++v) {
      max_diff = std::max(max_diff, std::abs(a.scores[v] - b.scores[perm[v]]));
    }
    CHECK(max_diff <= 1e-15);
  }
}

TEST_CASE("compute_pagerank on an rvalue graph releases it and gives the same scores") {
  std::mt19937 rng(17);
  const NodeId n = 10000;
  const std::vector<Edge> edges = random_edges(rng, n, 50000);
  LinkGraph g = LinkGraph::build(n, edges);
  const PageRankResult kept = compute_pagerank(g);
  CHECK(g.edge_count() > 0);  // still usable
  const PageRankResult released = compute_pagerank(std::move(g));
  CHECK(released.scores == kept.scores);
  CHECK(released.iterations == kept.iterations);
  CHECK(released.setup_seconds >= 0.0);
  CHECK(released.iteration_seconds > 0.0);
  g = LinkGraph::build(1, {});  // a moved-from graph can be assigned again
  CHECK(g.node_count() == 1);
}
