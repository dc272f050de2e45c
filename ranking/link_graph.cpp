/// @file link_graph.cpp
/// @brief LinkGraph on Boost's CSR graph: the transposed graph (in-links) plus out-degrees.
#include "ranking/link_graph.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <stdexcept>
#include <utility>

#include <boost/graph/compressed_sparse_row_graph.hpp>

namespace canon::ranking {

namespace {

// 32-bit vertex and edge indices: 4 bytes per edge in the column array, 4 per node in rowstart.
using Csr = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property,
                                               boost::no_property, boost::no_property,
                                               std::uint32_t, std::uint32_t>;

}  // namespace

struct LinkGraph::Rep {
  /// The transposed graph: row v lists the sources linking to v, ascending.
  Csr in_graph;
  /// out_degrees[u] = number of distinct non-self targets of u.
  std::vector<std::uint32_t> out_degrees;
};

LinkGraph::LinkGraph(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
LinkGraph::LinkGraph(LinkGraph&&) noexcept = default;
LinkGraph& LinkGraph::operator=(LinkGraph&&) noexcept = default;
LinkGraph::~LinkGraph() = default;

LinkGraph LinkGraph::build(NodeId node_count, std::span<const Edge> edges) {
  if (edges.size() >= std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("LinkGraph: more than 2^32-1 edges");
  }
  // One flat array of (target, source) pairs, sorted and deduplicated: O(E log E) time and
  // 8 bytes per input edge, freed once the CSR (4 bytes per kept edge) is built.
  std::vector<std::pair<NodeId, NodeId>> reversed;
  reversed.reserve(edges.size());
  for (const Edge& e : edges) {
    assert(e.source < node_count && e.target < node_count);
    if (e.source != e.target) reversed.emplace_back(e.target, e.source);
  }
  std::sort(reversed.begin(), reversed.end());
  reversed.erase(std::unique(reversed.begin(), reversed.end()), reversed.end());

  auto rep = std::make_unique<Rep>();
  rep->out_degrees.assign(node_count, 0);
  for (const auto& [target, source] : reversed) ++rep->out_degrees[source];
  rep->in_graph = Csr(boost::edges_are_sorted, reversed.begin(), reversed.end(), node_count,
                      reversed.size());
  return LinkGraph(std::move(rep));
}

NodeId LinkGraph::node_count() const {
  return static_cast<NodeId>(rep_->out_degrees.size());
}

std::size_t LinkGraph::edge_count() const { return boost::num_edges(rep_->in_graph); }

std::uint32_t LinkGraph::out_degree(NodeId node) const { return rep_->out_degrees[node]; }

std::span<const NodeId> LinkGraph::in_links(NodeId node) const {
  // The CSR's adjacency iterators point into its contiguous column array.
  auto [first, last] = boost::adjacent_vertices(node, rep_->in_graph);
  return {first, last};
}

std::vector<Edge> LinkGraph::edges() const {
  // Counting sort by source: buckets sized by out-degree; visiting targets in ascending order
  // leaves each bucket sorted by target. O(N + E), no comparison sort.
  const NodeId n = node_count();
  std::vector<std::size_t> next(n);
  std::size_t offset = 0;
  for (NodeId u = 0; u < n; ++u) {
    next[u] = offset;
    offset += rep_->out_degrees[u];
  }
  std::vector<Edge> result(offset);
  for (NodeId v = 0; v < n; ++v) {
    for (NodeId u : in_links(v)) result[next[u]++] = Edge{u, v};
  }
  return result;
}

}  // namespace canon::ranking
