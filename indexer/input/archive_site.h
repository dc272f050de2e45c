/// @file archive_site.h
/// @brief Stage 1 for a crawl: the pages web archives (WARC) hold, their bodies written beside
/// the build, laid out as the SitePlan of a site on disk (docs/archive-format.md, "Web archives
/// (WARC) as canon reads them").
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/progress.h"
#include "common/status.h"
#include "indexer/input/site_plan.h"

namespace canon::indexer {

/// What the records of the archives came to (summary.json's "archives").
struct ArchiveCounts {
  std::size_t archives = 0;
  /// Records read, by WARC-Type ("response", "request", "warcinfo", ...).
  std::map<std::string, std::size_t> records;
  /// Captures (response, resource and revisit records of http(s) URLs) by what became of them.
  std::size_t pages = 0;           ///< the newest capture of its URL, read as a page
  std::size_t redirects = 0;       ///< the newest capture of its URL, an HTTP redirect
  std::size_t older_captures = 0;  ///< a URL captured again later: recorded as skipped
  std::size_t skipped = 0;         ///< not HTML, an HTTP error, a revisit of nothing held, ...
  /// Response, resource and revisit records whose URL is not http(s) (dns:, ftp:, ...):
  /// counted in `records`, not pages of the site.
  std::size_t other_schemes = 0;

  ArchiveCounts& operator+=(const ArchiveCounts& other) {
    archives += other.archives;
    for (const auto& [type, count] : other.records) records[type] += count;
    pages += other.pages;
    redirects += other.redirects;
    older_captures += other.older_captures;
    skipped += other.skipped;
    other_schemes += other.other_schemes;
    return *this;
  }
};

/// A crawl as a site: the plan of its pages and what else its records held.
struct ArchiveSite {
  /// One file per URL whose newest capture is a page or a redirect, sorted by URL (the
  /// file's relative_path is its URL, which a new archive of the same crawl keeps, so a
  /// re-index compares a capture with the one it replaces); `skipped`: every other capture,
  /// with its URL and reason, and where an archive could not be read to its end.
  SitePlan plan;
  /// scheme://host[:port]/ of the first page captured: the site's base URL.
  std::string base_url;
  ArchiveCounts counts;
  /// Where an archive could not be read to its end (cut, corrupt), one message each; the
  /// records before are in the plan.
  std::vector<std::string> problems;
};

/// The archives `inputs` name, when they name archives: each input that is a file, and the
/// *.warc and *.warc.gz files of an input that is a directory holding such files (sorted by
/// name). nullopt when `inputs` is one directory without archives directly in it (a site on
/// disk). An error when archives and a site are mixed, an input does not exist, or a directory
/// among several inputs holds no archive.
Result<std::optional<std::vector<std::filesystem::path>>> archive_inputs(
    const std::vector<std::filesystem::path>& inputs);

/// Reads every record of `archives`, in order (on `threads` threads, one archive each; the
/// result does not depend on their number), streaming (one record in memory a thread), and
/// writes the body of each HTML capture into `body_dir` (created), one file per capture with
/// the capture's WARC-Date as its modification time. The newest capture of a URL (WARC-Date,
/// then reading order) is the one read; a 3xx response with a Location is a redirect; a revisit
/// takes the payload of the capture it repeats (the same payload digest, or the URL's previous
/// capture when the server said "not modified"). Fails when an archive cannot be opened, when
/// no capture is an http(s) page, or when a body cannot be written; an archive that is cut or
/// corrupt part-way is a `problems` entry (and a skipped entry of the plan), not a failure.
Result<ArchiveSite> read_archives(const std::vector<std::filesystem::path>& archives,
                                  const std::filesystem::path& body_dir, unsigned threads, Progress& progress);

/// Seconds since the epoch of a WARC-Date ("2024-05-01T12:00:00Z", fractions of a second and
/// the shorter forms WARC 1.1 allows ignored past the seconds); nullopt when it does not read.
std::optional<std::int64_t> warc_date_seconds(std::string_view date);

}  // namespace canon::indexer
