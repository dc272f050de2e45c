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
#include <cstring>
#include <thread>

#include "common/byte_codec.h"
#include "ranking/huge_pages.h"

namespace canon::ranking {

namespace {

using detail::reserve_huge;

__extension__ typedef unsigned __int128 Uint128;

/// The exact sum of non-negative doubles (the total below 2^8: PageRank's are at most 2), each
/// truncated to a multiple of 2^-120 (fixed point in 128 bits). Integer addition does not depend on the order of the terms,
/// so the L1 change, the dangling mass and the scores' total come out the same, bit for bit,
/// however the nodes are shared among threads and processes; and no rounding accumulates (a
/// term below 2^-120, ~1e-36, is lost: nothing at PageRank's tolerances).
class ExactSum {
public:
  /// REQUIRES: 0 <= term, a finite double; the total stays below 2^8.
  void add(double term) {
    // term = mantissa * 2^(exponent - 1075): shifted into units of 2^-120 by hand, without a
    // branch for zero (the compiler's double-to-128-bit conversion is a library call, and this
    // runs twice a row every iteration, a dangling mass of 0 for most rows).
    std::uint64_t bits;
    std::memcpy(&bits, &term, sizeof bits);
    const auto exponent = static_cast<int>(bits >> 52);
    const bool normal = exponent != 0;  // else zero, or below 2^-1022: left out
    const std::uint64_t mantissa =
        ((bits & ((std::uint64_t{1} << 52) - 1)) | std::uint64_t{1} << 52) & (std::uint64_t{0} - normal);
    const int shift = normal ? exponent - 1075 + kFractionBits : 0;
    if (shift >= 0) [[likely]] {
      total_ += static_cast<Uint128>(mantissa) << shift;
    } else if (shift > -64) {
      total_ += mantissa >> -shift;
    }
  }
  void add(const ExactSum& other) { total_ += other.total_; }
  double value() const { return std::ldexp(static_cast<double>(total_), -kFractionBits); }
  /// The 16 bytes of the total, for another process.
  void append_to(std::string& out) const {
    codec::put_fixed(out, static_cast<std::uint64_t>(total_), 8);
    codec::put_fixed(out, static_cast<std::uint64_t>(total_ >> 64), 8);
  }
  /// Adds a total append_to() wrote at `in`'s front.
  void add_from(codec::Reader& in) {
    const std::uint64_t low = in.fixed(8), high = in.fixed(8);
    total_ += (static_cast<Uint128>(high) << 64) | low;
  }

private:
  static constexpr int kFractionBits = 120;
  Uint128 total_ = 0;
};

/// Nodes by descending `degree`, equal degrees by index: a counting sort, O(N + max degree).
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

/// The state of one run on one process: its own nodes' scores and rows, and the contributions
/// its rows read, its own and those of the other processes' nodes they link from (the halo).
/// Nothing is held per node of the whole graph but the result.
///
/// The graph is renumbered for speed: rows (the own nodes, in the order they are computed) by
/// descending in-degree, so that rows of equal length run together and the loop over in-links
/// is predicted; the contributions x / out-degree by *slot*, the own nodes' slots by descending
/// out-degree, so that the most-read contributions (a source is read once per out-link) share
/// cache lines and stay in the core's cache. On power-law graphs this makes an iteration ~10-15%
/// faster than the caller's numbering (docs/ranking.md). The halo's slots follow the own ones.
struct PowerIteration {
  NodeId n = 0;
  double damping = 0.0;
  NodeId first = 0, end = 0;                 // this process's nodes
  std::vector<NodeId> first_of;              // every process's first node, then n
  std::vector<NodeId> row_node;              // own rows: own nodes (node - first) by descending in-degree
  std::vector<std::uint32_t> row;            // own row r's in-links: column[row[r] .. row[r + 1])
  std::vector<NodeId> column;                // in-links as their sources' slots, ascending source
  std::vector<NodeId> slot_of_row;           // where row r's own contribution goes
  std::vector<double> inv_out_of_row;        // 1 / out-degree, 0 for a dangling node
  std::vector<double> x, next_x;             // scores by own row
  std::size_t own_slots = 0;                 // slots [0, own_slots): own nodes; then the halo
  std::vector<std::size_t> halo_first_of;    // where each process's nodes start in the halo's slots
  std::vector<std::vector<NodeId>> send_slots;  // the own slots each process reads, in its order
  std::vector<double> contrib;               // x * 1 / out-degree, by slot
  double base = 0.0;  // (d * dangling mass + (1 - d)) / n for the next iteration
  std::vector<ExactSum> change_of, dangling_of;  // by thread

  /// One thread's share of an iteration: own rows [first_row, last_row), their new scores.
  void run_rows(std::size_t first_row, std::size_t last_row) {
    const double* in = contrib.data();
    const std::uint32_t* starts = row.data();
    const NodeId* columns = column.data();
    double* next_score = next_x.data();
    // Locals, not members: stores through the double pointers above could alias members.
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
      next_score[r] = d * sum + teleport;
    }
  }

  /// One thread's share of the step after every row is computed (the contributions are read
  /// until then): the next contributions of own rows [first_row, last_row), their change and
  /// dangling mass added to the thread's sums. Written apart from the rows, one array of
  /// contributions serves, half the memory a second one would take in the cache; and the exact
  /// sums, in the rows' loop, slowed it by a third (their work does not overlap its gathers).
  void write_contributions(unsigned thread, std::size_t first_row, std::size_t last_row) {
    ExactSum change, dangling;
    for (std::size_t r = first_row; r < last_row; ++r) {
      const double next = next_x[r], inv = inv_out_of_row[r];
      change.add(std::abs(next - x[r]));
      dangling.add(inv == 0.0 ? next : 0.0);
      contrib[slot_of_row[r]] = next * inv;
    }
    change_of[thread] = change;
    dangling_of[thread] = dangling;
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

/// Every process's range of nodes, gathered into it.first_of.
void gather_ranges(const OutLinkRows& rows, const Collective& processes, PowerIteration& it) {
  std::string mine;
  codec::put_varint(mine, rows.first());
  codec::put_varint(mine, rows.end());
  for (const std::string& part : processes.all_gather_bytes(mine)) {
    codec::Reader in(part);
    const auto first = static_cast<NodeId>(in.varint()), end = static_cast<NodeId>(in.varint());
    assert(in.ok() && first == (it.first_of.empty() ? 0 : it.first_of.back()) && first <= end && end <= it.n);
    if (it.first_of.empty()) it.first_of.push_back(first);
    it.first_of.push_back(end);
  }
  assert(it.first_of.back() == it.n);
}

/// The process owning `node`.
unsigned owner_of(const PowerIteration& it, NodeId node) {
  return static_cast<unsigned>(std::upper_bound(it.first_of.begin(), it.first_of.end(), node) - it.first_of.begin() - 1);
}

/// The in-links of this process's nodes, from every process's rows: the links each process has
/// to them sent to it (one all_to_all), its own taken directly. start[v - first] .. the next
/// index the sources, ascending (the processes' sources ascend with their rank).
struct InLinks {
  std::vector<std::uint32_t> start;
  std::vector<NodeId> source;
};

InLinks transpose(const OutLinkRows& rows, const Collective& processes, const PowerIteration& it) {
  const unsigned p_count = processes.size(), me = processes.rank();
  const std::vector<NodeId>& first_of = it.first_of;
  // A row's targets on this process are a contiguous run of it (rows are sorted, ranges
  // consecutive).
  auto own_targets = [&](NodeId u) {
    const std::span<const NodeId> out = rows.out_links(u);
    const auto lo = std::lower_bound(out.begin(), out.end(), it.first);
    const auto hi = std::lower_bound(lo, out.end(), it.end);
    return out.subspan(static_cast<std::size_t>(lo - out.begin()), static_cast<std::size_t>(hi - lo));
  };
  // Each row once, its targets a run per process they belong to (not every row once per
  // process: with many processes that would be work per node of the whole graph).
  std::vector<std::string> to_each(p_count);
  for (NodeId u = rows.first(); u < rows.end(); ++u) {
    const std::span<const NodeId> out = rows.out_links(u);
    for (auto at = out.begin(); at != out.end();) {
      const unsigned p = owner_of(it, *at);
      const auto run_end = std::lower_bound(at, out.end(), first_of[p + 1]);
      if (p != me) {  // its own are taken directly below
        codec::put_varint(to_each[p], u - rows.first());
        codec::put_varint(to_each[p], static_cast<std::uint64_t>(run_end - at));
        for (auto v = at; v != run_end; ++v) codec::put_varint(to_each[p], *v - first_of[p]);
      }
      at = run_end;
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
          for (const NodeId v : own_targets(u)) link(u, v - it.first);
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

/// The iteration's graph on this process: its own rows' in-links (gathered from every process's
/// rows) as slots, and the halo: the other processes' nodes they link from, asked of their
/// processes once (each then sends their contributions every iteration). Collective.
void prepare(const OutLinkRows& rows, const Collective& processes, PowerIteration& it) {
  const unsigned p_count = processes.size();
  it.first = rows.first();
  it.end = rows.end();
  gather_ranges(rows, processes, it);
  const InLinks in = transpose(rows, processes, it);
  const std::size_t own = it.end - it.first;

  // The halo: the distinct sources of other processes, ascending (so by process), and each
  // process asked for its own.
  std::vector<NodeId> halo;
  for (const NodeId u : in.source) {
    if (u < it.first || u >= it.end) halo.push_back(u);
  }
  std::sort(halo.begin(), halo.end());
  halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
  it.halo_first_of.assign(p_count + 1, 0);
  std::vector<std::string> asks(p_count);
  for (const NodeId u : halo) {
    const unsigned p = owner_of(it, u);
    ++it.halo_first_of[p + 1];
    codec::put_varint(asks[p], u - it.first_of[p]);
  }
  for (unsigned p = 0; p < p_count; ++p) it.halo_first_of[p + 1] += it.halo_first_of[p];

  // Own slots by descending out-degree; the halo's after them.
  std::vector<std::uint32_t> degree(own);
  for (std::size_t i = 0; i < own; ++i) degree[i] = static_cast<std::uint32_t>(rows.out_links(it.first + static_cast<NodeId>(i)).size());
  std::vector<NodeId> slot_of_own(own);
  {
    const std::vector<NodeId> own_of_slot = by_descending(degree);
    for (NodeId s = 0; s < own; ++s) slot_of_own[own_of_slot[s]] = s;
  }
  it.own_slots = own;
  it.send_slots.assign(p_count, {});
  const std::vector<std::string> asked = processes.all_to_all_bytes(asks);
  for (unsigned p = 0; p < p_count; ++p) {
    codec::Reader bytes(asked[p]);
    while (bytes.ok() && !bytes.at_end()) {
      const std::uint64_t local = bytes.varint();
      assert(local < own);
      it.send_slots[p].push_back(slot_of_own[local]);
    }
  }

  // Rows: own nodes by descending in-degree, each in-link its source's slot.
  for (std::size_t i = 0; i < own; ++i) degree[i] = in.start[i + 1] - in.start[i];
  it.row_node = by_descending(degree);
  it.row.resize(own + 1);
  it.row[0] = 0;
  reserve_huge(it.column, in.source.size());
  it.column.resize(in.source.size());
  it.slot_of_row.resize(own);
  it.inv_out_of_row.resize(own);
  std::uint32_t e = 0;
  for (std::size_t r = 0; r < own; ++r) {
    const NodeId local = it.row_node[r];
    for (std::uint32_t k = in.start[local]; k < in.start[local + 1]; ++k) {
      const NodeId u = in.source[k];
      it.column[e++] = u >= it.first && u < it.end
                           ? slot_of_own[u - it.first]
                           : static_cast<NodeId>(own + static_cast<std::size_t>(std::lower_bound(halo.begin(), halo.end(), u) - halo.begin()));
    }
    it.row[r + 1] = e;
    it.slot_of_row[r] = slot_of_own[local];
    const std::uint32_t out = static_cast<std::uint32_t>(rows.out_links(it.first + local).size());
    it.inv_out_of_row[r] = out == 0 ? 0.0 : 1.0 / out;
  }
}

/// The contributions of the halo: each process sends those of its nodes that another's rows read
/// (one all_to_all). Collective.
void exchange_halo(PowerIteration& it, const Collective& processes) {
  const unsigned p_count = processes.size();
  if (p_count == 1) return;
  double* values = it.contrib.data();
  std::vector<std::string> to_each(p_count);
  for (unsigned p = 0; p < p_count; ++p) {
    to_each[p].resize(it.send_slots[p].size() * sizeof(double));
    char* out = to_each[p].data();
    for (const NodeId slot : it.send_slots[p]) {
      std::memcpy(out, &values[slot], sizeof(double));
      out += sizeof(double);
    }
  }
  const std::vector<std::string> from_each = processes.all_to_all_bytes(to_each);
  for (unsigned p = 0; p < p_count; ++p) {
    const std::size_t count = it.halo_first_of[p + 1] - it.halo_first_of[p];
    assert(from_each[p].size() == count * sizeof(double));
    if (count > 0) std::memcpy(values + it.own_slots + it.halo_first_of[p], from_each[p].data(), count * sizeof(double));
  }
}

/// Every process's sums added: the same totals on every process. Collective.
std::pair<double, double> total_sums(const ExactSum& change, const ExactSum& dangling, const Collective& processes) {
  if (processes.size() == 1) return {change.value(), dangling.value()};
  std::string mine;
  change.append_to(mine);
  dangling.append_to(mine);
  ExactSum all_change, all_dangling;
  for (const std::string& part : processes.all_gather_bytes(mine)) {
    codec::Reader in(part);
    all_change.add_from(in);
    all_dangling.add_from(in);
  }
  return {all_change.value(), all_dangling.value()};
}

/// Sets the uniform start vector, the first contributions and the first teleport share.
/// Collective.
void start_iteration(PowerIteration& it, const Collective& processes) {
  const NodeId n = it.n;
  const std::size_t own = it.row_node.size();
  it.x.assign(own, 1.0 / n);
  it.next_x.resize(own);
  const std::size_t slots = it.own_slots + it.halo_first_of.back();
  reserve_huge(it.contrib, slots);  // gathered at random every iteration
  it.contrib.resize(slots);
  ExactSum dangling;
  for (std::size_t r = 0; r < own; ++r) {
    it.contrib[it.slot_of_row[r]] = it.x[r] * it.inv_out_of_row[r];
    dangling.add(it.inv_out_of_row[r] == 0.0 ? it.x[r] : 0.0);
  }
  exchange_halo(it, processes);
  const double dangling_mass = total_sums(ExactSum(), dangling, processes).second;
  it.base = (it.damping * dangling_mass + (1.0 - it.damping)) / n;
}

/// Iterates until the L1 change falls below the tolerance or max_iterations have run, this
/// process's rows on `options.threads` threads; records iterations, last change and convergence
/// in `result`.
void run_iterations(PowerIteration& it, const PageRankOptions& options, const Collective& processes,
                    PageRankResult& result) {
  unsigned threads = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  // At least 2048 rows a thread: below that, starting a thread costs more than it saves.
  threads = static_cast<unsigned>(std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(1, it.row_node.size() / 2048)));
  const std::vector<std::size_t> bounds = split_rows(it, threads);
  it.change_of.assign(threads, ExactSum());
  it.dangling_of.assign(threads, ExactSum());

  // Runs on one thread between iterations, while the others wait at the barrier: the sums of
  // every thread and process added, the halo's next contributions taken.
  bool done = false;
  auto finish_iteration = [&]() noexcept {
    ExactSum change, dangling;
    for (unsigned t = 0; t < threads; ++t) {
      change.add(it.change_of[t]);
      dangling.add(it.dangling_of[t]);
    }
    const auto [total_change, dangling_mass] = total_sums(change, dangling, processes);
    exchange_halo(it, processes);
    it.x.swap(it.next_x);
    ++result.iterations;
    result.last_change = total_change;
    result.converged = total_change < options.tolerance;
    done = result.converged || result.iterations >= options.max_iterations;
    it.base = (options.damping * dangling_mass + (1.0 - options.damping)) / static_cast<double>(it.n);
  };
  std::barrier rows_done(threads);
  std::barrier contributions_done(threads, finish_iteration);
  auto worker = [&](unsigned t) {
    while (true) {
      it.run_rows(bounds[t], bounds[t + 1]);
      rows_done.arrive_and_wait();
      it.write_contributions(t, bounds[t], bounds[t + 1]);
      contributions_done.arrive_and_wait();
      if (done) return;
    }
  };
  // A pool that lives for the whole run: two barriers per iteration, no per-iteration spawns.
  std::vector<std::jthread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
}

/// The scores, renormalised (the iteration preserves the sum 1 only up to rounding) by the exact
/// total of all scores: this process's own nodes', or every node's, gathered from every process.
/// Collective.
std::vector<double> final_scores(const PowerIteration& it, ScoresOf scores_of, const Collective& processes) {
  ExactSum own_total;
  for (const double s : it.x) own_total.add(s);
  const double sum = total_sums(own_total, ExactSum(), processes).first;
  std::vector<double> own(it.end - it.first);
  for (std::size_t r = 0; r < it.row_node.size(); ++r) own[it.row_node[r]] = it.x[r] / sum;
  if (scores_of == ScoresOf::kOwnNodes) return own;
  std::vector<double> scores(it.n);
  std::vector<std::size_t> counts;
  for (std::size_t p = 0; p + 1 < it.first_of.size(); ++p) counts.push_back(it.first_of[p + 1] - it.first_of[p]);
  processes.all_gather(own, scores, counts);
  return scores;
}

/// compute_pagerank() over this process's `rows`; `owned` (== &rows or null) is released once
/// the iteration's renumbered in-links are built.
PageRankResult pagerank(const OutLinkRows& rows, const PageRankOptions& options, OutLinkRows* owned,
                        const Collective& processes, ScoresOf scores_of = ScoresOf::kEveryNode) {
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
  start_iteration(it, processes);

  const auto iterating = Clock::now();
  result.setup_seconds = std::chrono::duration<double>(iterating - start).count();
  if (options.max_iterations > 0) run_iterations(it, options, processes, result);
  result.iteration_seconds = std::chrono::duration<double>(Clock::now() - iterating).count();
  result.scores = final_scores(it, scores_of, processes);
  if (scores_of == ScoresOf::kOwnNodes) result.first_node = it.first;
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

PageRankResult compute_pagerank(const OutLinkRows& rows, const PageRankOptions& options, const Collective& processes,
                                ScoresOf scores_of) {
  return pagerank(rows, options, nullptr, processes, scores_of);
}

PageRankResult compute_pagerank(OutLinkRows&& rows, const PageRankOptions& options, const Collective& processes,
                                ScoresOf scores_of) {
  return pagerank(rows, options, &rows, processes, scores_of);
}

}  // namespace canon::ranking
