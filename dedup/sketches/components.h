/// @file components.h
/// @brief The connected components of a graph whose edges (near-duplicate pairs) are spread over
/// the processes of a partitioned run, labelled as one process labels them
/// (docs/partitioned-build.md).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "common/collective.h"

namespace canon::dedup {

/// For every element 0..n-1, the smallest element of its component in the graph of the pairs
/// every process holds (each process passes its own `pairs`; together they are the graph):
/// exactly UnionFind::smallest_member_labels() over all the pairs, on every process. Minimum
/// labels spread along the pairs, then jump to their own label's label, until no label moves;
/// each round one all_reduce_min over the labels (a minimum does not depend on the order the
/// processes' values arrive in). Collective call. REQUIRES: every element of a pair < n.
std::vector<std::uint32_t> component_labels(std::uint32_t n, std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                            const Collective& processes);

}  // namespace canon::dedup
