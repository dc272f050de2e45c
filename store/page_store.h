/// @file page_store.h
/// @brief What `canon index` keeps of each parsed page, so that no page file is read twice:
/// the near-duplicate detector's view of the page (its texts) and the page's prepared Xapian
/// document. The parse writes a store file per chunk of the site (each by the chunk's thread);
/// the detector reads pages back from it at random to verify candidate pairs, and the index
/// writer reads each indexed page's document from it once, when its cluster fields are known
/// (docs/design.md, "The pipeline"; docs/index-format.md, "Page store").
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "dedup/dedup_document.h"

namespace canon::store {

/// One page as stored: owning copies of what the detector reads, and the prepared document.
struct StoredPage {
  std::string title;
  std::string text;
  std::vector<std::string> headings;
  std::string main_heading;
  std::string meta_keywords;
  std::string meta_description;
  std::vector<std::string> same_site_anchors;
  std::vector<std::string> other_site_anchors;
  /// html::ExtractedPage::cited_place.
  std::string cited_place;
  /// The page's document without its cluster fields (IndexWriter::serialise).
  std::string document;

  /// The detector's view of the page at `url`; valid while this page and `url` are.
  dedup::DedupDocument dedup_view(std::string_view url) const;
};

/// Where a page is in a store file.
using StoreOffset = std::uint64_t;

/// Where a page is in a store of several files (segments): the segment's number in the run's
/// list of segments, and the offset in it.
struct StoreLocation {
  std::uint32_t segment = 0;
  StoreOffset offset = 0;
  bool operator==(const StoreLocation&) const = default;
};

/// Appends pages to a new store file. Not thread-safe: one writer per file.
class PageStoreWriter {
public:
  /// Creates (or truncates) the file at `path`.
  static Result<std::unique_ptr<PageStoreWriter>> create(const std::filesystem::path& path);
  ~PageStoreWriter();
  /// Appends `page`; returns where it starts. Errors are sticky.
  Result<StoreOffset> append(const StoredPage& page);
  /// Bytes appended so far: a page appended at offset o takes bytes() - o after its append.
  StoreOffset bytes() const;
  /// Flushes and closes the file; the first error seen, if any.
  Status finish();

private:
  struct Rep;
  explicit PageStoreWriter(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

/// Reads pages of a finished store file at random. Thread-safe (pread).
class PageStoreReader {
public:
  static Result<std::unique_ptr<PageStoreReader>> open(const std::filesystem::path& path);
  ~PageStoreReader();
  /// The page appended at `offset`; an error (kCorruption) when the bytes there are not one.
  Result<StoredPage> read(StoreOffset offset) const;

private:
  struct Rep;
  explicit PageStoreReader(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace canon::store
