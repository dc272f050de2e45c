/// @file click_depth.cpp
/// @brief click_depths(): a breadth-first search one depth a round, each round's targets on
/// other processes sent to them sorted, without repeats, as LEB128 gaps.
#include "ranking/click_depth.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "common/byte_codec.h"

namespace canon::ranking {

namespace {

/// Every process's first node, in rank order, then node_count: the ranges tile the graph from
/// node 0, so each range's end, gathered, is the next one's first. Collective.
std::vector<NodeId> gather_starts(const OutLinkRows& rows, const Collective& processes) {
  std::string mine;
  codec::put_varint(mine, rows.end());
  std::vector<NodeId> first_of{0};
  for (const std::string& part : processes.all_gather_bytes(mine)) {
    codec::Reader in(part);
    first_of.push_back(static_cast<NodeId>(in.varint()));
    assert(in.ok() && first_of[first_of.size() - 2] <= first_of.back());
  }
  assert(first_of[processes.rank()] == rows.first() && first_of.back() == rows.node_count());
  return first_of;
}

/// The process holding `node`'s row: the last whose range starts at or before it (an empty
/// range starts where the next one does, so it is passed over). REQUIRES: node < node_count.
unsigned owner_of(const std::vector<NodeId>& first_of, NodeId node) {
  return static_cast<unsigned>(std::upper_bound(first_of.begin(), first_of.end(), node) - first_of.begin() - 1);
}

/// `targets` (all held by one process, whose range starts at `base`) sorted, repeats dropped,
/// each as its gap from the one before (the first from `base`): mostly a byte each.
std::string encode(std::vector<NodeId>& targets, NodeId base) {
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  std::string out;
  NodeId previous = base;
  for (const NodeId v : targets) {
    codec::put_varint(out, v - previous);
    previous = v;
  }
  return out;
}

/// The search on one process: its own nodes' depths, and those reached in the last round.
struct Search {
  NodeId first = 0, end = 0;          // this process's nodes
  std::vector<NodeId> first_of;       // every process's first node, then node_count
  std::vector<std::uint32_t> depth;   // by node - first
  std::vector<NodeId> frontier;       // own nodes reached in the last round

  /// Gives own `node` depth `d` if it has none yet, and adds it to `reached` then.
  void reach(NodeId node, std::uint32_t d, std::vector<NodeId>& reached) {
    assert(node >= first && node < end);
    std::uint32_t& slot = depth[node - first];
    if (slot != kUnreached) return;
    slot = d;
    reached.push_back(node);
  }
};

/// One round: the frontier's out-links followed, the targets of other processes sent to them
/// (one all_to_all), those first reached now given depth `d`; they are the next frontier.
/// Collective.
void advance(const OutLinkRows& rows, const Collective& processes, std::uint32_t d, Search& s) {
  const unsigned p_count = processes.size();
  std::vector<NodeId> reached;
  std::vector<std::vector<NodeId>> remote(p_count);
  for (const NodeId u : s.frontier) {
    for (const NodeId v : rows.out_links(u)) {
      if (v >= s.first && v < s.end) {
        s.reach(v, d, reached);
      } else {
        remote[owner_of(s.first_of, v)].push_back(v);
      }
    }
  }
  std::vector<std::string> to_each(p_count);
  for (unsigned p = 0; p < p_count; ++p) to_each[p] = encode(remote[p], s.first_of[p]);
  remote = {};
  const std::vector<std::string> from_each = processes.all_to_all_bytes(to_each);
  for (const std::string& bytes : from_each) {
    codec::Reader in(bytes);
    std::uint64_t v = s.first;
    while (!in.at_end()) {
      v += in.varint();
      assert(in.ok() && v < s.end);
      if (!in.ok() || v >= s.end) break;  // not what a process sends: left out
      s.reach(static_cast<NodeId>(v), d, reached);
    }
  }
  s.frontier = std::move(reached);
}

}  // namespace

std::vector<std::uint32_t> click_depths(const OutLinkRows& rows, std::span<const NodeId> entries,
                                        const Collective& processes) {
  Search s;
  s.first = rows.first();
  s.end = rows.end();
  s.first_of = gather_starts(rows, processes);
  s.depth.assign(s.end - s.first, kUnreached);
  for (const NodeId entry : entries) {
    assert(entry >= s.first && entry < s.end);
    if (entry >= s.first && entry < s.end) s.reach(entry, 0, s.frontier);
  }
  // Every process takes the same decisions: the bound is fixed, the end agreed on each round.
  for (std::uint32_t d = 1; d <= kMaxClickDepth; ++d) {
    std::uint32_t none_reached = s.frontier.empty() ? 1 : 0;
    processes.all_reduce_min(std::span<std::uint32_t>(&none_reached, 1));
    if (none_reached == 1) break;
    advance(rows, processes, d, s);
  }
  return std::move(s.depth);
}

}  // namespace canon::ranking
