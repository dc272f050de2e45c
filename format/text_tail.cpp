/// @file text_tail.cpp
/// @brief Deflating and inflating a page's text tail with zlib.
#include "format/text_tail.h"

#include <zlib.h>

#include "common/byte_codec.h"

namespace canon::index_format {

std::string encode_text_tail(std::string_view text) {
  std::string out;
  codec::put_varint(out, text.size());
  const std::size_t header = out.size();
  uLongf room = compressBound(static_cast<uLong>(text.size()));
  out.resize(header + room);
  if (compress2(reinterpret_cast<Bytef*>(out.data() + header), &room, reinterpret_cast<const Bytef*>(text.data()),
                static_cast<uLong>(text.size()), Z_DEFAULT_COMPRESSION) != Z_OK) {
    return {};
  }
  out.resize(header + room);
  return out;
}

std::optional<std::string> decode_text_tail(std::string_view bytes) {
  codec::Reader in(bytes);
  const std::uint64_t size = in.varint();
  // A tail is at most kTextTailBytes; a larger length is not one this writes.
  if (!in.ok() || size > (std::uint64_t{1} << 24)) return std::nullopt;
  const std::string_view deflated = in.rest();
  std::string text(size, '\0');
  uLongf length = static_cast<uLongf>(size);
  if (uncompress(reinterpret_cast<Bytef*>(text.data()), &length, reinterpret_cast<const Bytef*>(deflated.data()),
                 static_cast<uLong>(deflated.size())) != Z_OK ||
      length != size) {
    return std::nullopt;
  }
  return text;
}

}  // namespace canon::index_format
