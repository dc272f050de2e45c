/// @file site_plan.h
/// @brief Stage 1 of `canon index`: the site's page files and the URL each one serves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "indexer/input/site_walker.h"

namespace canon::indexer {

/// The files of a site and their URLs, before any is read: the whole site's (plan_site, a
/// crawl), or, once keep_part() cut it, a process's part of them. Files are numbered run-wide
/// (file i is the i-th in path order); the accessors take run-wide numbers. A file's URL is not
/// kept but made again when asked (urls::file_url of its path; a crawl's path is its URL): a
/// plan holds its files' paths and 1 byte a file more (FileList).
struct SitePlan {
  /// Page files, sorted by relative path (walk_site): files [first, first + files.size()).
  FileList files;
  /// Paths the walk left out, with the reason: all of them, or none in a part that does not
  /// hold them (keep_part()).
  std::vector<SkippedPath> skipped;
  /// The run-wide number of files[0] (0 but in a part).
  std::size_t first = 0;

  /// The plan of a site directory's `listing`, its files' URLs under `base_url`; when two
  /// files map to one URL, the one serves_before() prefers serves it.
  static SitePlan of_listing(SiteListing listing, std::string base_url);
  /// The plan of a crawl's captures: each file's relative path is its URL, one file a URL.
  static SitePlan of_captures(FileList files, std::vector<SkippedPath> skipped);

  /// The files and the skipped paths of the whole site.
  std::size_t file_count() const { return cut_ ? site_files_ : files.size(); }
  std::size_t skipped_count() const { return cut_ ? site_skipped_ : skipped.size(); }
  /// Whether the plan has file i. Its files are those of the whole site until keep_part().
  bool has(std::size_t i) const { return i >= first && i - first < files.size(); }
  /// File i. REQUIRES: has(i) (and so for the accessors below).
  SiteFile file(std::size_t i) const { return files[i - first]; }
  std::string_view relative_path(std::size_t i) const { return files.relative_path(i - first); }
  std::uint64_t file_size(std::size_t i) const { return files.file_size(i - first); }
  /// Whether file i is a crawl's capture of an HTTP redirect (no body to read).
  bool is_redirect(std::size_t i) const { return files.is_redirect(i - first); }
  /// File i's URL, or why its path gives none.
  Result<std::string> url(std::size_t i) const;
  /// Whether file i is the page of its URL (it has one, and no other file serves it).
  bool serves_url(std::size_t i) const { return url_state_[i - first] == UrlState::kServes; }
  /// The run-wide number of the file that serves file i's URL. REQUIRES: url(i).ok().
  std::size_t url_owner(std::size_t i) const;
  /// The path of the file that serves file i's URL. REQUIRES: url(i).ok().
  std::string_view url_owner_path(std::size_t i) const;

  /// Keeps the files [part_first, part_end) only (and the skipped paths when `keep_skipped`):
  /// what a process of a partitioned build parses. The counts of the whole site stay
  /// (file_count(), skipped_count()). REQUIRES: a whole plan; part_first <= part_end <= file_count().
  void keep_part(std::size_t part_first, std::size_t part_end, bool keep_skipped);

private:
  enum class UrlState : std::uint8_t { kNone, kServes, kServedByOther };
  std::string base_url_;        ///< a directory's plan: URLs are file_url(base_url_, path)
  bool urls_are_paths_ = false; ///< a crawl's plan
  std::vector<UrlState> url_state_;  ///< by file of the plan
  /// The files whose URL another file serves (few: dir/index.htm beside dir/index.html), and it.
  std::unordered_map<std::size_t, std::size_t> served_by_;
  bool cut_ = false;
  std::size_t site_files_ = 0;
  std::size_t site_skipped_ = 0;
  /// After keep_part(): the paths of the files outside the part that serve a kept file's URL.
  std::unordered_map<std::size_t, std::string> outside_owner_path_;
};

/// What the stages after the parse need of a plan, once its files' paths and URLs are in the
/// page records: which of its files serve their URL (the page store's catalog). The plan itself
/// is let go then: its strings cost ~400 bytes a file (docs/benchmarks.md, "Memory per page").
struct PlanOutline {
  std::size_t first = 0;         ///< SitePlan::first
  std::vector<bool> serves_url;  ///< SitePlan::serves_url(first + k), by file of the plan
  /// REQUIRES: file i is in the plan the outline was made of.
  bool serves(std::size_t i) const { return serves_url[i - first]; }
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
