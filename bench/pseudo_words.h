/// @file pseudo_words.h
/// @brief Pronounceable pseudo-words for the generated texts of the benchmarks (gen_site and
/// dedup_throughput): one generator, so both draw their words the same way.
#pragma once

#include <cstdint>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace canon::bench {

/// `size` words for `seed`; frequent (low-numbered) words are short, as in natural language:
/// word i has one syllable, one more past `longer_after`, one more past `longest_after`, and
/// at random one more. Words may repeat.
inline std::vector<std::string> pseudo_words(std::uint64_t size, std::uint64_t seed, std::uint64_t longer_after,
                                             std::uint64_t longest_after) {
  static const char* kOnsets[] = {"b", "br", "c", "ch", "d", "f", "g", "gr", "h", "j", "k", "l", "m",
                                  "n", "p", "pl", "r", "s", "sh", "st", "t", "tr", "v", "w", "z"};
  static const char* kVowels[] = {"a", "e", "i", "o", "u", "ai", "ea", "ou"};
  static const char* kCodas[] = {"", "n", "r", "s", "t", "l", "nd", "st", "m"};
  std::mt19937_64 rng(seed ^ 0x766f636162756c61ULL);
  std::vector<std::string> words;
  words.reserve(size);
  for (std::uint64_t i = 0; i < size; ++i) {
    const unsigned syllables = 1 + (i > longer_after) + (i > longest_after) + static_cast<unsigned>(rng() % 2);
    std::string word;
    for (unsigned s = 0; s < syllables; ++s) {
      word += kOnsets[rng() % std::size(kOnsets)];
      word += kVowels[rng() % std::size(kVowels)];
      word += kCodas[rng() % std::size(kCodas)];
    }
    words.push_back(std::move(word));
  }
  return words;
}

}  // namespace canon::bench
