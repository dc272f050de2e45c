/// @file store_catalog.h
/// @brief The page store's catalog (INDEX_DIR/store/catalog): per input file of the run that
/// built the index, what a later run needs to re-use the file without reading it again: its
/// stamp (size, modification time, content hash), what the parse made of it, where its stored
/// page is, and its document in the index. Byte format: docs/index-format.md, "Page store".
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "store/page_facts.h"
#include "store/page_store.h"

namespace canon::store {

/// The catalog's format version; a catalog of another version is not read (a full rebuild).
inline constexpr std::uint32_t kStoreCatalogVersion = 13;

/// One input file as a run parsed it, or tried to: its PageFacts (the file as read and what
/// the parse made of it, as the run's record of it had them), then where its links go, its
/// stored page and its document.
struct CatalogEntry : PageFacts {
  std::string path;  ///< relative to the site root
  /// Why the file could not be parsed (cannot be read, not HTML); empty when it was. Such a
  /// file is read again by the next run, whatever its stamp (a permission can change without
  /// its modification time), and has no other fields.
  std::string unreadable;
  /// The followed links' targets, as indexes into StoreCatalog::urls.
  std::vector<std::uint32_t> links;
  /// Each link's text (PageRecord::link_anchors), as an index into StoreCatalog::anchors or
  /// UINT32_MAX for none; empty, or as many as `links`.
  std::vector<std::uint32_t> link_anchors;
  /// The stored page, for pages handed to the detector, and the bytes its record takes.
  std::optional<StoreLocation> store_location;
  std::uint64_t store_bytes = 0;
  /// The page's document in the index's Xapian database (0: none) and the digests of what it
  /// was written from (IndexWriter::digests), so that a re-index rewrites only what changed.
  std::uint32_t docid = 0;
  std::uint64_t terms_digest = 0;
  std::uint64_t fields_digest = 0;
  std::uint64_t data_digest = 0;
};

/// The whole catalog.
struct StoreCatalog {
  /// What the stored data depends on besides the files (canon's version, the base URL, the page
  /// limits), as name/value pairs: a store is re-used only under the same fingerprint.
  std::vector<std::pair<std::string, std::string>> fingerprint;
  /// When the run that wrote the catalog began (ns since the epoch): a file modified after that
  /// may have changed without its stamp changing, so a re-index compares its content hash.
  std::int64_t run_started_ns = 0;
  /// Segment files of the store, by StoreLocation::segment.
  std::vector<std::string> segments;
  /// The number the next new segment's file name takes.
  std::uint64_t next_segment = 0;
  /// Link targets, referred to by CatalogEntry::links.
  std::vector<std::string> urls;
  /// Link texts (anchor_key()s), referred to by CatalogEntry::link_anchors.
  std::vector<std::string> anchors;
  /// Sorted by path.
  std::vector<CatalogEntry> files;
};

/// The bytes write_store_catalog() writes for `catalog`. Pure.
std::string encode_store_catalog(const StoreCatalog& catalog);

/// Writes `catalog` to `path` (created or replaced). An I/O error when it cannot be written.
Status write_store_catalog(const std::filesystem::path& path, const StoreCatalog& catalog);

/// Writes one part of a catalog to `path`: the link target URLs and link texts its entries refer
/// to, then the entries file_at(0) .. file_at(file_count - 1), made and written one at a time (about
/// 1 MiB of bytes held), so that a large site's entries are never held whole. A partitioned
/// build's process writes the part of its own files; write_store_catalog_of_parts joins them.
Status write_catalog_part(const std::filesystem::path& path, const std::vector<std::string>& urls,
                          const std::vector<std::string>& anchors, std::size_t file_count,
                          const std::function<CatalogEntry(std::size_t)>& file_at);

/// Writes to `path` the catalog `head` (its urls, anchors and files are not read) with the parts
/// at `part_paths` (write_catalog_part), in order, copied a MiB at a time. Read back, it is one
/// catalog: the parts' files one after the other, their URL and text tables joined (each entry's
/// ids moved past the tables of the parts before it).
Status write_store_catalog_of_parts(const std::filesystem::path& path, const StoreCatalog& head,
                                    const std::vector<std::filesystem::path>& part_paths);

/// The catalog whose bytes are `bytes` (as write_store_catalog writes them): kFailedPrecondition
/// when it is of another format version, kCorruption when the bytes do not check out (`where`
/// names them in the message).
Result<StoreCatalog> decode_store_catalog(std::string_view bytes, const std::string& where);

/// Reads the catalog at `path`: kNotFound when there is none, kFailedPrecondition when it is of
/// another format version, kCorruption when its bytes do not check out.
Result<StoreCatalog> read_store_catalog(const std::filesystem::path& path);

}  // namespace canon::store
