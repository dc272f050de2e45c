/// @file test_pagerank_mpi.cpp
/// @brief PageRank computed by the processes mpirun starts gives every process exactly the
/// one-process scores (ranking/pagerank.h, mpi/mpi_collective.h). Run under `mpirun -np P`
/// (tests/CMakeLists.txt: P = 1 .. 4); each process runs every case and checks its own result.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <random>
#include <vector>

#include "mpi/mpi_collective.h"
#include "ranking/pagerank.h"

using canon::ranking::compute_pagerank;
using canon::ranking::Edge;
using canon::ranking::LinkGraph;
using canon::ranking::NodeId;
using canon::ranking::PageRankOptions;
using canon::ranking::PageRankResult;

TEST_CASE("PageRank over MPI: every process gets the one-process scores, bit for bit") {
  const canon::mpi::MpiCollective processes{boost::mpi::communicator()};
  std::mt19937 rng(2027);  // the same graphs in every process
  for (const NodeId n : {1u, 7u, 3000u, 30000u}) {
    std::vector<Edge> edges;
    std::uniform_int_distribution<NodeId> node(0, n - 1);
    for (std::size_t i = 0; i < 4 * std::size_t{n}; ++i) {
      const Edge e{node(rng), node(rng)};
      if (e.source % 5 != 0) edges.push_back(e);  // some pages without out-links
    }
    const LinkGraph g = LinkGraph::build(n, edges);
    const PageRankResult one = compute_pagerank(g);
    for (const unsigned threads : {1u, 2u}) {
      CAPTURE(n);
      CAPTURE(threads);
      PageRankOptions options;
      options.threads = threads;
      const PageRankResult mine = compute_pagerank(g, options, processes);
      CHECK(mine.iterations == one.iterations);
      CHECK(mine.last_change == one.last_change);
      CHECK(mine.scores == one.scores);
    }
  }
}

int main(int argc, char** argv) {
  // Serialized: the PageRank iteration exchanges from whichever of its threads ends an
  // iteration last.
  boost::mpi::environment environment(argc, argv, boost::mpi::threading::serialized);
  if (environment.thread_level() < boost::mpi::threading::serialized) return 1;
  doctest::Context context(argc, argv);
  return context.run();
}
