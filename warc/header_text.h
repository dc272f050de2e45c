/// @file header_text.h
/// @brief ASCII text helpers shared by the WARC and HTTP header parsers: case-insensitive
/// comparison, trimming, and bytes quoted for error messages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace canon::warc::text {

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

inline char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// True when `a` and `b` are equal ignoring ASCII case.
inline bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

/// `s` without leading and trailing spaces, tabs and carriage returns.
inline std::string_view trim(std::string_view s) {
  const auto skip = [](char c) { return is_blank(c) || c == '\r'; };
  while (!s.empty() && skip(s.front())) s.remove_prefix(1);
  while (!s.empty() && skip(s.back())) s.remove_suffix(1);
  return s;
}

/// At most `max` bytes of `bytes` for an error message, in double quotes: printable ASCII as
/// it is, other bytes as \xHH, "..." after when there was more.
inline std::string quoted_excerpt(std::string_view bytes, std::size_t max = 40) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (std::size_t i = 0; i < bytes.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  out += '"';
  if (bytes.size() > max) out += "...";
  return out;
}

}  // namespace canon::warc::text
