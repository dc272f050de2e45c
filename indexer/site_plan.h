/// @file site_plan.h
/// @brief Stage 1 of `canon index`: the site's page files and the URL each one serves.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "indexer/site_walker.h"

namespace canon::indexer {

/// The files of a site and their URLs, before any is read.
struct SitePlan {
  /// Page files, sorted by relative path (walk_site).
  std::vector<SiteFile> files;
  /// Paths the walk left out, with the reason.
  std::vector<SkippedPath> skipped;
  /// Per file: its URL under the base URL, or why it has none.
  std::vector<Result<std::string>> urls;
  /// Per file with a URL: the file that serves that URL (itself, unless another file maps to the
  /// same URL and serves it first: serves_before()).
  std::vector<std::size_t> url_owner;

  /// Whether file i is the page of its URL (it has one, and no other file serves it).
  bool serves_url(std::size_t i) const { return urls[i].ok() && url_owner[i] == i; }
};

/// What the stages after the parse need of a plan, once its files' paths and URLs are in the
/// page records: how many files it has and which serve their URL (the page store's catalog).
/// The plan itself is let go then: its strings cost ~400 bytes a file (docs/benchmarks.md,
/// "Memory per page").
struct PlanOutline {
  std::vector<bool> serves_url;  ///< SitePlan::serves_url(i), by file
  std::size_t files() const { return serves_url.size(); }
};

/// The outline of `plan`.
PlanOutline outline_of(const SitePlan& plan);

/// Whether a file at `path` serves a URL rather than one at `other` that maps to the same URL
/// (dir/index.html and dir/index.htm are both dir/): index.html first, as a web server's
/// DirectoryIndex chooses; otherwise the first file in path order keeps it.
bool serves_before(std::string_view path, std::string_view other);

/// Walks `site_dir` and gives each page file its URL under `base_url` (normalised, ending in
/// '/'). Fails only when the site cannot be walked; a file without a URL is recorded in `urls`.
Result<SitePlan> plan_site(const std::filesystem::path& site_dir, const std::string& base_url);

}  // namespace canon::indexer
