/// @file url.h
/// @brief URL resolution and normalisation (uriparser), and the file-to-URL mapping of a site.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace canon::urls {

/// Resolves `reference` (an href as written in a page) against the absolute URL `base` and
/// normalises the result (RFC 3986 syntax normalisation: lower-case scheme and host, dot
/// segments removed, percent-encodings upper-cased, default port dropped, fragment dropped).
/// Surrounding whitespace is trimmed and inner spaces are percent-encoded, as browsers do.
/// Fails for references that are not valid URI references or not http(s) after resolution.
Result<std::string> resolve_url(std::string_view base, std::string_view reference);

/// normalize_url(u) == resolve_url(u, u) for an absolute http(s) URL: the form canon compares.
Result<std::string> normalize_url(std::string_view absolute_url);

/// A directory's index page and the directory are one page: ".../index.html" and
/// ".../index.htm" become ".../". Other URLs are returned unchanged.
std::string strip_index_page(std::string_view url);

/// The URL of the file at `relative_path` (with '/' separators) of a site served at `base_url`
/// (which must end in '/'): each path segment percent-encoded where RFC 3986 requires it,
/// normalised, and with strip_index_page applied.
Result<std::string> file_url(std::string_view base_url, std::string_view relative_path);

/// Host of an absolute URL ("" when it has none), lower-case.
std::string url_host(std::string_view absolute_url);

/// Path of an absolute URL, starting with '/' ("/" when empty); no query or fragment.
std::string url_path(std::string_view absolute_url);

/// The directories of an absolute URL's path, outermost first, each percent-decoded (as a
/// reader would write them): "http://h/java.base/java/util/Timer.html" gives {"java.base",
/// "java", "util"}; "http://h/docs/" (a directory's index page) gives {"docs"}. Empty segments
/// are skipped; none for a page at the root or a URL that does not parse.
std::vector<std::string> url_directories(std::string_view absolute_url);

}  // namespace canon::urls
