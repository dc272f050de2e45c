/// @file output_files.cpp
/// @brief The records beside the index, written line by line, and the run's summary as JSON.
#include "indexer/records/output_files.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <optional>
#include <queue>
#include <span>

#include <nlohmann/json.hpp>

#include "common/byte_codec.h"
#include "common/file_system.h"
#include "format/index_format.h"
#include "indexer/records/pages_jsonl.h"
#include "indexer/partitioned/partitioned_build.h"
#include "ranking/out_link_rows.h"

namespace canon::indexer::detail {
namespace fs = std::filesystem;

namespace {

/// pages.jsonl's line for record `r`; `authoritative_url`, the URL of its cluster's
/// authoritative page (unread for a page outside the detector's clusters).
PageLine page_line(const PageRecord& r, std::string_view authoritative_url, bool index_duplicates) {
  PageLine line;
  line.path = r.path;
  line.url = r.url;
  line.status = r.status;
  line.reason = r.reason;
  if (r.parsed && !r.url_rule) line.title = r.title;
  line.heading = r.heading;
  if (r.node) line.pagerank = r.pagerank;
  if (r.cluster) {
    line.cluster = *r.cluster;
    line.cluster_pagerank = r.cluster_pagerank;
    line.authoritative = authoritative_url;
    line.authority_reason = r.authority_reason;
  }
  line.similarity = r.similarity;
  line.redirect_to = r.redirect_to.optional();
  line.canonical = r.canonical_url.optional();
  line.url_rule = r.url_rule.optional();
  line.cut = r.cuts;
  line.warnings = r.warnings;
  line.encoding = r.encoding;
  line.encoding_source = r.encoding_source;
  line.record = r.archive_record;
  line.indexed_for_query_time_collapse = index_duplicates && r.status == PageStatus::kDuplicate;
  return line;
}

/// Each pair of places with the place preferred and the clusters' votes (dedup/authority/places.h).
nlohmann::json place_preferences_json(const std::vector<dedup::PlacePreference>& preferences) {
  nlohmann::json out = nlohmann::json::array();
  for (const dedup::PlacePreference& p : preferences) {
    const bool first = p.preferred < p.other;  // the votes are by the pair's order
    out.push_back({{"preferred", p.preferred},
                   {"over", p.other},
                   {"clusters", p.votes.shared},
                   {"closer_to_entry_pages", first ? p.votes.first_closer : p.votes.second_closer},
                   {"farther", first ? p.votes.second_closer : p.votes.first_closer}});
  }
  return out;
}

}  // namespace

/// summary.json's `parameters`: what the run was told, and the site's directory (where `canon
/// serve` finds the pages).
nlohmann::json parameters_json(const IndexSummary& s, const IndexOptions& o) {
  nlohmann::json parameters = {
      {"base_url", s.base_url.empty() ? o.base_url : s.base_url},
      {"detector", o.detector},
      {"shingle_size", o.dedup.shingle_size},
      {"num_hashes", o.dedup.num_hashes},
      {"threshold", o.dedup.threshold},
      {"title_rule", o.dedup.title_rule},
      {"related_title_threshold", o.dedup.related_title_threshold},
      {"renamed_threshold", o.dedup.renamed_threshold},
      {"moved_threshold", o.dedup.moved_threshold},
      {"copy_threshold", o.dedup.copy_threshold},
      {"parallel_threshold", o.dedup.parallel_threshold},
      {"discount_boilerplate", o.dedup.discount_boilerplate},
      {"split_chains", o.split_chains},
      {"seed", o.dedup.seed},
      {"damping", o.pagerank.damping},
      {"tolerance", o.pagerank.tolerance},
      {"max_iterations", o.pagerank.max_iterations},
      {"honour_canonical", o.honour_canonical},
      {"collapse", index_format::to_string(o.collapse)},
      {"url_rules_digest", o.url_rules_digest}};
  if (o.archives.empty()) {
    std::error_code ec;
    parameters["site_dir"] = std::filesystem::weakly_canonical(std::filesystem::absolute(o.site_dir, ec), ec).string();
  }
  return parameters;
}

namespace {

/// summary.json's `exchanged_bytes` of one process: the bytes sent and received in each stage.
nlohmann::json exchanged_json(const std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>>& stages) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [stage, bytes] : stages) out[stage] = {{"sent", bytes.first}, {"received", bytes.second}};
  return out;
}

/// summary.json's `memory` of one process: resident and peak bytes at the end of each stage.
nlohmann::json memory_json(const std::vector<std::pair<std::string, MemoryUse>>& stages) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [stage, use] : stages) {
    out[stage] = {{"resident_bytes", use.resident_bytes}, {"peak_resident_bytes", use.peak_resident_bytes}};
  }
  return out;
}

/// summary.json's `processes.by_process`: each process's bytes exchanged and memory, stage by
/// stage, by rank.
nlohmann::json by_process_json(const std::vector<ProcessFigures>& by_process) {
  nlohmann::json out = nlohmann::json::array();
  for (const ProcessFigures& figures : by_process) {
    out.push_back({{"exchanged_bytes", exchanged_json(figures.exchanged)}, {"memory", memory_json(figures.memory)}});
  }
  return out;
}

}  // namespace

nlohmann::json summary_json(const IndexSummary& s, const IndexOptions& o) {
  nlohmann::json stages = nlohmann::json::object();
  for (const auto& [stage, seconds] : s.stage_seconds) stages[stage] = seconds;
  nlohmann::json cpu = nlohmann::json::object();
  nlohmann::json system_cpu = nlohmann::json::object();
  nlohmann::json storage = nlohmann::json::object();
  for (const auto& [stage, use] : s.stage_use) {
    cpu[stage] = use.cpu_seconds;
    system_cpu[stage] = use.system_cpu_seconds;
    storage[stage] = {{"read_bytes", use.read_bytes}, {"written_bytes", use.written_bytes}, {"major_faults", use.major_faults}};
  }
  nlohmann::json summary = {
      {"input_files", s.input_files},
      {"status_counts", s.status_counts},
      {"pages_with_warnings", s.pages_with_warnings},
      {"graph", {{"nodes", s.graph_nodes}, {"edges", s.graph_edges}}},
      {"duplicate_clusters", s.duplicate_clusters},
      {"candidates_examined", s.candidates_examined},
      {"near_duplicate_pairs", s.near_duplicate_pairs},
      {"split_off", s.split_off},
      {"split_for_definitions", s.split_for_definitions},
      {"place_preferences", place_preferences_json(s.place_preferences)},
      {"pagerank", {{"iterations", s.pagerank_iterations}, {"converged", s.pagerank_converged}}},
      {"url_rules", {{"rules", s.url_rules}, {"pages_not_parsed", s.url_rule_duplicates}}},
      {"parameters", parameters_json(s, o)},
      {"reindex",
       {{"full_because", s.reindex.full_because},
        {"files", {{"new", s.reindex.added}, {"changed", s.reindex.changed}, {"deleted", s.reindex.deleted}, {"retried", s.reindex.retried},
                   {"unchanged", s.reindex.unchanged}, {"restamped", s.reindex.restamped}}},
        {"index_rewritten_because", s.reindex.index_rewritten_because},
        {"documents",
         {{"added", s.reindex.documents_added}, {"rewritten", s.reindex.documents_rewritten},
          {"updated", s.reindex.documents_updated}, {"removed", s.reindex.documents_removed},
          {"kept", s.reindex.documents_kept}}}}},
      {"seconds", stages},
      {"cpu_seconds", cpu},
      {"system_cpu_seconds", system_cpu},
      {"storage", storage},
      {"memory", memory_json(s.stage_memory)},
      {"processes", {{"count", s.processes}, {"exchanged_bytes", exchanged_json(s.stage_exchanged)}}},
  };
  if (!s.by_process.empty()) summary["processes"]["by_process"] = by_process_json(s.by_process);
  if (s.archives) {
    const ArchiveCounts& a = *s.archives;
    summary["archives"] = {{"files", a.archives},
                           {"records", a.records},
                           {"captures",
                            {{"pages", a.pages},
                             {"redirects", a.redirects},
                             {"older_captures", a.older_captures},
                             {"skipped", a.skipped},
                             {"other_schemes", a.other_schemes}}},
                           {"problems", s.archive_problems}};
  }
  return summary;
}

namespace {

/// `parts` appended to a new file at `path` in order, a MiB at a time.
Status join_files(const std::vector<fs::path>& parts, const fs::path& path) {
  auto out = io::file_system().create(path);
  if (!out.ok()) return Status::io_error("cannot write '" + path.string() + "': " + out.status().message());
  std::string buffer(std::size_t{1} << 20, '\0');
  for (const fs::path& part : parts) {
    auto in = io::file_system().open(part);
    if (!in.ok()) return Status::io_error("cannot read '" + part.string() + "': " + in.status().message());
    for (std::uint64_t offset = 0;;) {
      auto got = in.value()->read_some(offset, buffer.data(), buffer.size());
      if (!got.ok()) return Status::io_error("cannot read '" + part.string() + "': " + got.status().message());
      if (got.value() == 0) break;
      if (Status s = out.value()->append(std::string_view(buffer.data(), got.value())); !s.ok()) {
        return Status::io_error("cannot write '" + path.string() + "': " + s.message());
      }
      offset += got.value();
    }
  }
  if (Status s = out.value()->close(); !s.ok()) return Status::io_error("cannot write '" + path.string() + "': " + s.message());
  return Status::ok_status();
}

/// A file of part `part` of a file written by parts: `path` with ".part-N" appended.
fs::path part_path(const fs::path& path, unsigned part) {
  return fs::path(path).concat(".part-" + std::to_string(part));
}

/// The parts of `path` every process wrote (part_path) joined into it by the first, in rank
/// order, and removed. Collective; fails on every process when one could not write its part
/// (`written`) or the first could not join them.
Status join_parts(const fs::path& path, const Status& written, const Collective& processes, const std::string& what) {
  if (Status all = status_of_all_processes(written, processes, "write its part of " + what); !all.ok()) return all;
  Status joined = Status::ok_status();
  if (processes.rank() == 0) {
    std::vector<fs::path> parts;
    for (unsigned p = 0; p < processes.size(); ++p) parts.push_back(part_path(path, p));
    joined = join_files(parts, path);
    std::error_code ec;
    for (const fs::path& part : parts) fs::remove(part, ec);
  }
  return status_of_all_processes(joined, processes, "join " + what);
}

/// A part of pages.jsonl as its process writes it: each line after its key (the record's path),
/// in key order, both with a 4-byte length before them, so that the first process merges the
/// parts by key without parsing the lines (merge_sorted_parts).
class SortedPartWriter {
public:
  explicit SortedPartWriter(const fs::path& path) : out_(path) {}
  void write(std::string_view key, std::string_view line) {
    entry_.clear();
    codec::put_fixed(entry_, key.size(), 4);
    entry_.append(key);
    codec::put_fixed(entry_, line.size(), 4);
    entry_.append(line);
    out_.append(entry_);
  }
  Status close() { return out_.close(); }

private:
  LineWriter out_;
  std::string entry_;
};

/// Reads what a SortedPartWriter wrote, entry by entry, a MiB at a time.
class SortedPartReader {
public:
  explicit SortedPartReader(const fs::path& path) : path_(path) {
    auto file = io::file_system().open(path);
    if (file.ok()) file_ = std::move(file).value();
    else status_ = Status::io_error("cannot read '" + path.string() + "': " + file.status().message());
  }
  /// The next entry into `key` and `line` (views valid until the next call); false at the end
  /// of the part or when it could not be read (status()).
  bool next(std::string_view& key, std::string_view& line) {
    if (!status_.ok() || !fill(4)) return false;
    const std::size_t key_size = codec::get_fixed(buffer_.data() + at_, 4);
    if (!fill(4 + key_size + 4)) return truncated();
    const std::size_t line_size = codec::get_fixed(buffer_.data() + at_ + 4 + key_size, 4);
    if (!fill(8 + key_size + line_size)) return truncated();
    key = std::string_view(buffer_).substr(at_ + 4, key_size);
    line = std::string_view(buffer_).substr(at_ + 8 + key_size, line_size);
    at_ += 8 + key_size + line_size;
    return true;
  }
  const Status& status() const { return status_; }

private:
  /// Whether `bytes` bytes from at_ on are in the buffer, reading more as needed; false at the
  /// file's end (or on an error, in status_).
  bool fill(std::size_t bytes) {
    if (buffer_.size() - at_ >= bytes) return true;
    buffer_.erase(0, at_);
    at_ = 0;
    while (buffer_.size() < bytes) {
      const std::size_t before = buffer_.size();
      buffer_.resize(before + std::max<std::size_t>(std::size_t{1} << 20, bytes - before));
      auto got = file_->read_some(offset_, buffer_.data() + before, buffer_.size() - before);
      if (!got.ok()) {
        status_ = Status::io_error("cannot read '" + path_.string() + "': " + got.status().message());
        buffer_.resize(before);
        return false;
      }
      buffer_.resize(before + got.value());
      offset_ += got.value();
      if (got.value() == 0) return false;
    }
    return true;
  }
  bool truncated() {
    status_ = Status::corruption("'" + path_.string() + "' ends inside an entry");
    return false;
  }
  fs::path path_;
  std::unique_ptr<io::ReadableFile> file_;
  std::string buffer_;
  std::size_t at_ = 0;
  std::uint64_t offset_ = 0;
  Status status_ = Status::ok_status();
};

/// The lines of `parts` (SortedPartWriter's files, each in key order) into the text file `path`,
/// in key order (equal keys in part order): a merge that holds one entry of each part, the next
/// found in a heap of the parts' heads (log P comparisons a line).
Status merge_sorted_parts(const std::vector<fs::path>& parts, const fs::path& path) {
  std::vector<std::unique_ptr<SortedPartReader>> readers;
  for (const fs::path& part : parts) readers.push_back(std::make_unique<SortedPartReader>(part));
  struct Head {
    std::string_view key, line;  ///< views into the reader of `part`, valid until its next()
    std::size_t part = 0;
  };
  const auto after = [](const Head& x, const Head& y) { return x.key != y.key ? x.key > y.key : x.part > y.part; };
  std::priority_queue<Head, std::vector<Head>, decltype(after)> heads(after);
  for (std::size_t i = 0; i < readers.size(); ++i) {
    Head head{{}, {}, i};
    if (readers[i]->next(head.key, head.line)) heads.push(head);
  }
  LineWriter out(path);
  while (!heads.empty()) {
    Head head = heads.top();
    heads.pop();
    out.write(head.line);
    if (readers[head.part]->next(head.key, head.line)) heads.push(head);
  }
  for (const auto& reader : readers) {
    if (!reader->status().ok()) return reader->status();
  }
  return out.close();
}

/// pairs.tsv's line for `pair`.
std::string pair_line(std::string_view url_a, std::string_view url_b, double similarity) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, similarity).ptr;
  std::string line;
  line.append(url_a).append(1, '\t').append(url_b).append(1, '\t').append(text, end);
  return line;
}

/// pairs.tsv (the detector's verified pairs, before union-find, for `canon eval dedup`), by
/// parts: each process the pairs whose first page it holds (the pairs are in document order, so
/// the parts in rank order are the file), the URLs of their second pages asked of their holders.
Status write_pairs(const fs::path& pairs_path, const HeldRecords& records, const RecordParts& parts,
                   std::span<const dedup::SimilarPair> pairs, const Collective& processes) {
  const unsigned me = processes.rank();
  const auto mine_first = std::partition_point(pairs.begin(), pairs.end(),
                                               [&](const dedup::SimilarPair& p) { return p.a < parts.first(me); });
  const auto mine_end = std::partition_point(mine_first, pairs.end(),
                                             [&](const dedup::SimilarPair& p) { return p.a < parts.end(me); });
  const std::span<const dedup::SimilarPair> mine(mine_first, mine_end);
  std::vector<std::uint32_t> seconds;
  for (const dedup::SimilarPair& pair : mine) seconds.push_back(pair.b);
  auto urls = ask_record_holders(seconds, parts, url_answer(records), processes);
  if (!urls.ok()) return urls.status();
  const bool alone = processes.size() == 1;
  LineWriter out(alone ? pairs_path : part_path(pairs_path, me));
  for (std::size_t i = 0; i < mine.size(); ++i) out.write(pair_line(records[mine[i].a].url, urls.value()[i], mine[i].similarity));
  const Status written = out.close();
  if (alone) return written;
  return join_parts(pairs_path, written, processes, "pairs.tsv");
}

/// pages.jsonl (in path order), by parts: each process the lines of the records it holds, in
/// path order, the URLs of their authoritative pages asked of their holders; the first merges
/// the parts by path. The counts of pages by status, of every process's records, in `summary`.
Status write_pages(const fs::path& pages_path, const HeldRecords& records, const RecordParts& parts,
                   bool index_duplicates, const Collective& processes, IndexSummary& summary) {
  const unsigned me = processes.rank();
  std::vector<std::uint32_t> by_path(parts.end(me) - parts.first(me));
  std::iota(by_path.begin(), by_path.end(), parts.first(me));
  std::sort(by_path.begin(), by_path.end(),
            [&](std::uint32_t a, std::uint32_t b) { return records[a].path < records[b].path; });
  std::vector<std::uint32_t> authoritative;
  for (const std::uint32_t i : by_path) {
    if (records[i].cluster) authoritative.push_back(records[i].authoritative);
  }
  auto authoritative_urls = ask_record_holders(authoritative, parts, url_answer(records), processes);
  if (!authoritative_urls.ok()) return authoritative_urls.status();
  std::vector<std::size_t> counts(5, 0);  // by PageStatus, then the pages with warnings
  const bool alone = processes.size() == 1;
  std::optional<LineWriter> lines;
  std::optional<SortedPartWriter> part;
  if (alone) lines.emplace(pages_path);
  else part.emplace(part_path(pages_path, me));
  std::size_t next_authoritative = 0;
  for (const std::uint32_t i : by_path) {
    const PageRecord& r = records[i];
    ++counts[static_cast<std::size_t>(r.status)];
    counts[4] += r.warnings.empty() ? 0 : 1;
    const std::string_view authoritative_url = r.cluster ? std::string_view(authoritative_urls.value()[next_authoritative++]) : "";
    const std::string line = encode_page_line(page_line(r, authoritative_url, index_duplicates));
    if (alone) lines->write(line);
    else part->write(r.path, line);
  }
  // Every process's counts, summed.
  std::string mine;
  for (const std::size_t count : counts) codec::put_varint(mine, count);
  const std::vector<std::string> all_counts = alone ? std::vector<std::string>{mine} : processes.all_gather_bytes(mine);
  for (const std::string& counted : all_counts) {
    codec::Reader in(counted);
    for (const PageStatus status : {PageStatus::kIndexed, PageStatus::kDuplicate, PageStatus::kRedirect, PageStatus::kSkipped}) {
      if (const std::uint64_t n = in.varint(); n > 0) summary.status_counts[std::string(to_string(status))] += n;
    }
    summary.pages_with_warnings += in.varint();
  }
  if (alone) return lines->close();
  const Status written = part->close();
  if (Status all = status_of_all_processes(written, processes, "write its part of pages.jsonl"); !all.ok()) return all;
  Status merged = Status::ok_status();
  if (me == 0) {
    std::vector<fs::path> part_paths;
    for (unsigned p = 0; p < processes.size(); ++p) part_paths.push_back(part_path(pages_path, p));
    merged = merge_sorted_parts(part_paths, pages_path);
    std::error_code ec;
    for (const fs::path& p : part_paths) fs::remove(p, ec);
  }
  return status_of_all_processes(merged, processes, "merge pages.jsonl");
}

}  // namespace

Status write_record_files(const fs::path& work_dir, const HeldRecords& records, const RecordParts& parts,
                          const dedup::Clusters& clusters, const IndexOptions& options, const Collective& processes,
                          IndexSummary& summary) {
  const index_format::IndexLayout index{work_dir};
  if (Status pairs = write_pairs(index.pairs(), records, parts, clusters.pairs, processes); !pairs.ok()) return pairs;
  return write_pages(index.pages(), records, parts, options.collapse == CollapseMode::kQueryTime, processes, summary);
}

Status write_link_graph(const fs::path& work_dir, const HeldRecords& records, const SiteGraph& site,
                        const Collective& processes) {
  const fs::path graph = index_format::IndexLayout{work_dir}.graph();
  const ranking::OutLinkRows& rows = site.rows;
  // The URLs of the nodes the rows link to, asked once each of the processes holding them.
  std::vector<std::uint32_t> targets;
  for (ranking::NodeId u = rows.first(); u < rows.end(); ++u) {
    for (const ranking::NodeId v : rows.out_links(u)) targets.push_back(v);
  }
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  const RecordAnswer record_url = url_answer(records);
  auto target_urls = ask_record_holders(
      targets, site.node_parts, [&](std::uint32_t node, std::string& out) { record_url(site.record_of(node), out); },
      processes);
  if (!target_urls.ok()) return target_urls.status();
  const auto url_of_target = [&](ranking::NodeId node) -> const std::string& {
    return target_urls.value()[std::lower_bound(targets.begin(), targets.end(), node) - targets.begin()];
  };
  const bool alone = processes.size() == 1;
  LineWriter part(alone ? graph : part_path(graph, processes.rank()));
  std::string line;
  for (ranking::NodeId u = rows.first(); u < rows.end(); ++u) {
    const std::string& source = records[site.record_of(u)].url;
    for (const ranking::NodeId v : rows.out_links(u)) {
      line.assign(source).append(1, '\t').append(url_of_target(v));
      part.write(line);
    }
  }
  const Status written = part.close();
  if (alone) return written;
  return join_parts(graph, written, processes, "graph.tsv");
}

}  // namespace canon::indexer::detail
