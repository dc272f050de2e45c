/// @file page_facts.h
/// @brief What the parse learns of a page file, as one type with one codec: the record a run
/// keeps of each file (indexer::PageRecord) and the catalog entry a re-index takes it over from
/// (CatalogEntry) both are PageFacts, copied whole from one to the other, and the catalog (also
/// what the processes of a partitioned build exchange) encodes them with encode_page_facts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/byte_codec.h"
#include "common/compact_string.h"
#include "common/file_io.h"

namespace canon::store {

/// A page file as it was parsed, and what the parse made of it.
struct PageFacts {
  /// The file as read (its size and modification time) and the XXH3-64 of the bytes parsed.
  FileStamp file;
  std::uint64_t content_hash = 0;
  /// What the page limits cut (html::ExtractedPage::cuts).
  std::vector<std::string> cuts;
  /// What the parse warns of (html::ExtractedPage::warnings).
  std::vector<std::string> warnings;
  /// The encoding the page was read in (html::DecodedPage::encoding) and how it was decided
  /// (html::encoding_source_name); both empty for UTF-8.
  CompactString encoding, encoding_source;
  std::string title;
  /// The page's main heading (html::ExtractedPage::main_heading).
  std::string heading;
  /// dedup::defined_terms of the page's <dt> ids.
  std::vector<std::string> defined;
  /// dedup::listed_entries of its main content's links: sorted, without repeats.
  std::vector<std::uint32_t> listed;
  bool robots_noindex = false;
  CompactOptionalString canonical_url;
  /// The <meta http-equiv="refresh"> target, as the page says (or a crawl's HTTP redirect).
  CompactOptionalString refresh_url;

  /// These facts alone, to copy them whole (`record.facts() = entry.facts()`).
  PageFacts& facts() { return *this; }
  const PageFacts& facts() const { return *this; }
};

/// Appends `facts` to `out` (docs/index-format.md, "Page store": the catalog entry's facts).
void encode_page_facts(const PageFacts& facts, std::string& out);

/// Reads what encode_page_facts wrote from `in`; marks `in` bad when the bytes do not decode
/// (`listed` not increasing, a value out of range).
PageFacts decode_page_facts(codec::Reader& in);

}  // namespace canon::store
