/// @file shingles.h
/// @brief k-word shingles hashed to 64 bits (xxHash XXH3).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dedup/sketches/tokenizer.h"

namespace canon::dedup {

/// A set of shingle hashes, sorted ascending, no repeats.
using ShingleSet = std::vector<std::uint64_t>;

/// The set of hashed k-word shingles of `tokens`.
/// A text with at least one but fewer than k tokens is too short for shingles: it gets a
/// single element, the hash of all its tokens, so it matches only a text with the same words.
/// No tokens gives the empty set. REQUIRES: k >= 1.
ShingleSet shingle_set(std::span<const std::string> tokens, unsigned k);

/// The same set as shingle_set(tokenize(text), k) from tokenize_joined(text, words), into `out`
/// (its buffer reused): each k-word window is a contiguous range of words.joined, hashed in
/// place. REQUIRES: k >= 1.
void shingle_set(const JoinedWords& words, unsigned k, ShingleSet& out);

/// The hashes shingle_set(words, k, out) is made of, in text order, repeats kept (no sort):
/// for consumers that do not need the sorted set (MinHash ignores order and repeats).
/// REQUIRES: k >= 1.
void shingle_hashes(const JoinedWords& words, unsigned k, std::vector<std::uint64_t>& out);

/// The number of distinct values in `values` (any order), without sorting: an open-addressing
/// table in `scratch` (reused). Equals the size of the sorted, unique set.
std::size_t count_distinct(std::span<const std::uint64_t> values,
                           std::vector<std::uint64_t>& scratch);

/// hash_words() (detector_support.h) of all the words: XXH3_64bits of words.joined.
std::uint64_t hash_all_words(const JoinedWords& words);

/// |a ∩ b| / |a ∪ b| of two sorted sets; 0 when both are empty.
double jaccard(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b);

}  // namespace canon::dedup
