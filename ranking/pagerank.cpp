/// @file pagerank.cpp
/// @brief PageRank power iteration, multi-threaded and deterministic, in one of two layouts: a
/// pull over renumbered in-links (small graphs) or propagation blocking (large graphs).
///
/// Hand-written rather than boost::graph::page_rank because Boost's runs a fixed number of
/// iterations (no convergence test), uses a non-normalised (1 - d) teleport, and loses the mass
/// of dangling pages instead of redistributing it; and because the time goes into cache misses,
/// which only a layout made for them avoids. The definition, the layouts and their measurements
/// are in docs/ranking.md.
///
/// - Pull (PullIteration): node v's score is the sum of x(u) / out(u) over its in-links, read
///   from a contribution array by source. One random read per link; cheap while that array
///   (8 bytes per node) mostly stays in the core's L2 cache.
/// - Binned (BinnedIteration): the sources push their contributions into bins of 32K targets,
///   then each bin is summed with its accumulators in L2. Every pass streams through memory;
///   no node-sized array is read at random. Faster once the graph has a few million nodes.
#include "ranking/pagerank.h"

#include <algorithm>
#include <barrier>
#include <bit>
#include <cassert>
#include <chrono>
#include <cmath>
#include <thread>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ranking/huge_pages.h"

namespace canon::ranking {

namespace {

using detail::reserve_huge;

/// Graphs with more nodes than this (1.5M) use the binned layout when automatic. Measured on
/// power-law graphs (docs/ranking.md): pull ~10% faster at 1M nodes, binned ~4% at 2M, ~30% at 5M.
constexpr NodeId kPullMaxNodes = NodeId{3} << 19;

/// Nodes by descending `degree`, equal degrees by id: a counting sort, O(N + max degree).
std::vector<NodeId> by_descending(const std::vector<std::uint32_t>& degree) {
  std::uint32_t max_degree = 0;
  for (const std::uint32_t d : degree) max_degree = std::max(max_degree, d);
  std::vector<std::uint32_t> next(std::size_t{max_degree} + 2, 0);  // next[max - d]: position
  for (const std::uint32_t d : degree) ++next[max_degree - d + 1];
  for (std::size_t i = 1; i < next.size(); ++i) next[i] += next[i - 1];
  std::vector<NodeId> order(degree.size());
  for (NodeId v = 0; v < degree.size(); ++v) order[next[max_degree - degree[v]]++] = v;
  return order;
}

/// Splits [0, count) into `parts` contiguous ranges of roughly equal work; `work_before(i)` is
/// the work of [0, i), non-decreasing.
template <class Work>
std::vector<std::size_t> split(std::size_t count, unsigned parts, Work work_before) {
  const double total = work_before(count);
  std::vector<std::size_t> bounds(parts + 1, count);
  bounds[0] = 0;
  std::size_t i = 0;
  for (unsigned t = 1; t < parts; ++t) {
    while (i < count && work_before(i) < total * t / parts) ++i;
    bounds[t] = i;
  }
  return bounds;
}

/// What both layouts share: scores by internal node number, partial sums per part (block or
/// bin, reduced in part order, so that results do not depend on the thread count).
struct IterationState {
  NodeId n = 0;
  double damping = 0.0;
  std::vector<NodeId> old_of_node;  // caller's id of each internal node
  std::vector<double> x;            // current scores by internal node
  std::vector<double> change_part, dangling_part;  // per part
  double base = 0.0;  // (d * dangling mass + (1 - d)) / n for the next iteration
};

// ---------------------------------------------------------------------------------------------
// Pull layout.

/// Nodes per block: the unit of partial sums and of thread ranges.
constexpr std::size_t kBlock = 2048;

/// The graph as the pull iteration reads it, renumbered twice for speed (see relabel()). Row r
/// holds node old_of_node[r]: its score is x[r], its in-links are column[row[r] .. row[r + 1]).
/// Each in-link is given as the *slot* of its source: the index of the source's contribution
/// x / out-degree in the contribution arrays; slot_of_row[r] is row r's own slot.
struct WorkGraph {
  std::vector<std::uint32_t> row;
  std::vector<NodeId> column;
  std::vector<NodeId> old_of_row;
  std::vector<NodeId> slot_of_row;
  std::vector<double> inv_out;  // 1 / out-degree by row, 0 for dangling nodes
};

/// Renumbers the graph for the iteration: rows by descending in-degree, so that rows of equal
/// length run together and the loop over in-links is predicted; slots by descending out-degree,
/// so that the most-read contributions (a source is read once per out-link) share cache lines
/// and stay in the core's cache. On power-law graphs this makes an iteration ~10-15% faster than
/// the caller's numbering (docs/ranking.md). O(N + E) time; 4 bytes per edge (the renumbered
/// in-links, in the same order as the graph's).
WorkGraph relabel(const LinkGraph& graph) {
  const NodeId n = graph.node_count();
  WorkGraph w;
  std::vector<std::uint32_t> degree(n);
  for (NodeId v = 0; v < n; ++v) degree[v] = static_cast<std::uint32_t>(graph.in_links(v).size());
  w.old_of_row = by_descending(degree);
  for (NodeId v = 0; v < n; ++v) degree[v] = graph.out_degree(v);
  std::vector<NodeId> slot_of_old;
  reserve_huge(slot_of_old, n);  // read at random below
  slot_of_old.resize(n);
  {
    const std::vector<NodeId> old_of_slot = by_descending(degree);
    for (NodeId s = 0; s < n; ++s) slot_of_old[old_of_slot[s]] = s;
  }
  w.row.resize(std::size_t{n} + 1);
  w.row[0] = 0;
  reserve_huge(w.column, graph.edge_count());
  w.column.resize(graph.edge_count());
  w.slot_of_row.resize(n);
  w.inv_out.resize(n);
  std::uint32_t e = 0;
  for (NodeId r = 0; r < n; ++r) {
    const NodeId old = w.old_of_row[r];
    for (const NodeId u : graph.in_links(old)) w.column[e++] = slot_of_old[u];
    w.row[r + 1] = e;
    w.slot_of_row[r] = slot_of_old[old];
    w.inv_out[r] = degree[old] == 0 ? 0.0 : 1.0 / degree[old];
  }
  return w;
}

/// One run in the pull layout. Per iteration, x'(r) = d * sum of in[slot] over r's in-links
/// + base, where in = contrib[cur] was written in the previous iteration; one pass over the
/// rows computes x', writes the next contributions (to contrib[cur ^ 1]) and the partial sums.
struct PullIteration : IterationState {
  WorkGraph graph;
  std::vector<double> contrib[2];  // x * inv_out by slot: [cur] read, [cur ^ 1] written
  int cur = 0;
  std::vector<std::size_t> bounds;  // thread t computes blocks [bounds[t], bounds[t + 1])

  PullIteration(const LinkGraph& g, double d) {
    n = g.node_count();
    damping = d;
    graph = relabel(g);
  }

  /// Allocates the iteration's arrays for up to `threads` threads; returns the threads used.
  unsigned prepare(unsigned threads) {
    old_of_node = std::move(graph.old_of_row);
    x.assign(n, 1.0 / n);
    for (std::vector<double>& c : contrib) {
      reserve_huge(c, n);  // gathered at random every iteration
      c.resize(n);
    }
    const std::size_t blocks = (n + kBlock - 1) / kBlock;
    change_part.resize(blocks);
    dangling_part.resize(blocks);
    double dangling = 0.0;
    for (NodeId r = 0; r < n; ++r) {
      contrib[0][graph.slot_of_row[r]] = x[r] * graph.inv_out[r];
      dangling += graph.inv_out[r] == 0.0 ? x[r] : 0.0;
    }
    base = (damping * dangling + (1.0 - damping)) / n;
    threads = static_cast<unsigned>(std::clamp<std::size_t>(threads, 1, blocks));
    bounds = split(blocks, threads, [&](std::size_t b) {  // in-edges + rows
      const std::size_t v = std::min<std::size_t>(n, b * kBlock);
      return static_cast<double>(graph.row[v]) + static_cast<double>(v);
    });
    return threads;
  }

  /// Thread t's share of an iteration (`halfway` unused: one pass).
  void run(unsigned t, std::barrier<>& /*halfway*/) {
    const double* in = contrib[cur].data();
    double* out = contrib[cur ^ 1].data();
    const std::uint32_t* row = graph.row.data();
    const NodeId* column = graph.column.data();
    const double* inv_out = graph.inv_out.data();
    const NodeId* slot_of_row = graph.slot_of_row.data();
    double* score = x.data();
    // Locals, not members: stores through the double pointers above could alias members.
    const double d = damping, teleport = base;
    for (std::size_t b = bounds[t]; b < bounds[t + 1]; ++b) {
      const std::size_t end = std::min<std::size_t>(n, (b + 1) * kBlock);
      double change = 0.0, dangling = 0.0;
      for (std::size_t r = b * kBlock; r < end; ++r) {
        // Four partial sums break the chain of dependent adds, keeping several gathers in
        // flight (~30% faster on large graphs); the order is fixed, so still deterministic.
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        std::uint32_t e = row[r];
        const std::uint32_t e_end = row[r + 1];
        for (; e + 4 <= e_end; e += 4) {
          s0 += in[column[e]];
          s1 += in[column[e + 1]];
          s2 += in[column[e + 2]];
          s3 += in[column[e + 3]];
        }
        for (; e < e_end; ++e) s0 += in[column[e]];
        const double sum = (s0 + s1) + (s2 + s3);
        const double next = d * sum + teleport;
        change += std::abs(next - score[r]);
        score[r] = next;
        out[slot_of_row[r]] = next * inv_out[r];
        dangling += inv_out[r] == 0.0 ? next : 0.0;
      }
      change_part[b] = change;
      dangling_part[b] = dangling;
    }
  }

  /// Between iterations (one thread).
  void next_iteration() { cur ^= 1; }
};

// ---------------------------------------------------------------------------------------------
// Binned layout.

/// Targets per bin: 2^15, so that a bin's accumulators (256 KiB) stay in the core's L2 cache
/// and a target fits in 15 bits. Small graphs get smaller bins (at least 2^11), at least
/// kMinBins of them, so that they still split among threads.
constexpr unsigned kMaxBinBits = 15, kMinBinBits = 11;
constexpr std::size_t kMinBins = 16;

/// The graph as the binned iteration reads it: nodes renumbered by descending out-degree (so
/// that the scatter's loop over a source's messages is predicted) and, as targets, cut into
/// bins of 2^bin_bits consecutive nodes. A *message* is one source's contribution x(u) / out(u)
/// to one bin it links into; most sources have one per link, a hub one per bin.
///
/// An iteration has two passes (propagation blocking, Beamer et al., IPDPS 2017, with one
/// message per source and bin as in Lakhotia et al., "Accelerating PageRank using
/// Partition-Centric Processing", USENIX ATC 2018):
///  1. scatter: for each source u in order, append its contribution to each bin it links into
///     (bin_of_message): the bins' message arrays fill front to back, so all writes are
///     sequential, one stream per bin;
///  2. gather: for each bin, read its messages in order and add each to its targets'
///     accumulators (target_in_bin, kNewMessage marking the first target of the next
///     message), which are in L2; then finish the bin's nodes.
/// A bin's messages are in source order whatever the number of threads, so each node's sum is
/// added in the same order and results are bit-identical.
struct BinnedGraph {
  unsigned bin_bits = 0;
  std::size_t bins = 0;
  std::vector<NodeId> old_of_node;
  std::vector<double> inv_out;  // 1 / out-degree by node, 0 for dangling nodes
  // Node u's messages go to the bins bin_of_message[message_start[u] .. message_start[u + 1]).
  std::vector<std::uint32_t> message_start;
  std::vector<std::uint16_t> bin_of_message;
  // Bin b receives the messages [bin_message[b], bin_message[b + 1]) of the message array,
  // whose targets are target_in_bin[bin_target[b] .. bin_target[b + 1]).
  std::vector<std::uint32_t> bin_message, bin_target;
  std::vector<std::uint16_t> target_in_bin;  // kNewMessage | (target - first node of the bin)
};

/// Flag on the first target of each message in BinnedGraph::target_in_bin.
constexpr std::uint16_t kNewMessage = 0x8000;

/// Whether the binned layout can hold `n` nodes: bin numbers are 16-bit.
bool binnable(NodeId n) { return ((std::size_t{n} - 1) >> kMaxBinBits) < (std::size_t{1} << 16); }

/// Builds the binned graph in O(N + E). Besides `graph`: 4 bytes per link (freed on return) +
/// 2 per link + 2 per message, and 16 bytes per node.
BinnedGraph bin_graph(const LinkGraph& graph) {
  const NodeId n = graph.node_count();
  const std::size_t m = graph.edge_count();
  BinnedGraph g;
  const unsigned want = std::bit_width(std::max<std::size_t>(1, (n - 1) / kMinBins));
  g.bin_bits = std::clamp(want, kMinBinBits, kMaxBinBits);
  g.bins = ((std::size_t{n} - 1) >> g.bin_bits) + 1;

  std::vector<std::uint32_t> degree(n);
  for (NodeId v = 0; v < n; ++v) degree[v] = graph.out_degree(v);
  g.old_of_node = by_descending(degree);

  // The forward graph (out-links by source, renumbered, each list ascending), by a counting
  // sort of the in-links taken in the new order: u's out-links go to [start[u], start[u + 1]);
  // `next` is the insertion cursor by the caller's id (one random access less per link).
  std::vector<std::uint32_t> start(std::size_t{n} + 1);
  std::vector<std::uint32_t> next;
  reserve_huge(next, n);  // read and written at random below
  next.resize(n);
  g.inv_out.resize(n);
  start[0] = 0;
  for (NodeId u = 0; u < n; ++u) {
    const std::uint32_t d = degree[g.old_of_node[u]];
    next[g.old_of_node[u]] = start[u];
    start[u + 1] = start[u] + d;
    g.inv_out[u] = d == 0 ? 0.0 : 1.0 / d;
  }
  std::vector<std::uint32_t>().swap(degree);
  std::vector<NodeId> target;
  reserve_huge(target, m);  // written at random
  target.resize(m);
  for (NodeId v = 0; v < n; ++v) {
    for (const NodeId u : graph.in_links(g.old_of_node[v])) target[next[u]++] = v;
  }
  std::vector<std::uint32_t>().swap(next);

  // Messages: one per run of a source's targets in the same bin. First count them...
  g.message_start.resize(std::size_t{n} + 1);
  g.message_start[0] = 0;
  g.bin_message.assign(g.bins + 1, 0);
  g.bin_target.assign(g.bins + 1, 0);
  std::uint32_t messages = 0;
  for (NodeId u = 0, e = 0; u < n; ++u) {
    for (std::size_t last_bin = g.bins; e < start[u + 1]; ++e) {
      const std::size_t b = target[e] >> g.bin_bits;
      if (b != last_bin) {
        ++messages;
        ++g.bin_message[b + 1];
        last_bin = b;
      }
      ++g.bin_target[b + 1];
    }
    g.message_start[u + 1] = messages;
  }
  for (std::size_t b = 0; b < g.bins; ++b) {
    g.bin_message[b + 1] += g.bin_message[b];
    g.bin_target[b + 1] += g.bin_target[b];
  }
  // ... then list them, and each bin's targets in the order the scatter writes its messages.
  reserve_huge(g.bin_of_message, messages);
  g.bin_of_message.resize(messages);
  reserve_huge(g.target_in_bin, m);  // written at random
  g.target_in_bin.resize(m);
  std::vector<std::uint32_t> cursor(g.bin_target.begin(), g.bin_target.end() - 1);
  const NodeId low = (NodeId{1} << g.bin_bits) - 1;
  for (NodeId u = 0, e = 0, i = 0; u < n; ++u) {
    for (std::size_t last_bin = g.bins; e < start[u + 1]; ++e) {
      const std::size_t b = target[e] >> g.bin_bits;
      std::uint16_t flag = 0;
      if (b != last_bin) {
        g.bin_of_message[i++] = static_cast<std::uint16_t>(b);
        flag = kNewMessage;
        last_bin = b;
      }
      g.target_in_bin[cursor[b]++] = static_cast<std::uint16_t>(flag | (target[e] & low));
    }
  }
  return g;
}

/// Two cache lines of messages to one bin, filled in turn (scatter's write-combining buffer).
struct alignas(64) Ring {
  double v[16];
};

/// Sources per scatter step: at most 8, the spare entries of a Ring (one message per bin each).
constexpr NodeId kChunk = 8;

/// Writes the 64-byte line at `to` (64-byte aligned) from `from`, bypassing the cache when the
/// processor can: the line is not read first, and not kept.
inline void stream_line(double* to, const double* from) {
#ifdef __SSE2__
  for (int i = 0; i < 8; i += 2) _mm_stream_pd(to + i, _mm_load_pd(from + i));
#else
  std::copy_n(from, 8, to);
#endif
}

/// Makes the streaming stores visible before what follows (the barrier ending the pass).
inline void stream_fence() {
#ifdef __SSE2__
  _mm_sfence();
#endif
}

/// One run in the binned layout (see BinnedGraph).
struct BinnedIteration : IterationState {
  BinnedGraph graph;
  std::vector<double> message_buffer;  // by message, written by scatter()
  double* messages = nullptr;          // its 64-byte aligned start
  /// Thread t scatters the sources [node_bounds[t], node_bounds[t + 1]) and gathers the bins
  /// [bin_bounds[t], bin_bounds[t + 1]), each range with about equal work.
  std::vector<std::size_t> node_bounds, bin_bounds;
  struct Thread {
    std::vector<std::uint32_t> begin;   // per bin, the first message of the thread's sources
    std::vector<std::uint32_t> cursor;  // per bin, the next message to write
    std::vector<Ring> ring;             // per bin
    std::vector<std::uint32_t> full;    // bins of full ring lines not yet written
    std::vector<double> acc;            // accumulators of one bin
  };
  std::vector<Thread> threads;

  BinnedIteration(const LinkGraph& g, double d) {
    n = g.node_count();
    damping = d;
    graph = bin_graph(g);
  }

  /// Allocates the iteration's arrays for up to `thread_count` threads; returns the threads used.
  unsigned prepare(unsigned thread_count) {
    old_of_node = std::move(graph.old_of_node);
    const BinnedGraph& g = graph;
    x.assign(n, 1.0 / n);
    const std::size_t message_count = g.bin_of_message.size();
    reserve_huge(message_buffer, message_count + 8);
    message_buffer.resize(message_count + 8);  // room to start on a cache line
    const auto address = reinterpret_cast<std::uintptr_t>(message_buffer.data());
    messages = message_buffer.data() + ((0 - address) / sizeof(double) & 7);
    change_part.resize(g.bins);
    dangling_part.resize(g.bins);
    double dangling = 0.0;
    for (NodeId u = 0; u < n; ++u) dangling += g.inv_out[u] == 0.0 ? x[u] : 0.0;
    base = (damping * dangling + (1.0 - damping)) / n;

    thread_count = static_cast<unsigned>(std::clamp<std::size_t>(thread_count, 1, g.bins));
    node_bounds = split(n, thread_count, [&](std::size_t u) {  // messages + sources
      return static_cast<double>(g.message_start[u]) + static_cast<double>(u);
    });
    bin_bounds = split(g.bins, thread_count, [&](std::size_t b) {  // targets + rows
      return static_cast<double>(g.bin_target[b]) +
             static_cast<double>(std::min<std::size_t>(n, b << g.bin_bits));
    });
    threads.resize(thread_count);
    std::vector<std::uint32_t> cursor(g.bin_message.begin(), g.bin_message.end() - 1);
    for (unsigned t = 0; t < thread_count; ++t) {
      Thread& state = threads[t];
      state.begin = cursor;  // after the messages of threads 0 .. t - 1
      for (std::uint32_t i = g.message_start[node_bounds[t]];
           i < g.message_start[node_bounds[t + 1]]; ++i) {
        ++cursor[g.bin_of_message[i]];
      }
      state.cursor.resize(g.bins);
      state.ring.resize(g.bins);
      state.full.resize(kChunk * g.bins + 1);
      state.acc.resize(std::size_t{1} << g.bin_bits);
    }
    return thread_count;
  }

  /// Thread t's share of an iteration: scatter, wait for all threads, gather.
  void run(unsigned t, std::barrier<>& halfway) {
    Thread& state = threads[t];
    state.cursor = state.begin;
    scatter(static_cast<NodeId>(node_bounds[t]), static_cast<NodeId>(node_bounds[t + 1]), state);
    halfway.arrive_and_wait();
    gather(bin_bounds[t], bin_bounds[t + 1], state.acc.data());
  }

  /// Between iterations (one thread): nothing to do.
  void next_iteration() {}

  /// Sends the messages of sources [first, last). Each goes to its bin's Ring (in L1); each
  /// full line of a Ring is written with streaming stores, which do not read the line first as
  /// ordinary stores do (with tens of streams the hardware prefetcher cannot hide that read).
  /// Full lines are written every kChunk sources, so that no per-message branch depends on how
  /// full a bin is (such a branch is mispredicted every few messages).
  void scatter(NodeId first, NodeId last, Thread& state) {
    const std::uint32_t* message_start = graph.message_start.data();
    const std::uint16_t* bin_of_message = graph.bin_of_message.data();
    const double* inv_out = graph.inv_out.data();
    const double* score = x.data();
    const std::uint32_t* begin = state.begin.data();
    std::uint32_t* cursor = state.cursor.data();
    Ring* ring = state.ring.data();
    std::uint32_t* full = state.full.data();
    double* out = messages;
    auto copy = [&](std::size_t b, std::uint32_t from, std::uint32_t to) {
      for (std::uint32_t k = from; k < to; ++k) out[k] = ring[b].v[k & 15];
    };
    for (NodeId chunk = first; chunk < last;) {
      const NodeId chunk_end = last - chunk > kChunk ? chunk + kChunk : last;
      std::size_t fulls = 0;
      for (NodeId u = chunk; u < chunk_end; ++u) {
        const double c = score[u] * inv_out[u];
        for (std::uint32_t i = message_start[u], end = message_start[u + 1]; i < end; ++i) {
          const std::uint16_t b = bin_of_message[i];
          const std::uint32_t k = cursor[b]++;
          ring[b].v[k & 15] = c;
          full[fulls] = b;
          fulls += (k & 7) == 7;  // message k completes the line [k - 7, k]
        }
      }
      for (std::size_t f = 0; f < fulls; ++f) {
        // Fewer than 8 messages went to bin b since its line was completed, in this chunk.
        const std::uint32_t b = full[f], start = (cursor[b] & ~7u) - 8;
        if (start >= begin[b]) {
          stream_line(out + start, ring[b].v + (start & 8));
        } else {  // the line starts in the previous thread's messages: write only ours
          copy(b, begin[b], start + 8);
        }
      }
      chunk = chunk_end;
    }
    for (std::size_t b = 0; b < graph.bins; ++b) {  // the last, incomplete lines
      copy(b, std::max(begin[b], cursor[b] & ~7u), cursor[b]);
    }
    stream_fence();
  }

  /// Adds up the bins [first, last) in `acc` (2^bin_bits doubles) and writes their scores.
  void gather(std::size_t first, std::size_t last, double* acc) {
    const std::uint32_t* bin_message = graph.bin_message.data();
    const std::uint32_t* bin_target = graph.bin_target.data();
    const std::uint16_t* target_in_bin = graph.target_in_bin.data();
    const double* in = messages;
    const double* inv_out = graph.inv_out.data();
    double* score = x.data();
    const double d = damping, teleport = base;
    const std::uint16_t low = kNewMessage - 1;
    for (std::size_t b = first; b < last; ++b) {
      const std::size_t row = b << graph.bin_bits;
      const std::size_t rows = std::min<std::size_t>(n - row, std::size_t{1} << graph.bin_bits);
      std::fill(acc, acc + rows, 0.0);
      // The bin's first target starts a message, so `message` wraps around to bin_message[b].
      std::uint32_t message = bin_message[b] - 1;
      for (std::uint32_t k = bin_target[b], end = bin_target[b + 1]; k < end; ++k) {
        const std::uint16_t t = target_in_bin[k];
        message += t >> 15;
        acc[t & low] += in[message];
      }
      double change = 0.0, dangling = 0.0;
      for (std::size_t i = 0; i < rows; ++i) {
        const double next = d * acc[i] + teleport;
        change += std::abs(next - score[row + i]);
        score[row + i] = next;
        dangling += inv_out[row + i] == 0.0 ? next : 0.0;
      }
      change_part[b] = change;
      dangling_part[b] = dangling;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// The run.

/// Builds `Iteration` from `graph` (releasing `owned`, == &graph or null, afterwards), iterates
/// on a pool of threads until converged or max_iterations, and returns the scores by the
/// caller's ids.
template <class Iteration>
PageRankResult iterate(const LinkGraph& graph, const PageRankOptions& options, LinkGraph* owned) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  PageRankResult result;
  Iteration it(graph, options.damping);
  if (owned != nullptr) {
    const LinkGraph released = std::move(*owned);  // frees the caller's graph here
  }
  const NodeId n = it.n;
  unsigned threads = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  threads = it.prepare(threads);

  const auto iterating = Clock::now();
  result.setup_seconds = std::chrono::duration<double>(iterating - start).count();
  if (options.max_iterations > 0) {
    // Runs on one thread between iterations, while the others wait at the barrier.
    bool done = false;
    auto finish_iteration = [&]() noexcept {
      double change = 0.0, dangling_mass = 0.0;
      for (std::size_t p = 0; p < it.change_part.size(); ++p) {
        change += it.change_part[p];
        dangling_mass += it.dangling_part[p];
      }
      ++result.iterations;
      result.last_change = change;
      result.converged = change < options.tolerance;
      done = result.converged || result.iterations >= options.max_iterations;
      it.base = (options.damping * dangling_mass + (1.0 - options.damping)) / n;
      it.next_iteration();
    };
    std::barrier<> halfway(threads);
    std::barrier sync(threads, finish_iteration);
    auto worker = [&](unsigned t) {
      while (true) {
        it.run(t, halfway);
        sync.arrive_and_wait();
        if (done) return;
      }
    };
    // A pool that lives for the whole run: one or two barriers per iteration, no spawns.
    std::vector<std::jthread> pool;
    pool.reserve(threads - 1);
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
    worker(0);
  }

  result.iteration_seconds = std::chrono::duration<double>(Clock::now() - iterating).count();

  // Renormalise: the iteration preserves the sum 1 only up to rounding. The sum is compensated
  // (Neumaier), so that the scores sum to 1 within a few ulps even for millions of nodes.
  double sum = 0.0, compensation = 0.0;
  for (const double s : it.x) {
    const double t = sum + s;
    compensation += std::abs(sum) >= std::abs(s) ? (sum - t) + s : (s - t) + sum;
    sum = t;
  }
  sum += compensation;
  result.scores.resize(n);
  for (NodeId v = 0; v < n; ++v) result.scores[it.old_of_node[v]] = it.x[v] / sum;
  return result;
}

/// compute_pagerank(); `owned` (== &graph or null) is released after renumbering.
PageRankResult pagerank(const LinkGraph& graph, const PageRankOptions& options, LinkGraph* owned) {
  assert(options.damping >= 0.0 && options.damping < 1.0 && options.tolerance > 0.0);
  const NodeId n = graph.node_count();
  if (n == 0) {
    PageRankResult result;
    result.converged = true;
    return result;
  }
  bool binned = options.layout == PageRankLayout::binned ||
                (options.layout == PageRankLayout::automatic && n > kPullMaxNodes);
  binned = binned && binnable(n);
  return binned ? iterate<BinnedIteration>(graph, options, owned)
                : iterate<PullIteration>(graph, options, owned);
}

}  // namespace

PageRankResult compute_pagerank(const LinkGraph& graph, const PageRankOptions& options) {
  return pagerank(graph, options, nullptr);
}

PageRankResult compute_pagerank(LinkGraph&& graph, const PageRankOptions& options) {
  return pagerank(graph, options, &graph);
}

}  // namespace canon::ranking
