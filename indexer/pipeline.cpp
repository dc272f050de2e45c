/// @file pipeline.cpp
/// @brief The stages of `canon index`, run over one site (docs/design.md, "The pipeline").
///
/// Pages are parsed once, on all cores, and never kept whole in memory: each parse thread hands
/// the page to the near-duplicate detector (which keeps a small sketch) and appends its texts and
/// prepared Xapian document to the page store. What stays in memory per page is a PageRecord
/// (URLs, title, link targets as ids, ranks and verdicts). Once the whole site is seen, the link
/// graph, PageRank, clusters and authorities are computed, and each document of the index is
/// written once, from the store, with its cluster fields.
///
/// Run on an existing index, the run re-uses it (docs/design.md, "Re-indexing"): files unchanged
/// since are not read; their records come from the store's catalog and their pages from its
/// segments, for the detector as for the index; the previous Xapian database is copied and
/// changed only where a document's digests say it must be.
#include "indexer/pipeline.h"


#include <algorithm>
#include <atomic>
#include <functional>
#include <set>
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
#include "common/collective.h"
#include "common/fault_injection.h"
#include "common/file_io.h"
#include "common/utf8.h"
#include "common/parallel.h"
#include "common/progress.h"
#include "dedup/authority.h"
#include "dedup/boilerplate.h"
#include "dedup/authoritative_pages.h"
#include "indexer/cluster_assignment.h"
#include "html/html_extract.h"
#include "format/index_format.h"
#include "format/shards.h"
#include "indexer/index_writer.h"
#include "store/page_store.h"
#include "indexer/page_lines.h"
#include "indexer/page_record.h"
#include "indexer/previous_build.h"
#include "store/store_catalog.h"
#include "indexer/site_links.h"
#include "indexer/site_plan.h"
#include "indexer/site_walker.h"
#include "urls/url.h"
#include "ranking/link_graph.h"

namespace canon::indexer {
namespace fs = std::filesystem;
namespace {

class StageClock {
public:
  /// Records the number of `processes` in `summary`.
  StageClock(IndexSummary& summary, const std::function<void(std::string_view)>& after_stage,
             const MeteredCollective& processes)
      : summary_(summary), after_stage_(after_stage), processes_(processes) {
    summary_.processes = processes.size();
  }
  /// Ends `stage`: its time is recorded, and in a partitioned build the bytes the process
  /// exchanged in it (and a crash test may kill the run here).
  void lap(std::string stage) {
    fault_point(stage);
    if (after_stage_) after_stage_(stage);
    const auto now = std::chrono::steady_clock::now();
    if (processes_.size() > 1) summary_.stage_exchanged.emplace_back(stage, processes_.take());
    summary_.stage_seconds.emplace_back(std::move(stage), std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

private:
  IndexSummary& summary_;
  const std::function<void(std::string_view)>& after_stage_;
  const MeteredCollective& processes_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};


/// A page file as parsed, with its size and modification time as it was read.
struct ParsedFile {
  html::ExtractedPage page;
  FileStamp stamp;
  std::int64_t mtime_ns = 0;
  std::uint64_t content_hash = 0;  ///< of the bytes parsed
};

/// Reads and parses one page file within `limits`; an error is the reason the page is skipped.
Result<ParsedFile> read_page(const fs::path& file, const std::string& url, const html::PageLimits& limits) {
  auto read = read_page_bytes(file, limits);
  if (!read.ok()) return Status::error("cannot read file: " + read.status().message());
  FilePrefix& file_bytes = read.value();
  if (Status readable = html::check_page_bytes(file_bytes.bytes); !readable.ok()) return readable;
  ParsedFile parsed{html::extract_page(file_bytes.bytes, url, limits), FileStamp{file_bytes.size, file_bytes.mtime_seconds},
                    file_bytes.mtime_ns, content_hash(file_bytes.bytes)};
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
  const std::string host = urls::url_host(url);
  for (auto& link : links) add(urls::url_host(link.url) == host, link.anchor_text);
}

/// What the near-duplicate detector sees of a page: views into `page` and `url`.
dedup::DedupDocument dedup_document(const html::ExtractedPage& page, const std::string& url) {
  dedup::DedupDocument doc{url, page.title, page.main_text};
  doc.headings = page.headings;
  doc.main_heading = page.main_heading;
  doc.meta_keywords = page.meta_keywords;
  doc.meta_description = page.meta_description;
  for_each_anchor_by_host(page.links, url, [&doc](bool same_site, const std::string& text) {
    (same_site ? doc.same_site_anchors : doc.other_site_anchors).push_back(text);
  });
  doc.cited_place = page.cited_place;
  return doc;
}

/// What the run keeps of a parsed page (page_store.h): its texts for the detector, and its
/// document prepared from them. Takes the page's texts over.
store::StoredPage stored_page(html::ExtractedPage&& page, const std::string& url, const FileStamp& stamp) {
  PageContent content{url, std::move(page.title), std::move(page.meta_description), std::move(page.meta_keywords),
                      std::move(page.headings), std::move(page.main_heading), std::move(page.main_text), stamp,
                      std::move(page.breadcrumbs)};
  store::StoredPage stored;
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
  stored.cited_place = std::move(page.cited_place);
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
  line.redirect_to = r.redirect_to;
  line.canonical = r.canonical_url;
  line.url_rule = r.url_rule;
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
  nlohmann::json exchanged = nlohmann::json::object();
  for (const auto& [stage, bytes] : s.stage_exchanged) exchanged[stage] = {{"sent", bytes.first}, {"received", bytes.second}};
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
      {"url_rules", {{"rules", s.url_rules}, {"pages_not_parsed", s.url_rule_duplicates}}},
      {"parameters",
       {{"base_url", o.base_url},
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
      {"processes", {{"count", s.processes}, {"exchanged_bytes", exchanged}}},
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

/// What a run takes over from the index it replaces (previous_build.h); empty for a full build.
struct Reuse {
  const PreviousBuild* previous = nullptr;
  /// Per file: its catalog entry when it is unchanged, else kNoEntry (the file is parsed).
  std::vector<std::uint32_t> unchanged_entry;
  /// Per file re-used: its new stamp when it moved (FileChanges::restamped).
  std::vector<std::optional<NewStamp>> restamped;
  /// The run's segment number of each previous segment that unchanged pages are in.
  std::vector<std::uint32_t> segment_of_old;
  /// Per previous segment: whether its pages are copied into the run's new segments (it is
  /// mostly dead: start_store) rather than the segment kept.
  std::vector<bool> compact_old;

  /// File i's catalog entry, when the run re-uses it.
  const store::CatalogEntry* entry(std::size_t i) const {
    return previous != nullptr && unchanged_entry[i] != kNoEntry ? &previous->catalog.files[unchanged_entry[i]] : nullptr;
  }
  /// Where the stored page of entry `e` is in the run's store. REQUIRES: e.stored.
  store::StoreLocation location(const store::CatalogEntry& e) const { return {segment_of_old[e.stored->segment], e.stored->offset}; }
};

/// The run's page store, in the new index's store/ directory: first the previous store's
/// segments that unchanged pages are in (hard links: segments are never written once
/// finished), then one new segment per chunk of the site for the pages this run parses.
struct RunStore {
  fs::path dir;
  /// Segment file names, by store::StoreLocation::segment.
  std::vector<std::string> names;
  /// The segment of chunk 0.
  std::uint32_t first_new = 0;
  /// The number in the next segment's name (after this run's).
  std::uint64_t next_number = 0;

  fs::path path(std::uint32_t segment) const { return dir / names[segment]; }
  std::uint32_t segment_of_chunk(std::size_t chunk) const { return first_new + static_cast<std::uint32_t>(chunk); }
};

/// Creates the run's store in `store_dir` with the previous segments `reuse` needs (filling
/// reuse.segment_of_old) and names for `chunks` new ones. `link`: put the previous segments in
/// place (false: only name them, another process of a partitioned build puts them there).
Result<RunStore> start_store(const fs::path& store_dir, Reuse& reuse, std::size_t chunks, bool link) {
  RunStore store;
  store.dir = store_dir;
  std::error_code ec;
  fs::create_directories(store_dir, ec);
  if (ec) return Status::io_error("cannot create '" + store_dir.string() + "': " + ec.message());
  std::uint64_t number = 0;
  if (reuse.previous != nullptr) {
    const store::StoreCatalog& old = reuse.previous->catalog;
    number = old.next_segment;
    // A segment is kept while at least half its bytes are pages still in use; below that, those
    // pages are copied into the new segments and the old one is left with the old index, so the
    // store stays within twice the size of its live pages however many runs it has seen.
    std::vector<std::uint64_t> live_bytes(old.segments.size(), 0);
    for (const std::uint32_t e : reuse.unchanged_entry) {
      if (e != kNoEntry && old.files[e].stored) live_bytes[old.files[e].stored->segment] += old.files[e].stored_bytes;
    }
    reuse.segment_of_old.assign(old.segments.size(), kNoRecord);
    reuse.compact_old.assign(old.segments.size(), false);
    for (std::uint32_t s = 0; s < old.segments.size(); ++s) {
      if (live_bytes[s] == 0) continue;  // no unchanged page in it
      const fs::path from = reuse.previous->store_dir / old.segments[s];
      const std::uintmax_t segment_bytes = fs::file_size(from, ec);
      if (ec) return Status::io_error("cannot read the page store segment '" + from.string() + "': " + ec.message());
      reuse.compact_old[s] = live_bytes[s] * 2 < segment_bytes;
      const fs::path to = store_dir / old.segments[s];
      if (link) {
        fs::create_hard_link(from, to, ec);
        if (ec) fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);  // a file system without links
        if (ec) return Status::io_error("cannot take over the page store segment '" + from.string() + "': " + ec.message());
      }
      reuse.segment_of_old[s] = static_cast<std::uint32_t>(store.names.size());
      store.names.push_back(old.segments[s]);
    }
  }
  store.first_new = static_cast<std::uint32_t>(store.names.size());
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) store.names.push_back(std::to_string(number++) + ".seg");
  store.next_number = number;
  return store;
}

/// The run's page store open for reading: a page is read back from here, never from its file
/// again (so the index and the duplicate decisions are made from the same text, even when a
/// file changes during the run). Segments are opened as they are finished. Thread-safe.
class StoredPages {
public:
  explicit StoredPages(const RunStore& store) : store_(store), readers_(store.names.size()) {}
  /// Opens the segments the run keeps from the previous build (before the parse).
  Status open_kept() { return open(0, store_.first_new); }
  /// Opens the segments the parse wrote (after it).
  Status open_new() { return open(store_.first_new, static_cast<std::uint32_t>(store_.names.size())); }

  /// The page at `at`. REQUIRES: its segment is open.
  Result<store::StoredPage> read(const store::StoreLocation& at) const { return readers_[at.segment]->read(at.offset); }
  /// A DocumentLoader over the stored pages; it refers to this object, which must stay where it
  /// is while the loader is used. A page that cannot be read (a damaged store: the disk) is
  /// given as a page without words, which nothing is merged with, and its error kept for
  /// failed().
  dedup::DocumentLoader loader(const std::vector<PageRecord>& records) {
    return [this, &records](std::uint32_t i, const std::function<void(const dedup::DedupDocument&)>& use) {
      const PageRecord& r = records[i];
      auto page = read(r.stored);
      if (!page.ok()) {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (failure_.ok()) failure_ = page.status();
        use(dedup::DedupDocument{r.url, r.title, {}});
        return;
      }
      use(page->dedup_view(r.url));
    };
  }
  /// The first read the loader could not make, or ok.
  Status failed() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return failure_;
  }

private:
  /// Opens segments [first, end).
  Status open(std::uint32_t first, std::uint32_t end) {
    for (std::uint32_t s = first; s < end; ++s) {
      auto reader = store::PageStoreReader::open(store_.path(s));
      if (!reader.ok()) return reader.status();
      readers_[s] = std::move(reader).value();
    }
    return Status::ok_status();
  }

  const RunStore& store_;
  std::vector<std::unique_ptr<store::PageStoreReader>> readers_;
  mutable std::mutex mutex_;
  Status failure_ = Status::ok_status();
};

/// The pages of the site sample (dedup::site_sample), parsed once for Detector::learn_site and
/// taken from here by the parse instead of being read again.
class SamplePages {
public:
  /// Parses the sample's pages that serve their URL on `threads` threads; those `reuse` has
  /// unchanged are read from `stored` instead.
  SamplePages(const SitePlan& plan, const html::PageLimits& limits, unsigned threads, const Reuse& reuse,
              const StoredPages& stored)
      : limits_(limits), files_(dedup::site_sample(static_cast<std::uint32_t>(plan.files.size()))), pages_(files_.size()),
        stored_pages_(files_.size()), stored_status_(files_.size(), Status::ok_status()) {
    parallel_for(files_.size(), threads, [&](std::size_t s, std::size_t) {
      const std::uint32_t i = files_[s];
      if (!plan.serves_url(i)) return;
      if (const store::CatalogEntry* entry = reuse.entry(i)) {
        if (!entry->stored) return;  // a redirect or noindex page: not learnt from
        auto page = stored.read(reuse.location(*entry));
        if (page.ok()) stored_pages_[s] = std::move(page).value();
        else stored_status_[s] = page.status();
        return;
      }
      pages_[s] = read_page(plan.files[i].absolute_path, plan.urls[i].value(), limits_);
    });
  }
  /// The first stored page that could not be read (a damaged store), or ok.
  Status failed() const { return first_error(stored_status_); }
  /// What the detector learns the site's repeated text from: the sample's parsed pages that
  /// are neither redirects nor marked noindex.
  std::vector<dedup::DedupDocument> documents(const SitePlan& plan) const {
    std::vector<dedup::DedupDocument> docs;
    for (std::size_t s = 0; s < files_.size(); ++s) {
      if (stored_pages_[s]) {
        docs.push_back(stored_pages_[s]->dedup_view(plan.urls[files_[s]].value()));
        continue;
      }
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
  /// Drops the pages read from the store (after learn_site).
  void drop_stored() { stored_pages_ = {}; }

private:
  const html::PageLimits& limits_;
  std::vector<std::uint32_t> files_;
  std::vector<std::optional<Result<ParsedFile>>> pages_;
  std::vector<std::optional<store::StoredPage>> stored_pages_;
  std::vector<Status> stored_status_;
};

/// The files URL rules record as duplicates without reading them (IndexOptions::url_rules):
/// per file, the URL the rules give (another file of the site serves it) and the rules applied.
struct UrlRuleDuplicates {
  std::vector<bool> marked;
  std::vector<std::string> target, rules;
  std::size_t count = 0;
};

/// Stage 1b: each file whose URL `rules` rewrite, to a fixed point, into the URL another file of
/// the site serves.
UrlRuleDuplicates find_url_rule_duplicates(const SitePlan& plan, const urls::RuleSet* rules) {
  UrlRuleDuplicates out;
  const std::size_t files = plan.files.size();
  out.marked.assign(files, false);
  out.target.resize(files);
  out.rules.resize(files);
  if (rules == nullptr) return out;
  std::unordered_map<std::string_view, std::size_t> served;
  for (std::size_t i = 0; i < files; ++i) {
    if (plan.serves_url(i)) served.emplace(plan.urls[i].value(), i);
  }
  for (std::size_t i = 0; i < files; ++i) {
    if (!plan.serves_url(i)) continue;
    auto normal = rules->normalize(plan.urls[i].value());
    if (!normal.ok() || normal->capped || normal->url == plan.urls[i].value()) continue;
    const auto it = served.find(normal->url);
    if (it == served.end() || it->second == i) continue;
    out.marked[i] = true;
    out.target[i] = normal->url;
    for (std::size_t applied : normal->rules) {
      out.rules[i] += (out.rules[i].empty() ? "" : "; then ") + urls::describe(rules->rules()[applied]);
    }
    ++out.count;
  }
  return out;
}

/// Stage 5b: each page recorded by URL rules joins the cluster of the page its redirect leads to
/// (a duplicate of that cluster's authoritative page), or is skipped, with the reason, when that
/// page is not indexed.
void place_url_rule_duplicates(std::vector<PageRecord>& records, const RedirectResolver& resolver) {
  for (PageRecord& r : records) {
    if (!r.url_rule || r.status != PageStatus::kRedirect || !r.redirect_to) continue;
    const std::uint32_t target = resolver.find(*r.redirect_to);
    const PageRecord* page = target == kNoRecord ? nullptr : &records[target];
    if (page != nullptr && page->cluster) {
      r.status = PageStatus::kDuplicate;
      r.cluster = page->cluster;
      r.cluster_pagerank = page->cluster_pagerank;
      r.authoritative = page->authoritative;
      r.authority_reason = page->authority_reason;
      r.redirect_to.reset();
    } else {
      r.status = PageStatus::kSkipped;
      r.reason = "URL rules make it " + *r.redirect_to + ", which is not indexed" +
                 (page != nullptr && !page->reason.empty() ? " (" + page->reason + ")" : "");
      r.redirect_to.reset();
    }
  }
}

/// What stage 2 works with for every file.
struct ParseContext {
  const SitePlan& plan;
  const UrlRuleDuplicates& by_rule;
  const Reuse& reuse;
  SamplePages& sample;
  dedup::Detector& detector;
  const StoredPages& stored;
  UrlIds& url_ids;
  AnchorIds& anchor_ids;
};

/// Fills `r` with what the walk says of file i; false when that is all (the file has no URL of
/// its own: skipped).
bool plan_record(const SitePlan& plan, std::size_t i, PageRecord& r) {
  r.path = plan.files[i].relative_path;
  r.status = PageStatus::kSkipped;
  if (!plan.urls[i].ok()) {
    r.reason = "no URL for this path: " + plan.urls[i].status().message();
    return false;
  }
  r.url = plan.urls[i].value();
  if (!plan.serves_url(i)) {
    r.reason = "same URL as " + plan.files[plan.url_owner[i]].relative_path;
    return false;
  }
  return true;
}

/// The status a parsed page starts with: a redirect (neither a node nor a document), skipped for
/// robots noindex (a node, not a document), or indexed until its cluster says otherwise.
/// True when the page goes to the detector.
bool set_parsed_status(PageRecord& r) {
  if (r.refresh_url) {
    r.status = PageStatus::kRedirect;
    return false;
  }
  if (r.robots_noindex) {
    r.reason = "robots meta says noindex";
    return false;
  }
  r.status = PageStatus::kIndexed;
  return true;
}

/// Parses file i into `r` and, when it is a page to index, hands it to the detector (document
/// i) and appends it to `store` (segment `segment` of the run). A page that cannot be parsed is
/// recorded as skipped; only a failure to write the store is an error.
Status parse_file(ParseContext& run, std::size_t i, store::PageStoreWriter& store, std::uint32_t segment, PageRecord& r) {
  auto file = run.sample.take(run.plan, i);
  if (!file.ok()) {
    r.reason = file.status().message();
    return Status::ok_status();
  }
  html::ExtractedPage* page = &file->page;
  r.parsed = true;
  r.file_size = file->stamp.size;
  r.mtime_ns = file->mtime_ns;
  r.content_hash = file->content_hash;
  r.cuts = page->cuts;
  r.title = page->title;
  r.heading = page->main_heading;
  r.defined = dedup::defined_terms(page->definition_ids);
  r.listed = dedup::listed_entries(page->main_link_targets);
  r.robots_noindex = page->robots_noindex;
  r.canonical_url = page->canonical_url;
  r.refresh_url = page->refresh_url;
  if (!r.refresh_url && !page->robots_nofollow) {
    std::vector<std::string> link_urls;
    std::vector<std::string> anchors;
    for (const html::PageLink& link : page->links) {
      if (link.nofollow) continue;
      link_urls.push_back(urls::strip_index_page(link.url));
      anchors.push_back(link.to_place ? place_key(link.anchor_text) : anchor_key(link.anchor_text));
    }
    r.links = run.url_ids.ids(link_urls);
    r.link_anchors = intern_anchor_keys(anchors, run.anchor_ids);
  }
  if (!set_parsed_status(r)) return Status::ok_status();
  const store::StoredPage stored = stored_page(std::move(*page), r.url, file->stamp);
  run.detector.add(static_cast<std::uint32_t>(i), stored.dedup_view(r.url));
  r.in_dedup = true;
  r.terms_source = IndexWriter::terms_source(r.url, r.content_hash);
  auto offset = store.append(stored);
  if (!offset.ok()) return offset.status();
  r.stored = store::StoreLocation{segment, offset.value()};
  r.stored_bytes = store.bytes() - offset.value();
  return Status::ok_status();
}

/// Takes unchanged file i over from catalog entry `e` into `r`, as parse_file would have made
/// it, without parsing the file: its page is read from the store for the detector. A file whose
/// stamp moved gets its document restamped and appended to `store` (segment `segment`).
Status reuse_file(ParseContext& run, std::size_t i, const store::CatalogEntry& e, store::PageStoreWriter* store,
                  std::uint32_t segment, PageRecord& r) {
  const std::optional<NewStamp>& new_stamp = run.reuse.restamped[i];
  r.parsed = true;
  r.file_size = new_stamp ? new_stamp->file.size : e.size;
  r.mtime_ns = new_stamp ? new_stamp->mtime_ns : e.mtime_ns;
  r.content_hash = e.content_hash;
  r.cuts = e.cuts;
  r.title = e.title;
  r.heading = e.heading;
  r.defined = e.defined;
  r.listed = e.listed;
  r.robots_noindex = e.robots_noindex;
  r.canonical_url = e.canonical_url;
  r.refresh_url = e.refresh_url;
  if (!e.links.empty()) {
    std::vector<std::string> link_urls;
    link_urls.reserve(e.links.size());
    for (const std::uint32_t link : e.links) link_urls.push_back(run.reuse.previous->catalog.urls[link]);
    r.links = run.url_ids.ids(link_urls);
    std::vector<std::string> anchors;
    anchors.reserve(e.link_anchors.size());
    for (const std::uint32_t anchor : e.link_anchors) {
      anchors.push_back(anchor == kNoRecord ? std::string() : run.reuse.previous->catalog.anchors[anchor]);
    }
    r.link_anchors = intern_anchor_keys(anchors, run.anchor_ids);
  }
  if (!set_parsed_status(r)) return Status::ok_status();
  if (!e.stored) return Status::corruption("the page store catalog has no stored page for " + e.path);
  r.stored = run.reuse.location(e);
  auto page = run.stored.read(r.stored);
  if (!page.ok()) return page.status();
  if (new_stamp) {
    auto document = IndexWriter::restamp(page->document, new_stamp->file);
    if (!document.ok()) return document.status();
    page->document = std::move(document).value();
  }
  r.stored_bytes = e.stored_bytes;
  if (new_stamp || run.reuse.compact_old[e.stored->segment]) {  // a new record, in this run's segment
    if (store == nullptr) return Status::error("no page store segment to write " + e.path + " to");
    auto offset = store->append(page.value());
    if (!offset.ok()) return offset.status();
    r.stored = store::StoreLocation{segment, offset.value()};
    r.stored_bytes = store->bytes() - offset.value();
  }
  run.detector.add(static_cast<std::uint32_t>(i), page->dedup_view(r.url));
  r.in_dedup = true;
  r.terms_source = IndexWriter::terms_source(r.url, r.content_hash);
  return Status::ok_status();
}

/// File i into `r`: what the walk says of it, then recorded by the URL rules, taken over from its
/// catalog entry in `run.reuse` (recorded as unreadable when the entry says so), or parsed into
/// `store` (segment `segment`; null when nothing is to be parsed or written).
Status record_file(ParseContext& run, std::size_t i, store::PageStoreWriter* store, std::uint32_t segment,
                   PageRecord& r) {
  if (!plan_record(run.plan, i, r)) return Status::ok_status();
  if (run.by_rule.marked[i]) {
    // Not read: a redirect to the URL the rules give, until its cluster is known.
    r.parsed = true;
    r.url_rule = run.by_rule.rules[i];
    r.refresh_url = run.by_rule.target[i];
    r.status = PageStatus::kRedirect;
    return Status::ok_status();
  }
  if (const store::CatalogEntry* entry = run.reuse.entry(i); entry != nullptr) {
    if (!entry->unreadable.empty()) {  // another process of a partitioned build could not read it
      r.reason = entry->unreadable;
      return Status::ok_status();
    }
    return reuse_file(run, i, *entry, store, segment, r);
  }
  if (store == nullptr) return Status::error("no page store segment to parse " + r.path + " into");
  return parse_file(run, i, *store, segment, r);
}

/// Which process of a partitioned build parses chunk `chunk` of `chunks`: contiguous runs of
/// chunks, as even as the count allows (docs/partitioned-build.md). One process parses them all.
unsigned chunk_owner(std::size_t chunk, std::size_t chunks, unsigned processes) {
  return static_cast<unsigned>(chunk * processes / chunks);
}

/// Stage 2: every file parsed, or taken over from the previous build, on all threads. Each
/// chunk of consecutive files is done by one thread, which keeps the pages it parses in the
/// chunk's new segment of the store (their texts and prepared documents) and hands every page
/// to the detector. The walk's skipped paths are recorded after the files.
Result<std::vector<PageRecord>> parse_site(ParseContext& run, const ChunkLayout& chunks, const RunStore& store,
                                           const std::string& base_url, unsigned threads, const std::string& stage,
                                           const Collective& processes, Progress& progress) {
  std::vector<PageRecord> records(run.plan.files.size());
  std::vector<Status> chunk_status(chunks.count(), Status::ok_status());
  std::atomic<std::size_t> parsed_files{0};
  std::mutex progress_mutex;
  progress.start(stage, run.plan.files.size());
  parallel_for(chunks.count(), threads, [&](std::size_t chunk, std::size_t) {
    if (chunk_owner(chunk, chunks.count(), processes.size()) != processes.rank()) return;  // another's part
    const std::uint32_t segment = store.segment_of_chunk(chunk);
    auto writer = store::PageStoreWriter::create(store.path(segment));
    if (!writer.ok()) {
      chunk_status[chunk] = writer.status();
      return;
    }
    for (std::size_t i = chunks.first(chunk); i < chunks.end(chunk); ++i) {
      const Status done = record_file(run, i, writer.value().get(), segment, records[i]);
      if (!done.ok()) {
        chunk_status[chunk] = done;
        return;
      }
      const std::size_t count = ++parsed_files;
      if (std::unique_lock lock(progress_mutex, std::try_to_lock); lock) progress.update(count);
    }
    chunk_status[chunk] = writer.value()->finish();
  });
  if (Status failed = first_error(chunk_status); !failed.ok()) return failed;
  progress.finish();
  for (const SkippedPath& skipped : run.plan.skipped) {
    PageRecord r;
    r.path = skipped.relative_path;
    if (auto url = urls::file_url(base_url, r.path); url.ok()) r.url = url.value();
    r.reason = skipped.reason;
    records.push_back(std::move(r));
  }
  return records;
}

/// Whether record `r` is a document of the index: a page handed to the detector that is not a
/// duplicate, unless search collapses at query time.
bool is_document(const PageRecord& r, bool index_duplicates) {
  return r.in_dedup && (r.status != PageStatus::kDuplicate || index_duplicates);
}

/// Exact-anchor terms a document gets: the texts the most pages link to it with.
constexpr std::size_t kMaxAnchorTerms = 16;

/// What record d's document gets from ranking and clustering; `anchor_texts` by AnchorIds id.
ClusterFields cluster_fields(std::size_t d, const std::vector<PageRecord>& records, const ClusterAssignment& clusters,
                             const std::vector<std::string>& anchor_texts) {
  const PageRecord& r = records[d];
  ClusterFields fields{r.cluster_pagerank, *r.cluster, {}, {}, {}, {}};
  for (const InboundAnchor& anchor : r.inbound_anchors) {
    const std::string& text = anchor_texts[anchor.text];
    if (is_place_key(text)) {
      fields.places.push_back(text.substr(1));
    } else if (fields.anchors.size() < kMaxAnchorTerms) {
      fields.anchors.push_back({text, anchor.pages});
    }
  }
  if (r.status == PageStatus::kDuplicate) fields.authoritative_url = records[r.authoritative].url;
  if (auto it = clusters.alternates.find(static_cast<std::uint32_t>(d)); it != clusters.alternates.end()) {
    fields.alternates = it->second;
    std::stable_sort(fields.alternates.begin(), fields.alternates.end(),
                     [](const index_format::Alternate& a, const index_format::Alternate& b) { return a.similarity > b.similarity; });
  }
  return fields;
}

/// How stage 6 writes every document.
struct IndexPlan {
  const ClusterAssignment& clusters;
  /// The link texts of the site, by AnchorIds id.
  const std::vector<std::string>& anchor_texts;
  WriterOptions writer;
  bool index_duplicates = false;
  /// The largest cluster PageRank of the documents (IndexWriter::set_static_score_bound).
  double static_score_bound = 0.0;

  IndexPlan(const std::vector<PageRecord>& records, const ClusterAssignment& clusters,
            const std::vector<std::string>& anchor_texts, const IndexOptions& options, std::size_t graph_nodes)
      : clusters(clusters),
        anchor_texts(anchor_texts),
        writer{options.collapse, static_cast<double>(std::max<std::size_t>(graph_nodes, 1))},
        index_duplicates(options.collapse == CollapseMode::kQueryTime) {
    for (const PageRecord& r : records) {
      if (is_document(r, index_duplicates)) static_score_bound = std::max(static_score_bound, r.cluster_pagerank);
    }
  }
};

/// Which documents this process writes: one process, all. P processes writing shards to be
/// searched as shards: every P-th document in file order from the process's number on (document
/// k, counted from 0, in shard k mod P as its document k / P + 1), so that Xapian's interleaving
/// of the shards gives each document its one-process id (format/shards.h, split_index). P
/// processes writing shards to be merged: the documents of the process's own chunks
/// (chunk_owner), so that compacting the shards in order numbers the documents as one process
/// does.
struct ShardOfProcess {
  unsigned processes = 1, rank = 0;
  /// Each record's document number (0-based, file order), or kNoRecord.
  std::vector<std::uint32_t> document;
  /// For shards to be merged: the process that writes each record's document.
  std::vector<unsigned> writer;
  bool writes(std::size_t d) const {
    if (document[d] == kNoRecord) return false;
    return writer.empty() ? document[d] % processes == rank : writer[d] == rank;
  }
};

ShardOfProcess shard_of_process(const std::vector<PageRecord>& records, const IndexPlan& plan,
                                const ChunkLayout& chunks, const Collective& processes, bool to_merge) {
  ShardOfProcess shard{processes.size(), processes.rank(), std::vector<std::uint32_t>(records.size(), kNoRecord), {}};
  std::uint32_t documents = 0;
  for (std::size_t d = 0; d < records.size(); ++d) {
    if (is_document(records[d], plan.index_duplicates)) shard.document[d] = documents++;
  }
  if (to_merge) {
    shard.writer.assign(records.size(), 0);
    for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) {
      const unsigned owner = chunk_owner(chunk, chunks.count(), processes.size());
      for (std::size_t d = chunks.first(chunk); d < chunks.end(chunk); ++d) shard.writer[d] = owner;
    }
  }
  return shard;
}

/// Stage 6, from scratch: each document (is_document) is written once, from its stored
/// document with its cluster fields, chunk by chunk on all threads, into the chunk's database;
/// the chunk databases are then merged into the index's database, or, one of several
/// processes, into the process's shard (ShardOfProcess; `to_merge`: shards to be merged). Sets
/// each record's docid and digests.
Status write_index(const ChunkLayout& chunks, const StoredPages& stored, std::vector<PageRecord>& records,
                   const IndexPlan& plan, unsigned threads, const index_format::IndexLayout& layout,
                   const Collective& processes, bool to_merge, Progress& progress) {
  if (Status injected = injected_failure("write-index"); !injected.ok()) return injected;
  const ShardOfProcess shard = shard_of_process(records, plan, chunks, processes, to_merge);
  const bool sharded = processes.size() > 1;
  const fs::path chunk_dir = sharded ? fs::path(chunks.dir.string() + "-" + std::to_string(processes.rank())) : chunks.dir;
  const auto chunk_path = [&](std::size_t chunk) { return (chunk_dir / std::to_string(chunk)).string(); };
  const fs::path xapian_dir = sharded ? layout.shard(processes.rank() + 1) : layout.xapian();
  std::vector<Status> chunk_status(chunks.count(), Status::ok_status());
  std::atomic<std::size_t> written_files{0};
  std::mutex progress_mutex;
  std::error_code ec;
  fs::create_directory(chunk_dir, ec);
  progress.start("index", chunks.files);
  parallel_for(chunks.count(), threads, [&](std::size_t chunk, std::size_t) {
    auto writer = IndexWriter::create(chunk_path(chunk), plan.writer);
    if (!writer.ok()) {
      chunk_status[chunk] = writer.status();
      return;
    }
    writer.value()->set_static_score_bound(plan.static_score_bound);
    for (std::size_t d = chunks.first(chunk); d < chunks.end(chunk); ++d) {
      PageRecord& r = records[d];
      if (!shard.writes(d)) continue;
      const ClusterFields fields = cluster_fields(d, records, plan.clusters, plan.anchor_texts);
      auto page = stored.read(r.stored);
      if (!page.ok()) {
        chunk_status[chunk] = page.status();
        return;
      }
      if (auto added = writer.value()->add(r.url, page->document, fields); !added.ok()) {
        chunk_status[chunk] = added.status();
        return;
      }
      r.digests = IndexWriter::digests(r.terms_source, r.stamp(), fields, plan.writer);
    }
    chunk_status[chunk] = writer.value()->finish();
    const std::size_t done = written_files += chunks.end(chunk) - chunks.first(chunk);
    if (std::unique_lock lock(progress_mutex, std::try_to_lock); lock) progress.update(done);
  });
  progress.finish();
  if (Status failed = first_error(chunk_status); !failed.ok()) return failed;
  std::vector<std::string> chunk_paths;
  for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) chunk_paths.push_back(chunk_path(chunk));
  if (chunk_paths.empty()) {  // no files at all: an empty database
    auto empty = IndexWriter::create(chunk_path(0), plan.writer);
    if (!empty.ok()) return empty.status();
    empty.value()->set_static_score_bound(0.0);
    if (Status done = empty.value()->finish(); !done.ok()) return done;
    chunk_paths.push_back(chunk_path(0));
  }
  if (Status merged = merge_databases(chunk_paths, xapian_dir.string()); !merged.ok()) return merged;
  fs::remove_all(chunk_dir, ec);
  // The merge numbers the documents chunk after chunk, each chunk's in file order; the shards'
  // interleaving gives the same numbers. The other processes' documents: their digests as
  // they write them, for the catalog.
  for (std::size_t d = 0; d < records.size(); ++d) {
    PageRecord& r = records[d];
    if (shard.document[d] == kNoRecord) continue;
    r.docid = shard.document[d] + 1;
    if (!shard.writes(d)) {
      const ClusterFields fields = cluster_fields(d, records, plan.clusters, plan.anchor_texts);
      r.digests = IndexWriter::digests(r.terms_source, r.stamp(), fields, plan.writer);
    }
  }
  return Status::ok_status();
}

/// What stage 6 did to the documents of a re-used index.
struct IndexUpdates {
  std::size_t added = 0;
  std::size_t rewritten = 0;  ///< terms changed: the whole document written again
  std::size_t updated = 0;    ///< only values and data changed
  std::size_t removed = 0;
  std::size_t kept = 0;       ///< untouched
};

/// Stage 6 on a re-used index: the previous database, copied to `xapian_dir`, gets only what
/// changed: documents of pages no longer indexed are removed, those whose terms digest changed
/// are written again, those whose fields digest alone changed get new values and data, new
/// pages are added. Sets each record's docid and digests. Fails with kFailedPrecondition when
/// the previous database cannot be updated into this run's (another collapse mode): the run
/// then writes the index from scratch.
Result<IndexUpdates> update_index(const PreviousBuild& previous, const StoredPages& stored,
                                  std::vector<PageRecord>& records, const IndexPlan& plan, const fs::path& xapian_dir,
                                  Progress& progress) {
  if (index_format::stub_file_at(previous.xapian_dir)) {
    return Status::failed_precondition("the previous index is in shards (a partitioned build)");
  }
  std::error_code ec;
  fs::copy(previous.xapian_dir, xapian_dir, fs::copy_options::recursive, ec);
  if (ec) return Status::io_error("cannot copy the previous Xapian database: " + ec.message());
  auto writer = IndexWriter::open(xapian_dir.string(), plan.writer);
  if (!writer.ok()) return writer.status();
  IndexWriter& index = *writer.value();
  const std::vector<store::CatalogEntry>& old = previous.catalog.files;
  // The previous document of each record that stays a document (by path: a page keeps its URL).
  std::vector<const store::CatalogEntry*> previous_of(records.size(), nullptr);
  std::vector<bool> kept_docid;
  std::uint32_t max_docid = 0;
  for (const store::CatalogEntry& e : old) max_docid = std::max(max_docid, e.docid);
  kept_docid.assign(std::size_t{max_docid} + 1, false);
  for (std::size_t d = 0; d < records.size(); ++d) {
    if (!is_document(records[d], plan.index_duplicates)) continue;
    if (auto it = previous.entry_of_path.find(records[d].path); it != previous.entry_of_path.end() && old[it->second].docid != 0) {
      previous_of[d] = &old[it->second];
      kept_docid[old[it->second].docid] = true;
    }
  }
  IndexUpdates updates;
  for (const store::CatalogEntry& e : old) {
    if (e.docid == 0 || kept_docid[e.docid]) continue;
    if (Status removed = index.remove(e.docid); !removed.ok()) return removed;
    ++updates.removed;
  }
  progress.start("index", records.size());
  for (std::size_t d = 0; d < records.size(); ++d) {
    progress.update(d);
    PageRecord& r = records[d];
    if (!is_document(r, plan.index_duplicates)) continue;
    const ClusterFields fields = cluster_fields(d, records, plan.clusters, plan.anchor_texts);
    r.digests = IndexWriter::digests(r.terms_source, r.stamp(), fields, plan.writer);
    const store::CatalogEntry* was = previous_of[d];
    if (was != nullptr && was->terms_digest == r.digests.terms && was->fields_digest == r.digests.fields) {
      r.docid = was->docid;
      ++updates.kept;
      continue;
    }
    // Only values and data changed, and not the file's stamp: the document has what it needs.
    const bool same_stamp = was != nullptr && was->size == r.file_size && was->mtime_ns == r.mtime_ns;
    if (was != nullptr && was->terms_digest == r.digests.terms && same_stamp) {
      r.docid = was->docid;
      if (Status updated = index.update_fields(r.docid, r.url, nullptr, fields, was->data_digest != r.digests.data);
          !updated.ok()) {
        return updated;
      }
      ++updates.updated;
      continue;
    }
    auto page = stored.read(r.stored);
    if (!page.ok()) return page.status();
    if (was == nullptr) {
      auto added = index.add(r.url, page->document, fields);
      if (!added.ok()) return added.status();
      r.docid = added.value();
      ++updates.added;
      continue;
    }
    r.docid = was->docid;
    if (was->terms_digest != r.digests.terms) {
      if (Status replaced = index.replace(r.docid, r.url, page->document, fields); !replaced.ok()) return replaced;
      ++updates.rewritten;
    } else {
      if (Status updated = index.update_fields(r.docid, r.url, &page->document, fields); !updated.ok()) return updated;
      ++updates.updated;
    }
  }
  progress.finish();
  index.set_static_score_bound(plan.static_score_bound);
  if (Status finished = index.finish(); !finished.ok()) return finished;
  return updates;
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

/// Stage 3, second half: PageRank over the site's link graph, into each record's `pagerank`, its
/// iterations split among `processes`; the graph's size and the iterations in `summary`.
void rank_pages(const SiteGraph& site, const ranking::PageRankOptions& options, const Collective& processes,
                std::vector<PageRecord>& records, IndexSummary& summary) {
  summary.graph_nodes = site.graph.node_count();
  summary.graph_edges = site.graph.edge_count();
  const ranking::PageRankResult ranks = ranking::compute_pagerank(site.graph, options, processes);
  summary.pagerank_iterations = ranks.iterations;
  summary.pagerank_converged = ranks.converged;
  for (ranking::NodeId n = 0; n < site.node_records.size(); ++n) records[site.node_records[n]].pagerank = ranks.scores[n];
}

/// Each file's followed links and their texts as parsed (PageRecord::links and link_anchors),
/// kept for the store's catalog: link_pages releases the records' own.
struct ParsedLinks {
  const UrlIds& urls;
  /// The link texts, by AnchorIds id.
  const std::vector<std::string>& anchor_texts;
  std::vector<std::vector<std::uint32_t>> targets;
  std::vector<std::vector<std::uint32_t>> texts;

  ParsedLinks(const std::vector<PageRecord>& records, const UrlIds& urls, const std::vector<std::string>& anchor_texts)
      : urls(urls), anchor_texts(anchor_texts), targets(records.size()), texts(records.size()) {
    for (std::size_t i = 0; i < records.size(); ++i) {
      targets[i] = records[i].links;
      texts[i] = records[i].link_anchors;
    }
  }
};

/// File record `r`'s catalog entry, with its links `targets` and their `texts` (PageRecord::links
/// and link_anchors as parsed) and its stored page's segment renumbered by `segment_number`.
store::CatalogEntry catalog_entry(const PageRecord& r, const std::vector<std::uint32_t>& targets,
                                  const std::vector<std::uint32_t>& texts,
                                  const std::vector<std::uint32_t>& segment_number) {
  store::CatalogEntry e;
  e.path = r.path;
  if (r.url_rule) {
    // Never read: the next run records it again if the rules still apply, else reads it.
    e.unreadable = "recorded by URL rules, not read";
    return e;
  }
  if (!r.parsed) {
    e.unreadable = r.reason;
    return e;
  }
  e.size = r.file_size;
  e.mtime_ns = r.mtime_ns;
  e.content_hash = r.content_hash;
  e.cuts = r.cuts;
  e.title = r.title;
  e.heading = r.heading;
  e.defined = r.defined;
  e.listed = r.listed;
  e.robots_noindex = r.robots_noindex;
  e.canonical_url = r.canonical_url;
  e.refresh_url = r.refresh_url;
  e.links = targets;
  e.link_anchors = texts;
  if (r.in_dedup) {
    e.stored = store::StoreLocation{segment_number[r.stored.segment], r.stored.offset};
    e.stored_bytes = r.stored_bytes;
  }
  e.docid = r.docid;
  e.terms_digest = r.digests.terms;
  e.fields_digest = r.digests.fields;
  e.data_digest = r.digests.data;
  return e;
}

/// The page store's catalog for the next run (store_catalog.h): every file this run parsed
/// or took over, with its links as parsed. Drops the segments no page is in (new ones no page
/// went into, previous ones whose pages were copied).
Status write_catalog(const RunStore& store, const SitePlan& plan, const std::vector<PageRecord>& records,
                     const ParsedLinks& links, const std::vector<std::pair<std::string, std::string>>& fingerprint,
                     std::int64_t run_started_ns) {
  store::StoreCatalog catalog;
  catalog.fingerprint = fingerprint;
  catalog.run_started_ns = run_started_ns;
  catalog.next_segment = store.next_number;
  std::vector<bool> used(store.names.size(), false);
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    if (records[i].in_dedup) used[records[i].stored.segment] = true;
  }
  std::vector<std::uint32_t> segment_number(store.names.size(), kNoRecord);
  for (std::uint32_t s = 0; s < store.names.size(); ++s) {
    if (!used[s]) {
      std::error_code ec;
      fs::remove(store.path(s), ec);  // a link: the previous index keeps its own
      continue;
    }
    segment_number[s] = static_cast<std::uint32_t>(catalog.segments.size());
    catalog.segments.push_back(store.names[s]);
  }
  catalog.urls = links.urls.urls();
  catalog.anchors = links.anchor_texts;
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    if (!plan.serves_url(i)) continue;
    catalog.files.push_back(catalog_entry(records[i], links.targets[i], links.texts[i], segment_number));
  }
  return store::write_store_catalog(store.dir / "catalog", catalog);
}

/// The part of a partitioned build this process parsed (its chunks' files, chunk_owner()), as a
/// catalog (store_catalog.h) the other processes take the files over from: one entry per file
/// of its chunks, in file order, with the links as `url_ids` and `anchor_ids` number them and
/// the run's segments as they are. Only what the parse made is in it (no docids yet).
std::string encode_parsed_part(const RunStore& store, const ChunkLayout& chunks, const Collective& processes,
                               const std::vector<PageRecord>& records, const UrlIds& url_ids,
                               const AnchorIds& anchor_ids) {
  store::StoreCatalog part;
  part.segments = store.names;
  part.urls = url_ids.urls();
  part.anchors = anchor_ids.urls();
  std::vector<std::uint32_t> same_segment(store.names.size());
  std::iota(same_segment.begin(), same_segment.end(), 0);
  for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) {
    if (chunk_owner(chunk, chunks.count(), processes.size()) != processes.rank()) continue;
    for (std::size_t i = chunks.first(chunk); i < chunks.end(chunk); ++i) {
      const PageRecord& r = records[i];
      part.files.push_back(catalog_entry(r, r.links, r.link_anchors, same_segment));
    }
  }
  return store::encode_store_catalog(part);
}

/// Every process's part of a partitioned build, exchanged: each process gives the part it parsed
/// (encode_parsed_part) and receives the others', decoded, by rank (its own left empty). Also
/// the barrier after which every segment of the run's store is finished.
Result<std::vector<store::StoreCatalog>> exchange_parsed_parts(const std::string& mine, const Collective& processes) {
  const std::vector<std::string> parts = processes.all_gather_bytes(mine);
  std::vector<store::StoreCatalog> decoded(parts.size());
  for (unsigned p = 0; p < parts.size(); ++p) {
    if (p == processes.rank()) continue;
    auto part = store::decode_store_catalog(parts[p], "the part of process " + std::to_string(p));
    if (!part.ok()) return part.status();
    decoded[p] = std::move(part).value();
  }
  return decoded;
}

/// Stage 2 of a partitioned build, second half: the files of the chunks the other processes
/// parsed, taken over from their `parts` (exchange_parsed_parts) as a re-index takes over
/// unchanged files: each record filled as the parse made it, its page read from the store for the
/// detector. Nothing is written. REQUIRES: every segment of the run's store open in `run.stored`.
Status take_over_parts(const ParseContext& run, const ChunkLayout& chunks, const RunStore& store,
                       const Collective& processes, std::vector<store::StoreCatalog>&& parts, unsigned threads,
                       std::vector<PageRecord>& records) {
  const std::size_t files = run.plan.files.size();
  for (unsigned p = 0; p < parts.size(); ++p) {
    if (p == processes.rank()) continue;
    PreviousBuild part{store.dir, {}, std::move(parts[p]), {}};
    Reuse reuse{&part, std::vector<std::uint32_t>(files, kNoEntry), std::vector<std::optional<NewStamp>>(files),
                std::vector<std::uint32_t>(store.names.size()), std::vector<bool>(store.names.size(), false)};
    std::iota(reuse.segment_of_old.begin(), reuse.segment_of_old.end(), 0);
    std::vector<std::size_t> owned;
    std::uint32_t entry = 0;
    for (std::size_t chunk = 0; chunk < chunks.count(); ++chunk) {
      if (chunk_owner(chunk, chunks.count(), processes.size()) != p) continue;
      owned.push_back(chunk);
      for (std::size_t i = chunks.first(chunk); i < chunks.end(chunk); ++i) reuse.unchanged_entry[i] = entry++;
    }
    if (entry != part.catalog.files.size()) {
      return Status::corruption("the part of process " + std::to_string(p) + " has " +
                                std::to_string(part.catalog.files.size()) + " files, its chunks " + std::to_string(entry));
    }
    ParseContext from_part{run.plan, run.by_rule, reuse, run.sample, run.detector, run.stored, run.url_ids,
                           run.anchor_ids};
    std::vector<Status> chunk_status(owned.size(), Status::ok_status());
    parallel_for(owned.size(), threads, [&](std::size_t k, std::size_t) {
      for (std::size_t i = chunks.first(owned[k]); i < chunks.end(owned[k]) && chunk_status[k].ok(); ++i) {
        chunk_status[k] = record_file(from_part, i, nullptr, 0, records[i]);
      }
    });
    if (Status failed = first_error(chunk_status); !failed.ok()) return failed;
  }
  return Status::ok_status();
}

/// Nanoseconds since the epoch, now.
std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// Stage 1's hand-off: the site's files and their URLs, the files URL rules make duplicates,
/// and what the previous build lends the run (nothing on a full build).
struct WalkedSite {
  SitePlan plan;
  UrlRuleDuplicates by_rule;
  Reuse reuse;
};

/// How the site's files compare with `previous` (compare_files): in a partitioned build the first
/// process compares them and tells the others, so that all re-use the same files.
Result<FileChanges> compare_with_previous(const WalkedSite& walked, const PreviousBuild& previous,
                                          const IndexOptions& options, unsigned threads, const Collective& processes) {
  if (processes.size() == 1) return compare_files(walked.plan, previous, options.limits, threads, walked.by_rule.marked);
  FileChanges mine;
  if (processes.rank() == 0) mine = compare_files(walked.plan, previous, options.limits, threads, walked.by_rule.marked);
  const std::vector<std::string> told =
      processes.all_gather_bytes(processes.rank() == 0 ? encode_file_changes(mine) : std::string());
  if (processes.rank() == 0) return mine;
  auto changes = decode_file_changes(told[0], walked.plan.files.size());
  if (!changes.ok()) return changes.status();
  for (const std::uint32_t entry : changes->unchanged_entry) {
    if (entry != kNoEntry && entry >= previous.catalog.files.size()) {
      return Status::corruption("process 0 re-uses a file the previous build does not have");
    }
  }
  return changes;
}

/// Stage 1: the site's files and their URLs, and which are unchanged since `previous` (counted
/// in `reindex`); the URL rules' duplicates counted in `summary`.
Result<WalkedSite> walk_site(const IndexOptions& options, const std::string& base_url, const PreviousBuild* previous,
                             unsigned threads, const Collective& processes, ReindexSummary& reindex,
                             IndexSummary& summary) {
  auto plan = plan_site(options.site_dir, base_url);
  if (!plan.ok()) return plan.status();
  WalkedSite walked{std::move(plan).value(), {}, {}};
  walked.by_rule = find_url_rule_duplicates(walked.plan, options.url_rules.get());
  summary.url_rules = options.url_rules ? options.url_rules->rules().size() : 0;
  summary.url_rule_duplicates = walked.by_rule.count;
  if (previous != nullptr) {
    auto compared = compare_with_previous(walked, *previous, options, threads, processes);
    if (!compared.ok()) return compared.status();
    FileChanges& changes = compared.value();
    walked.reuse.previous = previous;
    walked.reuse.unchanged_entry = std::move(changes.unchanged_entry);
    walked.reuse.restamped = std::move(changes.restamped);
    reindex.restamped = changes.restamped_count;
    reindex.added = changes.added;
    reindex.changed = changes.changed;
    reindex.unchanged = changes.unchanged;
    reindex.deleted = changes.deleted;
    reindex.retried = changes.retried;
  }
  return walked;
}

/// The parse stage's name on the terminal: on a re-index, what it parses and what it re-uses.
std::string parse_stage_name(const PreviousBuild* previous, const ReindexSummary& reindex) {
  if (previous == nullptr) return "parse";
  return "parse (" + std::to_string(reindex.added) + " new, " + std::to_string(reindex.changed) + " changed, " +
         std::to_string(reindex.deleted) + " deleted, " + std::to_string(reindex.retried) + " retried, " +
         std::to_string(reindex.unchanged) + " unchanged, of them " + std::to_string(reindex.restamped) +
         " with a new time)";
}

/// Stage 5: the page each cluster is indexed under, marked in `records`; the files URL rules
/// made duplicates placed in their page's cluster. Counts in `summary`.
ClusterAssignment choose_authority(const IndexOptions& options, dedup::Detector& detector,
                                   const dedup::Clusters& clusters, std::vector<PageRecord>& records, std::size_t files,
                                   const RedirectResolver& resolver, const UrlRuleDuplicates& by_rule,
                                   const dedup::DocumentLoader& load_page, IndexSummary& summary) {
  const std::vector<dedup::AuthorityCandidate> candidates = authority_candidates(records, files, resolver);
  const dedup::AuthoritativePages chosen = dedup::choose_authoritative_pages(
      detector, clusters, candidates, options.honour_canonical,
      options.split_chains ? dedup::ChainPolicy::kSplit : dedup::ChainPolicy::kKeep, load_page);
  summary.split_off = chosen.split_off;
  summary.split_for_definitions = chosen.split_for_definitions;
  ClusterAssignment assignment = assign_clusters(records, chosen);
  summary.duplicate_clusters = assignment.duplicate_clusters;
  if (by_rule.count > 0) {
    place_url_rule_duplicates(records, resolver);
    std::set<std::uint64_t> with_duplicates;  // clusters a rule duplicate joined count too
    for (const PageRecord& r : records) {
      if (r.status == PageStatus::kDuplicate && r.cluster) with_duplicates.insert(*r.cluster);
    }
    summary.duplicate_clusters = with_duplicates.size();
  }
  return assignment;
}

/// Stage 6: the search index in `layout`: the previous one updated where it can be (what
/// changed counted in `reindex`), else written afresh; by several processes, in shards
/// (write_index).
Status write_database(const PreviousBuild* previous, const ChunkLayout& chunks, const StoredPages& stored,
                      std::vector<PageRecord>& records, const IndexPlan& index_plan, unsigned threads,
                      const index_format::IndexLayout& layout, const Collective& processes, bool to_merge,
                      Progress& progress, ReindexSummary& reindex) {
  const fs::path xapian_dir = layout.xapian();
  if (previous != nullptr && processes.size() > 1) {
    reindex.index_rewritten_because = "a partitioned build writes its shards afresh";
  } else if (previous != nullptr) {
    auto updates = update_index(*previous, stored, records, index_plan, xapian_dir, progress);
    if (updates.ok()) {
      reindex.documents_added = updates->added;
      reindex.documents_rewritten = updates->rewritten;
      reindex.documents_updated = updates->updated;
      reindex.documents_removed = updates->removed;
      reindex.documents_kept = updates->kept;
      return Status::ok_status();
    }
    if (updates.status().code() != StatusCode::kFailedPrecondition) return updates.status();
    reindex.index_rewritten_because = updates.status().message();
    std::error_code ec;
    fs::remove_all(xapian_dir, ec);
  }
  return write_index(chunks, stored, records, index_plan, threads, layout, processes, to_merge, progress);
}

/// The shards of a partitioned build (write_index) made one index: merged into one database
/// (Xapian's compaction, in process order) when `merge`, else listed in a stub.
Status join_shards(const index_format::IndexLayout& layout, unsigned processes, bool merge) {
  if (!merge) return index_format::write_stub(layout, processes, "canon index, in shards");
  std::vector<std::string> shards;
  for (unsigned p = 1; p <= processes; ++p) shards.push_back(layout.shard(p).string());
  if (Status merged = merge_databases(shards, layout.xapian().string()); !merged.ok()) return merged;
  std::error_code ec;
  for (const std::string& shard : shards) fs::remove_all(shard, ec);
  return Status::ok_status();
}

/// `mine` when it failed, else the first failure of another of `processes` (each gives its own
/// status to all: a collective call), as "process R could not WHAT: why"; ok when all did.
Status every_process_did(const Status& mine, const Collective& processes, const std::string& what) {
  if (processes.size() == 1) return mine;
  // A failure as its code (one byte) and its message, so that every process fails with its code.
  const std::vector<std::string> told = processes.all_gather_bytes(
      mine.ok() ? std::string() : std::string(1, static_cast<char>(mine.code())) + mine.message());
  if (!mine.ok()) return mine;
  for (unsigned p = 0; p < told.size(); ++p) {
    if (told[p].empty()) continue;
    return Status::error("process " + std::to_string(p) + " could not " + what + ": " + told[p].substr(1),
                         static_cast<StatusCode>(static_cast<unsigned char>(told[p][0])));
  }
  return Status::ok_status();
}

/// Stage 6: the search index in `layout` (write_database); by several processes, a shard each,
/// which the first then lists in a stub or, `to_merge`, merges (join_shards). Fails on every
/// process when one could not write its shard.
Status write_search_index(const PreviousBuild* previous, const ChunkLayout& chunks, const StoredPages& stored,
                          std::vector<PageRecord>& records, const IndexPlan& index_plan, unsigned threads,
                          const index_format::IndexLayout& layout, const Collective& processes, bool to_merge,
                          Progress& progress, ReindexSummary& reindex) {
  const Status written = write_database(previous, chunks, stored, records, index_plan, threads, layout, processes,
                                        to_merge, progress, reindex);
  if (Status all = every_process_did(written, processes, "write its shard"); !all.ok()) return all;
  if (processes.size() == 1 || processes.rank() != 0) return Status::ok_status();
  return join_shards(layout, processes.size(), to_merge);
}

/// The run's page store (start_store), with every process of a partitioned build: the first
/// puts the previous segments in place, the others wait for it. Fails on every process when
/// the first could not.
Result<RunStore> start_shared_store(const fs::path& store_dir, Reuse& reuse, const ChunkLayout& chunks,
                                    const Collective& processes) {
  auto store = start_store(store_dir, reuse, chunks.count(), processes.rank() == 0);
  const Status started = store.ok() ? Status::ok_status() : store.status();
  if (Status all = every_process_did(started, processes, "start the page store"); !all.ok()) return all;
  return store;
}

/// Stage 2's end: the new segments opened, and in a partitioned build the files the other
/// processes parsed taken over from their parts (encode_parsed_part, take_over_parts), so that
/// `records` and the detector hold the whole site on every process.
Status gather_parts(const ParseContext& parse, const ChunkLayout& chunks, const RunStore& store,
                    const Collective& processes, unsigned threads, StoredPages& stored,
                    std::vector<PageRecord>& records) {
  if (processes.size() == 1) return stored.open_new();
  auto parts = exchange_parsed_parts(
      encode_parsed_part(store, chunks, processes, records, parse.url_ids, parse.anchor_ids), processes);
  if (!parts.ok()) return parts.status();
  if (Status opened = stored.open_new(); !opened.ok()) return opened;
  return take_over_parts(parse, chunks, store, processes, std::move(parts).value(), threads, records);
}

/// Stage 4: the clusters of near-duplicate pages. The detector kept a sketch of each page; when
/// it needs a page's text again (to verify a candidate pair) `load_page` reads it from the page
/// store. Counts in `summary`; fails when the store could not be read.
Result<dedup::Clusters> find_near_duplicates(dedup::Detector& detector, const dedup::DocumentLoader& load_page,
                                             const StoredPages& stored, Progress& progress, IndexSummary& summary) {
  progress.start("near-duplicates", 0);
  dedup::Clusters clusters = detector.find_clusters(load_page);
  progress.finish();
  summary.candidates_examined = clusters.candidates_examined;
  summary.near_duplicate_pairs = clusters.pairs.size();
  if (Status read = stored.failed(); !read.ok()) return read;
  return clusters;
}

/// The chunks of the run's `files` files under `work_dir`: `chunk_files` files each, or as many
/// as chunk_size() gives for `threads` when it is 0.
ChunkLayout chunk_layout(const fs::path& work_dir, std::size_t files, std::size_t chunk_files, unsigned threads) {
  return ChunkLayout{work_dir / "chunks", files, chunk_files != 0 ? chunk_files : chunk_size(files, threads)};
}

/// The sample stage: the detector learns the text the site repeats on many pages from `sample`
/// (Detector::learn_site); the sample's stored pages are let go. Fails when the sample could
/// not be read.
Status learn_repeated_text(dedup::Detector& detector, SamplePages& sample, const SitePlan& plan) {
  if (Status read = sample.failed(); !read.ok()) return read;
  detector.learn_site(sample.documents(plan));
  sample.drop_stored();
  return Status::ok_status();
}

/// The run's near-duplicate detector: `options.detector` with the run's thread count, ready for
/// `files` documents.
Result<std::unique_ptr<dedup::Detector>> make_run_detector(const IndexOptions& options, unsigned threads,
                                                          std::size_t files) {
  dedup::DedupOptions dedup_options = options.dedup;
  dedup_options.threads = threads;
  auto detector = dedup::make_detector(options.detector, dedup_options);
  if (detector.ok()) detector.value()->reset(static_cast<std::uint32_t>(files));
  return detector;
}

/// Stage 7: pages.jsonl, graph.tsv and pairs.tsv beside the index (write_records), and the page
/// store's catalog for the next run (write_catalog).
Status write_records_and_catalog(const fs::path& work_dir, const std::vector<PageRecord>& records, const SiteGraph& site,
                                 const dedup::Clusters& clusters, const IndexOptions& options, const RunStore& store,
                                 const SitePlan& plan, const ParsedLinks& links,
                                 const std::vector<std::pair<std::string, std::string>>& fingerprint,
                                 std::int64_t run_started_ns, IndexSummary& summary) {
  Status written = write_records(work_dir, records, site, clusters.pairs, options.collapse == CollapseMode::kQueryTime,
                                 summary);
  if (written.ok()) written = write_catalog(store, plan, records, links, fingerprint, run_started_ns);
  return written;
}

/// A run's build directory: owned (and committed) by the first process of a partitioned
/// build, only used by the others.
struct SharedBuildDirectory {
  std::optional<BuildDirectory> owned;
  fs::path shared;
  const fs::path& path() const { return shared; }
  Status commit() { return owned ? owned->commit() : Status::ok_status(); }
};

/// The run itself, stage by stage (docs/design.md, "The pipeline"); `work_dir` is the fresh
/// directory the new index is built in; `previous`, when set, the index it replaces, re-used.
Result<IndexSummary> run(const IndexOptions& options, const Collective& all_processes, const std::string& base_url,
                         const fs::path& work_dir, const PreviousBuild* previous,
                         const std::vector<std::pair<std::string, std::string>>& fingerprint, ReindexSummary reindex) {
  IndexSummary summary;
  const MeteredCollective processes(all_processes);
  StageClock clock(summary, options.after_stage, processes);
  Progress progress(options.show_progress && processes.rank() == 0);
  const std::int64_t run_started_ns = now_ns();
  const unsigned threads = resolve_thread_count(options.threads);

  // 1. The site's files and their URLs, and which are unchanged since the previous build.
  auto walked = walk_site(options, base_url, previous, threads, processes, reindex, summary);
  if (!walked.ok()) return walked.status();
  const SitePlan& plan = walked->plan;
  auto detector = make_run_detector(options, threads, plan.files.size());
  if (!detector.ok()) return detector.status();
  clock.lap("walk");
  const ChunkLayout chunks = chunk_layout(work_dir, plan.files.size(), options.chunk_files, threads * processes.size());
  auto run_store = start_shared_store(index_format::IndexLayout{work_dir}.store(), walked->reuse, chunks, processes);
  if (!run_store.ok()) return run_store.status();
  StoredPages stored(run_store.value());
  if (Status opened = stored.open_kept(); !opened.ok()) return opened;

  // The detector learns the text the site repeats on many pages from a sample (learn_site).
  SamplePages sample(plan, options.limits, threads, walked->reuse, stored);
  if (Status learned = learn_repeated_text(*detector.value(), sample, plan); !learned.ok()) return learned;
  clock.lap("sample");

  // 2. Every page parsed once (or taken over): records, detector documents, the page store.
  UrlIds url_ids;
  AnchorIds anchor_ids;
  ParseContext parse{plan, walked->by_rule, walked->reuse, sample, *detector.value(), stored, url_ids, anchor_ids};
  auto parsed = parse_site(parse, chunks, run_store.value(), base_url, threads, parse_stage_name(previous, reindex),
                           processes, progress);
  if (!parsed.ok()) return parsed.status();
  std::vector<PageRecord>& records = parsed.value();
  summary.input_files = records.size();
  const Status whole = gather_parts(parse, chunks, run_store.value(), processes, threads, stored, records);
  if (!whole.ok()) return whole;
  // The link texts by id; their table is not needed any more (no text is interned after the parse).
  const std::vector<std::string> anchor_texts = anchor_ids.release();
  const ParsedLinks parsed_links(records, url_ids, anchor_texts);
  clock.lap("parse");

  // 3. Redirects, the link graph and PageRank.
  const RedirectResolver resolver(records);
  const SiteGraph site = link_pages(records, url_ids, resolver, anchor_texts);
  clock.lap("graph");
  rank_pages(site, options.pagerank, processes, records, summary);
  clock.lap("pagerank");

  // 4. Near-duplicates, verified with the pages' texts from the store.
  const dedup::DocumentLoader load_page = stored.loader(records);
  const auto found = find_near_duplicates(*detector.value(), load_page, stored, progress, summary);
  if (!found.ok()) return found.status();
  const dedup::Clusters& clusters = found.value();
  clock.lap("dedup");

  // 5. The page each cluster is indexed under.
  const ClusterAssignment assignment = choose_authority(options, *detector.value(), clusters, records,
                                                        plan.files.size(), resolver, walked->by_rule, load_page, summary);
  if (Status read = stored.failed(); !read.ok()) return read;
  clock.lap("authority");

  // 6. The search index (several processes: a shard each). A link to a copy names the page that
  // stands for it (at query-time collapse each copy is a document, and keeps its own).
  if (options.collapse == CollapseMode::kIndexTime) gather_cluster_anchors(records, anchor_texts);
  const IndexPlan index_plan(records, assignment, anchor_texts, options, site.graph.node_count());
  const Status indexed = write_search_index(previous, chunks, stored, records, index_plan, threads,
                                            index_format::IndexLayout{work_dir}, processes, options.merge_shards,
                                            progress, reindex);
  if (!indexed.ok()) return indexed;
  clock.lap("xapian");
  if (processes.rank() != 0) return summary;  // the first process writes the records

  // 7. The records beside it, and the store's catalog for the next run.
  const Status written = write_records_and_catalog(work_dir, records, site, clusters, options, run_store.value(), plan,
                                                   parsed_links, fingerprint, run_started_ns, summary);
  if (!written.ok()) return written;
  clock.lap("records");
  summary.reindex = std::move(reindex);
  return summary;
}

/// The run's last step: summary.json written beside the rest, then the build put in INDEX_DIR's
/// place (the old index stays until then).
Status finish_index(const IndexSummary& summary, const IndexOptions& options, SharedBuildDirectory& work) {
  LineWriter summary_file(index_format::IndexLayout{work.path()}.summary());
  summary_file.write(summary_json(summary, options).dump(2));
  if (Status written = summary_file.close(); !written.ok()) return written;
  fault_point("swap");  // everything written, the old index not yet replaced
  return work.commit();
}

/// Where a run builds: the first of `processes` creates the directory beside `out_dir` (and
/// commits it at the end); the others are told its path and build in it without owning it.
/// Fails on every process when it could not be created.
Result<SharedBuildDirectory> start_build_directory(const fs::path& out_dir, const Collective& processes) {
  std::optional<BuildDirectory> build;
  Status failure = Status::ok_status();
  if (processes.rank() == 0) {
    auto created = BuildDirectory::create(out_dir, "building");
    if (created.ok()) build.emplace(std::move(created).value());
    else failure = created.status();
  }
  if (processes.size() == 1) {
    if (!build) return failure;
    fs::path path = build->path();
    return SharedBuildDirectory{std::move(build), std::move(path)};
  }
  // The path, or (first byte '!') why there is none.
  const std::vector<std::string> told = processes.all_gather_bytes(
      processes.rank() != 0 ? std::string() : build ? build->path().string() : "!" + failure.message());
  if (told[0].empty() || told[0][0] == '!') {
    if (processes.rank() == 0) return failure;
    return Status::error("process 0 could not create the build directory: " + told[0].substr(told[0].empty() ? 0 : 1));
  }
  return SharedBuildDirectory{std::move(build), fs::path(told[0])};
}

}  // namespace

Result<IndexSummary> index_site(const IndexOptions& options) {
  std::string base = options.base_url;
  if (!base.empty() && base.back() != '/') base += '/';
  auto base_url = urls::normalize_url(base);
  if (!base_url.ok()) {
    return Status::error("--base-url must be an absolute http(s) URL, not '" + options.base_url + "'");
  }
  if (Status s = check_replaceable(options.out_dir); !s.ok()) return s;
  const LocalCollective alone;
  const Collective& processes = options.processes != nullptr ? *options.processes : alone;

  // Build beside INDEX_DIR, so the final move is a rename on the same file system; the first
  // process makes the directory and the others build in it too.
  auto work = start_build_directory(options.out_dir, processes);
  if (!work.ok()) return work.status();
  const fs::path work_dir = work->path();
  // The index being replaced, re-used unless it cannot be (the reason is reported).
  const auto fingerprint = store_fingerprint(base_url.value(), options.url_rules_digest, options.limits);
  ReindexSummary reindex;
  std::optional<PreviousBuild> previous;
  if (options.full) {
    reindex.full_because = "--full";
  } else if (auto opened = open_previous_build(options.out_dir, fingerprint); opened.ok()) {
    previous = std::move(opened).value();
  } else {
    reindex.full_because = opened.status().message();
  }
  auto summary = run(options, processes, base_url.value(), work_dir, previous ? &*previous : nullptr, fingerprint,
                     std::move(reindex));
  if (!summary.ok()) return summary;
  const Status finished = processes.rank() == 0 ? finish_index(summary.value(), options, work.value()) : Status::ok_status();
  // The other processes return once the index is in place (or fail with the first).
  if (Status all = every_process_did(finished, processes, "put the index in place"); !all.ok()) return all;
  return summary;
}

}  // namespace canon::indexer
