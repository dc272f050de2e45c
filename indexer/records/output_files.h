/// @file output_files.h
/// @brief Stage 7 of `canon index`: pages.jsonl, graph.tsv, pairs.tsv and summary.json beside the index.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/collective.h"
#include "common/file_system.h"
#include "common/status.h"
#include "dedup/detectors/detector.h"
#include "indexer/records/page_record.h"
#include "indexer/partitioned/record_holders.h"
#include "indexer/index_options.h"
#include "indexer/index_summary.h"
#include "indexer/reuse/run_store.h"
#include "indexer/stages/site_links.h"
#include "indexer/input/site_plan.h"

namespace canon::indexer::detail {

/// Writes the text file `path` line by line, in pieces of 1 MiB through the file system seam
/// (common/file_system.h), so that a record file of a million pages is never a string in memory
/// (graph.tsv alone is ~1 GB there); write(line) appends a line and its newline.
class LineWriter {
 public:
  explicit LineWriter(const std::filesystem::path& path) : path_(path) {
    auto file = io::file_system().create(path);
    if (file.ok()) file_ = std::move(file).value();
    else status_ = file.status();
  }
  void write(std::string_view line) {
    buffer_.append(line).push_back('\n');
    if (buffer_.size() >= (1u << 20)) flush();
  }
  /// Appends `bytes` as they are (no newline).
  void append(std::string_view bytes) {
    buffer_.append(bytes);
    if (buffer_.size() >= (1u << 20)) flush();
  }
  /// Flushes and closes; an error if any write failed.
  Status close() {
    flush();
    if (file_ != nullptr) {
      if (Status closed = file_->close(); status_.ok()) status_ = closed;
      file_.reset();
    }
    if (!status_.ok()) return Status::io_error("cannot write '" + path_.string() + "': " + status_.message());
    return Status::ok_status();
  }

 private:
  void flush() {
    if (status_.ok() && file_ != nullptr) status_ = file_->append(buffer_);
    buffer_.clear();
  }
  std::filesystem::path path_;
  std::unique_ptr<io::WritableFile> file_;
  std::string buffer_;
  Status status_ = Status::ok_status();
};

/// summary.json's object: the counts, re-use and stage times of `s`, and the parameters of `o`.
nlohmann::json summary_json(const IndexSummary& s, const IndexOptions& o);

/// Stage 3's record: graph.tsv beside the index (docs/index-format.md), a line per link of the
/// graph, by source then target. Written by parts: each of `processes` writes the rows it holds
/// (site.rows) to a file of its own, the URLs of the nodes they link to asked of the processes
/// holding those nodes (site.node_parts), and the first joins the files in rank order. Reads only
/// the records of this process's nodes. Collective call; fails on every process when one could
/// not write.
Status write_link_graph(const std::filesystem::path& work_dir, const HeldRecords& records, const SiteGraph& site,
                        const Collective& processes);

/// Stage 7: pages.jsonl and pairs.tsv beside the index (docs/index-format.md), by parts: each
/// process writes the lines of the records it holds (`parts`), asking the other processes for
/// the URLs of other pages its lines name, and the first joins (pairs.tsv) or merges by path
/// (pages.jsonl) the parts. Reads only the records this process holds. The counts of every
/// process's pages by status in `summary`. Collective call; fails on every process when one
/// could not write.
Status write_record_files(const std::filesystem::path& work_dir, const HeldRecords& records,
                          const RecordParts& parts, const dedup::Clusters& clusters, const IndexOptions& options,
                          const Collective& processes, IndexSummary& summary);

}  // namespace canon::indexer::detail
