/// @file site_files.h
/// @brief The indexed site's own files, served read-only beside the search by `canon serve`, so
/// that a result's link opens on the serving machine (docs/serving.md, "The site's pages").
///
/// A request path is served only when it names a regular file inside the site directory: it is
/// percent-decoded once; encoded slashes and backslashes, NUL bytes, `.` and `..` segments are
/// refused; symbolic links are followed only where they end inside the site directory (the walk
/// of `canon index` follows them so too). A directory is answered by its index.html (index.htm),
/// and a directory named without its trailing slash by a redirect to it, so that the page's
/// relative links resolve as its author meant. Refusals are 404s that say nothing of the disk.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace canon::web {

struct HttpAnswer;

/// Where the pages of an index are, and the URL they were indexed under.
struct ServedSite {
  /// The site directory, canonical; empty when the pages are not served.
  std::filesystem::path dir;
  /// The base URL the index's pages have (summary.json's parameters.base_url): results whose
  /// URL starts with it link to this server's copy.
  std::string base_url;
};

/// The site `canon serve` serves beside the index at `index_dir`: `site_dir` when given (an
/// error when it is not a directory), else the directory the index was built from
/// (summary.json's parameters.site_dir) when the index used the default base URL and the
/// directory still exists; else no site (an index built with --base-url links to the real
/// site). `note` receives a line for the operator saying which, and why.
Result<ServedSite> find_served_site(const std::filesystem::path& index_dir,
                                    const std::optional<std::filesystem::path>& site_dir, std::string& note);

/// Files of a site directory answered by request path.
class SiteFiles {
public:
  /// REQUIRES: `dir` is a canonical path of a directory.
  explicit SiteFiles(std::filesystem::path dir) : dir_(std::move(dir)) {}

  /// The answer to a GET of `path` (the request target's path, still percent-encoded, without
  /// its query string): the file (200), a redirect to the directory (301), or 404.
  HttpAnswer answer(std::string_view path) const;

private:
  std::filesystem::path dir_;
};

/// The Content-Type of a file by its name's extension (text/html for .html and .htm, text/css,
/// JavaScript, JSON, common images and fonts, text/plain; application/octet-stream else).
std::string content_type_of(const std::filesystem::path& file);

}  // namespace canon::web
