/// @file run_store.h
/// @brief The run's page store: what it re-uses of the previous build, its segments read back, its catalog.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/collective.h"
#include "common/status.h"
#include "dedup/detectors/detector.h"
#include "indexer/records/page_record.h"
#include "indexer/reuse/previous_build.h"
#include "indexer/partitioned/record_holders.h"
#include "indexer/stages/site_links.h"
#include "indexer/input/site_plan.h"
#include "store/page_store.h"
#include "store/store_catalog.h"

namespace canon::indexer::detail {

/// What a run takes over from the index it replaces (previous_build.h); empty for a full build.
struct Reuse {
  const PreviousBuild* previous = nullptr;
  /// Per file: its catalog entry when it is unchanged, else kNoEntry (the file is parsed).
  std::vector<std::uint32_t> unchanged_entry;
  /// Per file re-used: its new stamp when it moved (FileChanges::restamped).
  std::vector<std::optional<FileStamp>> restamped;
  /// The run's segment number of each previous segment that unchanged pages are in.
  std::vector<std::uint32_t> segment_of_old;
  /// Per previous segment: whether its pages are copied into the run's new segments (it is
  /// mostly dead: start_store) rather than the segment kept.
  std::vector<bool> compact_old;

  /// File i's catalog entry, when the run re-uses it.
  const store::CatalogEntry* entry(std::size_t i) const {
    return previous != nullptr && unchanged_entry[i] != kNoEntry ? &previous->catalog.files[unchanged_entry[i]] : nullptr;
  }
  /// Where the stored page of entry `e` is in the run's store. REQUIRES: e.stored.
  store::StoreLocation location(const store::CatalogEntry& e) const { return {segment_of_old[e.store_location->segment], e.store_location->offset}; }
};

/// The run's page store, in the new index's store/ directory: first the previous store's
/// segments that unchanged pages are in (hard links: segments are never written once
/// finished), then one new segment per chunk of the site for the pages this run parses.
struct RunStore {
  std::filesystem::path dir;
  /// Segment file names, by store::StoreLocation::segment.
  std::vector<std::string> names;
  /// The segment of chunk 0.
  std::uint32_t first_new = 0;
  /// The number in the next segment's name (after this run's).
  std::uint64_t next_number = 0;

  std::filesystem::path path(std::uint32_t segment) const { return dir / names[segment]; }
  std::uint32_t segment_of_chunk(std::size_t chunk) const { return first_new + static_cast<std::uint32_t>(chunk); }
};

/// Creates the run's store in `store_dir` with the previous segments `reuse` needs (filling
/// reuse.segment_of_old) and names for `chunks` new ones. `link`: put the previous segments in
/// place (false: only name them, another process of a partitioned build puts them there).
Result<RunStore> start_store(const std::filesystem::path& store_dir, Reuse& reuse, std::size_t chunks, bool link);

/// Where the detector's documents (the site's files, by number) are stored in the run's page
/// store: a process's own files' places are in their records; in a partitioned build another
/// process's are asked of it (ask_record_holders), for the documents the detector is about to load, and
/// kept until it asks again. So no process holds the place of every page of the site (16 bytes
/// a page), only of its own and of those it measures.
class StoredPlaces {
public:
  /// `records`, `parts` and `processes` must outlive this.
  StoredPlaces(const HeldRecords& records, const RecordParts& parts, const Collective& processes)
      : records_(records), parts_(parts), processes_(processes) {}
  /// Every process gives the documents it loads next (any order, repeats allowed); each is
  /// then found by find(), as are the process's own. One ask_record_holders (none in one process):
  /// collective. Fails (kCorruption) when a message does not decode.
  Status locate(std::span<const std::uint32_t> docs);
  /// The place of `doc`'s page: one of this process's files', or of the last locate(); nullptr
  /// for another or a file without a stored page. Thread-safe (not while locate() runs).
  const store::StoreLocation* find(std::uint32_t doc) const;

private:
  const HeldRecords& records_;
  const RecordParts& parts_;
  const Collective& processes_;
  std::vector<std::pair<std::uint32_t, store::StoreLocation>> located_;  ///< sorted by document
};

/// The run's page store open for reading: a page is read back from here, never from its file
/// again (so the index and the duplicate decisions are made from the same text, even when a
/// file changes during the run). Segments are opened as they are finished. Thread-safe.
class StoreReader {
public:
  explicit StoreReader(const RunStore& store) : store_(store), readers_(store.names.size()) {}
  /// Opens the segments the run keeps from the previous build (before the parse).
  Status open_kept() { return open(0, store_.first_new); }
  /// Opens the segments the parse wrote (after it).
  Status open_new() { return open(store_.first_new, static_cast<std::uint32_t>(store_.names.size())); }

  /// The page at `at`. REQUIRES: its segment is open.
  Result<store::StoredPage> read(const store::StoreLocation& at) const { return readers_[at.segment]->read(at.offset); }
  /// A DocumentLoader over the stored pages, document d where `places` finds it (its locate()
  /// is the loader's); it refers to this object and to `places`, which must stay where they are
  /// while the loader is used. It gives a page's texts, not its URL (a process of a partitioned
  /// build does not hold every page's: the detectors read only the texts of the pages they load
  /// again). A page that cannot be read (a damaged store: the disk), or whose place was not
  /// found, is given as a page without words, which nothing is merged with, and its error kept
  /// for failed().
  dedup::DocumentLoader loader(StoredPlaces& places) {
    return dedup::DocumentLoader(
        [this, &places](std::uint32_t i, const std::function<void(const dedup::DedupDocument&)>& use) {
          const store::StoreLocation* at = places.find(i);
          auto page = at != nullptr ? read(*at)
                                    : Result<store::StoredPage>(Status::corruption(
                                          "the place of stored page " + std::to_string(i) + " is not known"));
          if (!page.ok()) {
            keep_failure(page.status());
            use(dedup::DedupDocument{});
            return;
          }
          use(page->dedup_view({}));
        },
        [this, &places](std::span<const std::uint32_t> docs) {
          if (Status located = places.locate(docs); !located.ok()) keep_failure(located);
        });
  }
  /// The first read the loader could not make, or ok.
  Status failed() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return failure_;
  }

private:
  void keep_failure(const Status& failure) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.ok()) failure_ = failure;
  }
  /// Opens segments [first, end).
  Status open(std::uint32_t first, std::uint32_t end) {
    for (std::uint32_t s = first; s < end; ++s) {
      auto reader = store::PageStoreReader::open(store_.path(s));
      if (!reader.ok()) return reader.status();
      readers_[s] = std::move(reader).value();
    }
    return Status::ok_status();
  }

  const RunStore& store_;
  std::vector<std::unique_ptr<store::PageStoreReader>> readers_;
  mutable std::mutex mutex_;
  Status failure_ = Status::ok_status();
};

/// File record `r`'s catalog entry, with its links `targets` and their `texts` (PageRecord::links
/// and link_anchors as parsed) and its stored page's segment renumbered by `segment_number`.
store::CatalogEntry catalog_entry(const PageRecord& r, const std::vector<std::uint32_t>& targets,
                                  const std::vector<std::uint32_t>& texts,
                                  const std::vector<std::uint32_t>& segment_number);

/// The page store's catalog for the next run (store_catalog.h): every file this run parsed
/// or took over, with its links as parsed, written by parts: each of `processes` writes the
/// part of its own files, `own_files` (their records and links are all it reads), with the URLs
/// and texts they link with; the first joins the parts into the catalog once all are written.
/// Drops the segments no page of any process is in (new ones no page went into, previous ones
/// whose pages were copied). A collective call; fails on every process when one could not
/// write its part.
Status write_catalog(const RunStore& store, const PlanOutline& plan, const HeldRecords& records,
                     const ParsedLinks& links, std::pair<std::uint32_t, std::uint32_t> own_files,
                     const std::vector<std::pair<std::string, std::string>>& fingerprint, std::int64_t run_started_ns,
                     const Collective& processes);

}  // namespace canon::indexer::detail
