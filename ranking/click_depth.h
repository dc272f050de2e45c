/// @file click_depth.h
/// @brief The click depth of a site's pages: the fewest links a reader follows from an entry page
/// to reach each, by a breadth-first search over the rows of the link graph a process holds.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "common/collective.h"
#include "ranking/link_graph.h"
#include "ranking/out_link_rows.h"

namespace canon::ranking {

/// A node no entry node reaches within kMaxClickDepth links.
inline constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();
/// Depths past this are not followed (a long chain of "next" links, a calendar's pages, would
/// otherwise cost a round of messages each): such nodes are kUnreached.
inline constexpr std::uint32_t kMaxClickDepth = 64;

/// Per node of rows' range [rows.first(), rows.end()): its click depth from the entry nodes (0
/// for an entry node), kUnreached when no entry node reaches it within kMaxClickDepth links.
/// `entries`: this process's entry nodes (each in its own range; any order; repeats allowed).
/// Breadth first, one round per depth: each process follows the out-links of its nodes reached
/// in the last round and sends each target to the process that holds the target's row (the
/// processes' ranges, in rank order, tile 0 .. node_count - 1; learnt with one all_gather_bytes
/// of each range's end); one all_to_all_bytes a round, and the rounds end together when no
/// process reached a new node (one all_reduce_min a round). The same depths whatever the number
/// of processes. Collective call.
std::vector<std::uint32_t> click_depths(const OutLinkRows& rows, std::span<const NodeId> entries,
                                        const Collective& processes);

}  // namespace canon::ranking
