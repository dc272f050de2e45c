/// @file section_places.cpp
/// @brief `canon_sections`' JSON encoder and decoder.
#include "format/section_places.h"

#include <nlohmann/json.hpp>

namespace canon::index_format {

std::string encode_sections(std::span<const SectionPlace> sections) {
  nlohmann::json out = nlohmann::json::array();
  for (const SectionPlace& section : sections) {
    nlohmann::json item = {section.heading_start, section.body_start};
    if (!section.anchor.empty()) {
      item.push_back(section.anchor);
      item.push_back(section.heading);
    }
    out.push_back(std::move(item));
  }
  // Invalid UTF-8 (a cut could split a character) is replaced, never thrown on.
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<SectionPlace> decode_sections(std::string_view json) {
  std::vector<SectionPlace> sections;
  const auto parsed = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_array()) return sections;
  for (const auto& item : parsed) {
    if (!item.is_array() || (item.size() != 2 && item.size() != 4)) continue;
    if (!item[0].is_number_unsigned() || !item[1].is_number_unsigned()) continue;
    SectionPlace section;
    section.heading_start = item[0].get<Xapian::termpos>();
    section.body_start = item[1].get<Xapian::termpos>();
    if (item.size() == 4) {
      if (!item[2].is_string() || !item[3].is_string()) continue;
      section.anchor = item[2].get<std::string>();
      section.heading = item[3].get<std::string>();
    }
    sections.push_back(std::move(section));
  }
  return sections;
}

}  // namespace canon::index_format
