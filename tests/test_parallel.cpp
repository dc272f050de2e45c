/// @file test_parallel.cpp
/// @brief parallel_for: every index exactly once, worker ids in range, errors surface.
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "common/parallel.h"

TEST_CASE("every index is visited exactly once, by a worker in range") {
  for (unsigned threads : {1u, 2u, 5u}) {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
      CAPTURE(threads);
      CAPTURE(n);
      std::vector<std::atomic<int>> visits(n);
      std::atomic<bool> worker_in_range{true};
      canon::parallel_for(n, threads, [&](std::size_t i, std::size_t worker) {
        ++visits[i];
        if (worker >= threads || worker >= n) worker_in_range = false;
      });
      for (std::size_t i = 0; i < n; ++i) CHECK(visits[i] == 1);
      CHECK(worker_in_range);
    }
  }
}

TEST_CASE("0 threads means all hardware threads, at least one") {
  CHECK(canon::resolve_thread_count(0) >= 1);
  CHECK(canon::resolve_thread_count(3) == 3);
}

TEST_CASE("the first exception is rethrown once every thread has stopped") {
  CHECK_THROWS_AS(canon::parallel_for(10000, 2,
                                      [](std::size_t i, std::size_t) {
                                        if (i == 50) throw std::runtime_error("bad page");
                                      }),
                  std::runtime_error);
  // On one thread the order is fixed: nothing after the failing index runs.
  int visited = 0;
  CHECK_THROWS_AS(canon::parallel_for(100, 1,
                                      [&](std::size_t i, std::size_t) {
                                        if (i == 10) throw std::logic_error("writer failed");
                                        ++visited;
                                      }),
                  std::logic_error);
  CHECK(visited == 10);
}
