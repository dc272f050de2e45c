/// @file out_link_rows.h
/// @brief One process's rows of the link graph: the out-links of a range of consecutive nodes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ranking/link_graph.h"

namespace canon::ranking {

/// The distinct non-self out-links of the nodes [first, end) of a graph of node_count nodes, as
/// a compressed row array. In a partitioned build each process holds the rows of its own nodes
/// (the processes' ranges, in rank order, cover 0 .. node_count - 1); in one process, the whole
/// graph. 4 bytes per link and 4 per row.
struct OutLinkRows {
  NodeId node_count = 0;
  NodeId first = 0;
  NodeId end = 0;
  /// Row of node first + i: targets[start[i] .. start[i + 1]), ascending. start has end - first
  /// + 1 entries (one, 0, for an empty range).
  std::vector<std::uint32_t> start{0};
  std::vector<NodeId> targets;

  /// From `edges` (consumed), each with its source in [first, end) and its target below
  /// node_count: self-links dropped, repeated links kept once, each row sorted. O(E + rows) plus
  /// the rows' sorts; 4 bytes per edge besides the input's 8.
  /// REQUIRES: first <= end <= node_count; fewer than 2^32 - 1 edges.
  static OutLinkRows build(NodeId node_count, NodeId first, NodeId end, std::vector<Edge> edges);
  /// The whole of `graph`, as the one process of a run holds it.
  static OutLinkRows of(const LinkGraph& graph);

  /// Out-links of `node`, ascending. REQUIRES: first <= node < end.
  std::span<const NodeId> out_links(NodeId node) const {
    const std::size_t i = node - first;
    return {targets.data() + start[i], targets.data() + start[i + 1]};
  }
  std::size_t edge_count() const { return targets.size(); }
};

}  // namespace canon::ranking
