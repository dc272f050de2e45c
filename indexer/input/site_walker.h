/// @file site_walker.h
/// @brief Finding the pages of a saved site on disk.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "indexer/input/file_list.h"

namespace canon::indexer {

/// A path the walk saw but could not take, with the reason (for pages.jsonl).
struct SkippedPath {
  std::string relative_path;
  std::string reason;
  /// The URL recorded for it, when the path does not give one (a capture of a web archive:
  /// its URL; "" for none); nullopt: the URL of relative_path under the base URL.
  std::optional<std::string> url;
};

/// What walk_site found: page files sorted by relative path, and paths skipped.
struct SiteListing {
  FileList files;
  std::vector<SkippedPath> skipped;
};

/// True for names canon treats as pages: ending in .html or .htm, any letter case.
bool is_page_file_name(std::string_view file_name);

/// Walks `site_dir` recursively for page files. Symbolic links are followed only while they
/// stay inside the site (a link leading out is recorded as skipped); a directory reached twice
/// through links is walked once, so link loops end. Unreadable directories and broken links
/// are recorded as skipped. Fails only when `site_dir` itself is not a readable directory.
Result<SiteListing> walk_site(const std::filesystem::path& site_dir);

}  // namespace canon::indexer
