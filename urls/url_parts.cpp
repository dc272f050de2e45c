/// @file url_parts.cpp
/// @brief Splitting normalised URLs for URL rules.
#include "urls/url_parts.h"

#include <algorithm>

namespace canon::urls {

Result<UrlParts> split_url(std::string_view url) {
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos || scheme_end == 0) {
    return Status::error("not an absolute URL: '" + std::string(url) + "'");
  }
  if (const std::size_t fragment = url.find('#'); fragment != std::string_view::npos) url = url.substr(0, fragment);
  const std::size_t authority = scheme_end + 3;
  std::size_t path_start = url.find_first_of("/?", authority);
  if (path_start == std::string_view::npos) path_start = url.size();
  UrlParts parts;
  parts.origin = std::string(url.substr(0, path_start));
  const std::size_t query = url.find('?', path_start);
  parts.path = std::string(url.substr(path_start, query == std::string_view::npos ? std::string_view::npos : query - path_start));
  if (parts.path.empty()) parts.path = "/";
  if (query == std::string_view::npos) return parts;
  parts.has_query = true;
  std::string_view rest = url.substr(query + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    if (pair.empty()) continue;  // "a=1&&b=2": an empty pair carries nothing
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) {
      parts.params.push_back({std::string(pair), "", false});
    } else {
      parts.params.push_back({std::string(pair.substr(0, eq)), std::string(pair.substr(eq + 1)), true});
    }
  }
  return parts;
}

std::string join_url(const UrlParts& parts) {
  std::string out = parts.origin + parts.path;
  if (!parts.has_query && parts.params.empty()) return out;
  out += '?';
  for (std::size_t i = 0; i < parts.params.size(); ++i) {
    if (i > 0) out += '&';
    out += parts.params[i].name;
    if (parts.params[i].has_value) out += '=' + parts.params[i].value;
  }
  return out;
}

bool is_path_delimiter(char c) {
  switch (c) {
    case '/': case '-': case '.': case '_': case '~': case '!': case '$': case '&': case '\'':
    case '(': case ')': case '*': case '+': case ',': case ';': case '=': case ':': case '@':
      return true;
    default:
      return false;
  }
}

namespace {
bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
}  // namespace

std::vector<PathToken> tokenize_location(std::string_view origin, std::string_view path, Tokenization how) {
  std::vector<PathToken> tokens;
  tokens.push_back({PathToken::Kind::kOrigin, std::string(origin)});
  std::size_t i = 0;
  while (i < path.size()) {
    if (is_path_delimiter(path[i])) {
      tokens.push_back({PathToken::Kind::kDelimiter, std::string(1, path[i])});
      ++i;
      continue;
    }
    // Deep cuts fall between a letter and a digit; a %XX escape is neither.
    const auto kind_at = [&](std::size_t at) { return is_ascii_digit(path[at]) ? 1 : is_ascii_letter(path[at]) ? 2 : 0; };
    std::size_t end = i;
    int previous = 0;
    while (end < path.size() && !is_path_delimiter(path[end])) {
      if (path[end] == '%') {
        end = std::min(end + 3, path.size());
        previous = 0;
        continue;
      }
      const int kind = kind_at(end);
      if (how == Tokenization::kDeep && end > i && previous != 0 && kind != 0 && kind != previous) break;
      previous = kind;
      ++end;
    }
    tokens.push_back({PathToken::Kind::kWord, std::string(path.substr(i, end - i))});
    i = end;
  }
  return tokens;
}

WordClass word_class(std::string_view word) {
  if (word.empty()) return WordClass::kWord;
  bool digits = false, hex_letters = false, other_letters = false;
  for (char c : word) {
    if (c >= '0' && c <= '9') {
      digits = true;
    } else if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) {
      hex_letters = true;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      other_letters = true;
    } else {
      return WordClass::kWord;
    }
  }
  if (!hex_letters && !other_letters) return WordClass::kDigits;
  if (!digits) return WordClass::kAlpha;
  return other_letters ? WordClass::kAlphanumeric : WordClass::kHex;
}

WordClass widest(WordClass a, WordClass b) {
  if (a == b) return a;
  if (a == WordClass::kWord || b == WordClass::kWord) return WordClass::kWord;
  const auto is = [&](WordClass x, WordClass y) { return (a == x && b == y) || (a == y && b == x); };
  if (is(WordClass::kDigits, WordClass::kHex)) return WordClass::kHex;
  return WordClass::kAlphanumeric;  // alpha with digits or hex; anything with alphanumeric
}

std::string word_class_pattern(WordClass c) {
  switch (c) {
    case WordClass::kDigits: return "[0-9]+";
    case WordClass::kHex: return "[0-9A-Fa-f]+";
    case WordClass::kAlpha: return "[A-Za-z]+";
    case WordClass::kAlphanumeric: return "[0-9A-Za-z]+";
    case WordClass::kWord: return "[^/._~!$&'()*+,;=:@?#\\-]+";
  }
  return "[^/._~!$&'()*+,;=:@?#\\-]+";
}

const char* to_string(WordClass c) {
  switch (c) {
    case WordClass::kDigits: return "digits";
    case WordClass::kHex: return "hex";
    case WordClass::kAlpha: return "alpha";
    case WordClass::kAlphanumeric: return "alphanumeric";
    case WordClass::kWord: return "word";
  }
  return "word";
}

}  // namespace canon::urls
