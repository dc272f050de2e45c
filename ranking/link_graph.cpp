/// @file link_graph.cpp
/// @brief LinkGraph on Boost's CSR graph: the transposed graph (in-links) plus out-degrees.
#include "ranking/link_graph.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <stdexcept>
#include <utility>

#include <boost/graph/compressed_sparse_row_graph.hpp>

#include "ranking/huge_pages.h"

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

namespace {

/// The transposed graph being built: the in-links of v are column[start[v] .. start[v + 1]).
struct Rows {
  std::vector<std::uint32_t> start;
  std::vector<NodeId> column;
};

/// Counting sort of the non-self links by target: O(N + E), 4 bytes per edge (no pair array,
/// no comparison sort of all edges). Rows keep input order and may hold repeats.
Rows scatter_by_target(NodeId node_count, std::span<const Edge> edges) {
  if (edges.size() >= std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("LinkGraph: more than 2^32-2 edges");
  }
  Rows rows;
  detail::reserve_huge(rows.start, std::size_t{node_count} + 1);  // counted and read at random
  rows.start.assign(std::size_t{node_count} + 1, 0);
  for (const Edge& e : edges) {
    assert(e.source < node_count && e.target < node_count);
    if (e.source != e.target) ++rows.start[e.target + 1];
  }
  for (NodeId v = 0; v < node_count; ++v) rows.start[v + 1] += rows.start[v];
  detail::reserve_huge(rows.column, rows.start[node_count]);  // written at random
  rows.column.resize(rows.start[node_count]);
  // start[v] serves as v's insertion cursor, ending at the old start[v + 1]; shifted back below.
  for (const Edge& e : edges) {
    if (e.source != e.target) rows.column[rows.start[e.target]++] = e.source;
  }
  for (NodeId v = node_count; v > 0; --v) rows.start[v] = rows.start[v - 1];
  rows.start[0] = 0;
  return rows;
}

/// Sorts every row and drops repeated sources, compacting the column in place.
void sort_and_deduplicate(Rows& rows) {
  const std::size_t n = rows.start.size() - 1;
  NodeId* column = rows.column.data();
  std::uint32_t write = 0, read = 0;
  for (std::size_t v = 0; v < n; ++v) {
    const std::uint32_t end = rows.start[v + 1];
    std::sort(column + read, column + end);
    rows.start[v] = write;
    for (std::uint32_t e = read; e < end; ++e) {
      if (e == read || column[e] != column[e - 1]) column[write++] = column[e];
    }
    read = end;
  }
  rows.start[n] = write;
  rows.column.resize(write);
}

/// Finishes the graph: sorted, deduplicated rows handed to Boost, and the out-degrees.
Csr to_csr(NodeId node_count, Rows&& rows, std::vector<std::uint32_t>& out_degrees) {
  sort_and_deduplicate(rows);
  detail::reserve_huge(out_degrees, node_count);  // counted at random
  out_degrees.assign(node_count, 0);
  for (const NodeId source : rows.column) ++out_degrees[source];
  // Boost's in-place constructor takes (row, column) vectors, sorts them by row (already done:
  // one pass without moves) and adopts the column vector without copying it.
  std::vector<NodeId> row_of(rows.column.size());
  for (NodeId v = 0; v < node_count; ++v) {
    std::fill(row_of.begin() + rows.start[v], row_of.begin() + rows.start[v + 1], v);
  }
  std::vector<std::uint32_t>().swap(rows.start);
  return Csr(boost::construct_inplace_from_sources_and_targets, row_of, rows.column, node_count);
}

}  // namespace

LinkGraph LinkGraph::build(NodeId node_count, std::span<const Edge> edges) {
  auto rep = std::make_unique<Rep>();
  rep->in_graph = to_csr(node_count, scatter_by_target(node_count, edges), rep->out_degrees);
  return LinkGraph(std::move(rep));
}

LinkGraph LinkGraph::build_consuming(NodeId node_count, std::vector<Edge>&& edges) {
  Rows rows = scatter_by_target(node_count, edges);
  std::vector<Edge>().swap(edges);  // the caller's 8 bytes per edge go before more is allocated
  auto rep = std::make_unique<Rep>();
  rep->in_graph = to_csr(node_count, std::move(rows), rep->out_degrees);
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
