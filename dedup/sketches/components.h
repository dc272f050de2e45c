/// @file components.h
/// @brief The connected components of a graph whose edges (near-duplicate pairs) are spread over
/// the processes of a partitioned run, labelled as one process labels them, each element's label
/// kept by the process that owns the element (docs/partitioned-build.md).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "common/collective.h"

namespace canon::dedup {

/// The component of each of this process's `pairs` in the graph of every process's pairs (each
/// process passes its own; together they are the graph), named by the component's smallest
/// element: result[k] is what UnionFind::smallest_member_labels() over all the pairs gives for
/// pairs[k].first. An element's label is kept by `owner_of(element)` (the same function on every
/// process); each round every process merges its pairs' labels locally and proposes the smallest
/// to the owners, the owners take the minimum and let each label jump to its label's label, and
/// every process reads its elements' labels back. So no array of every element, and what a
/// process sends is its pairs' elements, a few times (the rounds grow with the log of a
/// component's spread, not its size). Collective call.
std::vector<std::uint32_t> pair_component_labels(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                                 const std::function<unsigned(std::uint32_t)>& owner_of,
                                                 const Collective& processes);

}  // namespace canon::dedup
