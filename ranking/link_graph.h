/// @file link_graph.h
/// @brief The site's link graph in the form PageRank runs on.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace canon::ranking {

/// Dense node ids 0..node_count-1, assigned by the caller.
using NodeId = std::uint32_t;

/// A directed link from `source` to `target`.
struct Edge {
  NodeId source;
  NodeId target;
};

/// A directed graph over nodes 0..node_count-1, cleaned the way PageRank needs it:
/// self-links dropped, parallel links counted once. Backed by Boost's
/// compressed_sparse_row_graph with 32-bit indices (both directions are stored: the
/// in-links for the pull-style iteration, out-degrees for the dangling mass).
/// Immutable after build(); safe to read from several threads.
class LinkGraph {
public:
  /// Builds the cleaned graph in O(N + E) time (a counting sort by target, then each in-link
  /// list sorted and deduplicated in place). Besides the input, uses 8 bytes per edge while
  /// building; the graph keeps 4 per kept edge and 8 per node.
  /// REQUIRES: every endpoint < node_count, fewer than 2^32 - 1 edges (else std::length_error).
  static LinkGraph build(NodeId node_count, std::span<const Edge> edges);
  /// build(), releasing `edges` (left empty) as soon as they have been read, so that the peak
  /// is 12 bytes per input edge in all instead of 16.
  static LinkGraph build_consuming(NodeId node_count, std::vector<Edge>&& edges);

  LinkGraph(LinkGraph&&) noexcept;
  LinkGraph& operator=(LinkGraph&&) noexcept;
  ~LinkGraph();

  NodeId node_count() const;
  /// Number of distinct non-self links kept.
  std::size_t edge_count() const;
  /// Distinct out-links of `node` (0 for a dangling page).
  std::uint32_t out_degree(NodeId node) const;
  /// The distinct sources that link to `node`, ascending. The spans of nodes 0, 1, 2, ... are
  /// consecutive slices of one array (the CSR's), which compute_pagerank relies on.
  std::span<const NodeId> in_links(NodeId node) const;
  /// The kept edges, sorted by (source, target).
  std::vector<Edge> edges() const;

private:
  struct Rep;
  explicit LinkGraph(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace canon::ranking
