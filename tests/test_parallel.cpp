/// @file test_parallel.cpp
/// @brief parallel_for: every index exactly once, worker ids in range, errors surface; heaviest_first.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
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

TEST_CASE("heaviest_first: the most work first, equal work in index order") {
  struct Case {
    std::vector<std::uint64_t> work;
    std::vector<std::size_t> order;
  };
  const std::vector<Case> cases = {
      {{}, {}},
      {{5}, {0}},
      {{1, 3, 2}, {1, 2, 0}},
      {{2, 2, 9, 2}, {2, 0, 1, 3}},  // ties keep their order
      {{0, 0}, {0, 1}},
  };
  for (const Case& c : cases) {
    CHECK(canon::heaviest_first(c.work) == c.order);
  }
}
