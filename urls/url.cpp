/// @file url.cpp
/// @brief URL handling on top of uriparser.
#include "urls/url.h"

#include <uriparser/Uri.h>

#include "common/percent_encoding.h"

#include <cctype>
#include <memory>

namespace canon::urls {
namespace {

/// Owns a parsed UriUriA, the text its ranges point into, and frees its members.
struct ParsedUri {
  std::string text;
  UriUriA uri{};
  bool parsed = false;
  ~ParsedUri() {
    if (parsed) uriFreeUriMembersA(&uri);
  }
};

std::string_view text_of(const UriTextRangeA& range) {
  if (range.first == nullptr || range.afterLast == nullptr) return {};
  return {range.first, static_cast<std::size_t>(range.afterLast - range.first)};
}

/// Browsers accept hrefs with stray spaces; RFC 3986 does not.
std::string clean_reference(std::string_view reference) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
  while (!reference.empty() && is_space(reference.front())) reference.remove_prefix(1);
  while (!reference.empty() && is_space(reference.back())) reference.remove_suffix(1);
  std::string out;
  out.reserve(reference.size());
  for (char c : reference) {
    if (c == ' ') {
      out += "%20";
    } else if (c != '\t' && c != '\n' && c != '\r') {
      out += c;
    }
  }
  return out;
}

bool parse(ParsedUri& target, std::string text) {
  target.text = std::move(text);
  const char* error_pos = nullptr;
  // The end is given, not found at a NUL: "http://a/b\0c" is not "http://a/b".
  const char* first = target.text.data();
  if (uriParseSingleUriExA(&target.uri, first, first + target.text.size(), &error_pos) != URI_SUCCESS) return false;
  target.parsed = true;
  return true;
}

Result<std::string> to_normalized_string(UriUriA& uri) {
  // Parts are dropped before uriNormalizeSyntaxA: it makes `uri` own copies of its parts, and
  // a part unlinked after that is never freed.
  uri.fragment.first = nullptr;
  uri.fragment.afterLast = nullptr;
  std::string scheme(text_of(uri.scheme));
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "http" && scheme != "https") {
    return Status::error("not an http(s) URL");
  }
  if (text_of(uri.hostText).empty() && uri.hostData.ip4 == nullptr && uri.hostData.ip6 == nullptr) {
    return Status::error("an http(s) URL without a host");  // "http:x", "http:?q"
  }
  // uriparser keeps an explicit default port; the same page must have one URL.
  const std::string_view port = text_of(uri.portText);
  if ((scheme == "http" && port == "80") || (scheme == "https" && port == "443")) {
    uri.portText.first = nullptr;
    uri.portText.afterLast = nullptr;
  }
  if (uriNormalizeSyntaxA(&uri) != URI_SUCCESS) return Status::error("cannot normalise URL");
  int chars = 0;
  if (uriToStringCharsRequiredA(&uri, &chars) != URI_SUCCESS) return Status::error("cannot print URL");
  std::string out(static_cast<std::size_t>(chars) + 1, '\0');
  if (uriToStringA(out.data(), &uri, chars + 1, nullptr) != URI_SUCCESS) {
    return Status::error("cannot print URL");
  }
  out.resize(static_cast<std::size_t>(chars));
  // An http URL with an empty path is the root of its host ("http://h?q" is "http://h/?q").
  if (uri.pathHead == nullptr && !uri.absolutePath) {
    const std::size_t authority_end = out.find_first_of("/?", scheme.size() + 3);
    if (authority_end == std::string::npos) {
      out += '/';
    } else if (out[authority_end] == '?') {
      out.insert(authority_end, 1, '/');
    }
  }
  return out;
}

}  // namespace

Result<std::string> resolve_url(std::string_view base, std::string_view reference) {
  ParsedUri base_uri;
  if (!parse(base_uri, std::string(base))) return Status::error("invalid base URL '" + std::string(base) + "'");
  ParsedUri relative;
  const std::string cleaned = clean_reference(reference);
  if (!parse(relative, cleaned)) return Status::error("invalid URL reference '" + cleaned + "'");
  ParsedUri absolute;
  if (uriAddBaseUriExA(&absolute.uri, &relative.uri, &base_uri.uri, URI_RESOLVE_STRICTLY) != URI_SUCCESS) {
    return Status::error("cannot resolve '" + cleaned + "' against '" + std::string(base) + "'");
  }
  absolute.parsed = true;
  return to_normalized_string(absolute.uri);
}

Result<std::string> normalize_url(std::string_view absolute_url) {
  ParsedUri uri;
  if (!parse(uri, std::string(absolute_url)) || text_of(uri.uri.scheme).empty()) {
    return Status::error("invalid absolute URL '" + std::string(absolute_url) + "'");
  }
  return to_normalized_string(uri.uri);
}

std::string strip_index_page(std::string_view url) {
  const std::size_t query = url.find('?');
  const std::string_view path = url.substr(0, query);
  for (std::string_view suffix : {"/index.html", "/index.htm"}) {
    if (path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix) {
      std::string out(path.substr(0, path.size() - suffix.size() + 1));
      if (query != std::string_view::npos) out += url.substr(query);
      return out;
    }
  }
  return std::string(url);
}

Result<std::string> file_url(std::string_view base_url, std::string_view relative_path) {
  // "./" keeps a ':' in the first segment ("a:b.html") from reading as a scheme.
  const std::string encoded =
      (relative_path.starts_with('/') ? "" : "./") + percent_encode(relative_path, KeepInUrl::kPath);
  auto url = resolve_url(base_url, encoded);
  if (!url.ok()) return url.status();
  return strip_index_page(url.value());
}

std::string url_host(std::string_view absolute_url) {
  ParsedUri uri;
  if (!parse(uri, std::string(absolute_url))) return {};
  std::string host(text_of(uri.uri.hostText));
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return host;
}

std::string url_path(std::string_view absolute_url) {
  ParsedUri uri;
  if (!parse(uri, std::string(absolute_url))) return "/";
  std::string path;
  for (const UriPathSegmentA* segment = uri.uri.pathHead; segment != nullptr; segment = segment->next) {
    path += '/';
    path += text_of(segment->text);
  }
  return path.empty() ? "/" : path;
}

std::vector<std::string> url_directories(std::string_view absolute_url) {
  ParsedUri uri;
  std::vector<std::string> directories;
  if (!parse(uri, std::string(absolute_url))) return directories;
  for (const UriPathSegmentA* segment = uri.uri.pathHead; segment != nullptr && segment->next != nullptr;
       segment = segment->next) {  // every segment but the last, the file name ("" for a directory)
    const std::string_view text = text_of(segment->text);
    if (!text.empty()) directories.push_back(percent_decode(text, false));
  }
  return directories;
}

}  // namespace canon::urls
