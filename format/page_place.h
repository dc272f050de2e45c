/// @file page_place.h
/// @brief A page's place in its site as the site shows it (its breadcrumb trail) and its one text
/// form, the document data line `canon_place` (docs/index-format.md, "Document data").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace canon::index_format {

/// Document data key of a page's breadcrumb trail (when the page has one).
inline constexpr std::string_view kDataPlace = "canon_place";

/// The JSON array of strings written as `canon_place`: the crumbs, outermost first.
std::string encode_place(const std::vector<std::string>& crumbs);

/// The crumbs in `json` (encode_place's form). Text that is not a JSON array gives none, and
/// items that are not strings are skipped, so a damaged line never fails a search.
std::vector<std::string> decode_place(std::string_view json);

}  // namespace canon::index_format
