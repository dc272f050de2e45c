/// @file parse_stage.h
/// @brief Stage 2 of `canon index`: every file parsed, or taken over from the previous build, chunk by chunk.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/collective.h"
#include "common/parallel.h"
#include "common/progress.h"
#include "common/status.h"
#include "dedup/sketches/boilerplate.h"
#include "dedup/detectors/detector.h"
#include "html/html_extract.h"
#include "indexer/chunk_layout.h"
#include "indexer/records/page_record.h"
#include "indexer/reuse/run_store.h"
#include "indexer/input/site_plan.h"
#include "indexer/input/url_rule_duplicates.h"
#include "store/page_store.h"

namespace canon::indexer::detail {

class RecordParts;  // record_holders.h

/// A page file as parsed, with its size and modification time as it was read.
struct ParsedFile {
  html::ExtractedPage page;
  FileStamp stamp;
  std::uint64_t content_hash = 0;  ///< of the bytes read (before decoding)
  /// The encoding the bytes were read in (html::decode_page) and how it was decided; both
  /// empty for UTF-8.
  std::string encoding, encoding_source;
  /// What the page lists (dedup::listed_entries of its main content's hrefs, which are then
  /// dropped from `page`).
  std::vector<std::uint32_t> listed;
};

/// Reads and parses one page file within `limits` (decoded by the charset of its Content-Type,
/// when it has one); an error is the reason the page is skipped.
Result<ParsedFile> read_page(const SiteFile& file, const std::string& url, const html::PageLimits& limits);

/// What the near-duplicate detector sees of a page: views into `page` and `url`.
dedup::DedupDocument dedup_document(const html::ExtractedPage& page, const std::string& url);

/// What parsing a file costs besides its bytes, in bytes: opening and reading it, a parser, a
/// record, a stored page: what a site's many small files cost against its few large ones
/// (docs/partitioned-build.md, "Who owns what").
inline constexpr std::uint64_t kParseFileCost = 16384;

/// What parsing each chunk of `chunks` costs: per file, kParseFileCost + its size in bytes, or 1
/// for a file a previous build lends (`reuse`: taken over, not read); the files `plan` does not
/// have (another process's part: SitePlan::keep_part) count nothing.
std::vector<std::uint64_t> chunk_work(const ChunkLayout& chunks, const SitePlan& plan, const Reuse& reuse);

/// Gives each of `processes` a contiguous run of `chunks` (ChunkLayout::process_first), of about
/// equal `work` (chunk_work): not by count alone, as a site's large pages gather in some of its
/// folders (rust-doc's first half of files by path holds 28 % of its bytes). The first
/// process cuts and tells the others, so that all agree even if the site changed between their
/// walks. Collective; fails (kCorruption) when what it is told does not decode.
Status share_chunks(ChunkLayout& chunks, const std::vector<std::uint64_t>& work, const Collective& processes);

/// The first status that is not ok, or ok.
Status first_error(const std::vector<Status>& statuses);

/// The pages of the site sample (dedup::site_sample), parsed once for Detector::learn_site and
/// taken from here by the parse instead of being read again.
class SamplePages {
public:
  /// Parses the sample's pages that serve their URL on `threads` threads; those `reuse` has
  /// unchanged are read from `store_reader` instead.
  SamplePages(const SitePlan& plan, const html::PageLimits& limits, unsigned threads, const Reuse& reuse,
              const StoreReader& store_reader)
      : limits_(limits), files_(dedup::site_sample(static_cast<std::uint32_t>(plan.file_count()))), pages_(files_.size()),
        stored_pages_(files_.size()), stored_status_(files_.size(), Status::ok_status()) {
    // The largest files first: one large page parsed last keeps a thread busy alone (rust-doc:
    // about 0.4 s of the sample's 0.9 on 2 threads). Each page lands in its own slot.
    std::vector<std::uint64_t> bytes(files_.size());
    for (std::size_t s = 0; s < files_.size(); ++s) bytes[s] = plan.file_size(files_[s]);
    const std::vector<std::size_t> largest_first = heaviest_first(bytes);
    parallel_for(files_.size(), threads, [&](std::size_t turn, std::size_t) {
      const std::size_t s = largest_first[turn];
      const std::uint32_t i = files_[s];
      if (!plan.serves_url(i) || plan.is_redirect(i)) return;
      if (const store::CatalogEntry* entry = reuse.entry(i)) {
        if (!entry->store_location) return;  // a redirect or noindex page: not learnt from
        auto page = store_reader.read(reuse.location(*entry));
        if (page.ok()) stored_pages_[s] = std::move(page).value();
        else stored_status_[s] = page.status();
        return;
      }
      pages_[s] = read_page(plan.file(i), plan.url(i).value(), limits_);
    });
  }
  /// The first stored page that could not be read (a damaged store), or ok.
  Status failed() const { return first_error(stored_status_); }
  /// What the detector learns the site's repeated text from: the sample's parsed pages that
  /// are neither redirects nor marked noindex.
  /// The documents view the sample's pages and their URLs, held here until drop_stored().
  std::vector<dedup::DedupDocument> documents(const SitePlan& plan) {
    std::vector<dedup::DedupDocument> docs;
    urls_.assign(files_.size(), std::string());
    for (std::size_t s = 0; s < files_.size(); ++s) {
      if (stored_pages_[s]) {
        urls_[s] = plan.url(files_[s]).value();
        docs.push_back(stored_pages_[s]->dedup_view(urls_[s]));
        continue;
      }
      const auto& page = pages_[s];
      if (!page || !page->ok() || (*page)->page.refresh_url || (*page)->page.robots_noindex) continue;
      urls_[s] = plan.url(files_[s]).value();
      docs.push_back(dedup_document(page->value().page, urls_[s]));
    }
    return docs;
  }
  /// File i's page, moved out when the sample parsed it (each is taken once, by the thread
  /// parsing file i), else read and parsed now.
  Result<ParsedFile> take(const SitePlan& plan, std::size_t i) {
    const auto at = std::lower_bound(files_.begin(), files_.end(), i);
    if (at != files_.end() && *at == i && pages_[at - files_.begin()]) {
      Result<ParsedFile> page = std::move(*pages_[at - files_.begin()]);
      pages_[at - files_.begin()].reset();
      return page;
    }
    return read_page(plan.file(i), plan.url(i).value(), limits_);
  }
  /// Drops the pages read from the store (after learn_site).
  void drop_stored() {
    stored_pages_ = {};
    urls_ = {};
  }
  /// Drops the parsed pages of the files outside [first, end): another process parses them.
  void drop_outside(std::size_t first, std::size_t end) {
    for (std::size_t s = 0; s < files_.size(); ++s) {
      if (files_[s] < first || files_[s] >= end) pages_[s].reset();
    }
  }

private:
  const html::PageLimits& limits_;
  std::vector<std::uint32_t> files_;
  std::vector<std::optional<Result<ParsedFile>>> pages_;
  std::vector<std::optional<store::StoredPage>> stored_pages_;
  std::vector<Status> stored_status_;
  std::vector<std::string> urls_;  ///< the URLs documents() gave views of
};

/// What stage 2 works with for every file.
struct ParseContext {
  const SitePlan& plan;
  const UrlRuleDuplicates& by_rule;
  const Reuse& reuse;
  SamplePages& sample;
  dedup::Detector& detector;
  const StoreReader& store_reader;
  UrlIds& url_ids;
  AnchorIds& anchor_ids;
  /// False when the detector holds what it keeps of the files taken over already (another
  /// process's part, Detector::add_encoded): their stored pages are then not read for it.
  bool add_taken_over = true;
};

/// File i into `r`: what the walk says of it, then recorded by the URL rules, taken over from its
/// catalog entry in `run.reuse` (recorded as unreadable when the entry says so), or parsed into
/// `store` (segment `segment`; null when nothing is to be parsed or written).
Status record_file(ParseContext& run, std::size_t i, store::PageStoreWriter* store, std::uint32_t segment,
                   PageRecord& r);

/// Stage 2: every file parsed, or taken over from the previous build, on all threads. Each
/// chunk of consecutive files is done by one thread, which keeps the pages it parses in the
/// chunk's new segment of the store (their texts and prepared documents) and hands every page
/// to the detector. The walk's skipped paths are recorded after the files. A process of a
/// partitioned build parses its own chunks and returns the records of its part (`parts`).
Result<HeldRecords> parse_site(ParseContext& run, const ChunkLayout& chunks, const RunStore& store,
                               const std::string& base_url, unsigned threads, const std::string& stage,
                               const RecordParts& parts, const Collective& processes, Progress& progress);

}  // namespace canon::indexer::detail
