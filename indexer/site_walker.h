/// @file site_walker.h
/// @brief Finding the pages of a saved site on disk.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace canon::indexer {

/// A page file found in the site.
struct SiteFile {
  /// Path relative to the site root, '/'-separated, as reached by the walk.
  std::string relative_path;
  /// Path to open. A string, not a std::filesystem::path: libstdc++'s path also keeps a list
  /// of its components (342 bytes a file more on the generated 100k site, c9c06a0).
  std::string absolute_path;
  /// A capture of a web archive (archive_site.h): the HTTP response's Content-Type (its
  /// charset rules how the page is decoded), the target of an HTTP redirect (the file then has
  /// no body to read), and where the record is ("crawl.warc.gz@1234", for pages.jsonl). Empty
  /// for a file on disk.
  std::string content_type;
  std::optional<std::string> redirect;
  std::string record;
  /// Its size in bytes when the walk saw it (the parse's work, to schedule it); 0 when unknown.
  std::uint64_t size = 0;
};

/// A path the walk saw but could not take, with the reason (for pages.jsonl).
struct SkippedPath {
  std::string relative_path;
  std::string reason;
  /// The URL recorded for it, when the path does not give one (a capture of a web archive:
  /// its URL; "" for none); nullopt: the URL of relative_path under the base URL.
  std::optional<std::string> url;
};

/// What walk_site found: page files sorted by relative_path, and paths skipped.
struct SiteListing {
  std::vector<SiteFile> files;
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
