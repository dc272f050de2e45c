/// @file alternates.h
/// @brief The alternates of an authoritative page (the duplicates collapsed into it) and their one
/// text form, the document data line `canon_alternates` (docs/index-format.md, "Document data").
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace canon::index_format {

/// A duplicate shown with the page it was collapsed into.
struct Alternate {
  std::string url;
  std::string title;
  /// The detector's similarity to the authoritative page, in [0, 1].
  double similarity = 0.0;
};

/// The JSON array written as `canon_alternates`: one object per alternate, in the given order,
/// with keys "similarity", "title", "url" (sorted, as nlohmann::json writes them).
std::string encode_alternates(std::span<const Alternate> alternates);

/// The alternates in `json` (encode_alternates' form). Text that is not a JSON array gives none,
/// and array items that are not objects are skipped, so a damaged line never fails a search.
std::vector<Alternate> decode_alternates(std::string_view json);

}  // namespace canon::index_format
