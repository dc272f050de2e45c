/// @file utf8.h
/// @brief UTF-8 written once: decoding one character, validation, and cutting text at a
/// character boundary, for the extractor, the writer, search, `canon serve`, the tokenizer and
/// eval. Decoding is Xapian's (Xapian::Utf8Iterator, linked privately to canon_utf8).
#pragma once

#include <cstddef>
#include <string_view>

namespace canon {

/// One character read from UTF-8 text (decode_utf8).
struct Utf8Char {
  /// The code point; for an invalid byte, the byte's value (0x80-0xFF).
  char32_t code_point = 0;
  /// The bytes read: 1 to 4, and 1 for an invalid byte.
  std::size_t length = 1;
  /// False when the byte read begins no valid character: a byte that is not the start of a
  /// UTF-8 sequence, a truncated sequence, an overlong form, a surrogate (U+D800-U+DFFF) or a
  /// value above U+10FFFF (RFC 3629). The bytes after it are read on their own.
  bool valid = true;
};

/// The character that starts at `text[offset]`. Decoding is local to the sequence there, so
/// reading from any offset agrees with reading from the start. Thread-safe, never throws.
/// REQUIRES: offset < text.size().
Utf8Char decode_utf8(std::string_view text, std::size_t offset);

/// The offset of the first byte of `text` that begins no valid character (see Utf8Char::valid),
/// or std::string_view::npos when all of `text` is valid UTF-8. Never throws.
std::size_t first_invalid_utf8(std::string_view text);

/// True when all of `text` is valid UTF-8 (RFC 3629: no overlongs, surrogates or values above
/// U+10FFFF). Never throws.
inline bool is_valid_utf8(std::string_view text) {
  return first_invalid_utf8(text) == std::string_view::npos;
}

/// The start of the character `offset` is in: `offset` moved back over UTF-8 continuation bytes
/// (10xxxxxx), stopping at 0; `offset` itself when it is at or past the end of `text`. On
/// invalid UTF-8 it stops at the first byte that is not a continuation byte. Never throws.
std::size_t utf8_char_start(std::string_view text, std::size_t offset);

/// The longest prefix of `text` of at most `max_bytes` bytes that does not end inside a
/// character: `text` itself when it fits, else cut at utf8_char_start(text, max_bytes).
/// Never throws.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes);

}  // namespace canon
