/// @file records_output.cpp
/// @brief The records beside the index, written line by line, and the run's summary as JSON.
#include "indexer/records_output.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <span>

#include <nlohmann/json.hpp>

#include "common/file_system.h"
#include "format/index_format.h"
#include "indexer/page_lines.h"
#include "indexer/partitioned_build.h"
#include "ranking/out_link_rows.h"

namespace canon::indexer::detail {
namespace fs = std::filesystem;

namespace {

/// pages.jsonl's line for record `r`.
PageLine page_line(const PageRecord& r, const std::vector<PageRecord>& records, bool index_duplicates) {
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
    line.authoritative = records[r.authoritative].url;
    line.authority_reason = r.authority_reason;
  }
  line.similarity = r.similarity;
  line.redirect_to = r.redirect_to.optional();
  line.canonical = r.canonical_url.optional();
  line.url_rule = r.url_rule.optional();
  line.cut = r.cuts;
  line.encoding = r.encoding;
  line.encoding_source = r.encoding_source;
  line.record = r.archive_record;
  line.indexed_for_query_time_collapse = index_duplicates && r.status == PageStatus::kDuplicate;
  return line;
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
  nlohmann::json exchanged = nlohmann::json::object();
  for (const auto& [stage, bytes] : s.stage_exchanged) exchanged[stage] = {{"sent", bytes.first}, {"received", bytes.second}};
  nlohmann::json memory = nlohmann::json::object();
  for (const auto& [stage, use] : s.stage_memory) {
    memory[stage] = {{"resident_bytes", use.resident_bytes}, {"peak_resident_bytes", use.peak_resident_bytes}};
  }
  nlohmann::json summary = {
      {"input_files", s.input_files},
      {"status_counts", s.status_counts},
      {"graph", {{"nodes", s.graph_nodes}, {"edges", s.graph_edges}}},
      {"duplicate_clusters", s.duplicate_clusters},
      {"candidates_examined", s.candidates_examined},
      {"near_duplicate_pairs", s.near_duplicate_pairs},
      {"split_off", s.split_off},
      {"split_for_definitions", s.split_for_definitions},
      {"pagerank", {{"iterations", s.pagerank_iterations}, {"converged", s.pagerank_converged}}},
      {"url_rules", {{"rules", s.url_rules}, {"pages_not_parsed", s.url_rule_duplicates}}},
      {"parameters",
       {{"base_url", s.base_url.empty() ? o.base_url : s.base_url},
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
        {"url_rules_digest", o.url_rules_digest}}},
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
      {"memory", memory},
      {"processes", {{"count", s.processes}, {"exchanged_bytes", exchanged}}},
  };
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

/// Stage 7: the records beside the index: pairs.tsv (the detector's verified pairs, before
/// union-find, for `canon eval dedup`) and pages.jsonl (in path order); counts the statuses into
/// `summary`.
Status write_records(const fs::path& work_dir, const std::vector<PageRecord>& records,
                     std::span<const dedup::SimilarPair> pairs, bool index_duplicates, IndexSummary& summary) {
  const index_format::IndexLayout index{work_dir};
  std::string line;
  LineWriter pairs_tsv(index.pairs());
  for (const dedup::SimilarPair& pair : pairs) {
    char similarity[32];
    const auto end = std::to_chars(similarity, similarity + sizeof similarity, pair.similarity).ptr;
    line.assign(records[pair.a].url).append(1, '\t').append(records[pair.b].url).append(1, '\t');
    pairs_tsv.write(line.append(similarity, end));
  }
  if (Status s = pairs_tsv.close(); !s.ok()) return s;
  std::vector<std::uint32_t> by_path(records.size());
  std::iota(by_path.begin(), by_path.end(), 0u);
  std::sort(by_path.begin(), by_path.end(),
            [&](std::uint32_t a, std::uint32_t b) { return records[a].path < records[b].path; });
  LineWriter pages_jsonl(index.pages());
  for (const std::uint32_t i : by_path) {
    const PageRecord& r = records[i];
    ++summary.status_counts[std::string(to_string(r.status))];
    pages_jsonl.write(encode_page_line(page_line(r, records, index_duplicates)));
  }
  return pages_jsonl.close();
}

}  // namespace

Status write_record_files(const fs::path& work_dir, const std::vector<PageRecord>& records,
                          const dedup::Clusters& clusters, const IndexOptions& options, IndexSummary& summary) {
  return write_records(work_dir, records, clusters.pairs, options.collapse == CollapseMode::kQueryTime, summary);
}

Status write_link_graph(const fs::path& work_dir, const std::vector<PageRecord>& records, const SiteGraph& site,
                        const Collective& processes) {
  const fs::path graph = index_format::IndexLayout{work_dir}.graph();
  auto part_path = [&](unsigned p) { return fs::path(graph).concat(".part-" + std::to_string(p)); };
  const bool alone = processes.size() == 1;
  LineWriter part(alone ? graph : part_path(processes.rank()));
  std::string line;
  const ranking::OutLinkRows& rows = site.rows;
  for (ranking::NodeId u = rows.first(); u < rows.end(); ++u) {
    const std::string& source = records[site.node_records[u]].url;
    for (const ranking::NodeId v : rows.out_links(u)) {
      line.assign(source).append(1, '\t').append(records[site.node_records[v]].url);
      part.write(line);
    }
  }
  const Status written = part.close();
  if (alone) return written;
  if (Status all = every_process_did(written, processes, "write its part of graph.tsv"); !all.ok()) return all;
  Status joined = Status::ok_status();
  if (processes.rank() == 0) {
    std::vector<fs::path> parts;
    for (unsigned p = 0; p < processes.size(); ++p) parts.push_back(part_path(p));
    joined = join_files(parts, graph);
    std::error_code ec;
    for (const fs::path& p : parts) fs::remove(p, ec);
  }
  return every_process_did(joined, processes, "join graph.tsv");
}

}  // namespace canon::indexer::detail
