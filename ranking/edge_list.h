/// @file edge_list.h
/// @brief Text edge lists with string node ids (the input of `canon rank`), read into dense
/// NodeIds for LinkGraph.
///
/// Format (docs/ranking.md): one `source<TAB>target` per line; ids are any non-empty byte
/// strings without tab, CR or LF; blank lines and lines starting with `#` are ignored; a CR
/// before the LF is dropped; a UTF-8 byte-order mark at the start of the input is skipped.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "ranking/link_graph.h"

namespace canon::ranking {

/// A set of node names numbered densely 0, 1, 2, ... in the order they were first interned.
/// Each name is stored once in an arena, after its length (a varint); the lookup table is an
/// open-addressing hash table (XXH3, linear probing, at most 3/4 full) of 16-byte slots holding
/// a 32-bit hash tag, the id and the arena offset, so that a lookup reads one slot and the
/// arena. About 10 bytes per name plus its length, and 21-43 bytes per name for the table,
/// which release_lookup_table() frees once no more lookups are needed. Not thread-safe.
class NodeNames {
public:
  /// The most names a NodeNames holds: NodeId is 32-bit and one value is reserved.
  static constexpr NodeId kMaxSize = 0xFFFFFFFEu;

  NodeNames();

  /// The id of `name`, adding it with id size() when it is new.
  /// REQUIRES: the name is known, or size() < kMaxSize.
  NodeId intern(std::string_view name);
  /// intern() of every name in order, ids[i] for names[i]; faster than one by one for large
  /// sets (it hashes the whole batch and prefetches the table slots and names it will read).
  /// REQUIRES: ids.size() == names.size(); size() + names.size() <= kMaxSize.
  void intern_batch(std::span<const std::string_view> names, std::span<NodeId> ids);
  /// The id of `name`, or nullopt when it was never interned.
  std::optional<NodeId> find(std::string_view name) const;
  /// The name of `id`; valid until the next intern(). REQUIRES: id < size().
  std::string_view name(NodeId id) const;
  /// Number of names.
  NodeId size() const { return static_cast<NodeId>(offsets_.size()); }
  /// Frees the lookup table (names and ids stay); the next intern() or find() rebuilds it.
  void release_lookup_table();
  /// Bytes of heap memory held (arena, offsets, table), for reports.
  std::size_t memory_bytes() const;

private:
  struct Slot {
    std::uint64_t offset;       // of the name's record in arena_
    std::uint32_t tag;          // upper half of the name's hash
    std::uint32_t id_plus_one;  // 0: empty slot
  };

  /// Finds the slot of `name` (hash `hash`): its index, and whether it holds `name`.
  std::pair<std::size_t, bool> probe(std::string_view name, std::uint64_t hash) const;
  NodeId intern_hashed(std::string_view name, std::uint64_t hash);
  /// Rebuilds the table with `slot_count` slots (a power of two) from the names.
  void rehash(std::size_t slot_count) const;
  void ensure_table() const;

  std::string arena_;                   // records: varint length, then the name's bytes
  std::vector<std::uint64_t> offsets_;  // id -> offset of its record in arena_
  mutable std::vector<Slot> slots_;     // empty after release_lookup_table()
  mutable std::size_t mask_ = 0;        // slots_.size() - 1
};

/// An edge list read from text: the node names and the edges between their ids, in input order
/// (self-links and repeated links included; LinkGraph::build drops them).
struct EdgeList {
  NodeNames nodes;
  std::vector<Edge> edges;
};

/// Reads an edge list (format above) from `in`; `name` names the input in error messages.
/// Node ids are assigned in order of first appearance. Errors (the reading stops at the first):
/// "NAME:LINE: no tab ...", "NAME:LINE: more than one tab ...", "NAME:LINE: empty source id",
/// "NAME:LINE: empty target id", "NAME: read error", and too many nodes or edges for 32-bit
/// ids. When `in` is seekable, the edge array is reserved from its size (untouched reserved
/// pages cost no memory), so that it never has to be copied while it grows.
Result<EdgeList> read_edge_list(std::istream& in, std::string_view name);

/// Reads a node list from `in` (one id per line; blank, `#` and CR handling as in edge lists)
/// and interns every id into `nodes`, so that nodes without links are ranked too. An id that
/// is already known is not added twice. Errors: "NAME:LINE: a node id cannot contain a tab",
/// "NAME: read error", too many nodes.
Status read_node_list(std::istream& in, std::string_view name, NodeNames& nodes);

/// Writes one `id<TAB>score` line per node to `out`, sorted by score descending, equal scores
/// by id (byte order), each score with 17 significant digits (printf "%.17g": it reads back as
/// the same double). Errors: "cannot write the scores" when `out` fails.
/// REQUIRES: scores.size() == nodes.size().
Status write_scores(std::ostream& out, const NodeNames& nodes, std::span<const double> scores);

}  // namespace canon::ranking
