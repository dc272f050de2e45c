/// @file minhash_detector.cpp
/// @brief MinhashDetector::find_clusters and similarity.
#include "dedup/minhash_detector.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "dedup/minhash.h"
#include "dedup/tokenizer.h"
#include "dedup/union_find.h"

namespace canon::dedup {

namespace {

/// Calls fn(i) for i in [0, n) on up to `threads` threads (0: all hardware threads), handing
/// out indices dynamically. fn must only write state owned by index i. Rethrows the first
/// exception after all threads have finished.
template <class Fn>
void parallel_for(std::size_t n, unsigned threads, const Fn& fn) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = std::min<std::size_t>(threads, n);
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto work = [&] {
    try {
      for (std::size_t i; (i = next.fetch_add(1)) < n;) fn(i);
    } catch (...) {
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      next = n;
    }
  };
  if (workers <= 1) {
    work();
  } else {
    std::vector<std::jthread> pool;
    for (std::size_t t = 0; t < workers; ++t) pool.emplace_back(work);
  }  // jthreads join here
  if (error) std::rethrow_exception(error);
}

}  // namespace

MinhashDetector::MinhashDetector(const DedupOptions& options) : options_(options) {
  assert(options.shingle_size >= 1 && options.num_hashes >= 1);
}

Clusters MinhashDetector::find_clusters(std::span<const DedupDocument> docs) {
  const auto n = static_cast<std::uint32_t>(docs.size());
  const MinHasher hasher(options_.num_hashes, options_.seed);
  shingles_.assign(n, {});
  std::vector<Sketch> sketches(n);
  parallel_for(n, options_.threads, [&](std::size_t i) {
    shingles_[i] = shingle_set(tokenize(docs[i].text), options_.shingle_size);
    if (!shingles_[i].empty()) sketches[i] = hasher.sketch(shingles_[i]);
  });

  // Documents without words take no part: they stay singletons.
  const auto skip = std::make_unique<bool[]>(n);
  for (std::uint32_t i = 0; i < n; ++i) skip[i] = shingles_[i].empty();
  const LshBanding banding = choose_banding(options_.num_hashes, options_.threshold);
  const auto candidates = lsh_candidates(sketches, banding, std::span(skip.get(), n));

  // LSH only proposes; every candidate is checked against the exact Jaccard of its shingles.
  std::vector<double> exact(candidates.size());
  parallel_for(candidates.size(), options_.threads, [&](std::size_t c) {
    exact[c] = jaccard(shingles_[candidates[c].first], shingles_[candidates[c].second]);
  });

  Clusters result;
  result.candidates_examined = candidates.size();
  UnionFind sets(n);
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (exact[c] < options_.threshold) continue;
    result.pairs.push_back({candidates[c].first, candidates[c].second, exact[c]});
    sets.unite(candidates[c].first, candidates[c].second);
  }
  result.cluster_of = sets.smallest_member_labels();
  return result;
}

double MinhashDetector::similarity(std::uint32_t a, std::uint32_t b) const {
  assert(a < shingles_.size() && b < shingles_.size());
  if (shingles_[a].empty() || shingles_[b].empty()) return 0.0;
  return jaccard(shingles_[a], shingles_[b]);
}

}  // namespace canon::dedup
