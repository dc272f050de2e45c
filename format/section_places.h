/// @file section_places.h
/// @brief Where a page's sections are among its document's term positions, and their one text
/// form, the document data line `canon_sections` (docs/index-format.md, "Document data").
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

/// A section as decode_sections() reads it: its positions, and its anchor and heading as views
/// into the data line.
struct SectionView {
  Xapian::termpos heading_start = 0;
  Xapian::termpos body_start = 0;
  std::string_view anchor;
  std::string_view heading;
};

/// The text written as `canon_sections`: per section `HEADING_START BODY_START`, then, when it
/// has an anchor, U+001F ANCHOR U+001F HEADING; sections joined by U+001E. Those two separators
/// and newlines in an anchor or heading are written as spaces. Not JSON: search reads the
/// positions of every section of every hit (hundreds on a reference page), and this form is
/// read without allocating a string per section.
std::string encode_sections(std::span<const SectionPlace> sections);

/// The sections in `line` (encode_sections' form), viewing into it. Entries of another shape are
/// skipped, so a damaged line never fails a search.
std::vector<SectionView> decode_sections(std::string_view line);

}  // namespace canon::index_format
