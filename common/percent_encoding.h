/// @file percent_encoding.h
/// @brief Percent-encoding (RFC 3986, section 2.1): the one encoder of canon's URL writers (a
/// file's path in its URL, the search page's query links, canon synth's links), and the
/// decoder of the query strings `canon serve` is sent.
#pragma once

#include <string>
#include <string_view>
#include <vector>

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

/// `text` with every %XX (two hex digits, either case) written as its byte, and with '+' as a
/// space when `plus_is_space` (HTML forms write a query string's spaces so). A '%' not followed
/// by two hex digits stays as it is. Any byte may result, NUL included: the caller checks what
/// it accepts. Pure. (uriparser's decoder returns C strings, which end at a decoded %00.)
std::string percent_decode(std::string_view text, bool plus_is_space);

/// One name=value pair of a query string, both decoded.
struct QueryParameter {
  std::string name;
  std::string value;
};

/// The pairs of `query_string` (the part of a URL after '?', without the '?'), in order,
/// split at '&' and at the first '=' of each pair (a pair without '=' has an empty value;
/// empty pairs are skipped), each decoded as a form's (percent_decode with plus_is_space).
std::vector<QueryParameter> parse_query_string(std::string_view query_string);

}  // namespace canon
