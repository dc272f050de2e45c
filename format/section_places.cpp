/// @file section_places.cpp
/// @brief `canon_sections`' encoder and decoder.
#include "format/section_places.h"

#include <charconv>

namespace canon::index_format {
namespace {

constexpr char kEntryEnd = '\x1e';  // ASCII record separator
constexpr char kFieldEnd = '\x1f';  // ASCII unit separator

/// `text` with the two separators (and newlines, which end a data line) made spaces.
void append_field(std::string& out, std::string_view text) {
  for (char c : text) out += (c == kEntryEnd || c == kFieldEnd || c == '\n') ? ' ' : c;
}

}  // namespace

std::string encode_sections(std::span<const SectionPlace> sections) {
  std::string out;
  for (const SectionPlace& section : sections) {
    if (!out.empty()) out += kEntryEnd;
    out += std::to_string(section.heading_start) + " " + std::to_string(section.body_start);
    if (section.anchor.empty()) continue;
    out += kFieldEnd;
    append_field(out, section.anchor);
    out += kFieldEnd;
    append_field(out, section.heading);
  }
  return out;
}

std::vector<SectionView> decode_sections(std::string_view line) {
  std::vector<SectionView> sections;
  while (!line.empty()) {
    const std::size_t end = std::min(line.find(kEntryEnd), line.size());
    const std::string_view entry = line.substr(0, end);
    line.remove_prefix(std::min(end + 1, line.size()));
    SectionView section;
    const char* const last = entry.data() + entry.size();
    auto [after_start, bad_start] = std::from_chars(entry.data(), last, section.heading_start);
    if (bad_start != std::errc() || after_start == last || *after_start != ' ') continue;
    auto [after_body, bad_body] = std::from_chars(after_start + 1, last, section.body_start);
    if (bad_body != std::errc()) continue;
    std::string_view rest(after_body, static_cast<std::size_t>(last - after_body));
    if (!rest.empty()) {
      const std::size_t split = rest.find(kFieldEnd, 1);
      if (rest.front() != kFieldEnd || split == std::string_view::npos) continue;
      section.anchor = rest.substr(1, split - 1);
      section.heading = rest.substr(split + 1);
    }
    sections.push_back(section);
  }
  return sections;
}

}  // namespace canon::index_format
