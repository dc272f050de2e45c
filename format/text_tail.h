/// @file text_tail.h
/// @brief The rest of a long page's text, past the head its document data holds, as value slot
/// kTextTailSlot keeps it: deflated (Xapian compresses document data, not values), so that the
/// text a long page's snippet may need far down costs the index little.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace canon::index_format {

/// `text` deflated, after its length as a varint.
std::string encode_text_tail(std::string_view text);

/// The text encode_text_tail() gave `bytes`; nullopt when they do not decode.
std::optional<std::string> decode_text_tail(std::string_view bytes);

}  // namespace canon::index_format
