/// @file progress.cpp
/// @brief Terminal progress line.
#include "common/progress.h"

#include <unistd.h>

#include <cstdio>

namespace canon {

Progress::Progress(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO) == 1) {}

Progress::~Progress() { finish(); }

void Progress::start(std::string stage, std::size_t total) {
  finish();
  stage_ = std::move(stage);
  total_ = total;
  done_ = 0;
  started_ = std::chrono::steady_clock::now();
  last_draw_ = {};
  draw(true);
}

void Progress::update(std::size_t done) {
  done_ = done;
  draw(false);
}

void Progress::finish() {
  if (!line_open_) return;
  draw(true);
  std::fputc('\n', stderr);
  line_open_ = false;
}

void Progress::draw(bool force) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  const double seconds = std::chrono::duration<double>(now - started_).count();
  const double rate = seconds > 0 ? static_cast<double>(done_) / seconds : 0.0;
  if (total_ > 0) {
    const double eta = rate > 0 ? static_cast<double>(total_ - std::min(done_, total_)) / rate : 0.0;
    std::fprintf(stderr, "\r\033[K%s: %zu/%zu (%.0f/s, ETA %.0fs)", stage_.c_str(), done_, total_,
                 rate, eta);
  } else {
    std::fprintf(stderr, "\r\033[K%s: %zu (%.0f/s)", stage_.c_str(), done_, rate);
  }
  std::fflush(stderr);
  line_open_ = true;
}

}  // namespace canon
