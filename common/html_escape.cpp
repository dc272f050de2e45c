/// @file html_escape.cpp
/// @brief HTML escaping.
#include "common/html_escape.h"

namespace canon {
namespace {

bool is_dropped_control(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
}

}  // namespace

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (!is_dropped_control(static_cast<unsigned char>(c))) out += c;
    }
  }
  return out;
}

}  // namespace canon
