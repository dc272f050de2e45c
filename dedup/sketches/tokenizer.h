/// @file tokenizer.h
/// @brief Words of a page's text for near-duplicate detection (Xapian's Unicode rules).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace canon::dedup {

/// Splits UTF-8 `text` into case-folded words: maximal runs of Xapian word characters
/// (Xapian::Unicode::is_wordchar), lowercased with Xapian::Unicode::tolower. Invalid UTF-8
/// bytes are treated as separators. Never throws.
std::vector<std::string> tokenize(std::string_view text);

/// The words of tokenize(), without a string per word: `joined` holds them separated by one
/// '\x1f' (a control character, never part of a word), `starts[i]` is where word i begins.
/// Words [i, j) joined by '\x1f' (the bytes shingle hashes are taken over) are the contiguous
/// range [starts[i], end(j - 1)) of `joined`. Reusing one JoinedWords keeps its buffers.
struct JoinedWords {
  std::string joined;
  std::vector<std::size_t> starts;

  std::size_t size() const { return starts.size(); }
  /// One past the last byte of word i. REQUIRES: i < size().
  std::size_t end(std::size_t i) const {
    return i + 1 < starts.size() ? starts[i + 1] - 1 : joined.size();
  }
  /// Words [first, first + count) joined by '\x1f'. REQUIRES: count >= 1, first + count <=
  /// size().
  std::string_view range(std::size_t first, std::size_t count) const {
    return std::string_view(joined).substr(starts[first], end(first + count - 1) - starts[first]);
  }
};

/// The same words as tokenize(text), into `out` (cleared first). ASCII bytes take a table
/// fast path (the same answers as Xapian's tables, tested); other characters go through
/// canon::decode_utf8 (Xapian's decoder). Never throws except std::bad_alloc.
void tokenize_joined(std::string_view text, JoinedWords& out);

}  // namespace canon::dedup
