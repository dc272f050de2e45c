/// @file text_tail.h
/// @brief The rest of a long page's text, past the head its document data holds, as value slot
/// kTextTailSlot keeps it: deflated (Xapian compresses document data, not values), so that the
/// text a long page's snippet may need far down costs the index little; read a piece at a time,
/// so that a search stops inflating once it found its words.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace canon::index_format {

/// `text` deflated, after its length as a varint.
std::string encode_text_tail(std::string_view text);

/// Reads the text encode_text_tail() gave `bytes`, a piece at a time. Views `bytes`: they must
/// outlive it.
class TextTailReader {
public:
  explicit TextTailReader(std::string_view bytes);
  ~TextTailReader();
  TextTailReader(const TextTailReader&) = delete;
  TextTailReader& operator=(const TextTailReader&) = delete;
  /// Appends up to `max_bytes` (> 0) more of the text to `text`; false, appending nothing, once
  /// the text has ended or when the bytes do not decode (bad()).
  bool append(std::string& text, std::size_t max_bytes);
  /// True when the bytes are not a tail, or hold another length of text than they say.
  bool bad() const { return bad_; }

private:
  struct Stream;
  std::unique_ptr<Stream> stream_;
  std::uint64_t left_ = 0;  // bytes of text still to come
  bool bad_ = false;
};

/// The whole text encode_text_tail() gave `bytes`; nullopt when they do not decode.
std::optional<std::string> decode_text_tail(std::string_view bytes);

}  // namespace canon::index_format
