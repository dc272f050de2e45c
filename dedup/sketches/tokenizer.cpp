/// @file tokenizer.cpp
/// @brief tokenize(): Xapian's Unicode word rules, lowercased; invalid UTF-8 separates words.
#include "dedup/sketches/tokenizer.h"

#include <algorithm>
#include <array>

#include <xapian.h>

#include "common/utf8.h"

namespace canon::dedup {

namespace {

/// For an ASCII byte: its lowercase form when it is a word character (Xapian: letters,
/// digits and connector punctuation, which in ASCII is only '_'), else 0.
constexpr std::array<char, 128> kAsciiWord = [] {
  std::array<char, 128> table{};
  for (int c = 0; c < 128; ++c) {
    if (c >= 'a' && c <= 'z') table[c] = static_cast<char>(c);
    if (c >= 'A' && c <= 'Z') table[c] = static_cast<char>(c - 'A' + 'a');
    if (c >= '0' && c <= '9') table[c] = static_cast<char>(c);
    if (c == '_') table[c] = '_';
  }
  return table;
}();

}  // namespace

// The output is written through a raw pointer into `joined`, sized for the worst case of the
// ASCII path (never longer than the input: a lowercase letter per letter, one separator per run
// of separators) and grown before each non-ASCII character (lowercasing may lengthen it).
void tokenize_joined(std::string_view text, JoinedWords& out) {
  out.starts.clear();
  std::string& joined = out.joined;
  joined.resize(text.size() + 8);
  char* dst = joined.data();
  bool in_word = false;
  const char* const data = text.data();
  const std::size_t size = text.size();
  const auto start_word = [&] {
    if (in_word) return;
    if (!out.starts.empty()) *dst++ = '\x1f';
    out.starts.push_back(static_cast<std::size_t>(dst - joined.data()));
    in_word = true;
  };
  for (std::size_t pos = 0; pos < size;) {
    const auto byte = static_cast<unsigned char>(data[pos]);
    if (byte < 0x80) {
      char lower = kAsciiWord[byte];
      if (lower == 0) {
        in_word = false;
        ++pos;
        continue;
      }
      // A run of ASCII word characters in one tight loop: one mispredicted branch per run.
      start_word();
      do {
        *dst++ = lower;
        ++pos;
      } while (pos < size && static_cast<unsigned char>(data[pos]) < 0x80 &&
               (lower = kAsciiWord[static_cast<unsigned char>(data[pos])]) != 0);
      continue;
    }
    const Utf8Char decoded = decode_utf8(text, pos);
    const unsigned ch = decoded.code_point;
    pos += decoded.length;
    if (decoded.valid && Xapian::Unicode::is_wordchar(ch)) {
      const std::size_t used = static_cast<std::size_t>(dst - joined.data());
      start_word();
      char utf8[4];
      const unsigned n = Xapian::Unicode::to_utf8(Xapian::Unicode::tolower(ch), utf8);
      // Room for the separator, this character and the rest of the text at one byte each.
      const std::size_t need = used + 1 + n + (size - pos) + 8;
      if (joined.size() < need) {
        const std::size_t at = static_cast<std::size_t>(dst - joined.data());
        joined.resize(std::max(need, 2 * joined.size()));
        dst = joined.data() + at;
      }
      for (unsigned b = 0; b < n; ++b) *dst++ = utf8[b];
    } else {
      in_word = false;
    }
  }
  joined.resize(static_cast<std::size_t>(dst - joined.data()));
}

std::vector<std::string> tokenize(std::string_view text) {
  JoinedWords words;
  tokenize_joined(text, words);
  std::vector<std::string> result;
  result.reserve(words.size());
  for (std::size_t i = 0; i < words.size(); ++i) result.emplace_back(words.range(i, 1));
  return result;
}

}  // namespace canon::dedup
