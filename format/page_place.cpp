/// @file page_place.cpp
/// @brief `canon_place`'s JSON encoder and decoder.
#include "format/page_place.h"

#include <nlohmann/json.hpp>

namespace canon::index_format {

std::string encode_place(const std::vector<std::string>& crumbs) {
  // Invalid UTF-8 (a page's bytes are checked, but a cut could split a character) is replaced,
  // never thrown on.
  return nlohmann::json(crumbs).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<std::string> decode_place(std::string_view json) {
  std::vector<std::string> crumbs;
  const auto parsed = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_array()) return crumbs;
  for (const auto& item : parsed) {
    if (item.is_string()) crumbs.push_back(item.get<std::string>());
  }
  return crumbs;
}

}  // namespace canon::index_format
