/// @file page_encoding.h
/// @brief A page's bytes as UTF-8, its encoding decided as browsers decide it (the WHATWG
/// encoding sniffing of the HTML standard); ICU converts and, when nothing is declared, detects.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace canon::html {

/// How a page's encoding was decided.
enum class EncodingSource {
  /// A byte order mark at the start of the page: UTF-8, UTF-16LE or UTF-16BE.
  kByteOrderMark,
  /// The charset parameter of the HTTP Content-Type header.
  kHttpHeader,
  /// <meta charset> or <meta http-equiv="Content-Type" content="...; charset=..."> in the
  /// first 1024 bytes.
  kMeta,
  /// The bytes themselves: valid (or nearly all valid) UTF-8, or ICU's charset detector.
  kDetected,
  /// Nothing declared and nothing detected with confidence: windows-1252, as browsers fall
  /// back to for most locales.
  kDefault,
};

/// A page decoded to UTF-8.
struct DecodedPage {
  /// The page as UTF-8, the byte order mark removed; the input moved through unchanged when it
  /// was UTF-8 already (or ASCII in an ASCII-compatible encoding).
  std::string utf8;
  /// The WHATWG name of the encoding used: "UTF-8", "windows-1252", "UTF-16LE", "Shift_JIS",
  /// "EUC-JP", "gb18030", "GBK", "KOI8-R", "ISO-8859-15", ...
  std::string encoding;
  EncodingSource source = EncodingSource::kDefault;
};

/// `bytes` (moved in) as a browser reads them: a byte order mark (UTF-8, UTF-16LE/BE), else the
/// charset of `http_content_type` (an HTTP Content-Type header value, empty when none), else a
/// <meta> declaration in the first 1024 bytes, else: UTF-8 when the bytes are valid UTF-8, else
/// ICU's detection when confident, else windows-1252.
/// Labels are read the WHATWG way: case-insensitive, trimmed, "iso-8859-1", "latin1", "ascii"
/// and "us-ascii" mean windows-1252, a <meta> declaring UTF-16 means UTF-8; an unknown label
/// (and "x-user-defined", "replacement", ISO-2022-KR/CN, HZ) is ignored: the next step decides.
/// A declaration of UTF-8 whose bytes are not valid UTF-8 is not believed: the next step
/// decides (a <meta> after the header, else detection). Detection keeps UTF-8 when valid
/// multi-byte characters outnumber invalid bytes ten to one (a UTF-8 page with a stray byte);
/// browsers never detect UTF-16 without a byte order mark, and neither does this.
/// Bytes invalid in the chosen encoding become U+FFFD, as browsers show them. The BOM is
/// removed. The common case (no BOM, no declaration or a UTF-8 one, valid UTF-8) costs the
/// prescan of 1024 bytes and one validity pass, and copies nothing. Thread-safe.
/// Fails (Status with a message naming the encoding) only when ICU cannot convert at all (a
/// declared encoding that the system's ICU data lacks, such as ISO-8859-16 on Debian).
Result<DecodedPage> decode_page(std::string bytes, std::string_view http_content_type = {});

/// The name to record for `source` ("bom", "http", "meta", "detected", "default").
std::string_view encoding_source_name(EncodingSource source);

}  // namespace canon::html
