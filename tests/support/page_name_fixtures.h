/// @file page_name_fixtures.h
/// @brief A page's name (dedup::page_name) from its URL, title and first heading, for the SiteNames tests.
#pragma once

#include <string>
#include <vector>

#include "dedup/names/page_names.h"

namespace canon::testing {

/// The name of a page at `url` titled `title`, with `heading` its first heading (none when empty).
inline dedup::PageName named(const std::string& url, const std::string& title, const std::string& heading = "") {
  const std::vector<std::string> headings = {heading};
  dedup::DedupDocument doc{url, title, ""};
  if (!heading.empty()) doc.headings = headings;
  return dedup::page_name(doc);
}

}  // namespace canon::testing
