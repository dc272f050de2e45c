/// @file parsed_part.h
/// @brief A part of a site as the parse made it: the unit a partitioned build parses, exchanges or saves, and merges.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "indexer/records/page_record.h"
#include "indexer/stages/parse_stage.h"
#include "indexer/reuse/run_store.h"
#include "store/store_catalog.h"

namespace canon::indexer::detail {

/// What the parse made of the files [first_file, end_file) of a run's plan, without the pages
/// themselves (those are in the run's store segments): one catalog entry per file in file order
/// (title, links, the stored page's place, the file's stamp: the page store catalog's format, so
/// the files are taken over as a re-index takes over unchanged files), and what the detector kept
/// of them (Detector::encode_added), when the detector can say. A one-process build is one part
/// of the whole site; a partitioned build's process parses one part and gives it to the others,
/// which take it over (DetectorPartLoader): the detector's state of its files, or, from a detector
/// without one, the files' entries, whose stored pages they read. Not their records.
struct ParsedPart {
  std::uint32_t first_file = 0;
  std::uint32_t end_file = 0;
  /// files[k] is file first_file + k; segments are the run's. Left out of a part made for the
  /// other processes when the detector's state stands for its files (PartContent::kForTakeOver).
  std::optional<store::StoreCatalog> catalog;
  std::optional<std::string> detector_state;
};

/// What make_parsed_part puts in a part.
enum class PartContent {
  /// Every file's entry with its links, and the detector's state.
  kWhole,
  /// What another process's DetectorPartLoader uses: the detector's state when it has one to give
  /// (no entries: ~0.2 KB a file that every other process received and dropped; on the 100k
  /// site with two processes, process 0 sent 13.0 MB with them, 0.75 MB without), else the
  /// files' entries without links, whose stored pages the receivers read. A
  /// partitioned build's processes exchange their parts so, each working out its own files'
  /// links (link_pages_by_owner) and writing their catalog part (write_catalog).
  kForTakeOver,
};

/// The part of files [first_file, end_file) of `records` as the parse left them (no docids yet),
/// in the segments of `store`, with what `detector` kept of them, as `content` says. The records'
/// links are ids into `urls` and `anchors` (UrlIds::views() of the run's tables); the part's
/// catalog holds only the URLs and texts its own files link with, renumbered in order of first
/// use (kForTakeOver: none, and empty tables).
/// REQUIRES: first_file <= end_file <= records.size().
ParsedPart make_parsed_part(const HeldRecords& records, std::uint32_t first_file, std::uint32_t end_file,
                            const RunStore& store, std::span<const std::string_view> urls,
                            std::span<const std::string_view> anchors, const dedup::Detector& detector,
                            PartContent content = PartContent::kWhole);

/// The bytes of `part` (docs/index-format.md, "A parsed part"): what a process sends, and what
/// save_parsed_part writes. Pure.
std::string encode_parsed_part(const ParsedPart& part);

/// The part encode_parsed_part gave `bytes`: kFailedPrecondition when it is of another format,
/// kCorruption when the bytes do not check out (cut short, a file count that is not its range's,
/// files with neither entries nor a detector state);
/// `where` names the bytes in the message.
Result<ParsedPart> decode_parsed_part(std::string_view bytes, const std::string& where);

/// Writes `part` to `path` (created or replaced) through the file system seam; an I/O error
/// names the file.
Status save_parsed_part(const std::filesystem::path& path, const ParsedPart& part);

/// The part saved at `path`: as decode_parsed_part, or the error of reading it.
Result<ParsedPart> load_parsed_part(const std::filesystem::path& path);

/// Takes parts (other processes', received or loaded) over into the detector of `run`, one after
/// another. Not thread-safe.
class DetectorPartLoader {
public:
  /// `base_url`: the run's, under which a part's files have their URLs (urls::file_url).
  DetectorPartLoader(const ParseContext& run, const RunStore& store, std::string base_url);
  /// Takes `part` over on `threads` threads: what the detector kept of its files taken from the
  /// part, or, when the part has no detector state, added from their pages in the run's store
  /// (nothing else of the part is kept: the process that parsed its files holds their records,
  /// and is asked where their pages are stored, StoredPlaces). kCorruption when the detector
  /// state does not check out, the part's entries do not match its files, or it has neither a
  /// state nor entries for its files. Nothing is written.
  /// REQUIRES: the part's files are none of those already taken; every segment it names is
  /// finished and open in `run.store_reader`.
  Status take(ParsedPart&& part, unsigned threads);

private:
  const ParseContext& run_;
  std::size_t segments_;  ///< the run store's segments
  std::string base_url_;
};

}  // namespace canon::indexer::detail
