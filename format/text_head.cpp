/// @file text_head.cpp
/// @brief A page's text head compressed with LZ4's block format (Debian's liblz4): decoding
/// speed is what a search pays for on every hit.
#include "format/text_head.h"

#include <lz4.h>

#include <cstdint>

#include "common/byte_codec.h"
#include "format/index_format.h"

namespace canon::index_format {

namespace {

/// A head is at most kTextHeadBytes; a longer length is no head (room for an older, longer cap).
constexpr std::uint64_t kMostHeadBytes = std::uint64_t{1} << 20;
static_assert(kTextHeadBytes <= kMostHeadBytes);

}  // namespace

std::string encode_text_head(std::string_view text) {
  std::string out;
  if (text.empty()) return out;
  codec::put_varint(out, text.size());
  const std::size_t header = out.size();
  const int room = LZ4_compressBound(static_cast<int>(text.size()));
  out.resize(header + static_cast<std::size_t>(room));
  const int written = LZ4_compress_default(text.data(), out.data() + header, static_cast<int>(text.size()), room);
  out.resize(header + static_cast<std::size_t>(written > 0 ? written : 0));
  return out;
}

std::optional<std::string> decode_text_head(std::string_view bytes) {
  if (bytes.empty()) return std::string();
  codec::Reader in(bytes);
  const std::uint64_t size = in.varint();
  if (!in.ok() || size == 0 || size > kMostHeadBytes) return std::nullopt;
  const std::string_view compressed = in.rest();
  std::string text(size, '\0');
  const int got = LZ4_decompress_safe(compressed.data(), text.data(), static_cast<int>(compressed.size()),
                                      static_cast<int>(size));
  if (got < 0 || static_cast<std::uint64_t>(got) != size) return std::nullopt;
  return text;
}

}  // namespace canon::index_format
