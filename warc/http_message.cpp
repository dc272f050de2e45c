/// @file http_message.cpp
/// @brief An HTTP response's status line, headers and body read from the bytes an archive
/// recorded: line ends CRLF or LF, folded header lines joined, chunked bodies de-chunked, gzip
/// and deflate bodies inflated with zlib (never past a limit).
#include "warc/http_message.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <utility>

#include "warc/header_text.h"

namespace canon::warc {
namespace {

/// Decompressed bytes made at a time.
constexpr std::size_t kInflateChunkBytes = 64 * 1024;

/// Takes the next line off `rest` into `line` (without its LF or CRLF); false, leaving both
/// alone, when `rest` has no line end.
bool take_line(std::string_view& rest, std::string_view& line) {
  const std::size_t newline = rest.find('\n');
  if (newline == std::string_view::npos) return false;
  line = rest.substr(0, newline);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  rest.remove_prefix(newline + 1);
  return true;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Reads "HTTP/x[.y] NNN [reason]" into `response`; false when `line` is not a status line.
bool parse_status_line(std::string_view line, HttpResponse& response) {
  if (!line.starts_with("HTTP/")) return false;
  const std::size_t space = line.find_first_of(" \t");
  if (space == std::string_view::npos) return false;
  const std::string_view version = line.substr(0, space);
  const std::string_view number = version.substr(5);
  if (number.empty() || !is_digit(number.front()) ||
      !std::all_of(number.begin(), number.end(), [](char c) { return is_digit(c) || c == '.'; })) {
    return false;
  }
  std::string_view rest = line.substr(space);
  while (!rest.empty() && text::is_blank(rest.front())) rest.remove_prefix(1);
  if (rest.size() < 3 || rest[0] < '1' || rest[0] > '9' || !is_digit(rest[1]) || !is_digit(rest[2])) return false;
  if (rest.size() > 3 && !text::is_blank(rest[3])) return false;
  response.version = std::string(version);
  response.status = (rest[0] - '0') * 100 + (rest[1] - '0') * 10 + (rest[2] - '0');
  response.reason = std::string(text::trim(rest.substr(3)));
  return true;
}

/// Reads the header lines of `rest` (after the status line) into `response`, up to the blank
/// line; returns the bytes after it. Lines without a name and a colon are left out. Without a
/// blank line every line is a header, the body is empty and the note says so.
std::string_view parse_headers(std::string_view rest, HttpResponse& response) {
  std::string_view line;
  for (;;) {
    const bool whole_line = take_line(rest, line);
    if (!whole_line) {
      line = rest;
      rest = {};
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      response.note = "the headers do not end with a blank line: the response is cut";
    }
    if (line.empty()) return rest;
    if (text::is_blank(line.front())) {  // obsolete line folding: more of the previous value
      const std::string_view more = text::trim(line);
      if (!response.headers.empty() && !more.empty()) {
        auto& value = response.headers.back().second;
        value += (value.empty() ? "" : " ") + std::string(more);
      }
    } else if (const std::size_t colon = line.find(':'); colon != std::string_view::npos) {
      const std::string_view name = text::trim(line.substr(0, colon));
      if (!name.empty())
        response.headers.emplace_back(std::string(name), std::string(text::trim(line.substr(colon + 1))));
    }
    if (!whole_line) return rest;
  }
}

/// True when the comma-separated list `value` holds `token` (ASCII case-insensitive).
bool list_has(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    if (text::equals_ignoring_case(text::trim(value.substr(0, comma)), token)) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

/// A chunk-size line's size (hex digits, extensions after ';' ignored); nullopt when it is not one.
std::optional<std::uint64_t> chunk_size(std::string_view line) {
  line = text::trim(line.substr(0, line.find(';')));
  if (line.empty() || line.size() > 15) return std::nullopt;
  std::uint64_t size = 0;
  for (const char c : line) {
    const int digit = is_digit(c)              ? c - '0'
                      : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                      : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                               : -1;
    if (digit < 0) return std::nullopt;
    size = size * 16 + static_cast<std::uint64_t>(digit);
  }
  return size;
}

/// `body` de-chunked into `out`. Returns false, with a note, when it is not chunked as it
/// should be (the caller keeps it as recorded); a body cut before its last chunk gives what
/// its chunks held, with a note.
bool dechunk(std::string_view body, std::string& out, std::string& note) {
  std::string_view rest = body;
  for (bool first = true;; first = false) {
    const std::size_t line_start = body.size() - rest.size();
    std::string_view line;
    if (!take_line(rest, line)) line = std::exchange(rest, std::string_view());
    const auto size = chunk_size(line);
    if (!size) {
      if (line.empty() && rest.empty() && !first) break;  // cut right after a chunk
      note = first ? "Transfer-Encoding is chunked but the body is not: kept as recorded"
                   : "the chunked body is malformed at byte " + std::to_string(line_start) + ": kept as recorded";
      return false;
    }
    if (*size == 0) return true;  // the last chunk; trailer fields are not kept
    if (*size > rest.size()) {
      out.append(rest);
      break;
    }
    out.append(rest.substr(0, *size));
    rest.remove_prefix(*size);
    if (rest.starts_with("\r\n")) {
      rest.remove_prefix(2);
    } else if (rest.starts_with("\n")) {
      rest.remove_prefix(1);
    } else if (!rest.empty()) {
      note = "a chunk of the chunked body does not end at its size: kept as recorded";
      return false;
    }
  }
  note = "the chunked body is cut before its last chunk";
  return true;
}

/// `in` inflated with zlib (`window_bits` as inflateInit2 takes them) into `out`; an empty
/// string, or what went wrong. Further gzip members after the first are inflated too; other
/// bytes after the compressed data are ignored.
std::string inflate_body(std::string_view in, int window_bits, std::uint64_t max_bytes, std::string& out) {
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) return "zlib cannot start inflating";
  std::string error;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size(), UINT_MAX));
  std::size_t fed = zs.avail_in;
  for (;;) {
    if (zs.avail_in == 0 && fed < in.size()) {
      zs.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size() - fed, UINT_MAX));
      fed += zs.avail_in;
    }
    const std::size_t old = out.size();
    out.resize(old + kInflateChunkBytes);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + old);
    zs.avail_out = static_cast<uInt>(kInflateChunkBytes);
    const int result = inflate(&zs, Z_NO_FLUSH);
    out.resize(old + (kInflateChunkBytes - zs.avail_out));
    if (out.size() > max_bytes) {
      error = "it inflates to more than " + std::to_string(max_bytes) + " bytes";
      break;
    }
    if (result == Z_STREAM_END) {
      const std::size_t left = zs.avail_in + (in.size() - fed);
      const bool another_member = left >= 2 && zs.next_in[0] == 0x1f && zs.next_in[1] == 0x8b;
      if (!another_member || inflateReset(&zs) != Z_OK) break;
    } else if (result == Z_BUF_ERROR && zs.avail_in == 0 && fed == in.size()) {
      error = "the compressed data is cut";
      break;
    } else if (result != Z_OK) {
      error = zs.msg != nullptr ? zs.msg : "zlib error " + std::to_string(result);
      break;
    }
  }
  inflateEnd(&zs);
  return error;
}

/// Decodes `response.body` by its Content-Encoding, when it is one zlib reads; else keeps it
/// and says why in the note.
void decode_content(HttpResponse& response, std::uint64_t max_body_bytes) {
  const auto header = response.header("Content-Encoding");
  if (!header || response.body.empty()) return;
  const std::string_view coding = text::trim(*header);
  if (coding.empty() || text::equals_ignoring_case(coding, "identity")) return;
  const bool gzip = text::equals_ignoring_case(coding, "gzip") || text::equals_ignoring_case(coding, "x-gzip");
  const bool deflate = text::equals_ignoring_case(coding, "deflate");
  const auto add_note = [&](const std::string& what) { response.note += (response.note.empty() ? "" : "; ") + what; };
  if (!gzip && !deflate) {
    add_note("Content-Encoding " + std::string(coding) + " is not decoded: kept as recorded");
    return;
  }
  std::string inflated;
  // gzip (or zlib, which some servers send for it); deflate: zlib, else raw deflate, as browsers read it.
  std::string error = inflate_body(response.body, 15 + 32, max_body_bytes, inflated);
  if (!error.empty() && deflate) {
    inflated.clear();
    error = inflate_body(response.body, -15, max_body_bytes, inflated);
  }
  if (!error.empty()) {
    add_note("the " + std::string(coding) + " body does not inflate (" + error + "): kept as recorded");
    return;
  }
  response.body = std::move(inflated);
}

}  // namespace

std::optional<std::string_view> HttpResponse::header(std::string_view name) const {
  for (const auto& [header_name, value] : headers) {
    if (text::equals_ignoring_case(header_name, name)) return std::string_view(value);
  }
  return std::nullopt;
}

Result<HttpResponse> parse_http_response(std::string_view block, std::uint64_t max_body_bytes) {
  HttpResponse response;
  std::string_view rest = block;
  std::string_view status_line;
  if (!take_line(rest, status_line)) status_line = std::exchange(rest, std::string_view());
  if (!parse_status_line(status_line, response)) {
    return Status::error("not an HTTP response: the status line is " + text::quoted_excerpt(status_line));
  }
  const std::string_view body = parse_headers(rest, response);
  const auto transfer_encoding = response.header("Transfer-Encoding");
  std::string dechunked;
  std::string note;
  if (!body.empty() && transfer_encoding && list_has(*transfer_encoding, "chunked") && dechunk(body, dechunked, note)) {
    response.body = std::move(dechunked);
  } else {
    response.body = std::string(body);
  }
  if (!note.empty()) response.note += (response.note.empty() ? "" : "; ") + note;
  decode_content(response, max_body_bytes);
  return response;
}

std::string content_type_charset(std::string_view content_type) {
  std::size_t at = content_type.find(';');
  while (at != std::string_view::npos && at < content_type.size()) {
    ++at;  // past the ';'
    const std::size_t equals = content_type.find_first_of("=;", at);
    const std::string_view name =
        text::trim(content_type.substr(at, equals == std::string_view::npos ? equals : equals - at));
    if (equals == std::string_view::npos) break;
    at = equals;
    if (content_type[equals] == ';') continue;
    std::size_t start = equals + 1;
    while (start < content_type.size() && text::is_blank(content_type[start])) ++start;
    std::string value;
    if (start < content_type.size() && content_type[start] == '"') {  // a quoted string
      for (at = start + 1; at < content_type.size() && content_type[at] != '"'; ++at) {
        if (content_type[at] == '\\' && at + 1 < content_type.size()) ++at;
        value += content_type[at];
      }
      at = content_type.find(';', at);
    } else {
      at = content_type.find(';', start);
      value = std::string(text::trim(content_type.substr(start, at == std::string_view::npos ? at : at - start)));
      if (value.size() >= 2 && value.front() == '\'' && value.back() == '\'') value = value.substr(1, value.size() - 2);
    }
    if (text::equals_ignoring_case(name, "charset")) return value;
  }
  return {};
}

}  // namespace canon::warc
