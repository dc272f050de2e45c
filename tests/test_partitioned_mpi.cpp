/// @file test_partitioned_mpi.cpp
/// @brief The stages of a partitioned run, computed by the processes mpirun starts, give every
/// process exactly the one-process result: PageRank (ranking/pagerank.h) and the clusters of
/// near-duplicate pairs (dedup/sketches/components.h), LSH's candidates (dedup/sketches/minhash.h), and the bytes
/// all_gather_bytes and all_to_all_bytes exchange, over
/// mpi/mpi_collective.h. Run under
/// `mpirun -np P` (tests/CMakeLists.txt: P = 1 .. 4); each process runs every case and checks
/// its own result.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <algorithm>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "common/byte_codec.h"
#include "dedup/sketches/components.h"
#include "dedup/sketches/minhash.h"
#include "dedup/sketches/union_find.h"
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
    const PageRankResult one = compute_pagerank(LinkGraph::build(n, edges));
    // This process's rows: its share of the nodes, cut at a point of its own.
    const NodeId first = static_cast<NodeId>(std::uint64_t{n} * processes.rank() / processes.size());
    const NodeId end = static_cast<NodeId>(std::uint64_t{n} * (processes.rank() + 1) / processes.size());
    std::vector<Edge> mine;
    for (const Edge& e : edges) {
      if (e.source >= first && e.source < end) mine.push_back(e);
    }
    const canon::ranking::OutLinkRows rows = canon::ranking::OutLinkRows::build(n, first, end, mine);
    for (const unsigned threads : {1u, 2u}) {
      CAPTURE(n);
      CAPTURE(threads);
      PageRankOptions options;
      options.threads = threads;
      const PageRankResult mine = compute_pagerank(rows, options, processes);
      CHECK(mine.iterations == one.iterations);
      CHECK(mine.last_change == one.last_change);
      CHECK(mine.scores == one.scores);
    }
  }
}

TEST_CASE("components over MPI: the pairs each process found get UnionFind's labels, kept by owners") {
  const canon::mpi::MpiCollective processes{boost::mpi::communicator()};
  std::mt19937 rng(91);  // the same pairs in every process
  for (int round = 0; round < 20; ++round) {
    const std::uint32_t n = 1 + rng() % 2000;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs, mine;
    for (std::uint32_t e = 0; e < n; ++e) pairs.emplace_back(rng() % n, rng() % n);
    canon::dedup::UnionFind sets(n);
    for (const auto& [a, b] : pairs) sets.unite(a, b);
    for (std::size_t e = processes.rank(); e < pairs.size(); e += processes.size()) mine.push_back(pairs[e]);
    CAPTURE(round);
    const auto owner_of = [&](std::uint32_t e) { return static_cast<unsigned>(std::uint64_t{e} * processes.size() / n); };
    const std::vector<std::uint32_t> labels = canon::dedup::pair_component_labels(mine, owner_of, processes);
    const std::vector<std::uint32_t> expected = sets.smallest_member_labels();
    REQUIRE(labels.size() == mine.size());
    for (std::size_t k = 0; k < mine.size(); ++k) CHECK(labels[k] == expected[mine[k].first]);
  }
}

TEST_CASE("all_gather_bytes over MPI: every process gets every process's bytes, by rank") {
  const canon::mpi::MpiCollective processes{boost::mpi::communicator()};
  // Process p gives p * 1000 bytes of its own (process 0 none), then everyone nothing.
  const auto bytes_of = [](unsigned p) {
    std::string bytes(std::size_t{p} * 1000, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 31 + p) & 0xff);
    return bytes;
  };
  const std::vector<std::string> all = processes.all_gather_bytes(bytes_of(processes.rank()));
  REQUIRE(all.size() == processes.size());
  for (unsigned p = 0; p < all.size(); ++p) CHECK(all[p] == bytes_of(p));
  CHECK(processes.all_gather_bytes({}) == std::vector<std::string>(processes.size()));
}

TEST_CASE("all_gather_bytes over MPI in rounds of a few bytes: the same bytes") {
  for (const std::size_t round_bytes : {1, 7, 1000, 4096}) {
    const canon::mpi::MpiCollective processes{boost::mpi::communicator(), round_bytes};
    const auto bytes_of = [](unsigned p) {
      std::string bytes(std::size_t{p} * 1000 + 13, '\0');
      for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 17 + p) & 0xff);
      return bytes;
    };
    const std::vector<std::string> all = processes.all_gather_bytes(bytes_of(processes.rank()));
    CAPTURE(round_bytes);
    REQUIRE(all.size() == processes.size());
    for (unsigned p = 0; p < all.size(); ++p) CHECK(all[p] == bytes_of(p));
  }
}

TEST_CASE("all_to_all_bytes over MPI in rounds of a few bytes: the same bytes") {
  for (const std::size_t round_bytes : {1, 7, 1000}) {
    const canon::mpi::MpiCollective processes{boost::mpi::communicator(), round_bytes};
    const auto bytes_from_to = [](unsigned p, unsigned q) {
      std::string bytes(std::size_t{p + 2} * (q + 1) * 50, '\0');
      for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 5 + p * 11 + q) & 0xff);
      return bytes;
    };
    std::vector<std::string> to_each(processes.size());
    for (unsigned q = 0; q < processes.size(); ++q) to_each[q] = bytes_from_to(processes.rank(), q);
    const std::vector<std::string> from_each = processes.all_to_all_bytes(to_each);
    CAPTURE(round_bytes);
    REQUIRE(from_each.size() == processes.size());
    for (unsigned p = 0; p < processes.size(); ++p) CHECK(from_each[p] == bytes_from_to(p, processes.rank()));
  }
}

TEST_CASE("all_to_all_bytes over MPI: each process gets what each process gave it") {
  const canon::mpi::MpiCollective processes{boost::mpi::communicator()};
  // Process p gives process q (p + 1) * q * 100 bytes (none to process 0), each byte naming both.
  const auto bytes_from_to = [](unsigned p, unsigned q) {
    std::string bytes(std::size_t{p + 1} * q * 100, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 7 + p * 13 + q) & 0xff);
    return bytes;
  };
  std::vector<std::string> to_each(processes.size());
  for (unsigned q = 0; q < processes.size(); ++q) to_each[q] = bytes_from_to(processes.rank(), q);
  const std::vector<std::string> from_each = processes.all_to_all_bytes(to_each);
  REQUIRE(from_each.size() == processes.size());
  for (unsigned p = 0; p < processes.size(); ++p) CHECK(from_each[p] == bytes_from_to(p, processes.rank()));
}

TEST_CASE("LSH over MPI: band keys sent to their owners give the processes together the one-process candidates") {
  const canon::mpi::MpiCollective processes{boost::mpi::communicator()};
  std::mt19937_64 rng(404);  // the same sketches in every process
  for (int round = 0; round < 12; ++round) {
    const canon::dedup::LshBanding banding{1 + unsigned(rng() % 8), 1 + unsigned(rng() % 4)};
    const std::size_t width = banding.bands * banding.rows;
    const std::size_t docs = rng() % 3000;
    std::vector<std::uint32_t> matrix(docs * width);
    for (auto& v : matrix) v = static_cast<std::uint32_t>(rng() % 3);
    CAPTURE(round);
    // An even split of the rows; each process's candidates gathered here to be compared.
    const std::size_t first = docs * processes.rank() / processes.size();
    const std::size_t end = docs * (processes.rank() + 1) / processes.size();
    const std::span<const std::uint32_t> held(matrix.data() + first * width, (end - first) * width);
    std::string mine;
    for (const auto& [a, b] : canon::dedup::owned_lsh_candidates(held, first, docs, width, banding, {}, 2, processes)) {
      canon::codec::put_fixed(mine, a, 4);
      canon::codec::put_fixed(mine, b, 4);
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> together;
    for (const std::string& theirs : processes.all_gather_bytes(mine)) {
      for (canon::codec::Reader in(theirs); in.ok() && !in.at_end();) {
        const auto a = static_cast<std::uint32_t>(in.fixed(4));
        together.emplace_back(a, static_cast<std::uint32_t>(in.fixed(4)));
      }
    }
    std::sort(together.begin(), together.end());
    CHECK(together == canon::dedup::lsh_candidates(matrix, width, banding, {}, 2));
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
