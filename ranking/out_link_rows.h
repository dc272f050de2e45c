/// @file out_link_rows.h
/// @brief One process's rows of the link graph: the out-links of a range of consecutive nodes.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "ranking/link_graph.h"

namespace canon::ranking {

/// The distinct non-self out-links of the nodes [first(), end()) of a graph of node_count()
/// nodes. In a partitioned build each process holds the rows of its own nodes (the processes'
/// ranges, in rank order, cover 0 .. node_count() - 1); in one process, the whole graph. Backed,
/// as LinkGraph, by Boost's compressed_sparse_row_graph with 32-bit indices: 4 bytes per link
/// and 4 per node of the whole graph (its row starts; the rows of other processes' nodes are
/// empty). Immutable once built; safe to read from several threads.
class OutLinkRows {
public:
  /// From `edges` (consumed), each with its source in [first, end) and its target below
  /// node_count: self-links dropped, repeated links kept once, each row sorted. O(N + E) plus
  /// the rows' sorts; besides the input's 8 bytes an edge (freed once read), 8 while building.
  /// REQUIRES: first <= end <= node_count; fewer than 2^32 - 1 edges (else std::length_error).
  static OutLinkRows build(NodeId node_count, NodeId first, NodeId end, std::vector<Edge> edges);
  /// The whole of `graph`, as the one process of a run holds it.
  static OutLinkRows of(const LinkGraph& graph);

  /// No graph: no nodes, no rows.
  OutLinkRows();
  OutLinkRows(OutLinkRows&&) noexcept;
  OutLinkRows& operator=(OutLinkRows&&) noexcept;
  ~OutLinkRows();

  NodeId node_count() const;
  NodeId first() const { return first_; }
  NodeId end() const { return end_; }
  /// Out-links of `node`, ascending; empty for a node outside [first(), end()).
  /// REQUIRES: node < node_count().
  std::span<const NodeId> out_links(NodeId node) const;
  /// The links of the rows held.
  std::size_t edge_count() const;

private:
  struct Rep;
  OutLinkRows(std::unique_ptr<Rep> rep, NodeId first, NodeId end);
  std::unique_ptr<Rep> rep_;
  NodeId first_ = 0;
  NodeId end_ = 0;
};

}  // namespace canon::ranking
