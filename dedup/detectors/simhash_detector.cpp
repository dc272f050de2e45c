/// @file simhash_detector.cpp
/// @brief simhash_fingerprint, simhash_join (Manku et al.'s permuted tables) and
/// SimhashDetector.
///
/// Simhash and the table search are written by hand: both are short, and no Debian package
/// provides them (xxHash supplies only the feature hashes).
#include "dedup/detectors/simhash_detector.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>

#include "dedup/sketches/tokenizer.h"

namespace canon::dedup {

std::uint64_t simhash_fingerprint(std::span<const TermCount> features, std::uint64_t seed) {
  const std::uint64_t key = mix64(seed);
  std::array<std::int64_t, 64> v{};
  for (const TermCount& f : features) {
    const std::uint64_t h = mix64(f.term ^ key);
    for (unsigned bit = 0; bit < 64; ++bit) {
      v[bit] += ((h >> bit) & 1) != 0 ? std::int64_t{f.count} : -std::int64_t{f.count};
    }
  }
  std::uint64_t fingerprint = 0;
  for (unsigned bit = 0; bit < 64; ++bit) {
    if (v[bit] > 0) fingerprint |= std::uint64_t{1} << bit;
  }
  return fingerprint;
}

std::vector<TermCount> simhash_features(std::span<const std::string> tokens, unsigned k) {
  assert(k >= 1);
  if (tokens.empty()) return {};
  if (tokens.size() < k) return {{hash_words(tokens), 1}};
  return ngram_counts(tokens, k);
}

JoinResult simhash_join(std::span<const std::optional<std::uint64_t>> fingerprints,
                        unsigned max_distance, unsigned threads) {
  assert(max_distance <= 63);
  const unsigned blocks = max_distance + 1;
  // Block b covers `width` bits from `offset`; the first 64 % blocks blocks are one bit wider.
  std::vector<std::uint64_t> masks(blocks);
  for (unsigned b = 0, offset = 0; b < blocks; ++b) {
    const unsigned width = 64 / blocks + (b < 64 % blocks ? 1 : 0);
    masks[b] = (width == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << width) - 1)) << offset;
    offset += width;
  }
  std::vector<std::uint32_t> present;
  for (std::uint32_t d = 0; d < fingerprints.size(); ++d) {
    if (fingerprints[d]) present.push_back(d);
  }

  std::vector<std::vector<SimilarPair>> found(blocks);
  std::vector<std::size_t> candidates(blocks, 0);
  parallel_for(blocks, threads, [&](std::size_t b, std::size_t) {
    // Table b: (block b of the fingerprint, document), sorted: the permuted table of Manku et
    // al. with block b leading, searched for equal leading blocks.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> table;
    table.reserve(present.size());
    for (const std::uint32_t d : present) table.emplace_back(*fingerprints[d] & masks[b], d);
    std::sort(table.begin(), table.end());
    for (std::size_t begin = 0, end = 0; begin < table.size(); begin = end) {
      while (end < table.size() && table[end].first == table[begin].first) ++end;
      for (std::size_t i = begin; i < end; ++i) {
        for (std::size_t j = i + 1; j < end; ++j) {
          const std::uint32_t u = table[i].second, w = table[j].second;
          const std::uint64_t diff = *fingerprints[u] ^ *fingerprints[w];
          // Examined in the first table where the pair agrees only.
          bool earlier = false;
          for (std::size_t c = 0; c < b && !earlier; ++c) earlier = (diff & masks[c]) == 0;
          if (earlier) continue;
          ++candidates[b];
          const int distance = std::popcount(diff);
          if (distance <= static_cast<int>(max_distance)) {
            found[b].push_back({std::min(u, w), std::max(u, w), 1.0 - distance / 64.0});
          }
        }
      }
    }
  });

  JoinResult result;
  for (unsigned b = 0; b < blocks; ++b) {
    result.candidates += candidates[b];
    result.pairs.insert(result.pairs.end(), found[b].begin(), found[b].end());
  }
  std::sort(result.pairs.begin(), result.pairs.end(),
            in_document_order);
  return result;
}

SimhashDetector::SimhashDetector(const DedupOptions& options) : options_(options) {
  assert(options.shingle_size >= 1 && options.simhash_max_distance <= 63);
}

void SimhashDetector::reset(std::uint32_t n) {
  fingerprints_.assign(n, std::nullopt);
  fingerprints_.shrink_to_fit();
}

void SimhashDetector::add(std::uint32_t i, const DedupDocument& doc) {
  assert(i < fingerprints_.size());
  const auto features = simhash_features(tokenize(doc.text), options_.shingle_size);
  if (!features.empty()) fingerprints_[i] = simhash_fingerprint(features, options_.seed);
}

Clusters SimhashDetector::find_clusters(const DocumentLoader&) {
  const auto n = static_cast<std::uint32_t>(fingerprints_.size());
  JoinResult join = simhash_join(fingerprints_, options_.simhash_max_distance, options_.threads);
  return clusters_from_pairs(n, std::move(join.pairs), join.candidates);
}

std::vector<Comparison> SimhashDetector::compare(
    std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs, const DocumentLoader&) {
  std::vector<Comparison> result;
  for (const auto& [a, b] : pairs) {
    assert(a < fingerprints_.size() && b < fingerprints_.size());
    if (!fingerprints_[a] || !fingerprints_[b]) {
      result.push_back({});
      continue;
    }
    const int distance = std::popcount(*fingerprints_[a] ^ *fingerprints_[b]);
    result.push_back({1.0 - distance / 64.0, distance <= static_cast<int>(options_.simhash_max_distance)});
  }
  return result;
}

std::size_t SimhashDetector::state_bytes_per_document() const {
  return sizeof(std::optional<std::uint64_t>);
}

}  // namespace canon::dedup
