/// @file pipeline.cpp
/// @brief The stages of `canon index`, run over one site (docs/design.md, "The pipeline").
///
/// Pages are parsed once, on all cores, and never kept whole: each parse thread hands the page
/// to the near-duplicate detector (which keeps a small sketch) and adds its Xapian document to
/// the database of its chunk of files (one database per chunk, merged in order at the end, so
/// the output does not depend on the thread count). What stays in
/// memory per page is a PageRecord (URLs, title, link targets as ids, ranks and verdicts).
/// Once the whole site is seen, the link graph, PageRank, clusters and authorities are
/// computed, and a second, cheap pass over the database sets each document's cluster fields
/// (static score, cluster id, alternates) or removes it when it is a duplicate. Pages whose text
/// the detector needs again (to verify candidate pairs) are read and parsed again on demand.
#include "indexer/pipeline.h"

#include <stdio.h>  // renameat2
#include <fcntl.h>  // AT_FDCWD
#include <signal.h>  // kill(pid, 0)
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fstream>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>
#include <mutex>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "common/parallel.h"
#include "common/progress.h"
#include "dedup/authority.h"
#include "dedup/boilerplate.h"
#include "dedup/representatives.h"
#include "indexer/html_extract.h"
#include "indexer/index_writer.h"
#include "indexer/site_walker.h"
#include "indexer/url.h"
#include "ranking/link_graph.h"

namespace canon::indexer {
namespace fs = std::filesystem;
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

/// What the run keeps of one input file; becomes one line of pages.jsonl. Small on purpose:
/// no page text (docs/design.md, "Memory").
struct PageRecord {
  std::string path;
  std::string url;
  std::string status;  // indexed | duplicate | redirect | skipped
  std::string reason;  // for skipped
  bool parsed = false;
  std::string title;
  std::string heading;  // the page's main heading (ExtractedPage::main_heading)
  std::vector<std::string> defined;  // dedup::defined_terms of the page's <dt> ids
  bool robots_noindex = false;
  std::optional<std::string> canonical_url;
  std::optional<std::string> refresh_url;  // as the page says
  std::optional<std::string> redirect_to;  // final target, for redirect pages
  std::vector<std::uint32_t> links;        // followed links' targets, as URL ids
  std::uint32_t docid = 0;                 // in its chunk's database; 0: not added
  std::optional<ranking::NodeId> node;     // in the link graph
  bool in_dedup = false;                   // handed to the detector (index = record index)
  double pagerank = 0.0;
  double cluster_pagerank = 0.0;
  std::optional<std::uint32_t> cluster;
  std::uint32_t authoritative = kNone;  // record index of the cluster's indexed page
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

/// Reads and parses one page file; an error is the reason the page is skipped.
Result<ExtractedPage> read_page(const fs::path& file, const std::string& url) {
  auto bytes = read_file(file);
  if (!bytes.ok()) return bytes.status();
  if (Status readable = check_page_bytes(bytes.value()); !readable.ok()) return readable;
  return extract_page(bytes.value(), url);
}

/// What the near-duplicate detector sees of a page: views into `page` and `url`.
dedup::DedupDocument dedup_document(const ExtractedPage& page, const std::string& url) {
  dedup::DedupDocument doc{url, page.title, page.main_text};
  doc.headings = page.headings;
  doc.main_heading = page.main_heading;
  doc.meta_keywords = page.meta_keywords;
  doc.meta_description = page.meta_description;
  const std::string host = url_host(url);  // anchors split by host: dedup knows no URLs
  for (const PageLink& link : page.links) {
    (url_host(link.url) == host ? doc.same_site_anchors : doc.other_site_anchors).push_back(link.anchor_text);
  }
  return doc;
}

/// Interns URLs as dense ids, so that records hold links as 4-byte ids. ids() is thread-safe;
/// the ids depend on the order of calls, so nothing written out may depend on them.
class UrlIds {
public:
  std::vector<std::uint32_t> ids(const std::vector<std::string>& urls) {
    std::vector<std::uint32_t> out;
    out.reserve(urls.size());
    const std::lock_guard lock(mutex_);
    for (const std::string& url : urls) out.push_back(ids_.emplace(url, static_cast<std::uint32_t>(ids_.size())).first->second);
    return out;
  }
  std::uint32_t find(const std::string& url) const {
    auto it = ids_.find(url);
    return it == ids_.end() ? kNone : it->second;
  }
  std::size_t size() const { return ids_.size(); }

private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::uint32_t> ids_;
};

/// The site is parsed in chunks of consecutive files, each written by one thread into a
/// database of its own; merging the chunk databases in order numbers the documents in file
/// order, so the index does not depend on the thread count. Enough chunks to keep every thread
/// busy to the end; not so big that a chunk's Xapian write buffer grows large.
std::size_t chunk_size(std::size_t files, unsigned threads) {
  return std::clamp<std::size_t>((files + threads * 8 - 1) / (threads * 8), 32, 20000);
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

nlohmann::json record_json(const PageRecord& r, const std::vector<PageRecord>& records) {
  nlohmann::json j;
  j["path"] = r.path;
  j["url"] = r.url;
  j["status"] = r.status;
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (r.parsed) j["title"] = r.title;
  if (!r.heading.empty()) j["heading"] = r.heading;
  if (r.node) j["pagerank"] = r.pagerank;
  if (r.cluster) {
    j["cluster"] = *r.cluster;
    j["cluster_pagerank"] = r.cluster_pagerank;
    j["authoritative"] = records[r.authoritative].url;
    j["authority_reason"] = r.authority_reason;
  }
  if (r.similarity) j["similarity"] = *r.similarity;
  if (r.redirect_to) j["redirect_to"] = *r.redirect_to;
  if (r.canonical_url) j["canonical"] = *r.canonical_url;
  return j;
}

/// Writes the text file `path` line by line, so that a record file of a million pages is never
/// a string in memory (graph.tsv alone is ~1 GB there); write(line) appends a line and its
/// newline.
class LineWriter {
 public:
  explicit LineWriter(const fs::path& path) : path_(path), out_(path, std::ios::binary | std::ios::trunc) {}
  void write(std::string_view line) { out_.write(line.data(), static_cast<std::streamsize>(line.size())).put('\n'); }
  /// Flushes and closes; an error if any write failed.
  Status close() {
    out_.close();
    if (!out_) return Status::error("cannot write '" + path_.string() + "'");
    return Status::ok_status();
  }

 private:
  fs::path path_;
  std::ofstream out_;
};

nlohmann::json summary_json(const IndexSummary& s, const IndexOptions& o) {
  nlohmann::json stages = nlohmann::json::object();
  for (const auto& [stage, seconds] : s.stage_seconds) stages[stage] = seconds;
  return {
      {"input_files", s.input_files},
      {"status_counts", s.status_counts},
      {"graph", {{"nodes", s.graph_nodes}, {"edges", s.graph_edges}}},
      {"duplicate_clusters", s.duplicate_clusters},
      {"candidates_examined", s.candidates_examined},
      {"near_duplicate_pairs", s.near_duplicate_pairs},
      {"split_off", s.split_off},
      {"split_for_definitions", s.split_for_definitions},
      {"pagerank", {{"iterations", s.pagerank_iterations}, {"converged", s.pagerank_converged}}},
      {"parameters",
       {{"base_url", o.base_url},
        {"detector", o.detector},
        {"shingle_size", o.dedup.shingle_size},
        {"num_hashes", o.dedup.num_hashes},
        {"threshold", o.dedup.threshold},
        {"title_rule", o.dedup.title_rule},
        {"related_title_threshold", o.dedup.related_title_threshold},
        {"renamed_threshold", o.dedup.renamed_threshold},
        {"copy_threshold", o.dedup.copy_threshold},
        {"parallel_threshold", o.dedup.parallel_threshold},
        {"discount_boilerplate", o.dedup.discount_boilerplate},
        {"split_chains", o.split_chains},
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
  const unsigned threads = resolve_thread_count(options.threads);
  dedup::DedupOptions dedup_options = options.dedup;
  dedup_options.threads = threads;
  auto detector = dedup::make_detector(options.detector, dedup_options);
  if (!detector.ok()) return detector.status();
  const bool index_duplicates = options.collapse == CollapseMode::kQueryTime;
  const fs::path chunk_dir = work_dir / "chunks";
  const auto chunk_path = [&](std::size_t chunk) { return (chunk_dir / std::to_string(chunk)).string(); };

  // 1. Walk.
  auto listing = walk_site(options.site_dir);
  if (!listing.ok()) return listing.status();
  const std::vector<SiteFile>& files = listing->files;
  // Files that map to one URL (dir/index.html and dir/index.htm): one is the page, as a web
  // server's DirectoryIndex would choose it (index.html first), the others are skipped.
  std::vector<Result<std::string>> file_urls;
  std::unordered_map<std::string, std::size_t> url_owner;  // url -> file index
  for (std::size_t i = 0; i < files.size(); ++i) {
    file_urls.push_back(file_url(base_url, files[i].relative_path));
    if (!file_urls.back().ok()) continue;
    auto [it, inserted] = url_owner.emplace(file_urls.back().value(), i);
    if (!inserted && files[i].relative_path.ends_with("index.html") &&
        !files[it->second].relative_path.ends_with("index.html")) {
      it->second = i;
    }
  }
  clock.lap("walk");

  // 2. A sample of the pages is parsed first, and the detector learns from it the text the
  // site repeats on many pages (Detector::learn_site); the parse below takes these pages from
  // here instead of reading them again.
  detector.value()->reset(static_cast<std::uint32_t>(files.size()));
  const std::vector<std::uint32_t> sample = dedup::site_sample(static_cast<std::uint32_t>(files.size()));
  std::vector<std::optional<Result<ExtractedPage>>> sample_pages(sample.size());
  parallel_for(sample.size(), threads, [&](std::size_t s, std::size_t) {
    const std::uint32_t i = sample[s];
    if (file_urls[i].ok() && url_owner.at(file_urls[i].value()) == i) {
      sample_pages[s] = read_page(files[i].absolute_path, file_urls[i].value());
    }
  });
  {
    std::vector<dedup::DedupDocument> sample_docs;
    for (std::size_t s = 0; s < sample.size(); ++s) {
      const auto& page = sample_pages[s];
      if (!page || !page->ok() || (*page)->refresh_url || (*page)->robots_noindex) continue;
      sample_docs.push_back(dedup_document(page->value(), file_urls[sample[s]].value()));
    }
    detector.value()->learn_site(sample_docs);
  }
  // The page of file i: from the sample when it was parsed there (each is taken once, by the
  // thread parsing file i), else read and parsed now.
  const auto take_page = [&](std::size_t i, const std::string& url) -> Result<ExtractedPage> {
    const auto at = std::lower_bound(sample.begin(), sample.end(), i);
    if (at != sample.end() && *at == i && sample_pages[at - sample.begin()]) {
      Result<ExtractedPage> page = std::move(*sample_pages[at - sample.begin()]);
      sample_pages[at - sample.begin()].reset();
      return page;
    }
    return read_page(files[i].absolute_path, url);
  };
  clock.lap("sample");

  // 3. Parse on all threads. Each chunk of consecutive files is parsed by one thread, which
  // adds the pages' documents to the chunk's own database and hands the pages to the detector.
  // Record i is file i (and detector document i); the walker's skips follow.
  std::vector<PageRecord> records(files.size());
  UrlIds url_ids;
  const auto parse_file = [&](std::size_t i, IndexWriter& writer) -> Status {
    PageRecord& r = records[i];
    r.path = files[i].relative_path;
    r.status = "skipped";
    if (!file_urls[i].ok()) {
      r.reason = "no URL for this path: " + file_urls[i].status().message();
      return Status::ok_status();
    }
    r.url = file_urls[i].value();
    if (url_owner.at(r.url) != i) {
      r.reason = "same URL as " + files[url_owner.at(r.url)].relative_path;
      return Status::ok_status();
    }
    auto page = take_page(i, r.url);
    if (!page.ok()) {
      r.reason = page.status().message();
      return Status::ok_status();
    }
    r.status.clear();
    r.parsed = true;
    r.title = page->title;
    r.heading = page->main_heading;
    r.defined = dedup::defined_terms(page->definition_ids);
    r.robots_noindex = page->robots_noindex;
    r.canonical_url = page->canonical_url;
    r.refresh_url = page->refresh_url;
    if (r.refresh_url) return Status::ok_status();  // a redirect: neither a node nor a document
    if (!page->robots_nofollow) {
      std::vector<std::string> link_urls;
      for (const PageLink& link : page->links) {
        if (!link.nofollow) link_urls.push_back(strip_index_page(link.url));
      }
      r.links = url_ids.ids(link_urls);
    }
    if (r.robots_noindex) {  // in the link graph, not in the index
      r.status = "skipped";
      r.reason = "robots meta says noindex";
      return Status::ok_status();
    }
    detector.value()->add(static_cast<std::uint32_t>(i), dedup_document(page.value(), r.url));
    r.in_dedup = true;
    auto docid = writer.add(IndexWriter::prepare({r.url, std::move(page->title), std::move(page->meta_description),
                                                  std::move(page->meta_keywords), std::move(page->headings), page->main_heading,
                                                  std::move(page->main_text), files[i].absolute_path}));
    if (!docid.ok()) return docid.status();
    r.docid = docid.value();
    return Status::ok_status();
  };
  const std::size_t files_per_chunk = options.chunk_files != 0 ? options.chunk_files : chunk_size(files.size(), threads);
  const std::size_t chunks = (files.size() + files_per_chunk - 1) / files_per_chunk;
  std::vector<Status> chunk_status(chunks, Status::ok_status());
  std::atomic<std::size_t> parsed_files{0};
  std::mutex progress_mutex;
  std::error_code ec;
  fs::create_directory(chunk_dir, ec);
  progress.start("parse", files.size());
  parallel_for(chunks, threads, [&](std::size_t chunk, std::size_t) {
    auto writer = IndexWriter::create(chunk_path(chunk), {options.collapse, 1.0});
    if (!writer.ok()) {
      chunk_status[chunk] = writer.status();
      return;
    }
    const std::size_t end = std::min(files.size(), (chunk + 1) * files_per_chunk);
    for (std::size_t i = chunk * files_per_chunk; i < end; ++i) {
      if (Status parsed = parse_file(i, *writer.value()); !parsed.ok()) {
        chunk_status[chunk] = parsed;
        return;
      }
      const std::size_t done = ++parsed_files;
      if (std::unique_lock lock(progress_mutex, std::try_to_lock); lock) progress.update(done);
    }
    chunk_status[chunk] = writer.value()->finish();
  });
  for (const Status& status : chunk_status) {
    if (!status.ok()) return status;
  }
  progress.finish();
  for (const SkippedPath& skipped : listing->skipped) {
    PageRecord r;
    r.path = skipped.relative_path;
    if (auto url = file_url(base_url, r.path); url.ok()) r.url = url.value();
    r.status = "skipped";
    r.reason = skipped.reason;
    records.push_back(std::move(r));
  }
  summary.input_files = records.size();
  clock.lap("parse");

  // 4. Redirects, then the link graph over the remaining pages.
  std::unordered_map<std::string, std::uint32_t> by_url;  // url -> record index, parsed pages
  for (std::uint32_t i = 0; i < files.size(); ++i) {
    if (records[i].parsed) by_url.emplace(records[i].url, i);
  }
  // The record a link to `url` lands on, following redirect pages (chains; loops stop), or
  // kNone; `url` becomes the final URL.
  const auto follow_redirects = [&](std::string& url) -> std::uint32_t {
    for (int hop = 0; hop < 20; ++hop) {
      auto it = by_url.find(url);
      if (it == by_url.end()) return kNone;
      const PageRecord& target = records[it->second];
      if (!target.refresh_url) return it->second;
      url = strip_index_page(*target.refresh_url);
    }
    return kNone;
  };
  std::vector<std::uint32_t> page_of_url_id(url_ids.size(), kNone);  // link target -> record
  std::vector<std::size_t> node_records;                              // node id -> record index
  for (std::uint32_t i = 0; i < files.size(); ++i) {
    PageRecord& r = records[i];
    if (!r.parsed) continue;
    if (r.refresh_url) {
      r.status = "redirect";
      std::string target = r.url;
      follow_redirects(target);
      r.redirect_to = target;
      continue;
    }
    r.node = static_cast<ranking::NodeId>(node_records.size());
    node_records.push_back(i);
  }
  for (const auto& [url, record] : by_url) {
    if (const std::uint32_t id = url_ids.find(url); id != kNone) {
      std::string final_url = url;
      page_of_url_id[id] = follow_redirects(final_url);
    }
  }
  std::vector<ranking::Edge> edges;
  for (std::size_t record_index : node_records) {
    PageRecord& r = records[record_index];
    for (const std::uint32_t link : r.links) {
      const std::uint32_t target = page_of_url_id[link];
      if (target != kNone && records[target].node) edges.push_back({*r.node, *records[target].node});
    }
    r.links = {};  // not needed any more
  }
  const auto graph = ranking::LinkGraph::build(static_cast<ranking::NodeId>(node_records.size()), edges);
  edges = {};
  summary.graph_nodes = graph.node_count();
  summary.graph_edges = graph.edge_count();
  clock.lap("graph");

  const ranking::PageRankResult ranks = ranking::compute_pagerank(graph, options.pagerank);
  summary.pagerank_iterations = ranks.iterations;
  summary.pagerank_converged = ranks.converged;
  for (ranking::NodeId n = 0; n < node_records.size(); ++n) records[node_records[n]].pagerank = ranks.scores[n];
  clock.lap("pagerank");

  // 5. Near-duplicates. The detector kept a sketch of each page; when it needs a page's text
  // again (to verify a candidate pair) the page is read and parsed again.
  const dedup::DocumentLoader load_page = [&](std::uint32_t i,
                                              const std::function<void(const dedup::DedupDocument&)>& use) {
    const PageRecord& r = records[i];
    auto page = read_page(files[i].absolute_path, r.url);
    if (!page.ok()) {  // changed since the parse: compared as a page without words
      use(dedup::DedupDocument{r.url, r.title, {}});
      return;
    }
    use(dedup_document(page.value(), r.url));
  };
  progress.start("near-duplicates", 0);
  const dedup::Clusters clusters = detector.value()->find_clusters(load_page);
  progress.finish();
  clock.lap("dedup");

  // 6. The authoritative page of each cluster.
  const auto n = static_cast<std::uint32_t>(files.size());
  std::vector<dedup::AuthorityCandidate> candidates(n);
  for (std::uint32_t d = 0; d < n; ++d) {
    const PageRecord& r = records[d];
    if (r.redirect_to) {
      std::string target = *r.redirect_to;
      if (const std::uint32_t t = follow_redirects(target); t != kNone) ++candidates[t].redirects_in;
    }
  }
  for (std::uint32_t d = 0; d < n; ++d) {
    const PageRecord& r = records[d];
    candidates[d].url = r.url;
    candidates[d].pagerank = r.pagerank;
    candidates[d].defined = std::move(records[d].defined);
    if (r.in_dedup && r.canonical_url) {
      std::string canonical = strip_index_page(*r.canonical_url);
      const std::uint32_t target = follow_redirects(canonical);
      if (target != kNone && records[target].in_dedup) candidates[d].canonical = target;
    }
  }
  const dedup::Representatives chosen = dedup::choose_representatives(
      *detector.value(), clusters, candidates, options.honour_canonical,
      options.split_chains ? dedup::ChainPolicy::kSplit : dedup::ChainPolicy::kKeep, load_page);
  summary.candidates_examined = clusters.candidates_examined;
  summary.near_duplicate_pairs = clusters.pairs.size();
  summary.split_off = chosen.split_off;
  summary.split_for_definitions = chosen.split_for_definitions;
  std::unordered_map<std::uint32_t, std::uint32_t> cluster_ids;  // cluster_of value -> dense id
  std::vector<double> cluster_pagerank;                          // by dense id
  std::vector<std::uint32_t> cluster_sizes;
  std::unordered_map<std::uint32_t, std::vector<AlternateRecord>> alternates;  // by indexed record
  for (std::uint32_t d = 0; d < n; ++d) {
    PageRecord& r = records[d];
    if (!r.in_dedup) continue;
    const auto [it, inserted] = cluster_ids.emplace(chosen.cluster_of[d], static_cast<std::uint32_t>(cluster_ids.size()));
    if (inserted) {
      cluster_pagerank.push_back(0.0);
      cluster_sizes.push_back(0);
    }
    r.cluster = it->second;
    cluster_pagerank[it->second] += r.pagerank;
    ++cluster_sizes[it->second];
    r.authoritative = chosen.authority[d].representative;
    r.authority_reason = std::string(dedup::to_string(chosen.authority[d].reason));
    r.status = r.authoritative == d ? "indexed" : "duplicate";
    if (r.authoritative != d) {
      r.similarity = chosen.to_representative[d].similarity;
      alternates[r.authoritative].push_back({r.url, r.title, *r.similarity});
    }
  }
  for (std::uint32_t d = 0; d < n; ++d) {
    if (records[d].cluster) records[d].cluster_pagerank = cluster_pagerank[*records[d].cluster];
  }
  for (const std::uint32_t size : cluster_sizes) summary.duplicate_clusters += size > 1 ? 1 : 0;
  clock.lap("authority");

  // 7. Every added document gets its cluster fields; duplicates go unless search collapses.
  // Chunk by chunk on all threads, then the chunk databases are merged into one.
  parallel_for(chunks, threads, [&](std::size_t chunk, std::size_t) {
    auto writer = IndexWriter::open(chunk_path(chunk), {options.collapse, static_cast<double>(std::max<std::size_t>(graph.node_count(), 1))});
    if (!writer.ok()) {
      chunk_status[chunk] = writer.status();
      return;
    }
    const std::size_t end = std::min(files.size(), (chunk + 1) * files_per_chunk);
    for (std::size_t d = chunk * files_per_chunk; d < end; ++d) {
      const PageRecord& r = records[d];
      if (!r.in_dedup) continue;
      Status written = Status::ok_status();
      if (r.status == "duplicate" && !index_duplicates) {
        written = writer.value()->remove(r.docid);
      } else {
        ClusterFields fields{r.cluster_pagerank, *r.cluster, {}, {}};
        if (r.status == "duplicate") fields.authoritative_url = records[r.authoritative].url;
        if (auto it = alternates.find(static_cast<std::uint32_t>(d)); it != alternates.end()) {
          fields.alternates = it->second;
          std::stable_sort(fields.alternates.begin(), fields.alternates.end(),
                           [](const AlternateRecord& a, const AlternateRecord& b) { return a.similarity > b.similarity; });
        }
        written = writer.value()->set_cluster_fields(r.docid, fields);
      }
      if (!written.ok()) {
        chunk_status[chunk] = written;
        return;
      }
    }
    chunk_status[chunk] = writer.value()->finish();
  });
  for (const Status& status : chunk_status) {
    if (!status.ok()) return status;
  }
  std::vector<std::string> chunk_paths;
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) chunk_paths.push_back(chunk_path(chunk));
  if (chunk_paths.empty()) {  // no files at all: an empty database
    auto empty = IndexWriter::create(chunk_path(0), {options.collapse, 1.0});
    if (!empty.ok()) return empty.status();
    if (Status done = empty.value()->finish(); !done.ok()) return done;
    chunk_paths.push_back(chunk_path(0));
  }
  if (Status merged = merge_databases(chunk_paths, (work_dir / "xapian").string()); !merged.ok()) return merged;
  fs::remove_all(chunk_dir, ec);
  clock.lap("xapian");

  // 8. The records beside the index.
  std::string line;
  LineWriter graph_tsv(work_dir / "graph.tsv");
  for (const ranking::Edge& e : graph.edges()) {
    line.assign(records[node_records[e.source]].url).append(1, '\t').append(records[node_records[e.target]].url);
    graph_tsv.write(line);
  }
  if (Status s = graph_tsv.close(); !s.ok()) return s;
  // The detector's verified pairs, before union-find (for `canon eval dedup`).
  LineWriter pairs_tsv(work_dir / "pairs.tsv");
  for (const dedup::SimilarPair& pair : clusters.pairs) {
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
  LineWriter pages_jsonl(work_dir / "pages.jsonl");
  for (const std::uint32_t i : by_path) {
    const PageRecord& r = records[i];
    ++summary.status_counts[r.status];
    nlohmann::json record = record_json(r, records);
    if (index_duplicates && r.status == "duplicate") record["indexed_for_query_time_collapse"] = true;
    pages_jsonl.write(record.dump());
  }
  if (Status s = pages_jsonl.close(); !s.ok()) return s;
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
    LineWriter summary_file(work_dir / "summary.json");
    summary_file.write(summary_json(summary.value(), options).dump(2));
    Status written = summary_file.close();
    if (written.ok()) written = move_into_place(work_dir, out_dir);
    if (!written.ok()) summary = written;
  }
  if (!summary.ok()) fs::remove_all(work_dir, ec);
  return summary;
}

}  // namespace canon::indexer
