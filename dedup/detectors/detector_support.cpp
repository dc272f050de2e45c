/// @file detector_support.cpp
/// @brief hash_words, ngram_counts, mix64 and clusters_from_pairs.
#include "dedup/detectors/detector_support.h"

#include <cassert>
#include <limits>

#include <xxhash.h>

#include "dedup/sketches/tokenizer.h"
#include "dedup/sketches/union_find.h"

namespace canon::dedup {

std::uint64_t hash_words(std::span<const std::string> words) {
  thread_local std::string joined;  // reused: one allocation per thread, not per n-gram
  joined.clear();
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) joined += '\x1f';
    joined += words[i];
  }
  return XXH3_64bits(joined.data(), joined.size());
}

std::vector<TermCount> ngram_counts(std::span<const std::string> tokens, unsigned k) {
  assert(k >= 1);
  if (tokens.size() < k) return {};
  std::vector<std::uint64_t> hashes;
  hashes.reserve(tokens.size() - k + 1);
  for (std::size_t i = 0; i + k <= tokens.size(); ++i) {
    hashes.push_back(hash_words(tokens.subspan(i, k)));
  }
  std::sort(hashes.begin(), hashes.end());
  std::vector<TermCount> counts;
  for (const std::uint64_t h : hashes) {
    if (counts.empty() || counts.back().term != h) {
      counts.push_back({h, 1});
    } else {
      ++counts.back().count;
    }
  }
  return counts;
}

// One sort of every (token, set, position) instead of a lookup per token: the lookups miss
// the cache on sites with millions of shingles, the sort streams.
std::vector<std::vector<std::uint32_t>> frequency_ranks(
    std::span<const std::vector<std::uint64_t>> sets) {
  struct Entry {
    std::uint64_t token;
    std::uint32_t set;
    std::uint32_t position;
  };
  std::vector<Entry> entries;
  std::vector<std::vector<std::uint32_t>> ranks(sets.size());
  for (std::uint32_t s = 0; s < sets.size(); ++s) {
    ranks[s].resize(sets[s].size());
    for (std::uint32_t i = 0; i < sets[s].size(); ++i) entries.push_back({sets[s][i], s, i});
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.token < b.token; });
  // Runs of equal tokens: (number of sets holding it, token, first entry of the run).
  struct Run {
    std::size_t frequency;
    std::uint64_t token;
    std::size_t begin;
  };
  std::vector<Run> runs;
  for (std::size_t i = 0, j = 0; i < entries.size(); i = j) {
    while (j < entries.size() && entries[j].token == entries[i].token) ++j;
    runs.push_back({j - i, entries[i].token, i});
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
    return a.frequency != b.frequency ? a.frequency < b.frequency : a.token < b.token;
  });
  for (std::uint32_t rank = 0; rank < runs.size(); ++rank) {
    for (std::size_t e = runs[rank].begin; e < runs[rank].begin + runs[rank].frequency; ++e) {
      ranks[entries[e].set][entries[e].position] = rank;
    }
  }
  return ranks;
}

std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

Clusters clusters_from_pairs(std::uint32_t n, std::vector<SimilarPair> pairs,
                             std::size_t candidates_examined) {
  std::sort(pairs.begin(), pairs.end(), in_document_order);
  UnionFind sets(n);
  for (const SimilarPair& p : pairs) {
    assert(p.a < p.b && p.b < n);
    sets.unite(p.a, p.b);
  }
  Clusters result;
  result.cluster_of = sets.smallest_member_labels();
  result.pairs = std::move(pairs);
  result.candidates_examined = candidates_examined;
  return result;
}

}  // namespace canon::dedup
