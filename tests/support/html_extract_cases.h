/// @file html_extract_cases.h
/// @brief What the extract_page tests share: the page's address and a table row of one text field.
#pragma once

#include <string>

namespace canon::testing {

inline constexpr const char* kPageUrl = "http://example.com/dir/page.html";

/// Row for one string field of the extracted page.
struct TextCase {
  std::string comment;
  std::string html;
  std::string expected;
};

}  // namespace canon::testing
