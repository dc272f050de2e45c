/// @file pagerank.h
/// @brief PageRank by power iteration, with dangling pages handled (definition: docs/ranking.md).
#pragma once

#include <vector>

#include "common/collective.h"
#include "ranking/link_graph.h"
#include "ranking/out_link_rows.h"

namespace canon::ranking {

/// Parameters of the iteration. Defaults are canon's.
struct PageRankOptions {
  /// Probability of following a link; 1 - damping is the uniform teleport.
  double damping = 0.85;
  /// Stop when the L1 change between two iterations is below this.
  double tolerance = 1e-10;
  /// Stop after this many iterations even when not converged.
  unsigned max_iterations = 1000;
  /// Worker threads for one iteration; 0 means all hardware threads.
  unsigned threads = 1;
};

/// Scores and how the iteration ended.
struct PageRankResult {
  /// One score per node, of nodes [first_node, first_node + scores.size()): every node (they sum
  /// to 1; empty for an empty graph), or in a partitioned run kept by their processes
  /// (ScoresOf::kOwnNodes) this process's own.
  std::vector<double> scores;
  NodeId first_node = 0;
  /// Iterations run.
  unsigned iterations = 0;
  /// L1 change of the last iteration.
  double last_change = 0.0;
  /// True when last_change < tolerance; false when max_iterations stopped it.
  bool converged = false;
  /// Wall-clock seconds spent preparing (renumbering the graph, allocating) and iterating, for
  /// reports such as `canon rank --timings`; not part of the ranking.
  double setup_seconds = 0.0;
  double iteration_seconds = 0.0;
};

/// PageRank with uniform teleport; the mass of dangling nodes (no out-links) is spread
/// uniformly over all nodes each iteration. Starts from the uniform vector.
/// REQUIRES: 0 <= damping < 1, tolerance > 0.
PageRankResult compute_pagerank(const LinkGraph& graph, const PageRankOptions& options = {});

/// The same, releasing `graph` (left moved-from: only destruction or assignment) as soon as the
/// iteration's renumbered copy of it is built, so that the two do not coexist in memory.
PageRankResult compute_pagerank(LinkGraph&& graph, const PageRankOptions& options = {});

/// Which scores a partitioned run returns to each process.
enum class ScoresOf {
  kEveryNode,  ///< every node's, gathered once at the end (8 bytes a node of the graph)
  kOwnNodes,   ///< the process's own nodes' (PageRankResult::first_node on): nothing gathered
};

/// The same computed by the processes of a partitioned run, each given the rows of its own
/// nodes (the processes' ranges, in rank order, cover the graph): each link is sent to the
/// process of its target (one all_to_all), so each holds the in-links of its own nodes only;
/// each iteration a process receives the scores of the other processes' nodes its in-links come
/// from (its halo), and the L1 change, dangling mass and scores' total are exact sums (the same
/// bits in any order; docs/ranking.md). So every process gets the scores compute_pagerank gives
/// in one process, bit for bit, whatever the number of processes or threads: every node's, or
/// its own nodes' (`scores_of`). Collective call.
PageRankResult compute_pagerank(const OutLinkRows& rows, const PageRankOptions& options, const Collective& processes,
                                ScoresOf scores_of = ScoresOf::kEveryNode);

/// The same, releasing `rows` (left moved-from) once the iteration's in-links are built.
PageRankResult compute_pagerank(OutLinkRows&& rows, const PageRankOptions& options, const Collective& processes,
                                ScoresOf scores_of = ScoresOf::kEveryNode);

}  // namespace canon::ranking
