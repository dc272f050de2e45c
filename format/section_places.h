/// @file section_places.h
/// @brief Where a page's sections are among its document's term positions, and their one text
/// form, the document data line `canon_sections` (docs/index-format.md, "Sections").
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

namespace canon::index_format {

/// Document data key of a page's sections (when it has any).
inline constexpr std::string_view kDataSections = "canon_sections";

/// A section of an indexed page: its heading's words are at term positions
/// [heading_start, body_start) of the document, its body's from body_start to the next
/// section's heading_start; the last one, without anchor, is where the main text ends. Search reads the
/// positions of the query's words to tell which sections hold them (query/sections.h).
struct SectionPlace {
  /// The id `PAGE#anchor` names; "" for a heading without one (it only ends the section before).
  std::string anchor;
  /// The heading's text as the page shows it ("" when anchor is "": never shown).
  std::string heading;
  Xapian::termpos heading_start = 0;
  Xapian::termpos body_start = 0;
};

/// The JSON array written as `canon_sections`: per section the array
/// [heading_start, body_start, anchor, heading], anchor and heading left out when empty.
std::string encode_sections(std::span<const SectionPlace> sections);

/// The sections in `json` (encode_sections' form). Text that is not a JSON array gives none, and
/// items of another shape are skipped, so a damaged line never fails a search.
std::vector<SectionPlace> decode_sections(std::string_view json);

}  // namespace canon::index_format
