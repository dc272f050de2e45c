/// @file pagerank.cpp
/// @brief Pull-style PageRank power iteration over the in-links of a renumbered copy of the
/// graph, its rows cut among the processes of a partitioned run, optionally multi-threaded.
///
/// Hand-written rather than boost::graph::page_rank because Boost's runs a fixed number of
/// iterations (no convergence test), uses a non-normalised (1 - d) teleport, and loses the mass
/// of dangling pages instead of redistributing it. See docs/ranking.md for the definition.
#include "ranking/pagerank.h"

#include <algorithm>
#include <barrier>
#include <cassert>
#include <chrono>
#include <cmath>
#include <thread>

#include "common/byte_codec.h"
#include "ranking/huge_pages.h"

namespace canon::ranking {

namespace {

using detail::reserve_huge;

/// Rows per block of the partial sums. The L1 change and the dangling mass are summed a block at
/// a time and the blocks' sums added in order, over one order of all the rows (`block_row_node`)
/// that no process or thread count changes: so are the results.
constexpr std::size_t kBlock = 2048;

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

/// 1 / out-degree, 0 for a dangling node (its score is spread through the teleport instead).
double inverse_out(std::uint32_t out_degree) { return out_degree == 0 ? 0.0 : 1.0 / out_degree; }

/// The state of one run on one process. Every process holds every node's score, slot and
/// inverse out-degree by its place in the block order (~40 bytes a node), and the in-links of
/// its own rows only.
///
/// The graph is renumbered for speed: rows (a process's own nodes) by descending in-degree, so
/// that rows of equal length run together and the loop over in-links is predicted; the
/// contributions x / out-degree by *slot*, slots by descending out-degree, so that the most-read
/// contributions (a source is read once per out-link) share cache lines and stay in the core's
/// cache. On power-law graphs this makes an iteration ~10-15% faster than the caller's numbering
/// (docs/ranking.md).
struct PowerIteration {
  NodeId n = 0;
  double damping = 0.0;
  NodeId first = 0, end = 0;                // this process's nodes
  std::vector<std::size_t> nodes_of;        // nodes of each process, in rank order
  std::vector<NodeId> row_node;             // own rows: nodes by descending in-degree
  std::vector<std::uint32_t> row;           // own row r's in-links: column[row[r] .. row[r + 1])
  std::vector<NodeId> column;               // in-links as their sources' slots, ascending source
  std::vector<std::uint32_t> out_degree;    // by node (while preparing)
  std::vector<NodeId> slot_of_node;         // (while preparing)
  // Every node by its block row: the order of all nodes by descending in-degree, which the
  // partial sums follow.
  std::vector<NodeId> block_row_node;
  std::vector<NodeId> slot_of_block_row;
  std::vector<double> inv_out_of_block_row;  // 1 / out-degree, 0 for dangling nodes
  std::vector<double> x;                    // scores by block row
  // The new scores gathered: each process's own rows in its order, the processes in rank
  // order; block row r's is next_x[gathered_of_block_row[r]] (with one process, r itself).
  std::vector<double> next_x;
  std::vector<std::uint32_t> gathered_of_block_row;
  std::vector<double> own_next;             // new scores of own rows
  std::vector<double> contrib;              // x * 1 / out-degree, by slot
  std::vector<double> change_part, dangling_part;  // by block of rows
  double base = 0.0;  // (d * dangling mass + (1 - d)) / n for the next iteration

  std::size_t block_count() const { return (n + kBlock - 1) / kBlock; }

  /// One thread's share of the step after the rows: blocks [first_block, last_block) of all
  /// the nodes, each new score taken, its change and dangling mass summed per block, its next
  /// contribution written.
  void run_blocks(std::size_t first_block, std::size_t last_block) {
    for (std::size_t b = first_block; b < last_block; ++b) {
      const std::size_t end_row = std::min<std::size_t>(n, (b + 1) * kBlock);
      double change = 0.0, dangling = 0.0;
      for (std::size_t r = b * kBlock; r < end_row; ++r) {
        const double next = next_x[gathered_of_block_row[r]];
        const double inv = inv_out_of_block_row[r];
        change += std::abs(next - x[r]);
        x[r] = next;
        contrib[slot_of_block_row[r]] = next * inv;
        dangling += inv == 0.0 ? next : 0.0;
      }
      change_part[b] = change;
      dangling_part[b] = dangling;
    }
  }

  /// One thread's share of an iteration: own rows [first_row, last_row).
  void run_rows(std::size_t first_row, std::size_t last_row) {
    const double* in = contrib.data();
    const std::uint32_t* starts = row.data();
    const NodeId* columns = column.data();
    double* out = own_next.data();
    // Locals, not members: stores through the double pointer above could alias members.
    const double d = damping, teleport = base;
    for (std::size_t r = first_row; r < last_row; ++r) {
      // Four partial sums break the chain of dependent adds, keeping several gathers in
      // flight (~30% faster on large graphs); the order is fixed, so still deterministic.
      double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
      std::uint32_t e = starts[r];
      const std::uint32_t e_end = starts[r + 1];
      for (; e + 4 <= e_end; e += 4) {
        s0 += in[columns[e]];
        s1 += in[columns[e + 1]];
        s2 += in[columns[e + 2]];
        s3 += in[columns[e + 3]];
      }
      for (; e < e_end; ++e) s0 += in[columns[e]];
      const double sum = (s0 + s1) + (s2 + s3);
      out[r] = d * sum + teleport;
    }
  }
};

/// Splits own rows into `pieces` contiguous ranges of roughly equal work (in-edges + rows):
/// range i is [bounds[i], bounds[i + 1]).
std::vector<std::size_t> split_rows(const PowerIteration& it, unsigned pieces) {
  const std::size_t rows = it.row_node.size();
  auto work_before = [&](std::size_t r) { return static_cast<double>(it.row[r]) + static_cast<double>(r); };
  const double total = work_before(rows);
  std::vector<std::size_t> bounds(pieces + 1, rows);
  bounds[0] = 0;
  std::size_t r = 0;
  for (unsigned t = 1; t < pieces; ++t) {
    while (r < rows && work_before(r) < total * t / pieces) ++r;
    bounds[t] = r;
  }
  return bounds;
}

/// Splits all the blocks into `pieces` contiguous ranges of about as many blocks.
std::vector<std::size_t> split_blocks(const PowerIteration& it, unsigned pieces) {
  std::vector<std::size_t> bounds(pieces + 1);
  for (unsigned t = 0; t <= pieces; ++t) bounds[t] = it.block_count() * t / pieces;
  return bounds;
}

/// Every process's range and its nodes' out-degrees, gathered: fills it.nodes_of and
/// it.out_degree.
void gather_out_degrees(const OutLinkRows& rows, const Collective& processes, PowerIteration& it) {
  std::string mine;
  codec::put_varint(mine, rows.first());
  codec::put_varint(mine, rows.end());
  for (NodeId v = rows.first(); v < rows.end(); ++v) codec::put_varint(mine, rows.out_links(v).size());
  reserve_huge(it.out_degree, it.n);  // read at random every iteration
  it.out_degree.assign(it.n, 0);
  [[maybe_unused]] NodeId expected_first = 0;
  for (const std::string& part : processes.all_gather_bytes(mine)) {
    codec::Reader in(part);
    const auto first = static_cast<NodeId>(in.varint()), end = static_cast<NodeId>(in.varint());
    assert(first == expected_first && first <= end && end <= it.n);
    for (NodeId v = first; v < end; ++v) it.out_degree[v] = static_cast<std::uint32_t>(in.varint());
    it.nodes_of.push_back(end - first);
    expected_first = end;
  }
  assert(expected_first == it.n);
}

/// The in-links of this process's nodes, from every process's rows: the links each process has
/// to them sent to it (one all_to_all), its own taken directly. in_start[v - first] .. the next
/// index the sources, ascending (the processes' sources ascend with their rank).
struct InLinks {
  std::vector<std::uint32_t> start;
  std::vector<NodeId> source;
};

InLinks transpose(const OutLinkRows& rows, const Collective& processes, const PowerIteration& it) {
  const unsigned p_count = processes.size(), me = processes.rank();
  std::vector<NodeId> first_of(p_count + 1, 0);
  for (unsigned p = 0; p < p_count; ++p) first_of[p + 1] = first_of[p] + static_cast<NodeId>(it.nodes_of[p]);
  // A row's targets on process p are a contiguous run of it (rows are sorted, ranges consecutive).
  auto targets_on = [&](NodeId u, unsigned p) {
    const std::span<const NodeId> out = rows.out_links(u);
    const auto lo = std::lower_bound(out.begin(), out.end(), first_of[p]);
    const auto hi = std::lower_bound(lo, out.end(), first_of[p + 1]);
    return out.subspan(static_cast<std::size_t>(lo - out.begin()), static_cast<std::size_t>(hi - lo));
  };
  std::vector<std::string> to_each(p_count);
  for (unsigned p = 0; p < p_count; ++p) {
    if (p == me) continue;  // taken directly below
    for (NodeId u = rows.first(); u < rows.end(); ++u) {
      const std::span<const NodeId> on_p = targets_on(u, p);
      if (on_p.empty()) continue;
      codec::put_varint(to_each[p], u - rows.first());
      codec::put_varint(to_each[p], on_p.size());
      for (const NodeId v : on_p) codec::put_varint(to_each[p], v - first_of[p]);
    }
  }
  const std::vector<std::string> from_each = processes.all_to_all_bytes(to_each);
  to_each = {};
  // Two passes over what each process sent, in rank order: count, then place.
  InLinks in;
  const std::size_t own = it.end - it.first;
  in.start.assign(own + 1, 0);
  auto visit = [&](auto&& link) {
    for (unsigned p = 0; p < p_count; ++p) {
      if (p == me) {
        for (NodeId u = rows.first(); u < rows.end(); ++u) {
          for (const NodeId v : targets_on(u, p)) link(u, v - it.first);
        }
        continue;
      }
      codec::Reader bytes(from_each[p]);
      while (bytes.ok() && !bytes.at_end()) {
        const auto u = static_cast<NodeId>(first_of[p] + bytes.varint());
        const std::uint64_t count = bytes.varint();
        for (std::uint64_t k = 0; k < count && bytes.ok(); ++k) link(u, static_cast<NodeId>(bytes.varint()));
      }
      assert(bytes.ok());
    }
  };
  visit([&](NodeId, NodeId local) { ++in.start[local + 1]; });
  for (std::size_t i = 0; i < own; ++i) in.start[i + 1] += in.start[i];
  in.source.resize(in.start[own]);
  std::vector<std::uint32_t> next(in.start.begin(), in.start.end() - 1);
  visit([&](NodeId u, NodeId local) { in.source[next[local]++] = u; });
  return in;
}

/// The iteration's graph on this process: every node's out-degree, slot and place in the block
/// order, and its own rows' in-links (gathered from every process's rows). Collective.
void prepare(const OutLinkRows& rows, const Collective& processes, PowerIteration& it) {
  it.first = rows.first();
  it.end = rows.end();
  gather_out_degrees(rows, processes, it);
  InLinks in = transpose(rows, processes, it);

  // Every node's in-degree: the block order. Own rows are own nodes in that order.
  std::string mine;
  for (NodeId v = it.first; v < it.end; ++v) codec::put_varint(mine, in.start[v - it.first + 1] - in.start[v - it.first]);
  std::vector<std::uint32_t> degree(it.n, 0);
  {
    NodeId v = 0;
    for (const std::string& part : processes.all_gather_bytes(mine)) {
      codec::Reader bytes(part);
      while (bytes.ok() && !bytes.at_end()) degree[v++] = static_cast<std::uint32_t>(bytes.varint());
    }
    assert(v == it.n);
  }
  it.block_row_node = by_descending(degree);
  it.row_node.reserve(it.end - it.first);
  for (const NodeId v : it.block_row_node) {
    if (v >= it.first && v < it.end) it.row_node.push_back(v);
  }
  reserve_huge(it.slot_of_node, it.n);  // read at random below and every iteration
  it.slot_of_node.resize(it.n);
  {
    const std::vector<NodeId> node_of_slot = by_descending(it.out_degree);
    for (NodeId s = 0; s < it.n; ++s) it.slot_of_node[node_of_slot[s]] = s;
  }
  // Where each block row's new score lands in the gathered scores: its process's offset, then
  // its place among that process's rows (a process's rows are its nodes in block order).
  {
    std::vector<std::uint32_t> next_of(it.nodes_of.size());
    std::vector<NodeId> first_of(it.nodes_of.size() + 1, 0);
    for (std::size_t p = 0; p < it.nodes_of.size(); ++p) {
      next_of[p] = first_of[p];
      first_of[p + 1] = first_of[p] + static_cast<NodeId>(it.nodes_of[p]);
    }
    it.gathered_of_block_row.resize(it.n);
    for (NodeId r = 0; r < it.n; ++r) {
      const NodeId v = it.block_row_node[r];
      const auto p = static_cast<std::size_t>(std::upper_bound(first_of.begin(), first_of.end(), v) - first_of.begin() - 1);
      it.gathered_of_block_row[r] = next_of[p]++;
    }
  }
  it.slot_of_block_row.resize(it.n);
  it.inv_out_of_block_row.resize(it.n);
  for (NodeId r = 0; r < it.n; ++r) {
    const NodeId v = it.block_row_node[r];
    it.slot_of_block_row[r] = it.slot_of_node[v];
    it.inv_out_of_block_row[r] = inverse_out(it.out_degree[v]);
  }
  std::vector<std::uint32_t>().swap(it.out_degree);
  it.row.resize(it.row_node.size() + 1);
  it.row[0] = 0;
  reserve_huge(it.column, in.source.size());
  it.column.resize(in.source.size());
  std::uint32_t e = 0;
  for (std::size_t r = 0; r < it.row_node.size(); ++r) {
    const NodeId local = it.row_node[r] - it.first;
    for (std::uint32_t k = in.start[local]; k < in.start[local + 1]; ++k) it.column[e++] = it.slot_of_node[in.source[k]];
    it.row[r + 1] = e;
  }
  std::vector<NodeId>().swap(it.slot_of_node);
}

/// Sets the uniform start vector, the first contributions and the first teleport share.
void start_iteration(PowerIteration& it) {
  const NodeId n = it.n;
  it.x.assign(n, 1.0 / n);
  it.next_x.resize(n);
  it.own_next.resize(it.end - it.first);
  reserve_huge(it.contrib, n);  // gathered at random every iteration
  it.contrib.resize(n);
  it.change_part.resize(it.block_count());
  it.dangling_part.resize(it.block_count());
  double dangling = 0.0;
  for (NodeId r = 0; r < n; ++r) {
    const double inv = it.inv_out_of_block_row[r];
    it.contrib[it.slot_of_block_row[r]] = it.x[r] * inv;
    dangling += inv == 0.0 ? it.x[r] : 0.0;
  }
  it.base = (it.damping * dangling + (1.0 - it.damping)) / n;
}

/// Iterates until the L1 change falls below the tolerance or max_iterations have run, this
/// process's rows on `options.threads` threads; records iterations, last change and convergence
/// in `result`. An iteration: the threads compute the process's rows; one thread gathers every
/// process's new scores (Collective::all_gather); the threads take them a block of all the rows
/// at a time (run_blocks); one thread adds the blocks' partial sums in block order.
void run_iterations(PowerIteration& it, const PageRankOptions& options, const Collective& processes,
                    PageRankResult& result) {
  unsigned threads = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  threads = static_cast<unsigned>(std::clamp<std::size_t>(threads, 1, it.block_count()));
  const std::vector<std::size_t> row_bounds = split_rows(it, threads);
  const std::vector<std::size_t> block_bounds = split_blocks(it, threads);

  // Each runs on one thread, while the others wait at the barrier.
  auto gather_scores = [&]() noexcept {
    processes.all_gather(it.own_next, it.next_x, it.nodes_of);
  };
  bool done = false;
  auto finish_iteration = [&]() noexcept {
    double change = 0.0, dangling_mass = 0.0;
    for (std::size_t b = 0; b < it.block_count(); ++b) {
      change += it.change_part[b];
      dangling_mass += it.dangling_part[b];
    }
    ++result.iterations;
    result.last_change = change;
    result.converged = change < options.tolerance;
    done = result.converged || result.iterations >= options.max_iterations;
    it.base = (options.damping * dangling_mass + (1.0 - options.damping)) / static_cast<double>(it.n);
  };
  std::barrier rows_done(threads, gather_scores);
  std::barrier blocks_done(threads, finish_iteration);
  auto worker = [&](unsigned t) {
    while (true) {
      it.run_rows(row_bounds[t], row_bounds[t + 1]);
      rows_done.arrive_and_wait();
      it.run_blocks(block_bounds[t], block_bounds[t + 1]);
      blocks_done.arrive_and_wait();
      if (done) return;
    }
  };
  // A pool that lives for the whole run: two barriers per iteration, no per-iteration spawns.
  std::vector<std::jthread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
}

/// The sum of `values`, compensated (Neumaier), so that scores renormalised by it sum to 1
/// within a few ulps even for millions of nodes.
double compensated_sum(const std::vector<double>& values) {
  double sum = 0.0, compensation = 0.0;
  for (const double s : values) {
    const double t = sum + s;
    compensation += std::abs(sum) >= std::abs(s) ? (sum - t) + s : (s - t) + sum;
    sum = t;
  }
  return sum + compensation;
}

/// compute_pagerank() over this process's `rows`; `owned` (== &rows or null) is released once
/// the iteration's renumbered in-links are built.
PageRankResult pagerank(const OutLinkRows& rows, const PageRankOptions& options, OutLinkRows* owned,
                        const Collective& processes) {
  assert(options.damping >= 0.0 && options.damping < 1.0 && options.tolerance > 0.0);
  PageRankResult result;
  const NodeId n = rows.node_count();
  if (n == 0) {
    result.converged = true;
    return result;
  }

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  PowerIteration it;
  it.n = n;
  it.damping = options.damping;
  prepare(rows, processes, it);
  if (owned != nullptr) {
    const OutLinkRows released = std::move(*owned);  // frees the caller's rows here
  }
  start_iteration(it);

  const auto iterating = Clock::now();
  result.setup_seconds = std::chrono::duration<double>(iterating - start).count();
  if (options.max_iterations > 0) run_iterations(it, options, processes, result);

  result.iteration_seconds = std::chrono::duration<double>(Clock::now() - iterating).count();

  // Renormalise: the iteration preserves the sum 1 only up to rounding.
  const double sum = compensated_sum(it.x);
  result.scores.resize(n);
  for (NodeId r = 0; r < n; ++r) result.scores[it.block_row_node[r]] = it.x[r] / sum;
  return result;
}

}  // namespace

PageRankResult compute_pagerank(const LinkGraph& graph, const PageRankOptions& options) {
  OutLinkRows rows = OutLinkRows::of(graph);
  return pagerank(rows, options, &rows, LocalCollective());
}

PageRankResult compute_pagerank(LinkGraph&& graph, const PageRankOptions& options) {
  OutLinkRows rows = OutLinkRows::of(graph);
  {
    const LinkGraph released = std::move(graph);  // frees the caller's graph here
  }
  return pagerank(rows, options, &rows, LocalCollective());
}

PageRankResult compute_pagerank(const OutLinkRows& rows, const PageRankOptions& options, const Collective& processes) {
  return pagerank(rows, options, nullptr, processes);
}

PageRankResult compute_pagerank(OutLinkRows&& rows, const PageRankOptions& options, const Collective& processes) {
  return pagerank(rows, options, &rows, processes);
}

}  // namespace canon::ranking
