/// @file percent_encoding.h
/// @brief Percent-encoding (RFC 3986, section 2.1): the one encoder of canon's URL writers (a
/// file's path in its URL, the search page's query links, canon synth's links).
#pragma once

#include <string>
#include <string_view>

namespace canon {

/// Which bytes percent_encode() writes as they are.
enum class KeepInUrl {
  /// RFC 3986's unreserved characters (A-Z a-z 0-9 - . _ ~): a query string's value.
  kUnreserved,
  /// A path's characters: pchar (unreserved, sub-delims, ':' and '@') and '/'.
  kPath,
};

/// `text` with every byte that `keep` does not name written as %XX (upper-case hex); bytes of
/// non-ASCII characters are always encoded. Pure.
std::string percent_encode(std::string_view text, KeepInUrl keep);

}  // namespace canon
