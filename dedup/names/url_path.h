/// @file url_path.h
/// @brief The one place dedup looks inside a page's URL: the part after its host.
#pragma once

#include <string_view>

namespace canon::dedup {

/// The part of `url` after "scheme://host": from the '/' that starts its path to the end (query
/// and fragment included when `url` has them); empty when there is no path; `url` itself when it
/// has no "://" (a path already). The rest of dedup takes a page's URL as an opaque string:
/// callers cut the query or fragment themselves where a rule says why.
std::string_view after_host(std::string_view url);

/// The path of `url`: after_host() without the query and fragment (from the '/' after the host).
std::string_view path_of(std::string_view url);

/// "scheme://host" of `url`: what after_host() leaves out ("" for a path).
std::string_view origin_of(std::string_view url);

}  // namespace canon::dedup
