/// @file shingles.cpp
/// @brief shingle_set() and jaccard().
///
/// A shingle's hash is XXH3_64bits of its words joined by '\x1f' (unit separator). Words are
/// runs of Xapian word characters, which never include control characters, so distinct word
/// sequences give distinct byte strings; a too-short text is hashed the same way over all its
/// words, so it can equal only a too-short text with the same words.
#include "dedup/sketches/shingles.h"

#include "dedup/sketches/sorted_sets.h"

#include <algorithm>
#include <cassert>

// Inlined XXH3: a shingle is ~20 bytes, where the call into the shared library costs as much as
// the hash; the values are the library's.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace canon::dedup {

namespace {

/// `joined` is scratch space, reused between calls.
std::uint64_t hash_words(std::span<const std::string> words, std::string& joined) {
  joined.clear();
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) joined += '\x1f';
    joined += words[i];
  }
  return XXH3_64bits(joined.data(), joined.size());
}

}  // namespace

ShingleSet shingle_set(std::span<const std::string> tokens, unsigned k) {
  assert(k >= 1);
  if (tokens.empty()) return {};
  std::string joined;
  if (tokens.size() < k) return {hash_words(tokens, joined)};
  ShingleSet set;
  set.reserve(tokens.size() - k + 1);
  for (std::size_t i = 0; i + k <= tokens.size(); ++i) {
    set.push_back(hash_words(tokens.subspan(i, k), joined));
  }
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  return set;
}

void shingle_hashes(const JoinedWords& words, unsigned k, std::vector<std::uint64_t>& out) {
  assert(k >= 1);
  out.clear();
  if (words.size() == 0) return;
  if (words.size() < k) {
    out.push_back(hash_all_words(words));
    return;
  }
  const std::size_t windows = words.size() - k + 1;
  out.resize(windows);
  const char* joined = words.joined.data();
  for (std::size_t i = 0; i < windows; ++i) {
    const std::size_t begin = words.starts[i];
    out[i] = XXH3_64bits(joined + begin, words.end(i + k - 1) - begin);
  }
}

void shingle_set(const JoinedWords& words, unsigned k, ShingleSet& out) {
  shingle_hashes(words, k, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// Linear probing at a load factor <= 1/2, slots chosen by Fibonacci hashing (any values, not
// only uniform ones, spread); 0 marks an empty slot, so the value 0 is counted apart.
std::size_t count_distinct(std::span<const std::uint64_t> values,
                           std::vector<std::uint64_t>& scratch) {
  unsigned bits = 4;
  while ((std::size_t{1} << bits) < 2 * values.size()) ++bits;
  const std::size_t slots = std::size_t{1} << bits;
  scratch.assign(slots, 0);
  const std::size_t mask = slots - 1;
  std::size_t distinct = 0;
  bool zero = false;
  for (const std::uint64_t v : values) {
    if (v == 0) {
      zero = true;
      continue;
    }
    for (std::size_t s = (v * 0x9e3779b97f4a7c15ULL) >> (64 - bits);; s = (s + 1) & mask) {
      if (scratch[s] == v) break;
      if (scratch[s] == 0) {
        scratch[s] = v;
        ++distinct;
        break;
      }
    }
  }
  return distinct + zero;
}

std::uint64_t hash_all_words(const JoinedWords& words) {
  return XXH3_64bits(words.joined.data(), words.joined.size());
}

double jaccard(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) {
  const std::size_t common = intersection_size(a, b);
  const std::size_t all = a.size() + b.size() - common;
  return all == 0 ? 0.0 : static_cast<double>(common) / static_cast<double>(all);
}

}  // namespace canon::dedup
