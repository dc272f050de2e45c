/// @file edge_list.cpp
/// @brief NodeNames (arena + open-addressing table over XXH3) and the edge/node list readers.
#include "ranking/edge_list.h"

#define XXH_INLINE_ALL  // XXH3 on short ids: inlined it is several times faster than a call
#include <xxhash.h>

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cstring>
#include <limits>
#include <new>
#include <utility>

#include "ranking/huge_pages.h"

namespace canon::ranking {

// ---------------------------------------------------------------------------------------------
// NodeNames

namespace {

std::uint64_t hash_name(std::string_view name) { return XXH3_64bits(name.data(), name.size()); }
std::uint32_t tag_of(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }

constexpr std::size_t kInitialSlots = 1024;

/// Decodes the varint at `p` (the length of a name record) and returns the name after it.
std::string_view decode_record(const char* p) {
  std::uint64_t length = 0;
  for (int shift = 0;; shift += 7) {
    const auto byte = static_cast<unsigned char>(*p++);
    length |= std::uint64_t{byte & 0x7Fu} << shift;
    if ((byte & 0x80u) == 0) break;
  }
  return {p, static_cast<std::size_t>(length)};
}

/// a == b for two byte ranges of length n, inline: ids are short, and a libc call per lookup
/// costs more than the comparison. Loads stay within the n bytes (the last ones overlap).
bool same_bytes(const char* a, const char* b, std::size_t n) {
  auto load8 = [](const char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  auto load4 = [](const char* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8) {
      if (load8(a + i) != load8(b + i)) return false;
    }
    return load8(a + n - 8) == load8(b + n - 8);
  }
  if (n >= 4) return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace

NodeNames::NodeNames() : slots_(kInitialSlots, Slot{0, 0, 0}), mask_(kInitialSlots - 1) {}

std::string_view NodeNames::name(NodeId id) const {
  return decode_record(arena_.data() + offsets_[id]);
}

std::pair<std::size_t, bool> NodeNames::probe(std::string_view name, std::uint64_t hash) const {
  // Linear probing; the 32-bit tag rejects almost every other name without reading the arena.
  const std::uint32_t tag = tag_of(hash);
  for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.id_plus_one == 0) return {i, false};
    if (slot.tag == tag) {
      const std::string_view candidate = decode_record(arena_.data() + slot.offset);
      if (candidate.size() == name.size() && same_bytes(candidate.data(), name.data(), name.size()))
        return {i, true};
    }
  }
}

void NodeNames::ensure_table() const {
  if (slots_.empty()) {
    std::size_t count = kInitialSlots;
    while (4 * offsets_.size() >= 3 * count) count *= 2;
    rehash(count);
  }
}

NodeId NodeNames::intern(std::string_view name) {
  ensure_table();
  return intern_hashed(name, hash_name(name));
}

NodeId NodeNames::intern_hashed(std::string_view name, std::uint64_t hash) {
  const auto [index, found] = probe(name, hash);
  if (found) return slots_[index].id_plus_one - 1;
  assert(size() < kMaxSize);
  const NodeId id = size();
  // Grown by hand (doubling, on huge pages when large): names are read at random on lookups.
  if (arena_.size() + name.size() + 10 > arena_.capacity()) {
    std::string bigger;
    detail::reserve_huge(bigger, std::max(2 * arena_.capacity(), arena_.size() + name.size() + 10));
    bigger = arena_;
    arena_.swap(bigger);
  }
  if (offsets_.size() == offsets_.capacity()) {
    std::vector<std::uint64_t> bigger;
    detail::reserve_huge(bigger, std::max<std::size_t>(2 * offsets_.capacity(), 1024));
    bigger = offsets_;
    offsets_.swap(bigger);
  }
  const std::uint64_t offset = arena_.size();
  for (std::uint64_t length = name.size(); true; length >>= 7) {
    if (length < 0x80) {
      arena_.push_back(static_cast<char>(length));
      break;
    }
    arena_.push_back(static_cast<char>(0x80 | (length & 0x7F)));
  }
  arena_.append(name);
  offsets_.push_back(offset);
  slots_[index] = Slot{offset, tag_of(hash), id + 1};
  if (4 * (std::size_t{id} + 1) > 3 * slots_.size()) rehash(slots_.size() * 2);
  return id;
}

void NodeNames::intern_batch(std::span<const std::string_view> names, std::span<NodeId> ids) {
  assert(names.size() == ids.size());
  ensure_table();
  // Three passes over each group: hash and prefetch the home slots; read them (now mostly
  // arrived) and prefetch the names they point to; then the real lookups, in order. The misses
  // of a whole group overlap instead of coming one after another. A prefetch made stale by an
  // insertion or a rehash earlier in the group costs only time.
  constexpr std::size_t kGroup = 128;
  std::uint64_t hashes[kGroup];
  for (std::size_t first = 0; first < names.size(); first += kGroup) {
    const std::size_t count = std::min(kGroup, names.size() - first);
    for (std::size_t i = 0; i < count; ++i) {
      hashes[i] = hash_name(names[first + i]);
      __builtin_prefetch(&slots_[hashes[i] & mask_]);
    }
    for (std::size_t i = 0; i < count; ++i) {
      // The name is usually in the home slot or one of the next few (linear probing).
      const std::uint32_t tag = tag_of(hashes[i]);
      for (std::size_t j = hashes[i] & mask_, probes = 0; probes < 8;
           j = (j + 1) & mask_, ++probes) {
        const Slot& slot = slots_[j];
        if (slot.id_plus_one == 0) break;
        if (slot.tag == tag) {
          __builtin_prefetch(arena_.data() + slot.offset);
          break;
        }
      }
    }
    for (std::size_t i = 0; i < count; ++i) {
      ids[first + i] = intern_hashed(names[first + i], hashes[i]);
    }
  }
}

std::optional<NodeId> NodeNames::find(std::string_view name) const {
  ensure_table();
  const auto [index, found] = probe(name, hash_name(name));
  if (!found) return std::nullopt;
  return slots_[index].id_plus_one - 1;
}

void NodeNames::rehash(std::size_t slot_count) const {
  // Each name's hash is computed again (XXH3 of a short string is cheap) rather than stored.
  std::vector<Slot>().swap(slots_);
  detail::reserve_huge(slots_, slot_count);  // probed at random
  slots_.assign(slot_count, Slot{0, 0, 0});
  mask_ = slot_count - 1;
  for (NodeId id = 0; id < size(); ++id) {
    const std::uint64_t hash = hash_name(name(id));
    std::size_t i = hash & mask_;
    while (slots_[i].id_plus_one != 0) i = (i + 1) & mask_;
    slots_[i] = Slot{offsets_[id], tag_of(hash), id + 1};
  }
}

void NodeNames::release_lookup_table() {
  std::vector<Slot>().swap(slots_);
  mask_ = 0;
}

std::size_t NodeNames::memory_bytes() const {
  return arena_.capacity() + offsets_.capacity() * sizeof(std::uint64_t) +
         slots_.capacity() * sizeof(Slot);
}

// ---------------------------------------------------------------------------------------------
// Reading lines

namespace {

/// Reads a stream in large blocks and hands out runs of whole lines (no per-line stream calls).
class ChunkReader {
public:
  explicit ChunkReader(std::istream& in) : in_(in), buffer_(kBlock) {}

  /// The next run of whole lines: each ends in LF, except the input's last line when it has
  /// none. Valid until the next call. False at the end of the input or on a read error (bad()).
  bool next(std::string_view& chunk) {
    begin_ = taken_;
    while (true) {
      const char* data = buffer_.data();
      // The last LF of what is buffered ends the chunk.
      const void* last_lf = end_ > begin_ ? memrchr(data + begin_, '\n', end_ - begin_) : nullptr;
      if (last_lf != nullptr) {
        taken_ = static_cast<std::size_t>(static_cast<const char*>(last_lf) - data) + 1;
        chunk = std::string_view(data + begin_, taken_ - begin_);
        return true;
      }
      if (at_eof_) {
        if (begin_ == end_ || bad()) return false;  // a partial line before an error is dropped
        taken_ = end_;
        chunk = std::string_view(data + begin_, end_ - begin_);
        return true;
      }
      fill();
    }
  }

  /// True when reading failed (not merely ended).
  bool bad() const { return in_.bad(); }

  /// Total bytes left in the stream when it is seekable, else nullopt. Call before next().
  std::optional<std::uint64_t> remaining_bytes() {
    std::streambuf* buf = in_.rdbuf();
    if (buf == nullptr) return std::nullopt;
    const auto here = buf->pubseekoff(0, std::ios::cur, std::ios::in);
    if (here == std::streampos(-1)) return std::nullopt;
    const auto end = buf->pubseekoff(0, std::ios::end, std::ios::in);
    buf->pubseekpos(here, std::ios::in);
    if (end == std::streampos(-1) || end < here) return std::nullopt;
    return static_cast<std::uint64_t>(end - here);
  }

private:
  static constexpr std::size_t kBlock = std::size_t{1} << 20;

  /// Moves the partial line to the front and reads another block after it.
  void fill() {
    if (begin_ > 0) {
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = taken_ = 0;
    }
    if (buffer_.size() - end_ < kBlock / 2) buffer_.resize(buffer_.size() * 2);  // a long line
    in_.read(buffer_.data() + end_, static_cast<std::streamsize>(buffer_.size() - end_));
    const std::streamsize got = in_.gcount();
    end_ += static_cast<std::size_t>(got);
    if (got == 0 || !in_) at_eof_ = true;
  }

  std::istream& in_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, taken_ = 0, end_ = 0;  // chunk handed out: [begin_, taken_)
  bool at_eof_ = false;
};

/// Calls on_line(line, number) for every line of the input: without its LF and one CR before
/// it, after dropping a UTF-8 byte-order mark from the first line, skipping blank and `#`
/// lines. Calls on_chunk_end() after each chunk (the lines' views die then). Stops when a
/// callback returns a failed Status, and returns it; "NAME: read error" on a read error.
template <class OnLine, class OnChunkEnd>
Status for_each_line(ChunkReader& reader, std::string_view name, OnLine on_line,
                     OnChunkEnd on_chunk_end) {
  std::uint64_t number = 0;
  std::string_view chunk;
  while (reader.next(chunk)) {
    while (!chunk.empty()) {
      const std::size_t lf = chunk.find('\n');
      std::string_view line = chunk.substr(0, lf);
      chunk.remove_prefix(lf == std::string_view::npos ? chunk.size() : lf + 1);
      ++number;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (number == 1 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
      if (line.empty() || line.front() == '#') continue;
      if (Status status = on_line(line, number); !status.ok()) return status;
    }
    if (Status status = on_chunk_end(); !status.ok()) return status;
  }
  if (reader.bad()) return Status::error(std::string(name) + ": read error");
  return Status::ok_status();
}

Status line_error(std::string_view name, std::uint64_t line, std::string_view what) {
  return Status::error(std::string(name) + ":" + std::to_string(line) + ": " + std::string(what));
}

Status too_many_nodes(std::string_view name, std::uint64_t line) {
  return line_error(
      name, line,
      "more than " + std::to_string(NodeNames::kMaxSize) + " distinct node ids (ids are 32-bit)");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Readers and writer

Result<EdgeList> read_edge_list(std::istream& in, std::string_view name) {
  EdgeList list;
  ChunkReader reader(in);
  // The shortest edge line is "a\tb\n": at most (bytes + 1) / 4 edges. Reserving that much
  // address space touches none of it, and the array never has to be copied to grow.
  if (const auto bytes = reader.remaining_bytes()) {
    const std::uint64_t most = std::min<std::uint64_t>((*bytes + 1) / 4, std::uint64_t{1} << 32);
    try {
      detail::reserve_huge(list.edges, static_cast<std::size_t>(most));
    } catch (const std::bad_alloc&) {
      // No address space to spare (strict overcommit): grow as needed instead.
    }
  }
  // LinkGraph::build takes fewer than 2^32 - 1 edges.
  constexpr std::size_t kMaxEdges = std::numeric_limits<std::uint32_t>::max() - 1;
  // Ids are interned a batch at a time (intern_batch overlaps the lookups' cache misses).
  constexpr std::size_t kBatchEdges = 1024;
  std::vector<std::string_view> batch;  // source, target, source, target, ...
  std::vector<std::uint64_t> batch_lines;
  std::vector<NodeId> ids(2 * kBatchEdges);
  batch.reserve(2 * kBatchEdges);
  batch_lines.reserve(kBatchEdges);

  auto flush = [&]() -> Status {
    if (list.nodes.size() + batch.size() > NodeNames::kMaxSize) {  // near the limit: one by one
      for (std::size_t i = 0; i < batch.size(); ++i) {
        if (list.nodes.size() >= NodeNames::kMaxSize)
          return too_many_nodes(name, batch_lines[i / 2]);
        ids[i] = list.nodes.intern(batch[i]);
      }
    } else {
      list.nodes.intern_batch(batch, std::span<NodeId>(ids.data(), batch.size()));
    }
    for (std::size_t i = 0; i < batch.size(); i += 2) {
      list.edges.push_back(Edge{ids[i], ids[i + 1]});
    }
    batch.clear();
    batch_lines.clear();
    return Status::ok_status();
  };
  auto on_line = [&](std::string_view line, std::uint64_t number) -> Status {
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos)
      return line_error(name, number, "no tab; expected 'source<TAB>target'");
    const std::string_view source = line.substr(0, tab), target = line.substr(tab + 1);
    if (target.find('\t') != std::string_view::npos) {
      return line_error(name, number, "more than one tab; expected 'source<TAB>target'");
    }
    if (source.empty()) return line_error(name, number, "empty source id");
    if (target.empty()) return line_error(name, number, "empty target id");
    if (list.edges.size() + batch_lines.size() >= kMaxEdges) {
      return line_error(name, number, "more than " + std::to_string(kMaxEdges) + " edges");
    }
    batch.push_back(source);
    batch.push_back(target);
    batch_lines.push_back(number);
    return batch_lines.size() == kBatchEdges ? flush() : Status::ok_status();
  };
  if (Status status = for_each_line(reader, name, on_line, flush); !status.ok()) return status;
  return list;
}

Status read_node_list(std::istream& in, std::string_view name, NodeNames& nodes) {
  ChunkReader reader(in);
  auto on_line = [&](std::string_view line, std::uint64_t number) -> Status {
    if (line.find('\t') != std::string_view::npos)
      return line_error(name, number, "a node id cannot contain a tab");
    if (nodes.size() >= NodeNames::kMaxSize && !nodes.find(line))
      return too_many_nodes(name, number);
    nodes.intern(line);
    return Status::ok_status();
  };
  return for_each_line(reader, name, on_line, [] { return Status::ok_status(); });
}

Status write_scores(std::ostream& out, const NodeNames& nodes, std::span<const double> scores) {
  assert(scores.size() == nodes.size());
  // Scores next to their ids and the first 8 bytes of their names (big-endian, zero-padded,
  // so that integer order is byte order): the sort reads the names only to break ties between
  // equal scores and equal prefixes. Power-law graphs have large ties (every node without
  // in-links scores the teleport share alone).
  struct Ranked {
    double score;
    std::uint64_t prefix;
    NodeId id;
  };
  std::vector<Ranked> ranked(scores.size());
  for (NodeId v = 0; v < scores.size(); ++v) {
    const std::string_view name = nodes.name(v);
    std::uint64_t prefix = 0;
    for (std::size_t i = 0; i < 8; ++i) {
      prefix = prefix << 8 | (i < name.size() ? static_cast<unsigned char>(name[i]) : 0u);
    }
    ranked[v] = {scores[v], prefix, v};
  }
  std::sort(ranked.begin(), ranked.end(), [&](const Ranked& a, const Ranked& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return nodes.name(a.id) < nodes.name(b.id);
  });
  std::string buffer;
  constexpr std::size_t kFlushAt = std::size_t{1} << 20;
  buffer.reserve(kFlushAt + 64);
  char number[64];
  for (const Ranked& r : ranked) {
    buffer.append(nodes.name(r.id));
    buffer.push_back('\t');
    const auto written =
        std::to_chars(number, number + sizeof number, r.score, std::chars_format::general, 17);
    buffer.append(number, written.ptr);
    buffer.push_back('\n');
    if (buffer.size() >= kFlushAt) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  out.flush();
  if (!out) return Status::error("cannot write the scores");
  return Status::ok_status();
}

}  // namespace canon::ranking
