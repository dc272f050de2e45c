/// @file pagerank.cpp
/// @brief Pull-style PageRank power iteration over the in-links of a renumbered copy of the
/// graph, optionally multi-threaded.
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

#include "ranking/huge_pages.h"

namespace canon::ranking {

namespace {

using detail::reserve_huge;

/// Nodes per block. Partial sums (L1 change, dangling mass) are kept per block and reduced in
/// block order, and thread ranges are whole blocks, so results do not depend on thread count.
constexpr std::size_t kBlock = 2048;

/// The graph as the iteration reads it, renumbered twice for speed (see relabel()). Row r holds
/// node old_of_row[r]: its score is x[r], its in-links are column[row[r] .. row[r + 1]). Each
/// in-link is given as the *slot* of its source: the index of the source's contribution
/// x / out-degree in the contribution arrays; slot_of_row[r] is row r's own slot.
struct WorkGraph {
  std::vector<std::uint32_t> row;
  std::vector<NodeId> column;
  std::vector<NodeId> old_of_row;
  std::vector<NodeId> slot_of_row;
  std::vector<double> inv_out;  // 1 / out-degree by row, 0 for dangling nodes
};

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

/// The state of one run; run_blocks() is one thread's share of an iteration.
struct PowerIteration {
  NodeId n = 0;
  double damping = 0.0;
  WorkGraph graph;
  std::vector<double> x;           // current scores by row (only the row's thread uses x[r])
  std::vector<double> contrib[2];  // x * inv_out by slot: [cur] read, [cur ^ 1] written
  std::vector<double> change_part, dangling_part;  // per block
  int cur = 0;
  double base = 0.0;  // (d * dangling mass + (1 - d)) / n for the next iteration

  std::size_t block_count() const { return (n + kBlock - 1) / kBlock; }

  void run_blocks(std::size_t first_block, std::size_t last_block) {
    const double* in = contrib[cur].data();
    double* out = contrib[cur ^ 1].data();
    const std::uint32_t* row = graph.row.data();
    const NodeId* column = graph.column.data();
    const double* inv_out = graph.inv_out.data();
    const NodeId* slot_of_row = graph.slot_of_row.data();
    double* score = x.data();
    // Locals, not members: stores through the double pointers above could alias members.
    const double d = damping, teleport = base;
    for (std::size_t b = first_block; b < last_block; ++b) {
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
};

/// Splits blocks [first, last) into `pieces` contiguous ranges of roughly equal work (in-edges +
/// nodes): range i is [bounds[i], bounds[i + 1]).
std::vector<std::size_t> split_blocks(const PowerIteration& it, std::size_t first, std::size_t last, unsigned pieces) {
  auto work_before = [&](std::size_t b) {  // work of blocks [0, b)
    const std::size_t v = std::min<std::size_t>(it.n, b * kBlock);
    return static_cast<double>(it.graph.row[v]) + static_cast<double>(v);
  };
  const double start = work_before(first), total = work_before(last) - start;
  std::vector<std::size_t> bounds(pieces + 1, last);
  bounds[0] = first;
  std::size_t b = first;
  for (unsigned t = 1; t < pieces; ++t) {
    while (b < last && work_before(b) - start < total * t / pieces) ++b;
    bounds[t] = b;
  }
  return bounds;
}

/// The rows of blocks [first, last).
std::pair<std::size_t, std::size_t> rows_of_blocks(const PowerIteration& it, std::size_t first, std::size_t last) {
  return {std::min<std::size_t>(it.n, first * kBlock), std::min<std::size_t>(it.n, last * kBlock)};
}

/// After an iteration of a partitioned run: every process's new scores and block partial sums
/// gathered on every process (each computed only its own blocks, `parts[rank]` ..
/// `parts[rank + 1]`), and the contributions of the rows the others computed filled in, each
/// the very product the process that owns the row wrote.
void exchange_iteration(PowerIteration& it, const std::vector<std::size_t>& parts, const Collective& processes) {
  const unsigned rank = processes.rank();
  std::vector<std::size_t> row_counts, block_counts;
  for (unsigned p = 0; p < processes.size(); ++p) {
    const auto [lo, hi] = rows_of_blocks(it, parts[p], parts[p + 1]);
    row_counts.push_back(hi - lo);
    block_counts.push_back(parts[p + 1] - parts[p]);
  }
  const auto [own_lo, own_hi] = rows_of_blocks(it, parts[rank], parts[rank + 1]);
  const std::vector<double> own_rows(it.x.begin() + static_cast<std::ptrdiff_t>(own_lo),
                                     it.x.begin() + static_cast<std::ptrdiff_t>(own_hi));
  processes.all_gather(own_rows, it.x, row_counts);
  for (std::vector<double>* part : {&it.change_part, &it.dangling_part}) {
    const std::vector<double> own(part->begin() + static_cast<std::ptrdiff_t>(parts[rank]),
                                  part->begin() + static_cast<std::ptrdiff_t>(parts[rank + 1]));
    processes.all_gather(own, *part, block_counts);
  }
  double* out = it.contrib[it.cur ^ 1].data();
  for (std::size_t r = 0; r < it.n; ++r) {
    if (r < own_lo || r >= own_hi) out[it.graph.slot_of_row[r]] = it.x[r] * it.graph.inv_out[r];
  }
}

/// Sets the uniform start vector, the first contributions and the first teleport share.
void start_iteration(PowerIteration& it) {
  const WorkGraph& g = it.graph;
  const NodeId n = it.n;
  it.x.assign(n, 1.0 / n);
  for (std::vector<double>& c : it.contrib) {
    reserve_huge(c, n);  // gathered at random every iteration
    c.resize(n);
  }
  it.change_part.resize(it.block_count());
  it.dangling_part.resize(it.block_count());
  double dangling = 0.0;
  for (NodeId r = 0; r < n; ++r) {
    it.contrib[0][g.slot_of_row[r]] = it.x[r] * g.inv_out[r];
    dangling += g.inv_out[r] == 0.0 ? it.x[r] : 0.0;
  }
  it.base = (it.damping * dangling + (1.0 - it.damping)) / n;
}

/// Iterates until the L1 change falls below the tolerance or max_iterations have run, this
/// process's share of the blocks on `options.threads` threads; records iterations, last change
/// and convergence in `result`.
void run_iterations(PowerIteration& it, const PageRankOptions& options, const Collective& processes,
                    PageRankResult& result) {
  const std::vector<std::size_t> parts = split_blocks(it, 0, it.block_count(), processes.size());
  const std::size_t first = parts[processes.rank()], last = parts[processes.rank() + 1];
  unsigned threads = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  threads = static_cast<unsigned>(std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(1, last - first)));
  const std::vector<std::size_t> bounds = split_blocks(it, first, last, threads);

  // Runs on one thread between iterations, while the others wait at the barrier.
  bool done = false;
  auto finish_iteration = [&]() noexcept {
    if (processes.size() > 1) exchange_iteration(it, parts, processes);
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
    it.cur ^= 1;
  };
  std::barrier sync(threads, finish_iteration);
  auto worker = [&](unsigned t) {
    while (true) {
      it.run_blocks(bounds[t], bounds[t + 1]);
      sync.arrive_and_wait();
      if (done) return;
    }
  };
  // A pool that lives for the whole run: one barrier per iteration, no per-iteration spawns.
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

/// compute_pagerank(); `owned` (== &graph or null) is released after renumbering.
PageRankResult pagerank(const LinkGraph& graph, const PageRankOptions& options, LinkGraph* owned,
                        const Collective& processes) {
  assert(options.damping >= 0.0 && options.damping < 1.0 && options.tolerance > 0.0);
  PageRankResult result;
  const NodeId n = graph.node_count();
  if (n == 0) {
    result.converged = true;
    return result;
  }

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  PowerIteration it;
  it.n = n;
  it.damping = options.damping;
  it.graph = relabel(graph);
  if (owned != nullptr) {
    const LinkGraph released = std::move(*owned);  // frees the caller's graph here
  }
  start_iteration(it);

  const auto iterating = Clock::now();
  result.setup_seconds = std::chrono::duration<double>(iterating - start).count();
  if (options.max_iterations > 0) run_iterations(it, options, processes, result);

  result.iteration_seconds = std::chrono::duration<double>(Clock::now() - iterating).count();

  // Renormalise: the iteration preserves the sum 1 only up to rounding.
  const double sum = compensated_sum(it.x);
  result.scores.resize(n);
  for (NodeId r = 0; r < n; ++r) result.scores[it.graph.old_of_row[r]] = it.x[r] / sum;
  return result;
}

}  // namespace

PageRankResult compute_pagerank(const LinkGraph& graph, const PageRankOptions& options) {
  return pagerank(graph, options, nullptr, LocalCollective());
}

PageRankResult compute_pagerank(LinkGraph&& graph, const PageRankOptions& options) {
  return pagerank(graph, options, &graph, LocalCollective());
}

PageRankResult compute_pagerank(const LinkGraph& graph, const PageRankOptions& options, const Collective& processes) {
  return pagerank(graph, options, nullptr, processes);
}

}  // namespace canon::ranking
