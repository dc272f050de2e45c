/// @file previous_build.h
/// @brief What `canon index` re-uses of the index it replaces: the page store's catalog and
/// segments, and which of the site's files are unchanged since (docs/design.md, "Re-indexing").
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <optional>
#include <vector>

#include "common/file_io.h"
#include "common/status.h"
#include "indexer/stages/index_writer.h"
#include "html/html_extract.h"
#include "indexer/input/page_bytes.h"
#include "indexer/input/site_plan.h"
#include "store/store_catalog.h"

namespace canon::indexer {

/// What a page store depends on besides the site's files: canon's version (its parser), the base
/// URL (every URL in it), the URL rules (which pages are recorded without being parsed: a digest
/// of the rule file, empty for none) and the page limits (what a page keeps).
std::vector<std::pair<std::string, std::string>> store_fingerprint(const std::string& base_url,
                                                                    const std::string& url_rules_digest,
                                                                    const html::PageLimits& limits);

/// A previous index whose page store can be re-used.
struct PreviousBuild {
  std::filesystem::path store_dir;
  std::filesystem::path xapian_dir;
  store::StoreCatalog catalog;
  /// Each catalogued path's entry in catalog.files.
  std::unordered_map<std::string_view, std::uint32_t> entry_of_path;
};

/// The index at `index_dir` opened for re-use under `fingerprint`; when it cannot be re-used,
/// an error whose message says why (no index yet, no page store, another canon version, other
/// options, a damaged catalog), for the run to report as the reason of its full build.
Result<PreviousBuild> open_previous_build(const std::filesystem::path& index_dir,
                                          const std::vector<std::pair<std::string, std::string>>& fingerprint);


/// No catalog entry: a new file.
inline constexpr std::uint32_t kNoEntry = UINT32_MAX;

/// How the site's files compare with the previous build's.
struct FileChanges {
  /// Per file of the plan: its catalog entry when the file's bytes are unchanged (the run re-uses
  /// it without parsing it), else kNoEntry.
  std::vector<std::uint32_t> unchanged_entry;
  /// Per file re-used whose stamp moved (the same bytes written again, or touched): its new
  /// stamp, which its document takes (IndexWriter::restamp).
  std::vector<std::optional<FileStamp>> restamped;
  std::size_t added = 0;      ///< files with no entry
  std::size_t changed = 0;    ///< files whose bytes changed
  std::size_t unchanged = 0;  ///< files re-used, restamped ones included
  std::size_t restamped_count = 0;  ///< of those, files whose stamp moved
  std::size_t retried = 0;    ///< files the previous run could not read, read again
  std::size_t deleted = 0;    ///< entries whose file is gone (or no longer serves its URL)
};

/// Compares each file of `plan` that serves its URL with its entry: never unchanged when the
/// previous run could not read it (store::CatalogEntry::unreadable); unchanged when its size and
/// modification time are the entry's, unless the file was modified less than a second before the
/// previous run began or after it (when a change need not move the time); otherwise, and when
/// the stamp moved, unchanged when the bytes a run parses (read_page_bytes) have the entry's
/// content hash (a file whose size changed, under the page limit, is changed without being read). Stats (and where needed, reads) the files on `threads` threads.
/// Files marked in `by_url_rule` (recorded by URL rules, never read; empty: none) are neither
/// compared nor counted, but their entries are not deleted ones.
FileChanges compare_files(const SitePlan& plan, const PreviousBuild& previous, const html::PageLimits& limits,
                          unsigned threads, const std::vector<bool>& by_url_rule = {});

/// `changes` as bytes, for the other processes of a partitioned build (one comparison, made by
/// the first process, so that all agree on what is re-used). Pure.
std::string encode_file_changes(const FileChanges& changes);
/// The FileChanges whose bytes are `bytes` (encode_file_changes), for a plan of `files` files;
/// kCorruption when they do not check out.
Result<FileChanges> decode_file_changes(std::string_view bytes, std::size_t files);

}  // namespace canon::indexer
