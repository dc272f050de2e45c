/// @file out_link_rows.cpp
/// @brief OutLinkRows on Boost's CSR graph, its rows sorted and deduplicated by a counting sort
/// on their sources first.
#include "ranking/out_link_rows.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <stdexcept>
#include <utility>

#include <boost/graph/compressed_sparse_row_graph.hpp>

namespace canon::ranking {

namespace {

// 32-bit vertex and edge indices: 4 bytes per edge in the column array, 4 per node in rowstart.
using Csr = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                               boost::no_property, std::uint32_t, std::uint32_t>;

/// The Boost graph of node_count nodes with these links, (sources, targets) sorted by source.
Csr to_csr(NodeId node_count, std::vector<NodeId>&& sources, std::vector<NodeId>&& targets) {
  // Boost's in-place constructor sorts the pairs by source (already done: one pass without
  // moves) and adopts the target vector without copying it.
  return Csr(boost::construct_inplace_from_sources_and_targets, sources, targets, node_count);
}

}  // namespace

struct OutLinkRows::Rep {
  Csr graph;
};

OutLinkRows::OutLinkRows() : OutLinkRows(std::make_unique<Rep>(), 0, 0) {}
OutLinkRows::OutLinkRows(std::unique_ptr<Rep> rep, NodeId first, NodeId end)
    : rep_(std::move(rep)), first_(first), end_(end) {}
OutLinkRows::OutLinkRows(OutLinkRows&&) noexcept = default;
OutLinkRows& OutLinkRows::operator=(OutLinkRows&&) noexcept = default;
OutLinkRows::~OutLinkRows() = default;

OutLinkRows OutLinkRows::build(NodeId node_count, NodeId first, NodeId end, std::vector<Edge> edges) {
  assert(first <= end && end <= node_count);
  if (edges.size() >= std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("OutLinkRows: more than 2^32-2 edges");
  }
  // A counting sort by source: row i of the range is targets[start[i] .. start[i + 1]).
  const std::size_t row_count = end - first;
  std::vector<std::uint32_t> start(row_count + 1, 0);
  for (const Edge& e : edges) {
    assert(e.source >= first && e.source < end && e.target < node_count);
    if (e.source != e.target) ++start[e.source - first + 1];
  }
  for (std::size_t i = 0; i < row_count; ++i) start[i + 1] += start[i];
  std::vector<NodeId> targets(start[row_count]);
  // start[i] is row i's cursor while filling, ending at the old start[i + 1]; shifted back below.
  for (const Edge& e : edges) {
    if (e.source != e.target) targets[start[e.source - first]++] = e.target;
  }
  std::vector<Edge>().swap(edges);
  for (std::size_t i = row_count; i > 0; --i) start[i] = start[i - 1];
  start[0] = 0;
  // Each row sorted and its repeats dropped, compacted in place; the sources written beside.
  std::uint32_t write = 0, read = 0;
  std::vector<NodeId> sources(targets.size());
  for (std::size_t i = 0; i < row_count; ++i) {
    const std::uint32_t row_end = start[i + 1];
    std::sort(targets.begin() + read, targets.begin() + row_end);
    for (std::uint32_t e = read; e < row_end; ++e) {
      if (e != read && targets[e] == targets[e - 1]) continue;
      sources[write] = first + static_cast<NodeId>(i);
      targets[write++] = targets[e];
    }
    read = row_end;
  }
  std::vector<std::uint32_t>().swap(start);
  sources.resize(write);
  targets.resize(write);
  auto rep = std::make_unique<Rep>();
  rep->graph = to_csr(node_count, std::move(sources), std::move(targets));
  return OutLinkRows(std::move(rep), first, end);
}

OutLinkRows OutLinkRows::of(const LinkGraph& graph) {
  const NodeId n = graph.node_count();
  // LinkGraph's edges come sorted by (source, target), distinct and without self-links.
  std::vector<NodeId> sources, targets;
  sources.reserve(graph.edge_count());
  targets.reserve(graph.edge_count());
  for (const Edge& e : graph.edges()) {
    sources.push_back(e.source);
    targets.push_back(e.target);
  }
  auto rep = std::make_unique<Rep>();
  rep->graph = to_csr(n, std::move(sources), std::move(targets));
  return OutLinkRows(std::move(rep), 0, n);
}

NodeId OutLinkRows::node_count() const { return static_cast<NodeId>(boost::num_vertices(rep_->graph)); }

std::span<const NodeId> OutLinkRows::out_links(NodeId node) const {
  // The CSR's adjacency iterators point into its contiguous column array.
  auto [first, last] = boost::adjacent_vertices(node, rep_->graph);
  return {first, last};
}

std::size_t OutLinkRows::edge_count() const { return boost::num_edges(rep_->graph); }

}  // namespace canon::ranking
