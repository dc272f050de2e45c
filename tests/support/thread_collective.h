/// @file thread_collective.h
/// @brief P "processes" of a partitioned run simulated by P threads of one test: a Collective
/// per thread over shared memory and a barrier, so that the partitioned code paths run without
/// MPI (the MPI transport itself: tests/test_partitioned_mpi.cpp under mpirun).
#pragma once

#include <barrier>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/collective.h"

namespace canon::testing {

/// What the threads of one simulated run share.
struct SharedRun {
  explicit SharedRun(unsigned processes) : size(processes), sync(processes) {}
  unsigned size;
  std::barrier<> sync;
  std::vector<double> buffer;
  std::vector<std::uint32_t> minimum;
  std::vector<std::string> bytes;
  /// all_to_all_bytes: exchange[from][to].
  std::vector<std::vector<std::string>> exchange;
  std::mutex mutex;
};

class ThreadCollective final : public Collective {
public:
  ThreadCollective(SharedRun& run, unsigned rank) : run_(run), rank_(rank) {}
  unsigned rank() const override { return rank_; }
  unsigned size() const override { return run_.size; }
  void all_gather(std::span<const double> mine, std::span<double> all,
                  std::span<const std::size_t> counts) const override {
    std::size_t offset = 0;
    for (unsigned p = 0; p < rank_; ++p) offset += counts[p];
    if (rank_ == 0) run_.buffer.assign(all.size(), 0.0);
    run_.sync.arrive_and_wait();  // the buffer is sized
    std::copy(mine.begin(), mine.end(), run_.buffer.begin() + static_cast<std::ptrdiff_t>(offset));
    run_.sync.arrive_and_wait();  // every part is in
    std::copy(run_.buffer.begin(), run_.buffer.end(), all.begin());
    run_.sync.arrive_and_wait();  // every process has read it
  }
  void all_reduce_min(std::span<std::uint32_t> values) const override {
    if (rank_ == 0) run_.minimum.assign(values.size(), UINT32_MAX);
    run_.sync.arrive_and_wait();
    {
      std::lock_guard lock(run_.mutex);
      for (std::size_t i = 0; i < values.size(); ++i) run_.minimum[i] = std::min(run_.minimum[i], values[i]);
    }
    run_.sync.arrive_and_wait();
    std::copy(run_.minimum.begin(), run_.minimum.end(), values.begin());
    run_.sync.arrive_and_wait();
  }

  std::vector<std::string> all_gather_bytes(std::string_view mine) const override {
    if (rank_ == 0) run_.bytes.assign(run_.size, std::string());
    run_.sync.arrive_and_wait();
    run_.bytes[rank_] = std::string(mine);
    run_.sync.arrive_and_wait();
    std::vector<std::string> all = run_.bytes;
    run_.sync.arrive_and_wait();
    return all;
  }

  std::vector<std::string> all_to_all_bytes(const std::vector<std::string>& to_each) const override {
    if (rank_ == 0) run_.exchange.assign(run_.size, std::vector<std::string>(run_.size));
    run_.sync.arrive_and_wait();
    run_.exchange[rank_] = to_each;
    run_.sync.arrive_and_wait();
    std::vector<std::string> from_each(run_.size);
    for (unsigned p = 0; p < run_.size; ++p) from_each[p] = run_.exchange[p][rank_];
    run_.sync.arrive_and_wait();
    return from_each;
  }

private:
  SharedRun& run_;
  unsigned rank_;
};

/// Runs `body(collective)` on `processes` threads, one simulated process each; returns when all
/// have finished.
inline void run_processes(unsigned processes, const std::function<void(const Collective&)>& body) {
  SharedRun run(processes);
  std::vector<std::jthread> threads;
  for (unsigned p = 0; p < processes; ++p) {
    threads.emplace_back([&run, &body, p] { body(ThreadCollective(run, p)); });
  }
}

}  // namespace canon::testing
