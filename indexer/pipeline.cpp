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


#include <algorithm>
#include <atomic>
#include <functional>
#include <span>
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

#include "common/build_dir.h"
#include "common/fault_injection.h"
#include "common/file_io.h"
#include "common/utf8.h"
#include "common/parallel.h"
#include "common/progress.h"
#include "dedup/authority.h"
#include "dedup/boilerplate.h"
#include "dedup/authoritative_pages.h"
#include "indexer/cluster_assignment.h"
#include "indexer/html_extract.h"
#include "indexer/index_format.h"
#include "indexer/index_writer.h"
#include "indexer/page_store.h"
#include "indexer/page_lines.h"
#include "indexer/page_record.h"
#include "indexer/site_links.h"
#include "indexer/site_plan.h"
#include "indexer/site_walker.h"
#include "indexer/url.h"
#include "ranking/link_graph.h"

namespace canon::indexer {
namespace fs = std::filesystem;
namespace {

class StageClock {
public:
  StageClock(IndexSummary& summary, const std::function<void(std::string_view)>& after_stage)
      : summary_(summary), after_stage_(after_stage) {}
  /// Ends `stage`: its time is recorded (and a crash test may kill the run here).
  void lap(std::string stage) {
    fault_point(stage);
    if (after_stage_) after_stage_(stage);
    const auto now = std::chrono::steady_clock::now();
    summary_.stage_seconds.emplace_back(std::move(stage), std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

private:
  IndexSummary& summary_;
  const std::function<void(std::string_view)>& after_stage_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};


/// A page file as parsed, with its size and modification time as it was read.
struct ParsedFile {
  ExtractedPage page;
  FileStamp stamp;
};

/// Reads and parses one page file within `limits`; an error is the reason the page is skipped.
Result<ParsedFile> read_page(const fs::path& file, const std::string& url, const PageLimits& limits) {
  auto read = read_file_prefix(file, limits.max_page_bytes);
  if (!read.ok()) return Status::error("cannot read file: " + read.status().message());
  FilePrefix& file_bytes = read.value();
  if (file_bytes.cut()) file_bytes.bytes.resize(utf8_prefix(file_bytes.bytes, limits.max_page_bytes).size());
  if (Status readable = check_page_bytes(file_bytes.bytes); !readable.ok()) return readable;
  ParsedFile parsed{extract_page(file_bytes.bytes, url, limits), FileStamp{file_bytes.size, file_bytes.mtime_seconds}};
  if (file_bytes.cut()) {
    parsed.page.cuts.insert(parsed.page.cuts.begin(), "size: " + std::to_string(file_bytes.size) + " bytes, the first " +
                                                          std::to_string(file_bytes.bytes.size()) + " read");
  }
  return parsed;
}

/// Calls add(same_site, anchor_text) for each of `links`: the detector keeps the anchors of
/// links to the page's own host apart from the others (it knows no URLs).
template <typename Links, typename Add>
void for_each_anchor_by_host(Links& links, const std::string& url, Add add) {
  const std::string host = url_host(url);
  for (auto& link : links) add(url_host(link.url) == host, link.anchor_text);
}

/// What the near-duplicate detector sees of a page: views into `page` and `url`.
dedup::DedupDocument dedup_document(const ExtractedPage& page, const std::string& url) {
  dedup::DedupDocument doc{url, page.title, page.main_text};
  doc.headings = page.headings;
  doc.main_heading = page.main_heading;
  doc.meta_keywords = page.meta_keywords;
  doc.meta_description = page.meta_description;
  for_each_anchor_by_host(page.links, url, [&doc](bool same_site, const std::string& text) {
    (same_site ? doc.same_site_anchors : doc.other_site_anchors).push_back(text);
  });
  return doc;
}

/// What the run keeps of a parsed page (page_store.h): its texts for the detector, and its
/// document prepared from them. Takes the page's texts over.
StoredPage stored_page(ExtractedPage&& page, const std::string& url, const FileStamp& stamp) {
  PageContent content{url, std::move(page.title), std::move(page.meta_description), std::move(page.meta_keywords),
                      std::move(page.headings), std::move(page.main_heading), std::move(page.main_text), stamp};
  StoredPage stored;
  stored.document = IndexWriter::prepare(content);
  stored.title = std::move(content.title);
  stored.text = std::move(content.main_text);
  stored.headings = std::move(content.headings);
  stored.main_heading = std::move(content.main_heading);
  stored.meta_keywords = std::move(content.meta_keywords);
  stored.meta_description = std::move(content.meta_description);
  for_each_anchor_by_host(page.links, url, [&stored](bool same_site, std::string& text) {
    (same_site ? stored.same_site_anchors : stored.other_site_anchors).push_back(std::move(text));
  });
  return stored;
}

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
  if (fs::is_empty(out_dir, ec)) return Status::ok_status();
  if (Status index = index_format::check_canon_index(out_dir); !index.ok()) {
    return Status::failed_precondition(index.message() + "; refusing to replace it");
  }
  return Status::ok_status();
}

/// pages.jsonl's line for record `r`.
PageLine page_line(const PageRecord& r, const std::vector<PageRecord>& records, bool index_duplicates) {
  PageLine line;
  line.path = r.path;
  line.url = r.url;
  line.status = r.status;
  line.reason = r.reason;
  if (r.parsed) line.title = r.title;
  line.heading = r.heading;
  if (r.node) line.pagerank = r.pagerank;
  if (r.cluster) {
    line.cluster = *r.cluster;
    line.cluster_pagerank = r.cluster_pagerank;
    line.authoritative = records[r.authoritative].url;
    line.authority_reason = r.authority_reason;
  }
  line.similarity = r.similarity;
  line.redirect_to = r.redirect_to;
  line.canonical = r.canonical_url;
  line.cut = r.cuts;
  line.indexed_for_query_time_collapse = index_duplicates && r.status == PageStatus::kDuplicate;
  return line;
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
    if (!out_) return Status::io_error("cannot write '" + path_.string() + "': " + std::strerror(errno));
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
        {"collapse", index_format::to_string(o.collapse)}}},
      {"seconds", stages},
  };
}

/// Where the parse writes its documents: one Xapian database per chunk of consecutive files.
struct ChunkLayout {
  fs::path dir;
  std::size_t files = 0;
  std::size_t files_per_chunk = 1;
  std::size_t count() const { return (files + files_per_chunk - 1) / files_per_chunk; }
  /// The chunk's Xapian database.
  std::string path(std::size_t chunk) const { return (dir / std::to_string(chunk)).string(); }
  /// The chunk's page store (page_store.h).
  fs::path store(std::size_t chunk) const { return dir / (std::to_string(chunk) + ".store"); }
  /// The chunk file `i` is in.
  std::size_t chunk_of(std::size_t i) const { return i / files_per_chunk; }
  /// [first, end) of the files of `chunk`.
  std::size_t first(std::size_t chunk) const { return chunk * files_per_chunk; }
  std::size_t end(std::size_t chunk) const { return std::min(files, (chunk + 1) * files_per_chunk); }
};

/// The first status that is not ok, or ok.
Status first_error(const std::vector<Status>& statuses) {
  for (const Status& status : statuses) {
    if (!status.ok()) return status;
  }
  return Status::ok_status();
}

/// The pages of the site sample (dedup::site_sample), parsed once for Detector::learn_site and
/// taken from here by the parse instead of being read again.
class SamplePages {
public:
  /// Parses the sample's pages that serve their URL on `threads` threads.
  SamplePages(const SitePlan& plan, const PageLimits& limits, unsigned threads)
      : limits_(limits), files_(dedup::site_sample(static_cast<std::uint32_t>(plan.files.size()))), pages_(files_.size()) {
    parallel_for(files_.size(), threads, [&](std::size_t s, std::size_t) {
      const std::uint32_t i = files_[s];
      if (plan.serves_url(i)) pages_[s] = read_page(plan.files[i].absolute_path, plan.urls[i].value(), limits_);
    });
  }
  /// What the detector learns the site's repeated text from: the sample's parsed pages that
  /// are neither redirects nor marked noindex.
  std::vector<dedup::DedupDocument> documents(const SitePlan& plan) const {
    std::vector<dedup::DedupDocument> docs;
    for (std::size_t s = 0; s < files_.size(); ++s) {
      const auto& page = pages_[s];
      if (!page || !page->ok() || (*page)->page.refresh_url || (*page)->page.robots_noindex) continue;
      docs.push_back(dedup_document(page->value().page, plan.urls[files_[s]].value()));
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
    return read_page(plan.files[i].absolute_path, plan.urls[i].value(), limits_);
  }

private:
  const PageLimits& limits_;
  std::vector<std::uint32_t> files_;
  std::vector<std::optional<Result<ParsedFile>>> pages_;
};

/// Stage 2's output: a record per file (then per path the walk skipped), and the URL ids the
/// records' links are held as.
struct ParsedSite {
  std::vector<PageRecord> records;
  UrlIds url_ids;
};

/// Parses file i into `r` and, when it is a page to index, hands it to the detector (document
/// i) and adds its document to `writer`. A page that cannot be parsed is recorded as skipped;
/// only a failure to write the index is an error.
Status parse_file(const SitePlan& plan, std::size_t i, SamplePages& sample, dedup::Detector& detector,
                  UrlIds& url_ids, PageStoreWriter& store, PageRecord& r) {
  r.path = plan.files[i].relative_path;
  r.status = PageStatus::kSkipped;
  if (!plan.urls[i].ok()) {
    r.reason = "no URL for this path: " + plan.urls[i].status().message();
    return Status::ok_status();
  }
  r.url = plan.urls[i].value();
  if (!plan.serves_url(i)) {
    r.reason = "same URL as " + plan.files[plan.url_owner[i]].relative_path;
    return Status::ok_status();
  }
  auto file = sample.take(plan, i);
  if (!file.ok()) {
    r.reason = file.status().message();
    return Status::ok_status();
  }
  ExtractedPage* page = &file->page;
  r.parsed = true;
  r.cuts = page->cuts;
  r.title = page->title;
  r.heading = page->main_heading;
  r.defined = dedup::defined_terms(page->definition_ids);
  r.robots_noindex = page->robots_noindex;
  r.canonical_url = page->canonical_url;
  r.refresh_url = page->refresh_url;
  if (r.refresh_url) {  // a redirect: neither a node nor a document
    r.status = PageStatus::kRedirect;
    return Status::ok_status();
  }
  if (!page->robots_nofollow) {
    std::vector<std::string> link_urls;
    for (const PageLink& link : page->links) {
      if (!link.nofollow) link_urls.push_back(strip_index_page(link.url));
    }
    r.links = url_ids.ids(link_urls);
  }
  if (r.robots_noindex) {  // in the link graph, not in the index
    r.reason = "robots meta says noindex";
    return Status::ok_status();
  }
  r.status = PageStatus::kIndexed;  // until its cluster says otherwise
  const StoredPage stored = stored_page(std::move(*page), r.url, file->stamp);
  detector.add(static_cast<std::uint32_t>(i), stored.dedup_view(r.url));
  r.in_dedup = true;
  auto offset = store.append(stored);
  if (!offset.ok()) return offset.status();
  r.store_offset = offset.value();
  return Status::ok_status();
}

/// Stage 2: every file parsed on all threads. Each chunk of consecutive files is parsed by one
/// thread, which keeps the pages in the chunk's own page store (their texts and prepared
/// documents) and hands them to the detector. The walk's skipped paths are recorded after the files.
Result<ParsedSite> parse_site(const SitePlan& plan, SamplePages& sample, dedup::Detector& detector,
                              const ChunkLayout& chunks, const std::string& base_url, unsigned threads,
                              Progress& progress) {
  ParsedSite site;
  site.records.resize(plan.files.size());
  std::vector<Status> chunk_status(chunks.count(), Status::ok_status());
  std::atomic<std::size_t> parsed_files{0};
  std::mutex progress_mutex;
  std::error_code ec;
  fs::create_directory(chunks.dir, ec);
  progress.start("parse", plan.files.size());
  parallel_for(chunks.count(), threads, [&](std::size_t chunk, std::size_t) {
    auto store = PageStoreWriter::create(chunks.store(chunk));
    if (!store.ok()) {
      chunk_status[chunk] = store.status();
      return;
    }
    for (std::size_t i = chunks.first(chunk); i < chunks.end(chunk); ++i) {
      Status parsed = parse_file(plan, i, sample, detector, site.url_ids, *store.value(), site.records[i]);
      if (!parsed.ok()) {
        chunk_status[chunk] = parsed;
        return;
      }
      const std::size_t done = ++parsed_files;
      if (std::unique_lock lock(progress_mutex, std::try_to_lock); lock) progress.update(done);
    }
    chunk_status[chunk] = store.value()->finish();
  });
  if (Status failed = first_error(chunk_status); !failed.ok()) return failed;
  progress.finish();
  for (const SkippedPath& skipped : plan.skipped) {
    PageRecord r;
    r.path = skipped.relative_path;
    if (auto url = file_url(base_url, r.path); url.ok()) r.url = url.value();
    r.reason = skipped.reason;
    site.records.push_back(std::move(r));
  }
  return site;
}

/// The chunks' page stores, open for reading: a page is read back from here, never from its
/// file again (so the index and the duplicate decisions are made from the same text, even when
/// a file changes during the run). Thread-safe.
class StoredPages {
public:
  /// Opens the store of every chunk.
  static Result<StoredPages> open(const ChunkLayout& chunks) {
    StoredPages pages;
    pages.chunks_ = &chunks;
    for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) {
      auto reader = PageStoreReader::open(chunks.store(chunk));
      if (!reader.ok()) return reader.status();
      pages.readers_.push_back(std::move(reader).value());
    }
    return pages;
  }
  /// Record i's stored page. REQUIRES: records[i].in_dedup.
  Result<StoredPage> read(std::size_t i, const PageRecord& r) const {
    return readers_[chunks_->chunk_of(i)]->read(r.store_offset);
  }
  /// A DocumentLoader over the stored pages; it refers to this object, which must stay where it
  /// is while the loader is used. A page that cannot be read (a damaged store: the disk) is
  /// given as a page without words, which nothing is merged with, and its error kept for
  /// failed().
  dedup::DocumentLoader loader(const std::vector<PageRecord>& records) {
    return [this, &records](std::uint32_t i, const std::function<void(const dedup::DedupDocument&)>& use) {
      const PageRecord& r = records[i];
      auto page = read(i, r);
      if (!page.ok()) {
        const std::lock_guard<std::mutex> lock(*mutex_);
        if (failure_.ok()) failure_ = page.status();
        use(dedup::DedupDocument{r.url, r.title, {}});
        return;
      }
      use(page->dedup_view(r.url));
    };
  }
  /// The first read the loader could not make, or ok.
  Status failed() const {
    const std::lock_guard<std::mutex> lock(*mutex_);
    return failure_;
  }

private:
  const ChunkLayout* chunks_ = nullptr;
  std::vector<std::unique_ptr<PageStoreReader>> readers_;
  std::unique_ptr<std::mutex> mutex_ = std::make_unique<std::mutex>();
  Status failure_ = Status::ok_status();
};

/// Stage 6: the search index. Each page that is indexed (a duplicate only when search collapses
/// at query time) is written once, from its stored document with its cluster fields, chunk by
/// chunk on all threads, into the chunk's database; the chunk databases are then merged into
/// `xapian_dir`.
Status write_index(const ChunkLayout& chunks, const StoredPages& stored, const std::vector<PageRecord>& records,
                   const ClusterAssignment& clusters, const IndexOptions& options, std::size_t graph_nodes,
                   unsigned threads, const fs::path& xapian_dir, Progress& progress) {
  const bool index_duplicates = options.collapse == CollapseMode::kQueryTime;
  std::vector<Status> chunk_status(chunks.count(), Status::ok_status());
  std::atomic<std::size_t> written_files{0};
  std::mutex progress_mutex;
  progress.start("index", chunks.files);
  parallel_for(chunks.count(), threads, [&](std::size_t chunk, std::size_t) {
    auto writer = IndexWriter::create(chunks.path(chunk), {options.collapse, static_cast<double>(std::max<std::size_t>(graph_nodes, 1))});
    if (!writer.ok()) {
      chunk_status[chunk] = writer.status();
      return;
    }
    for (std::size_t d = chunks.first(chunk); d < chunks.end(chunk); ++d) {
      const PageRecord& r = records[d];
      if (!r.in_dedup || (r.status == PageStatus::kDuplicate && !index_duplicates)) continue;
      ClusterFields fields{r.cluster_pagerank, *r.cluster, {}, {}};
      if (r.status == PageStatus::kDuplicate) fields.authoritative_url = records[r.authoritative].url;
      if (auto it = clusters.alternates.find(static_cast<std::uint32_t>(d)); it != clusters.alternates.end()) {
        fields.alternates = it->second;
        std::stable_sort(fields.alternates.begin(), fields.alternates.end(),
                         [](const index_format::Alternate& a, const index_format::Alternate& b) { return a.similarity > b.similarity; });
      }
      auto page = stored.read(d, r);
      if (!page.ok()) {
        chunk_status[chunk] = page.status();
        return;
      }
      if (auto added = writer.value()->add(r.url, page->document, fields); !added.ok()) {
        chunk_status[chunk] = added.status();
        return;
      }
    }
    chunk_status[chunk] = writer.value()->finish();
    const std::size_t done = written_files += chunks.end(chunk) - chunks.first(chunk);
    if (std::unique_lock lock(progress_mutex, std::try_to_lock); lock) progress.update(done);
  });
  progress.finish();
  if (Status failed = first_error(chunk_status); !failed.ok()) return failed;
  std::vector<std::string> chunk_paths;
  for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) chunk_paths.push_back(chunks.path(chunk));
  if (chunk_paths.empty()) {  // no files at all: an empty database
    auto empty = IndexWriter::create(chunks.path(0), {options.collapse, 1.0});
    if (!empty.ok()) return empty.status();
    if (Status done = empty.value()->finish(); !done.ok()) return done;
    chunk_paths.push_back(chunks.path(0));
  }
  if (Status merged = merge_databases(chunk_paths, xapian_dir.string()); !merged.ok()) return merged;
  std::error_code ec;
  fs::remove_all(chunks.dir, ec);
  return Status::ok_status();
}

/// Stage 7: the records beside the index: graph.tsv, pairs.tsv (the detector's verified pairs,
/// before union-find, for `canon eval dedup`) and pages.jsonl (in path order); counts the
/// statuses into `summary`.
Status write_records(const fs::path& work_dir, const std::vector<PageRecord>& records, const SiteGraph& site,
                     std::span<const dedup::SimilarPair> pairs, bool index_duplicates, IndexSummary& summary) {
  const index_format::IndexLayout index{work_dir};
  std::string line;
  LineWriter graph_tsv(index.graph());
  for (const ranking::Edge& e : site.graph.edges()) {
    line.assign(records[site.node_records[e.source]].url).append(1, '\t').append(records[site.node_records[e.target]].url);
    graph_tsv.write(line);
  }
  if (Status s = graph_tsv.close(); !s.ok()) return s;
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

/// The run itself, stage by stage (docs/design.md, "The pipeline"); `work_dir` is the fresh
/// directory the new index is built in.
/// Stage 3, second half: PageRank over the site's link graph, into each record's `pagerank`.
void rank_pages(const SiteGraph& site, const ranking::PageRankOptions& options, std::vector<PageRecord>& records,
                IndexSummary& summary) {
  const ranking::PageRankResult ranks = ranking::compute_pagerank(site.graph, options);
  summary.pagerank_iterations = ranks.iterations;
  summary.pagerank_converged = ranks.converged;
  for (ranking::NodeId n = 0; n < site.node_records.size(); ++n) records[site.node_records[n]].pagerank = ranks.scores[n];
}

Result<IndexSummary> run(const IndexOptions& options, const std::string& base_url, const fs::path& work_dir) {
  IndexSummary summary;
  StageClock clock(summary, options.after_stage);
  Progress progress(options.show_progress);
  const unsigned threads = resolve_thread_count(options.threads);
  dedup::DedupOptions dedup_options = options.dedup;
  dedup_options.threads = threads;
  auto detector = dedup::make_detector(options.detector, dedup_options);
  if (!detector.ok()) return detector.status();

  // 1. The site's files and their URLs.
  auto plan = plan_site(options.site_dir, base_url);
  if (!plan.ok()) return plan.status();
  const std::vector<SiteFile>& files = plan->files;
  clock.lap("walk");

  // The detector learns the text the site repeats on many pages from a sample (learn_site).
  detector.value()->reset(static_cast<std::uint32_t>(files.size()));
  SamplePages sample(plan.value(), options.limits, threads);
  detector.value()->learn_site(sample.documents(plan.value()));
  clock.lap("sample");

  // 2. Every page parsed once: records, detector documents, the chunks' page stores.
  const ChunkLayout chunks{work_dir / "chunks", files.size(),
                           options.chunk_files != 0 ? options.chunk_files : chunk_size(files.size(), threads)};
  auto parsed = parse_site(plan.value(), sample, *detector.value(), chunks, base_url, threads, progress);
  if (!parsed.ok()) return parsed.status();
  std::vector<PageRecord>& records = parsed->records;
  summary.input_files = records.size();
  clock.lap("parse");

  // 3. Redirects, the link graph and PageRank.
  const RedirectResolver resolver(records);
  const SiteGraph site = link_pages(records, parsed->url_ids, resolver);
  summary.graph_nodes = site.graph.node_count();
  summary.graph_edges = site.graph.edge_count();
  clock.lap("graph");
  rank_pages(site, options.pagerank, records, summary);
  clock.lap("pagerank");

  // 4. Near-duplicates. The detector kept a sketch of each page; when it needs a page's text
  // again (to verify a candidate pair) it reads it from the page store.
  auto stored = StoredPages::open(chunks);
  if (!stored.ok()) return stored.status();
  const dedup::DocumentLoader load_page = stored->loader(records);
  progress.start("near-duplicates", 0);
  const dedup::Clusters clusters = detector.value()->find_clusters(load_page);
  progress.finish();
  summary.candidates_examined = clusters.candidates_examined;
  summary.near_duplicate_pairs = clusters.pairs.size();
  if (Status read = stored->failed(); !read.ok()) return read;
  clock.lap("dedup");

  // 5. The page each cluster is indexed under.
  const std::vector<dedup::AuthorityCandidate> candidates = authority_candidates(records, files.size(), resolver);
  const dedup::AuthoritativePages chosen = dedup::choose_authoritative_pages(
      *detector.value(), clusters, candidates, options.honour_canonical,
      options.split_chains ? dedup::ChainPolicy::kSplit : dedup::ChainPolicy::kKeep, load_page);
  summary.split_off = chosen.split_off;
  summary.split_for_definitions = chosen.split_for_definitions;
  const ClusterAssignment assignment = assign_clusters(records, chosen);
  summary.duplicate_clusters = assignment.duplicate_clusters;
  if (Status read = stored->failed(); !read.ok()) return read;
  clock.lap("authority");

  // 6. The search index.
  if (Status written = write_index(chunks, stored.value(), records, assignment, options, site.graph.node_count(), threads,
                                   index_format::IndexLayout{work_dir}.xapian(), progress);
      !written.ok()) {
    return written;
  }
  clock.lap("xapian");

  // 7. The records beside it.
  if (Status written = write_records(work_dir, records, site, clusters.pairs,
                                     options.collapse == CollapseMode::kQueryTime, summary);
      !written.ok()) {
    return written;
  }
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
  auto build = BuildDirectory::create(options.out_dir, "building");
  if (!build.ok()) return build.status();
  BuildDirectory work = std::move(build).value();
  auto summary = run(options, base_url.value(), work.path());
  if (!summary.ok()) return summary;
  LineWriter summary_file(index_format::IndexLayout{work.path()}.summary());
  summary_file.write(summary_json(summary.value(), options).dump(2));
  if (Status written = summary_file.close(); !written.ok()) return written;
  fault_point("swap");  // everything written, the old index not yet replaced
  if (Status moved = work.commit(); !moved.ok()) return moved;
  return summary;
}

}  // namespace canon::indexer
