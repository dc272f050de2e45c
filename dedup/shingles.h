/// @file shingles.h
/// @brief k-word shingles hashed to 64 bits (xxHash XXH3).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace canon::dedup {

/// A set of shingle hashes, sorted ascending, no repeats.
using ShingleSet = std::vector<std::uint64_t>;

/// The set of hashed k-word shingles of `tokens`.
/// A text with at least one but fewer than k tokens is too short for shingles: it gets a
/// single element, the hash of all its tokens, so it matches only a text with the same words.
/// No tokens gives the empty set. REQUIRES: k >= 1.
ShingleSet shingle_set(std::span<const std::string> tokens, unsigned k);

/// |a ∩ b| / |a ∪ b| of two sorted sets; 0 when both are empty.
double jaccard(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b);

}  // namespace canon::dedup
