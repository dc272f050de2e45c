/// @file parallel.h
/// @brief The one parallel loop of the pipeline stages: indices handed out to worker threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <numeric>
#include <span>
#include <thread>
#include <vector>

namespace canon {

/// The number of worker threads meant by `threads` (0: all hardware threads), at least 1.
inline unsigned resolve_thread_count(unsigned threads) {
  return threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
}

/// The number of threads parallel_for uses for `n` items: min(resolve_thread_count(threads), n),
/// at least 1 (so per-worker scratch state can be sized with it).
inline std::size_t worker_count(std::size_t n, unsigned threads) {
  return std::max<std::size_t>(1, std::min<std::size_t>(resolve_thread_count(threads), n));
}

/// The indices of `work` from the most work to the least, equal work in index order: the order
/// to hand items to parallel_for in, so that the threads end together (a heavy item taken last
/// keeps one thread busy while the others wait).
inline std::vector<std::size_t> heaviest_first(std::span<const std::uint64_t> work) {
  std::vector<std::size_t> order(work.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
  return order;
}

/// Calls fn(i, worker) for every i in [0, n) on worker_count(n, threads) threads (the calling
/// thread is one of them), handing out indices in increasing order as threads
/// become free; `worker` (< the thread count) lets fn use per-thread scratch state. fn must
/// only write state owned by index i or by its worker. If fn throws, no new index is handed
/// out, the threads finish what they started and the first exception is rethrown.
template <class Fn>
void parallel_for(std::size_t n, unsigned threads, const Fn& fn) {
  const std::size_t workers = worker_count(n, threads);
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto work = [&](std::size_t worker) {
    try {
      for (std::size_t i; (i = next.fetch_add(1)) < n;) fn(i, worker);
    } catch (...) {
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      next = n;
    }
  };
  {
    std::vector<std::jthread> pool;
    for (std::size_t t = 1; t < workers; ++t) pool.emplace_back(work, t);
    work(0);
  }  // the other threads are joined here
  if (error) std::rethrow_exception(error);
}

}  // namespace canon
