/// @file text_head.h
/// @brief The head of a page's text (what its snippet is chosen from) as value slot
/// kTextHeadSlot keeps it: LZ4-compressed, after its length as a varint. Every hit of a search
/// reads its head, so it is kept out of the document data, which Xapian inflates with zlib on
/// every read: LZ4 decodes many times faster than zlib inflates, at the price of a head about
/// half as large again as deflated (docs/benchmarks-search.md, "Sections, filters, snippets of long pages"). The
/// tail, read rarely, stays deflated (text_tail.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace canon::index_format {

/// `text` (at most kTextHeadBytes) compressed, after its length as a varint.
std::string encode_text_head(std::string_view text);

/// The text encode_text_head() gave `bytes` ("" for no bytes: a page without text); nullopt
/// when they do not decode to the length they say.
std::optional<std::string> decode_text_head(std::string_view bytes);

}  // namespace canon::index_format
