/// @file tokenizer.h
/// @brief Words of a page's text for near-duplicate detection (Xapian's Unicode rules).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace canon::dedup {

/// Splits UTF-8 `text` into case-folded words: maximal runs of Xapian word characters
/// (Xapian::Unicode::is_wordchar), lowercased with Xapian::Unicode::tolower. Invalid UTF-8
/// bytes are treated as separators. Never throws.
std::vector<std::string> tokenize(std::string_view text);

}  // namespace canon::dedup
