/// @file shingles.cpp
/// @brief shingle_set() and jaccard().
///
/// A shingle's hash is XXH3_64bits of its words joined by '\x1f' (unit separator). Words are
/// runs of Xapian word characters, which never include control characters, so distinct word
/// sequences give distinct byte strings; a too-short text is hashed the same way over all its
/// words, so it can equal only a too-short text with the same words.
#include "dedup/shingles.h"

#include <algorithm>
#include <cassert>

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

double jaccard(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) {
  std::size_t common = 0;
  // Raw pointers keep Debug builds (span iterators are not inlined there) fast enough.
  const std::uint64_t *i = a.data(), *i_end = i + a.size(), *j = b.data(), *j_end = j + b.size();
  while (i != i_end && j != j_end) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++common, ++i, ++j;
    }
  }
  const std::size_t all = a.size() + b.size() - common;
  return all == 0 ? 0.0 : static_cast<double>(common) / static_cast<double>(all);
}

}  // namespace canon::dedup
