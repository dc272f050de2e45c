/// @file pagefind_assets.h
/// @brief The files `canon export pagefind` needs besides the pagefind package, compiled into
/// canon (pagefind/assets/): the indexer script Node.js runs, and the search box written into
/// every bundle.
#pragma once

#include <span>
#include <string_view>
#include <utility>

namespace canon::pagefind {

/// The version of the npm package `pagefind` canon is made for (pagefind/package.json).
inline constexpr std::string_view kPagefindVersion = "1.6.0";

/// assets/canon-export.mjs: reads pages as JSON lines and indexes them with Pagefind's Node API.
std::string_view export_script();

/// The search box's files as (file name, contents): canon-pagefind.js, canon-pagefind.css and
/// search.html, a page holding the box.
std::span<const std::pair<std::string_view, std::string_view>> search_box_files();

}  // namespace canon::pagefind
