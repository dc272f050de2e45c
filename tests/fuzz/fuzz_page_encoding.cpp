/// @file fuzz_page_encoding.cpp
/// @brief libFuzzer target: a page's bytes decoded to UTF-8 (byte order mark, HTTP charset,
/// the <meta> prescan, ICU's detection and conversion). The input is a Content-Type header
/// value and the page, separated by the first newline (no newline: no header). The result is
/// always valid UTF-8, and valid UTF-8 read as UTF-8 without a BOM comes back unchanged.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/utf8.h"
#include "html/page_encoding.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view header = newline == std::string_view::npos ? std::string_view() : input.substr(0, newline);
  const std::string_view page = newline == std::string_view::npos ? input : input.substr(newline + 1);
  const auto decoded = canon::html::decode_page(std::string(page), header);
  if (!decoded.ok()) {
    if (decoded.status().message().empty()) __builtin_trap();
    return 0;
  }
  if (!canon::is_valid_utf8(decoded->utf8) || decoded->encoding.empty()) __builtin_trap();
  if (decoded->encoding == "UTF-8" && decoded->source != canon::html::EncodingSource::kByteOrderMark &&
      canon::is_valid_utf8(page) && decoded->utf8 != page) {
    __builtin_trap();
  }
  if (canon::html::encoding_source_name(decoded->source).empty()) __builtin_trap();
  return 0;
}
