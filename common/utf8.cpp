/// @file utf8.cpp
/// @brief UTF-8 on top of Xapian's decoder (Xapian::Utf8Iterator), which rejects truncated
/// sequences, overlongs and values above U+10FFFF but not surrogates.
#include "common/utf8.h"

#include <xapian.h>

namespace canon {
namespace {

bool is_continuation_byte(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }

bool is_surrogate(char32_t c) { return c >= 0xD800 && c <= 0xDFFF; }

}  // namespace

Utf8Char decode_utf8(std::string_view text, std::size_t offset) {
  const auto byte = static_cast<unsigned char>(text[offset]);
  if (byte < 0x80) return {byte, 1, true};
  Xapian::Utf8Iterator it;  // then assign(): GCC cannot see the constructor set every member
  it.assign(text.data() + offset, text.size() - offset);
  const char32_t c = *it;
  const std::size_t left = it.left();
  ++it;
  const std::size_t length = left - it.left();
  // Utf8Iterator returns each byte of an invalid sequence as the code point of the same value
  // (0x80-0xFF); a valid encoding of those takes two bytes, so a one-byte step tells them apart.
  if (length == 1 || is_surrogate(c)) return {byte, 1, false};
  return {c, length, true};
}

std::size_t first_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const Utf8Char c = decode_utf8(text, i);
    if (!c.valid) return i;
    i += c.length;
  }
  return std::string_view::npos;
}

// Hand-written: Xapian's iterator only reads forwards, and this is one loop over a bit test.
std::size_t utf8_char_start(std::string_view text, std::size_t offset) {
  while (offset > 0 && offset < text.size() && is_continuation_byte(text[offset])) --offset;
  return offset;
}

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  return text.substr(0, utf8_char_start(text, max_bytes));
}

}  // namespace canon
