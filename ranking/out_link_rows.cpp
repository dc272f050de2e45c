/// @file out_link_rows.cpp
/// @brief OutLinkRows built from edges by a counting sort on their sources.
#include "ranking/out_link_rows.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <stdexcept>

namespace canon::ranking {

OutLinkRows OutLinkRows::build(NodeId node_count, NodeId first, NodeId end, std::vector<Edge> edges) {
  assert(first <= end && end <= node_count);
  if (edges.size() >= std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("OutLinkRows: more than 2^32-2 edges");
  }
  OutLinkRows rows;
  rows.node_count = node_count;
  rows.first = first;
  rows.end = end;
  const std::size_t row_count = end - first;
  rows.start.assign(row_count + 1, 0);
  for (const Edge& e : edges) {
    assert(e.source >= first && e.source < end && e.target < node_count);
    if (e.source != e.target) ++rows.start[e.source - first + 1];
  }
  for (std::size_t i = 0; i < row_count; ++i) rows.start[i + 1] += rows.start[i];
  rows.targets.resize(rows.start[row_count]);
  {
    // start[i] is row i's cursor while filling, ending at the old start[i + 1]; shifted back below.
    for (const Edge& e : edges) {
      if (e.source != e.target) rows.targets[rows.start[e.source - first]++] = e.target;
    }
    std::vector<Edge>().swap(edges);
    for (std::size_t i = row_count; i > 0; --i) rows.start[i] = rows.start[i - 1];
    rows.start[0] = 0;
  }
  // Each row sorted and its repeats dropped, the array compacted in place.
  std::uint32_t write = 0, read = 0;
  NodeId* target = rows.targets.data();
  for (std::size_t i = 0; i < row_count; ++i) {
    const std::uint32_t row_end = rows.start[i + 1];
    std::sort(target + read, target + row_end);
    rows.start[i] = write;
    for (std::uint32_t e = read; e < row_end; ++e) {
      if (e == read || target[e] != target[e - 1]) target[write++] = target[e];
    }
    read = row_end;
  }
  rows.start[row_count] = write;
  rows.targets.resize(write);
  rows.targets.shrink_to_fit();
  return rows;
}

OutLinkRows OutLinkRows::of(const LinkGraph& graph) {
  const NodeId n = graph.node_count();
  OutLinkRows rows;
  rows.node_count = n;
  rows.end = n;
  rows.start.assign(std::size_t{n} + 1, 0);
  for (NodeId u = 0; u < n; ++u) rows.start[u + 1] = rows.start[u] + graph.out_degree(u);
  rows.targets.resize(rows.start[n]);
  // Visiting targets in ascending order leaves each row sorted.
  std::vector<std::uint32_t> next(rows.start.begin(), rows.start.end() - 1);
  for (NodeId v = 0; v < n; ++v) {
    for (const NodeId u : graph.in_links(v)) rows.targets[next[u]++] = v;
  }
  return rows;
}

}  // namespace canon::ranking
