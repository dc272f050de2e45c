/// @file progress.h
/// @brief Progress lines for long work: shown on a terminal, silent when stderr is piped.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace canon {

/// Reports "stage: done/total (rate/s, ETA)" on one rewritten stderr line.
/// Silent when stderr is not a terminal or when constructed with enabled = false.
/// Not thread-safe: call update() from one thread.
class Progress {
public:
  /// `enabled` is anded with "stderr is a terminal".
  explicit Progress(bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Starts a new stage with `total` units of work (0 when unknown).
  void start(std::string stage, std::size_t total);
  /// Records that `done` units of the current stage are complete; redraws at most ~10 times/s.
  void update(std::size_t done);
  /// Ends the current stage's line.
  void finish();

  bool enabled() const { return enabled_; }

private:
  void draw(bool force);
  bool enabled_;
  bool line_open_ = false;
  std::string stage_;
  std::size_t total_ = 0;
  std::size_t done_ = 0;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace canon
