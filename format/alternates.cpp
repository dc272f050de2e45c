/// @file alternates.cpp
/// @brief `canon_alternates`' JSON encoder and decoder.
#include "format/alternates.h"

#include <nlohmann/json.hpp>

namespace canon::index_format {

std::string encode_alternates(std::span<const Alternate> alternates) {
  nlohmann::json array = nlohmann::json::array();
  for (const Alternate& alt : alternates) {
    array.push_back({{"url", alt.url}, {"title", alt.title}, {"similarity", alt.similarity}});
  }
  return array.dump();
}

std::vector<Alternate> decode_alternates(std::string_view json) {
  std::vector<Alternate> out;
  const auto parsed = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_array()) return out;
  for (const auto& item : parsed) {
    if (!item.is_object()) continue;
    out.push_back({item.value("url", ""), item.value("title", ""), item.value("similarity", 0.0)});
  }
  return out;
}

}  // namespace canon::index_format
