/// @file collective.h
/// @brief How the processes of a partitioned build exchange data: the collective operations the
/// stages need, behind one interface, so that a stage is the same code in one process
/// (LocalCollective: one part, nothing to exchange) and over MPI (mpi/mpi_collective.h, Open MPI
/// through Boost.MPI). docs/partitioned-build.md.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace canon {

/// The processes of a run, numbered 0 .. size() - 1. Every process makes the same calls in the
/// same order (a collective call returns once every process has made it). Calls come from one
/// thread at a time, not always the same one. Implementations are not thread-safe.
class Collective {
public:
  virtual ~Collective() = default;
  /// This process's number.
  virtual unsigned rank() const = 0;
  /// The number of processes.
  virtual unsigned size() const = 0;
  /// Every process gives `mine`; every process's `all` receives all of them in rank order:
  /// process p's values at offset counts[0] + ... + counts[p - 1]. The result is the same on
  /// every process, bit for bit. REQUIRES: counts.size() == size(), mine.size() ==
  /// counts[rank()], all.size() == the sum of counts, `mine` and `all` do not overlap.
  virtual void all_gather(std::span<const double> mine, std::span<double> all,
                          std::span<const std::size_t> counts) const = 0;
  /// Every process gives `values` (the same length on every process); each element becomes the
  /// smallest of that element over all processes, on every process.
  virtual void all_reduce_min(std::span<std::uint32_t> values) const = 0;
  /// Every process gives `mine` (any bytes, any length); every process receives all of them, by
  /// rank. Also a barrier: no process returns before every process has called it.
  virtual std::vector<std::string> all_gather_bytes(std::string_view mine) const = 0;
  /// Every process gives `to_each`, the bytes for each process (its own included), and receives
  /// what each process gave it: the result's element p is process p's to_each[rank()]. Also a
  /// barrier. REQUIRES: to_each.size() == size().
  virtual std::vector<std::string> all_to_all_bytes(const std::vector<std::string>& to_each) const = 0;
};

/// Another Collective, with the bytes this process sent and received through it counted (the
/// payloads: what each call gives and what it receives from the other processes).
class MeteredCollective final : public Collective {
public:
  explicit MeteredCollective(const Collective& processes) : processes_(processes) {}
  unsigned rank() const override { return processes_.rank(); }
  unsigned size() const override { return processes_.size(); }
  void all_gather(std::span<const double> mine, std::span<double> all,
                  std::span<const std::size_t> counts) const override {
    processes_.all_gather(mine, all, counts);
    sent_ += mine.size_bytes();
    received_ += all.size_bytes() - mine.size_bytes();
  }
  void all_reduce_min(std::span<std::uint32_t> values) const override {
    processes_.all_reduce_min(values);
    sent_ += values.size_bytes();
    received_ += values.size_bytes();
  }
  std::vector<std::string> all_gather_bytes(std::string_view mine) const override {
    std::vector<std::string> all = processes_.all_gather_bytes(mine);
    sent_ += mine.size();
    for (unsigned p = 0; p < all.size(); ++p) received_ += p == rank() ? 0 : all[p].size();
    return all;
  }
  std::vector<std::string> all_to_all_bytes(const std::vector<std::string>& to_each) const override {
    std::vector<std::string> from_each = processes_.all_to_all_bytes(to_each);
    for (unsigned p = 0; p < size(); ++p) {
      if (p == rank()) continue;
      sent_ += to_each[p].size();
      received_ += from_each[p].size();
    }
    return from_each;
  }
  /// The bytes sent and received since the last call (or since it was made).
  std::pair<std::uint64_t, std::uint64_t> take() const {
    const std::pair<std::uint64_t, std::uint64_t> counted{sent_, received_};
    sent_ = received_ = 0;
    return counted;
  }

private:
  const Collective& processes_;
  mutable std::uint64_t sent_ = 0, received_ = 0;
};

/// The one process of a run that is not partitioned.
class LocalCollective final : public Collective {
public:
  unsigned rank() const override { return 0; }
  unsigned size() const override { return 1; }
  void all_gather(std::span<const double> mine, std::span<double> all, std::span<const std::size_t>) const override {
    std::copy(mine.begin(), mine.end(), all.begin());
  }
  void all_reduce_min(std::span<std::uint32_t>) const override {}
  std::vector<std::string> all_gather_bytes(std::string_view mine) const override { return {std::string(mine)}; }
  std::vector<std::string> all_to_all_bytes(const std::vector<std::string>& to_each) const override { return to_each; }
};

}  // namespace canon
