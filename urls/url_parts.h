/// @file url_parts.h
/// @brief A normalised URL split into what URL rules look at: its origin, its path as tokens,
/// and its query parameters by name (docs/url-rules.md, "Tokens").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace canon::urls {

/// One `name=value` pair of a query, both as written in the URL (percent-encoded).
struct QueryParam {
  std::string name;
  std::string value;
  bool has_value = true;  ///< false for a bare `name` (no '=')
  bool operator==(const QueryParam&) const = default;
};

/// An absolute http(s) URL (normalised by normalize_url) in three parts.
struct UrlParts {
  std::string origin;  ///< "scheme://host[:port]", no trailing '/'
  std::string path;    ///< from the first '/', never empty
  bool has_query = false;          ///< a '?' follows the path (also when the query is empty)
  std::vector<QueryParam> params;  ///< the query's '&'-separated pairs, in URL order

  /// origin + path: what path rules match.
  std::string location() const { return origin + path; }
};

/// Splits a URL that normalize_url() returned (a fragment, if any, is dropped). Fails for a
/// string without "scheme://".
Result<UrlParts> split_url(std::string_view normalized_url);

/// The URL `parts` describe: origin + path, then '?' and the parameters joined by '&' when
/// `has_query` or there are parameters.
std::string join_url(const UrlParts& parts);

/// A token of a location (origin + path): the origin as a whole, each delimiter character
/// alone, and each run of characters between delimiters (a word).
struct PathToken {
  enum class Kind { kOrigin, kDelimiter, kWord };
  Kind kind;
  std::string text;
  bool operator==(const PathToken&) const = default;
};

/// Whether `c` separates words inside a location: '/' and every other punctuation character a
/// path may hold unencoded (RFC 3986 unreserved and sub-delims, ':' and '@'). '%' is not one:
/// "%20" stays inside its word. Sites use their own delimiters ("page-2.html",
/// "a;jsessionid=1", "v1_2"); splitting at all of them finds each site's.
bool is_path_delimiter(char c);

/// How finely words are cut.
enum class Tokenization {
  kWords,  ///< a word runs from delimiter to delimiter: "mirror0", "8F3A9C21"
  /// Also where letters meet digits: "mirror0" is "mirror", "0" (the deep tokens of Koppula et
  /// al.), so that "mirror0", "mirror1" generalise to "mirror" + digits.
  kDeep,
};

/// The tokens of `location` (origin + path): [origin, "/", word, delimiter, word, ...].
/// Concatenating the tokens' texts gives `location` back.
std::vector<PathToken> tokenize_location(std::string_view origin, std::string_view path,
                                         Tokenization how = Tokenization::kWords);

/// The narrowest of these classes that a word belongs to, for generalising a value that varies:
/// digits ⊂ hex (digits and a-f/A-F) ⊂ alphanumeric ⊂ word (anything but a delimiter); letters
/// alone are alpha ⊂ alphanumeric.
enum class WordClass { kDigits, kHex, kAlpha, kAlphanumeric, kWord };

/// The class of one word (kWord when it is empty or holds a '%' or a non-ASCII byte).
WordClass word_class(std::string_view word);

/// The narrowest class holding both.
WordClass widest(WordClass a, WordClass b);

/// An RE2 (and Java) character-class pattern matching one or more characters of the class.
std::string word_class_pattern(WordClass c);

/// "digits", "hex", "alpha", "alphanumeric", "word".
const char* to_string(WordClass c);

}  // namespace canon::urls
