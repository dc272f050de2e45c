/// @file pages_jsonl.h
/// @brief pages.jsonl, the record of every input page beside the index: its one encoder and its
/// one decoder (docs/index-format.md, "pages.jsonl").
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "indexer/records/page_record.h"

namespace canon::indexer {

/// One line of pages.jsonl: a field per JSON key, absent keys as empty optionals.
struct PageLine {
  std::string path;
  std::string url;  ///< empty for a path with no URL
  PageStatus status = PageStatus::kSkipped;
  std::string reason;                  ///< skipped pages
  std::optional<std::string> title;    ///< parsed pages
  std::string heading;                 ///< parsed pages with a main heading
  std::optional<double> pagerank;      ///< pages in the link graph
  std::optional<std::uint64_t> cluster;  ///< indexed and duplicate pages, with the next three
  double cluster_pagerank = 0.0;
  std::string authoritative;           ///< URL of the page the cluster is indexed under
  std::string authority_reason;
  std::optional<double> similarity;    ///< duplicates
  std::optional<std::string> redirect_to;
  std::optional<std::string> canonical;
  std::optional<std::string> url_rule;  ///< duplicates recorded by URL rules, not parsed
  bool indexed_for_query_time_collapse = false;
  std::vector<std::string> cut;        ///< what the page limits cut; absent when nothing was
  std::vector<std::string> warnings;   ///< what the parse warns of; absent for nearly every page
  /// The encoding the page was read in and how it was decided ("meta", "http", "bom",
  /// "detected", "default"); absent for UTF-8.
  std::string encoding, encoding_source;
  /// A crawl's page: the web archive record it was read from ("crawl.warc.gz@1234"); absent
  /// for a site on disk.
  std::string record;
};

/// The line (without its newline) for `page`: a JSON object, keys sorted.
std::string encode_page_line(const PageLine& page);

/// The line's page; an error (without the file name) when it is not a JSON object with string
/// `path` and a known `status`, or an indexed or duplicate page lacks `cluster` or
/// `authoritative`.
Result<PageLine> decode_page_line(std::string_view line);

/// Every line of INDEX_DIR/pages.jsonl; an error naming the file and line for a bad line, or
/// saying that INDEX_DIR is not a canon index when it has no pages.jsonl.
Result<std::vector<PageLine>> read_page_lines(const std::filesystem::path& index_dir);

}  // namespace canon::indexer
