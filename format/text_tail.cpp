/// @file text_tail.cpp
/// @brief Deflating a page's text tail, and inflating it a piece at a time, with zlib.
#include "format/text_tail.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>

#include "common/byte_codec.h"

namespace canon::index_format {

namespace {

/// A tail is at most kTextTailBytes (docs/index-format.md); a length past this is no tail.
constexpr std::uint64_t kMostTailBytes = std::uint64_t{1} << 24;

}  // namespace

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

struct TextTailReader::Stream {
  z_stream z{};
  bool open = false;
  ~Stream() {
    if (open) inflateEnd(&z);
  }
};

TextTailReader::TextTailReader(std::string_view bytes) : stream_(std::make_unique<Stream>()) {
  codec::Reader in(bytes);
  left_ = in.varint();
  if (!in.ok() || left_ > kMostTailBytes || inflateInit(&stream_->z) != Z_OK) {
    bad_ = true;
    left_ = 0;
    return;
  }
  stream_->open = true;
  const std::string_view deflated = in.rest();
  stream_->z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated.data()));  // zlib reads, never writes
  stream_->z.avail_in = static_cast<uInt>(deflated.size());
}

TextTailReader::~TextTailReader() = default;

bool TextTailReader::append(std::string& text, std::size_t max_bytes) {
  if (bad_ || left_ == 0) return false;
  const std::size_t before = text.size();
  const std::size_t piece = static_cast<std::size_t>(std::min<std::uint64_t>(left_, max_bytes));
  text.resize(before + piece);
  z_stream& z = stream_->z;
  z.next_out = reinterpret_cast<Bytef*>(text.data() + before);
  z.avail_out = static_cast<uInt>(piece);
  const int status = inflate(&z, Z_SYNC_FLUSH);
  const std::size_t got = piece - z.avail_out;
  text.resize(before + got);
  left_ -= got;
  // The text ends with the stream, at the length it said; anything else is not a tail.
  const bool ended = status == Z_STREAM_END;
  if ((status != Z_OK && !ended) || got == 0 || ended != (left_ == 0)) {
    bad_ = true;
    text.resize(before);
    return false;
  }
  return true;
}

std::optional<std::string> decode_text_tail(std::string_view bytes) {
  TextTailReader reader(bytes);
  std::string text;
  while (reader.append(text, std::size_t{1} << 16)) {
  }
  if (reader.bad()) return std::nullopt;
  return text;
}

}  // namespace canon::index_format
