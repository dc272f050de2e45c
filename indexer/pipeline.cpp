/// @file pipeline.cpp
/// @brief The stages of `canon index`, run in order over one site.
#include "indexer/pipeline.h"

#include <stdio.h>  // renameat2
#include <fcntl.h>  // AT_FDCWD
#include <signal.h>  // kill(pid, 0)
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "common/progress.h"
#include "dedup/authority.h"
#include "indexer/html_extract.h"
#include "indexer/index_writer.h"
#include "indexer/site_walker.h"
#include "indexer/url.h"
#include "ranking/link_graph.h"

namespace canon::indexer {
namespace fs = std::filesystem;
namespace {

/// One input file on its way through the pipeline; becomes one line of pages.jsonl.
struct PageRecord {
  std::string path;
  std::string url;
  std::string status;  // indexed | duplicate | redirect | skipped
  std::string reason;  // for skipped
  std::optional<ExtractedPage> page;
  std::optional<std::string> redirect_to;  // final target, for redirect pages
  std::optional<ranking::NodeId> node;     // in the link graph
  std::optional<std::uint32_t> doc;        // in near-duplicate detection
  double pagerank = 0.0;
  double cluster_pagerank = 0.0;
  std::optional<std::uint32_t> cluster;
  std::string authoritative;
  std::string authority_reason;
  std::optional<double> similarity;
};

class StageClock {
public:
  explicit StageClock(IndexSummary& summary) : summary_(summary) {}
  void lap(std::string stage) {
    const auto now = std::chrono::steady_clock::now();
    summary_.stage_seconds.emplace_back(std::move(stage), std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

private:
  IndexSummary& summary_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

Result<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error("cannot read file: " + std::string(std::strerror(errno)));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return Status::error("cannot read file: read error");
  return bytes.str();
}

/// The URL a link to `url` lands on, following redirect pages (chains, loops stop).
std::string follow_redirects(std::string url, const std::unordered_map<std::string, std::size_t>& by_url,
                             const std::vector<PageRecord>& records) {
  for (int hop = 0; hop < 20; ++hop) {
    auto it = by_url.find(url);
    if (it == by_url.end()) return url;
    const PageRecord& record = records[it->second];
    if (!record.page || !record.page->refresh_url) return url;
    url = strip_index_page(*record.page->refresh_url);
  }
  return url;
}

/// A previous canon index, or nothing at all, may be replaced; anything else is the user's.
Status check_replaceable(const fs::path& out_dir) {
  std::error_code ec;
  if (!fs::exists(out_dir, ec)) return Status::ok_status();
  if (!fs::is_directory(out_dir, ec)) {
    return Status::error("'" + out_dir.string() + "' exists and is not a directory");
  }
  if (fs::exists(out_dir / "summary.json", ec) || fs::is_empty(out_dir, ec)) return Status::ok_status();
  return Status::error("'" + out_dir.string() +
                       "' exists and is not a canon index (no summary.json); refusing to replace it");
}

/// Puts the finished index in place: an atomic exchange when there is an old one.
Status move_into_place(const fs::path& built, const fs::path& out_dir) {
  std::error_code ec;
  if (fs::exists(out_dir, ec)) {
    if (renameat2(AT_FDCWD, built.c_str(), AT_FDCWD, out_dir.c_str(), RENAME_EXCHANGE) != 0) {
      return Status::error("cannot replace '" + out_dir.string() + "': " + std::strerror(errno));
    }
    fs::remove_all(built, ec);  // now the previous index
    return Status::ok_status();
  }
  fs::rename(built, out_dir, ec);
  if (ec) return Status::error("cannot move the index to '" + out_dir.string() + "': " + ec.message());
  return Status::ok_status();
}

/// Removes `.NAME.building-PID` directories left by interrupted runs whose process is gone.
void remove_stale_builds(const fs::path& parent, const std::string& prefix) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string pid_text = name.substr(prefix.size());
    if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(pid_text));
    if (kill(pid, 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ec);
  }
}

nlohmann::json record_json(const PageRecord& r) {
  nlohmann::json j;
  j["path"] = r.path;
  j["url"] = r.url;
  j["status"] = r.status;
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (r.page) j["title"] = r.page->title;
  if (r.node) j["pagerank"] = r.pagerank;
  if (r.cluster) {
    j["cluster"] = *r.cluster;
    j["cluster_pagerank"] = r.cluster_pagerank;
    j["authoritative"] = r.authoritative;
    j["authority_reason"] = r.authority_reason;
  }
  if (r.similarity) j["similarity"] = *r.similarity;
  if (r.redirect_to) j["redirect_to"] = *r.redirect_to;
  if (r.page && r.page->canonical_url) j["canonical"] = *r.page->canonical_url;
  return j;
}

Status write_text_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Status::error("cannot write '" + path.string() + "'");
  return Status::ok_status();
}

nlohmann::json summary_json(const IndexSummary& s, const IndexOptions& o) {
  nlohmann::json stages = nlohmann::json::object();
  for (const auto& [stage, seconds] : s.stage_seconds) stages[stage] = seconds;
  return {
      {"input_files", s.input_files},
      {"status_counts", s.status_counts},
      {"graph", {{"nodes", s.graph_nodes}, {"edges", s.graph_edges}}},
      {"duplicate_clusters", s.duplicate_clusters},
      {"pagerank", {{"iterations", s.pagerank_iterations}, {"converged", s.pagerank_converged}}},
      {"parameters",
       {{"base_url", o.base_url},
        {"detector", o.detector},
        {"shingle_size", o.dedup.shingle_size},
        {"num_hashes", o.dedup.num_hashes},
        {"threshold", o.dedup.threshold},
        {"seed", o.dedup.seed},
        {"damping", o.pagerank.damping},
        {"tolerance", o.pagerank.tolerance},
        {"max_iterations", o.pagerank.max_iterations},
        {"honour_canonical", o.honour_canonical},
        {"collapse", o.collapse == CollapseMode::kQueryTime ? "query" : "index"}}},
      {"seconds", stages},
  };
}

/// The run itself; `work_dir` is the fresh directory the new index is built in.
Result<IndexSummary> run(const IndexOptions& options, const std::string& base_url, const fs::path& work_dir) {
  IndexSummary summary;
  StageClock clock(summary);
  Progress progress(options.show_progress);

  // 1. Walk and parse.
  auto listing = walk_site(options.site_dir);
  if (!listing.ok()) return listing.status();
  std::vector<PageRecord> records;
  for (const SkippedPath& skipped : listing->skipped) {
    PageRecord r;
    r.path = skipped.relative_path;
    if (auto url = file_url(base_url, r.path); url.ok()) r.url = url.value();
    r.status = "skipped";
    r.reason = skipped.reason;
    records.push_back(std::move(r));
  }
  clock.lap("walk");

  // Files that map to one URL (dir/index.html and dir/index.htm): one is the page, as a web
  // server's DirectoryIndex would choose it (index.html first), the others are skipped.
  std::vector<Result<std::string>> file_urls;
  std::unordered_map<std::string, std::size_t> url_owner;  // url -> file index
  for (std::size_t i = 0; i < listing->files.size(); ++i) {
    file_urls.push_back(file_url(base_url, listing->files[i].relative_path));
    if (!file_urls.back().ok()) continue;
    auto [it, inserted] = url_owner.emplace(file_urls.back().value(), i);
    if (!inserted && listing->files[i].relative_path.ends_with("index.html") &&
        !listing->files[it->second].relative_path.ends_with("index.html")) {
      it->second = i;
    }
  }

  std::unordered_map<std::string, std::size_t> by_url;  // url -> record index, parsed pages only
  progress.start("parse", listing->files.size());
  for (std::size_t i = 0; i < listing->files.size(); ++i) {
    const SiteFile& file = listing->files[i];
    PageRecord r;
    r.path = file.relative_path;
    r.status = "skipped";
    if (!file_urls[i].ok()) {
      r.reason = "no URL for this path: " + file_urls[i].status().message();
    } else if (r.url = file_urls[i].value(); url_owner.at(r.url) != i) {
      r.reason = "same URL as " + listing->files[url_owner.at(r.url)].relative_path;
    } else if (auto bytes = read_file(file.absolute_path); !bytes.ok()) {
      r.reason = bytes.status().message();
    } else if (Status readable = check_page_bytes(bytes.value()); !readable.ok()) {
      r.reason = readable.message();
    } else {
      r.page = extract_page(bytes.value(), r.url);
      r.status.clear();
      by_url.emplace(r.url, records.size());
    }
    records.push_back(std::move(r));
    progress.update(i + 1);
  }
  progress.finish();
  summary.input_files = records.size();
  clock.lap("parse");

  // 2. Redirects, then the link graph over the remaining pages.
  std::vector<std::size_t> node_records;  // node id -> record index
  for (std::size_t i = 0; i < records.size(); ++i) {
    PageRecord& r = records[i];
    if (!r.page) continue;
    if (r.page->refresh_url) {
      r.status = "redirect";
      r.redirect_to = follow_redirects(r.url, by_url, records);
      continue;
    }
    r.node = static_cast<ranking::NodeId>(node_records.size());
    node_records.push_back(i);
  }
  const auto node_of_url = [&](const std::string& url) -> std::optional<ranking::NodeId> {
    auto it = by_url.find(follow_redirects(strip_index_page(url), by_url, records));
    if (it == by_url.end()) return std::nullopt;
    return records[it->second].node;
  };
  std::vector<ranking::Edge> edges;
  for (std::size_t record_index : node_records) {
    const PageRecord& r = records[record_index];
    if (r.page->robots_nofollow) continue;
    for (const PageLink& link : r.page->links) {
      if (link.nofollow) continue;
      if (auto target = node_of_url(link.url)) edges.push_back({*r.node, *target});
    }
  }
  const auto graph = ranking::LinkGraph::build(static_cast<ranking::NodeId>(node_records.size()), edges);
  summary.graph_nodes = graph.node_count();
  summary.graph_edges = graph.edge_count();
  clock.lap("graph");

  const ranking::PageRankResult ranks = ranking::compute_pagerank(graph, options.pagerank);
  summary.pagerank_iterations = ranks.iterations;
  summary.pagerank_converged = ranks.converged;
  for (ranking::NodeId n = 0; n < node_records.size(); ++n) records[node_records[n]].pagerank = ranks.scores[n];
  clock.lap("pagerank");

  // 3. Near-duplicates among the pages that may be indexed.
  std::vector<std::size_t> doc_records;  // doc index -> record index
  std::vector<dedup::DedupDocument> docs;
  for (std::size_t record_index : node_records) {
    PageRecord& r = records[record_index];
    if (r.page->robots_noindex) {
      r.status = "skipped";
      r.reason = "robots meta says noindex";
      continue;
    }
    r.doc = static_cast<std::uint32_t>(docs.size());
    doc_records.push_back(record_index);
    dedup::DedupDocument doc{r.url, r.page->title, r.page->main_text};
    doc.headings = r.page->headings;
    doc.meta_keywords = r.page->meta_keywords;
    doc.meta_description = r.page->meta_description;
    const std::string host = url_host(r.url);  // anchors split by host: dedup knows no URLs
    for (const PageLink& link : r.page->links) {
      (url_host(link.url) == host ? doc.same_site_anchors : doc.other_site_anchors)
          .push_back(link.anchor_text);
    }
    docs.push_back(std::move(doc));
  }
  auto detector = dedup::make_detector(options.detector, options.dedup);
  if (!detector.ok()) return detector.status();
  progress.start("near-duplicates", 0);
  const dedup::Clusters clusters = detector.value()->find_clusters(docs);
  progress.finish();
  clock.lap("dedup");

  // 4. The authoritative page of each cluster.
  std::vector<dedup::AuthorityCandidate> candidates(docs.size());
  for (std::uint32_t d = 0; d < docs.size(); ++d) {
    const PageRecord& r = records[doc_records[d]];
    candidates[d].url = r.url;
    candidates[d].pagerank = r.pagerank;
    if (r.page->canonical_url) {
      auto it = by_url.find(follow_redirects(strip_index_page(*r.page->canonical_url), by_url, records));
      if (it != by_url.end() && records[it->second].doc) candidates[d].canonical = records[it->second].doc;
    }
  }
  const auto authorities = dedup::choose_authorities(clusters.cluster_of, candidates, options.honour_canonical);
  std::unordered_map<std::uint32_t, std::uint32_t> cluster_ids;   // cluster_of value -> dense id
  std::unordered_map<std::uint32_t, double> cluster_pagerank;     // dense id -> summed score
  std::unordered_map<std::uint32_t, std::size_t> cluster_sizes;
  for (std::uint32_t d = 0; d < docs.size(); ++d) {
    const auto id = cluster_ids.emplace(clusters.cluster_of[d], static_cast<std::uint32_t>(cluster_ids.size())).first->second;
    cluster_pagerank[id] += candidates[d].pagerank;
    ++cluster_sizes[id];
  }
  for (std::uint32_t d = 0; d < docs.size(); ++d) {
    PageRecord& r = records[doc_records[d]];
    const dedup::Authority& authority = authorities[d];
    r.cluster = cluster_ids.at(clusters.cluster_of[d]);
    r.cluster_pagerank = cluster_pagerank.at(*r.cluster);
    r.authoritative = records[doc_records[authority.representative]].url;
    r.authority_reason = std::string(dedup::to_string(authority.reason));
    if (authority.representative == d) {
      r.status = "indexed";
    } else {
      r.status = "duplicate";
      r.similarity = detector.value()->similarity(d, authority.representative);
    }
  }
  for (const auto& [id, size] : cluster_sizes) summary.duplicate_clusters += size > 1 ? 1 : 0;
  clock.lap("authority");

  // 5. The Xapian index of the authoritative pages, with their alternates.
  std::unordered_map<std::uint32_t, std::vector<AlternateRecord>> alternates;  // by representative doc
  for (std::uint32_t d = 0; d < docs.size(); ++d) {
    const PageRecord& r = records[doc_records[d]];
    if (r.status == "duplicate") {
      alternates[authorities[d].representative].push_back({r.url, r.page->title, *r.similarity});
    }
  }
  // Query-time collapse indexes the duplicates too, each naming its authoritative page.
  const bool index_duplicates = options.collapse == CollapseMode::kQueryTime;
  const double graph_pages = static_cast<double>(std::max<std::size_t>(graph.node_count(), 1));
  auto writer =
      IndexWriter::create((work_dir / "xapian").string(), {options.collapse, graph_pages});
  if (!writer.ok()) return writer.status();
  progress.start("index", docs.size());
  for (std::uint32_t d = 0; d < docs.size(); ++d) {
    const PageRecord& r = records[doc_records[d]];
    progress.update(d + 1);
    if (r.status != "indexed" && !(index_duplicates && r.status == "duplicate")) continue;
    IndexedPage page{r.url, r.page->title, r.page->meta_description, r.page->meta_keywords,
                     r.page->headings, r.page->main_text, r.cluster_pagerank, *r.cluster, {},
                     r.status == "duplicate" ? r.authoritative : std::string(),
                     options.site_dir / r.path};
    if (auto it = alternates.find(d); it != alternates.end()) {
      page.alternates = std::move(it->second);
      std::stable_sort(page.alternates.begin(), page.alternates.end(),
                       [](const AlternateRecord& a, const AlternateRecord& b) { return a.similarity > b.similarity; });
    }
    if (Status added = writer.value()->add(page); !added.ok()) return added;
  }
  if (Status done = writer.value()->finish(); !done.ok()) return done;
  progress.finish();
  clock.lap("xapian");

  // 6. The records beside the index.
  std::string graph_tsv;
  for (const ranking::Edge& e : graph.edges()) {
    graph_tsv += records[node_records[e.source]].url + '\t' + records[node_records[e.target]].url + '\n';
  }
  if (Status s = write_text_file(work_dir / "graph.tsv", graph_tsv); !s.ok()) return s;
  // The detector's verified pairs, before union-find (for `canon eval dedup`).
  std::string pairs_tsv;
  for (const dedup::SimilarPair& pair : clusters.pairs) {
    char similarity[32];
    const auto end = std::to_chars(similarity, similarity + sizeof similarity, pair.similarity).ptr;
    pairs_tsv += records[doc_records[pair.a]].url + '\t' + records[doc_records[pair.b]].url + '\t' +
                 std::string(similarity, end) + '\n';
  }
  if (Status s = write_text_file(work_dir / "pairs.tsv", pairs_tsv); !s.ok()) return s;
  std::sort(records.begin(), records.end(), [](const PageRecord& a, const PageRecord& b) { return a.path < b.path; });
  std::string pages_jsonl;
  for (const PageRecord& r : records) {
    ++summary.status_counts[r.status];
    nlohmann::json record = record_json(r);
    if (index_duplicates && r.status == "duplicate") {
      record["indexed_for_query_time_collapse"] = true;
    }
    pages_jsonl += record.dump() + '\n';
  }
  if (Status s = write_text_file(work_dir / "pages.jsonl", pages_jsonl); !s.ok()) return s;
  clock.lap("records");
  return summary;
}

}  // namespace

Result<IndexSummary> index_site(const IndexOptions& options) {
  std::string base = options.base_url;
  if (!base.empty() && base.back() != '/') base += '/';
  auto base_url = normalize_url(base);
  if (!base_url.ok()) {
    return Status::error("--base-url must be an absolute http(s) URL, not '" + options.base_url + "'");
  }
  if (Status s = check_replaceable(options.out_dir); !s.ok()) return s;

  // Build beside INDEX_DIR, so the final move is a rename on the same file system.
  const fs::path out_dir = fs::absolute(options.out_dir).lexically_normal();
  const fs::path parent = out_dir.parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  const std::string build_prefix = "." + out_dir.filename().string() + ".building-";
  remove_stale_builds(parent, build_prefix);
  const fs::path work_dir = parent / (build_prefix + std::to_string(getpid()));
  fs::remove_all(work_dir, ec);
  if (!fs::create_directory(work_dir, ec)) {
    return Status::error("cannot create '" + work_dir.string() + "': " + ec.message());
  }
  auto summary = run(options, base_url.value(), work_dir);
  if (summary.ok()) {
    Status written = write_text_file(work_dir / "summary.json", summary_json(summary.value(), options).dump(2) + "\n");
    if (written.ok()) written = move_into_place(work_dir, out_dir);
    if (!written.ok()) summary = written;
  }
  if (!summary.ok()) fs::remove_all(work_dir, ec);
  return summary;
}

}  // namespace canon::indexer
