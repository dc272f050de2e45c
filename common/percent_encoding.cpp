/// @file percent_encoding.cpp
/// @brief percent_encode(), percent_decode(), parse_query_string().
#include "common/percent_encoding.h"

#include <algorithm>

namespace canon {
namespace {

bool is_unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

bool is_path_char(unsigned char c) {
  return is_unreserved(c) || std::string_view("!$&'()*+,;=:@/").find(static_cast<char>(c)) != std::string_view::npos;
}

/// The value of hex digit `c`, or -1.
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string percent_encode(std::string_view text, KeepInUrl keep) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (keep == KeepInUrl::kUnreserved ? is_unreserved(c) : is_path_char(c)) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<QueryParameter> parse_query_string(std::string_view query_string) {
  std::vector<QueryParameter> parameters;
  while (!query_string.empty()) {
    const std::size_t end = std::min(query_string.find('&'), query_string.size());
    const std::string_view pair = query_string.substr(0, end);
    query_string.remove_prefix(std::min(end + 1, query_string.size()));
    if (pair.empty()) continue;
    const std::size_t equals = pair.find('=');
    if (equals == std::string_view::npos) {
      parameters.push_back({percent_decode(pair, true), std::string()});
    } else {
      parameters.push_back({percent_decode(pair.substr(0, equals), true), percent_decode(pair.substr(equals + 1), true)});
    }
  }
  return parameters;
}

}  // namespace canon
