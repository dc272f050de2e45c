/// @file http_message.h
/// @brief The HTTP response a WARC response record holds (Content-Type application/http;
/// msgtype=response): its status, headers and body, the body de-chunked and decompressed as a
/// browser would read it. The header syntax (RFC 9112) is read by hand, zlib inflates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace canon::warc {

/// An HTTP response as an archive recorded it.
struct HttpResponse {
  /// The status line's version as written: "HTTP/1.1", "HTTP/1.0", "HTTP/2".
  std::string version;
  /// The status code (100-999).
  int status = 0;
  /// The reason phrase (may be empty: "HTTP/2 200" has none).
  std::string reason;
  /// The headers in order, names as written, values trimmed; a value folded over several
  /// lines (obsolete line folding) is joined with single spaces.
  std::vector<std::pair<std::string, std::string>> headers;
  /// The body: the bytes after the blank line, de-chunked when Transfer-Encoding says chunked
  /// and they are chunked, inflated when Content-Encoding is gzip, x-gzip or deflate and they
  /// inflate; else as recorded.
  std::string body;
  /// What could not be decoded, the body then kept as recorded (a chunked body that is not
  /// chunked, gzip that does not inflate, an encoding such as br that is not decoded, headers
  /// without the blank line that ends them); empty when nothing was wrong.
  std::string note;

  /// The value of the first header named `name` (ASCII case-insensitive), valid while this
  /// response is; nullopt when none.
  std::optional<std::string_view> header(std::string_view name) const;
};

/// The HTTP response in `block` (a WARC response record's block). Lenient on line ends (CRLF
/// or LF). `max_body_bytes` bounds the decoded body: a body that would inflate to more is kept
/// as recorded, with a note. An error (kInvalidArgument) only when the block does not start
/// with a status line ("HTTP/x[.y] NNN [reason]").
Result<HttpResponse> parse_http_response(std::string_view block, std::uint64_t max_body_bytes = 64ull << 20);

/// The charset parameter of a Content-Type value, quotes and backslash escapes removed
/// ("ISO-8859-1" for `text/html; charset="ISO-8859-1"`, "utf-8" for `text/html;charset=utf-8`);
/// empty when there is none. The parameter name is matched case-insensitively.
std::string content_type_charset(std::string_view content_type);

}  // namespace canon::warc
