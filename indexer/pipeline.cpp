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
#include <chrono>
#include <limits>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/build_dir.h"
#include "common/byte_codec.h"
#include "common/collective.h"
#include "common/fault_injection.h"
#include "common/parallel.h"
#include "common/progress.h"
#include "dedup/authority/authority.h"
#include "dedup/authority/authoritative_pages.h"
#include "dedup/detectors/detector.h"
#include "dedup/detectors/registry.h"
#include "format/index_format.h"
#include "indexer/stages/cluster_assignment.h"
#include "indexer/stages/index_stage.h"
#include "indexer/records/page_record.h"
#include "indexer/stages/parse_stage.h"
#include "indexer/partitioned/parsed_part.h"
#include "indexer/partitioned/partitioned_build.h"
#include "indexer/reuse/previous_build.h"
#include "indexer/partitioned/record_holders.h"
#include "indexer/records/output_files.h"
#include "indexer/reuse/run_store.h"
#include "indexer/stages/site_links.h"
#include "indexer/pipeline_stages.h"
#include "indexer/input/site_plan.h"
#include "indexer/input/url_rule_duplicates.h"
#include "ranking/out_link_rows.h"
#include "ranking/click_depth.h"
#include "ranking/pagerank.h"
#include "urls/url.h"

namespace canon::indexer {
namespace fs = std::filesystem;
using namespace detail;
namespace {

class StageClock {
public:
  /// Records the number of `processes` in `summary`.
  StageClock(IndexSummary& summary, const std::function<void(std::string_view)>& after_stage,
             const MeteredCollective& processes)
      : summary_(summary), after_stage_(after_stage), processes_(processes) {
    summary_.processes = processes.size();
  }
  /// Ends `stage`: its time and the process's memory are recorded, and in a partitioned build
  /// the bytes the process exchanged in it (and a crash test may kill the run here).
  void lap(std::string stage) {
    fault_point(stage);
    if (after_stage_) after_stage_(stage);
    const auto now = std::chrono::steady_clock::now();
    if (processes_.size() > 1) summary_.stage_exchanged.emplace_back(stage, processes_.take());
    summary_.stage_memory.emplace_back(stage, memory_use());
    const ResourceUse use = resource_use();
    summary_.stage_use.emplace_back(stage, use - last_use_);
    summary_.stage_seconds.emplace_back(std::move(stage), std::chrono::duration<double>(now - last_).count());
    last_ = now;
    last_use_ = use;
  }

private:
  IndexSummary& summary_;
  const std::function<void(std::string_view)>& after_stage_;
  const MeteredCollective& processes_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  ResourceUse last_use_ = resource_use();
};

/// Whether `dir` holds nothing but what a canon index holds (IndexLayout's files, its shards, the
/// url-rules.json `canon urls learn` writes there), its records among them: a canon index however
/// damaged its database, not a directory of the user's that happens to hold a xapian/.
bool holds_only_index_files(const fs::path& dir) {
  const index_format::IndexLayout index{fs::path()};
  const std::set<fs::path> records = {index.pages(), index.summary(), index.store()};
  const std::set<fs::path> names = {index.pages(), index.summary(), index.store(), index.xapian(),
                                    index.graph(), index.pairs(), "url-rules.json"};
  bool has_records = false;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path name = entry.path().filename();
    const std::string text = name.string();
    const bool shard = text.size() > 6 && text.starts_with("shard-") &&
                       text.find_first_not_of("0123456789", 6) == std::string::npos;
    if (!names.contains(name) && !shard) return false;
    has_records = has_records || records.contains(name);
  }
  return !ec && has_records;
}

/// Nothing, an empty directory or a canon index may be replaced; a damaged canon index (its
/// database unreadable, nothing but an index's files beside it) only with --full, the user's
/// explicit ask; anything else is the user's and never is.
Status check_replaceable(const fs::path& out_dir, bool full) {
  const std::string only_indexes = "; canon index replaces only an index it wrote: give --out a new or empty directory";
  const std::string out = "'" + out_dir.string() + "'";
  std::error_code ec;
  if (!fs::exists(out_dir, ec)) return Status::ok_status();
  if (!fs::is_directory(out_dir, ec)) {
    return Status::error(out + " exists and is not a directory" + only_indexes);
  }
  if (fs::is_empty(out_dir, ec)) return Status::ok_status();
  const Status index = index_format::check_canon_index(out_dir);
  if (index.ok()) return index;
  if (index.code() != StatusCode::kCorruption) {
    return Status::failed_precondition(index.message() + only_indexes);
  }
  if (!holds_only_index_files(out_dir)) {
    return Status::failed_precondition(out + " is not a canon index (it holds other files, and " + index.message() +
                                       ")" + only_indexes);
  }
  if (full) return Status::ok_status();
  return Status::corruption(out + " is a damaged canon index (" + index.message() +
                            "): run again with --full to replace it with a new one");
}

/// Nanoseconds since the epoch, now.
std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// What every stage of a run reads or adds to: its options, processes, clock and counts.
struct RunContext {
  const IndexOptions& options;
  const MeteredCollective& processes;
  StageClock& clock;
  Progress& progress;
  IndexSummary& summary;
  unsigned threads = 1;
};

/// Stage 1's hand-off to the rest of the run: the walk, the files' chunks (each process's share)
/// and the detector ready for the run's documents.
struct PlannedRun {
  WalkedSite walked;
  ChunkLayout chunks;
  std::unique_ptr<dedup::Detector> detector;
};

/// Stage 1: the site's files and their URLs, which are unchanged since `previous`, and how they
/// are shared among the processes. Collective.
Result<PlannedRun> plan_run(const RunContext& run, const std::string& base_url, const fs::path& work_dir,
                            std::optional<SitePlan> crawl, const PreviousBuild* previous, ReindexSummary& reindex) {
  const Collective& processes = run.processes;
  auto walked = walk_site(run.options, base_url, std::move(crawl), previous, run.threads, processes, reindex, run.summary);
  if (!walked.ok()) return walked.status();
  ChunkLayout chunks =
      chunk_layout(work_dir, walked->plan.files.size(), run.options.chunk_files, run.threads * processes.size());
  if (processes.size() > 1) {
    if (Status shared = share_chunks(chunks, chunk_work(chunks, walked->plan, walked->reuse), processes); !shared.ok()) {
      return shared;
    }
  }
  auto detector = make_run_detector(run.options, run.threads, chunks, processes);
  if (!detector.ok()) return detector.status();
  return PlannedRun{std::move(walked).value(), std::move(chunks), std::move(detector).value()};
}

/// Stages 3 to 5's hand-off to the search index: the graph's size, the clusters and the page each
/// is indexed under.
struct CollapsedSite {
  std::size_t nodes = 0;
  dedup::Clusters clusters;
  ClusterAssignment assignment;
};

/// Stages 3 to 5: redirects, the link graph (graph.tsv written) and PageRank; the near-duplicate
/// clusters, verified with the pages' texts from the store; the page each cluster is indexed
/// under. The detector is let go at the end (nothing after asks it). Collective.
Result<CollapsedSite> rank_and_collapse(const RunContext& run, const fs::path& work_dir, HeldRecords& records,
                                        const ParsedLinks& links, std::vector<std::string>& anchor_texts,
                                        PlannedRun& planned, StoreReader& store_reader, const RecordParts& parts) {
  const Collective& processes = run.processes;
  auto linked = link_site(records, links, anchor_texts, parts, processes);
  if (!linked.ok()) return linked.status();
  SiteGraph site = std::move(linked).value();
  // graph.tsv now, by parts: PageRank lets the rows go, and no later stage reads a link.
  if (Status written = write_link_graph(work_dir, records, site, processes); !written.ok()) return written;
  run.clock.lap("graph");
  rank_pages(site, run.options.pagerank, processes, records, run.summary);
  run.clock.lap("pagerank");

  // Where the detector's documents are in the store, for the detector (and the authority stage,
  // through it) to read pages of any process again: its own from their records, the others'
  // asked of their holders when it is about to read them.
  StoredPlaces stored_places(records, parts, processes);
  const dedup::DocumentLoader load_page = store_reader.loader(stored_places);
  dedup::Detector& detector = *planned.detector;
  auto found = find_near_duplicates(detector, load_page, store_reader, run.progress, processes, run.summary);
  if (!found.ok()) return found.status();
  run.clock.lap("dedup");

  auto assigned = choose_authority(run.options, detector, found.value(), records, planned.walked.by_rule, load_page,
                                   parts, processes, run.summary);
  if (!assigned.ok()) return assigned.status();
  if (Status read = status_of_all_processes(store_reader.failed(), processes, "read the pages it measured"); !read.ok()) {
    return read;
  }
  // Its sketches, names and site statistics (about a fifth of the memory the 100k-page site holds
  // at this point) are let go before the Xapian stage, the run's peak.
  planned.detector.reset();
  run.clock.lap("authority");
  return CollapsedSite{site.node_parts.records(), std::move(found).value(), std::move(assigned).value()};
}

/// Stage 6: the search index (a shard a process) of the pages `collapsed` indexes; a link to a
/// copy names the page standing for it. Collective.
Status index_pages(const RunContext& run, const fs::path& work_dir, const PreviousBuild* previous,
                   const ChunkLayout& chunks, const StoreReader& store_reader, HeldRecords& records,
                   const RecordParts& parts, const CollapsedSite& collapsed, std::vector<std::string>& anchor_texts,
                   ReindexSummary& reindex) {
  const IndexOptions& options = run.options;
  if (options.collapse == CollapseMode::kIndexTime) {
    if (Status gathered = gather_cluster_anchors(records, anchor_texts, parts, run.processes); !gathered.ok()) {
      return gathered;
    }
  }
  IndexPlan index_plan(records, parts, collapsed.assignment, anchor_texts, options, collapsed.nodes, run.processes);
  bool merging = false;  // "xapian": the documents into chunk databases; "merge": those compacted
  index_plan.documents_written = [&] {
    run.clock.lap("xapian");
    merging = true;
  };
  const Status indexed = write_search_index(previous, chunks, store_reader, records, parts, index_plan, run.threads,
                                            index_format::IndexLayout{work_dir}, run.processes, options.merge_shards,
                                            run.progress, reindex);
  if (!indexed.ok()) return indexed;
  run.clock.lap(merging ? "merge" : "xapian");
  return Status::ok_status();
}

/// The run itself, stage by stage (docs/design.md, "The pipeline"); `work_dir` is the fresh
/// directory the new index is built in; `crawl`, the plan of web archives read into it (else the
/// site directory is walked); `previous`, when set, the index it replaces, re-used.
Result<IndexSummary> run(const IndexOptions& options, const Collective& all_processes, const std::string& base_url,
                         const fs::path& work_dir, std::optional<SitePlan> crawl, const PreviousBuild* previous,
                         const std::vector<std::pair<std::string, std::string>>& fingerprint, ReindexSummary reindex) {
  IndexSummary summary;
  const MeteredCollective processes(all_processes);
  StageClock clock(summary, options.after_stage, processes);
  Progress progress(options.show_progress && processes.rank() == 0);
  const RunContext run{options, processes, clock, progress, summary, resolve_thread_count(options.threads)};
  const unsigned threads = run.threads;
  const std::int64_t run_started_ns = now_ns();

  // 1. The site's files and their URLs, and which are unchanged since the previous build.
  auto planned = plan_run(run, base_url, work_dir, std::move(crawl), previous, reindex);
  if (!planned.ok()) return planned.status();
  WalkedSite& walked = planned->walked;
  const SitePlan& plan = walked.plan;
  const ChunkLayout& chunks = planned->chunks;
  clock.lap("walk");
  auto run_store = start_shared_store(index_format::IndexLayout{work_dir}.store(), walked.reuse, chunks, processes);
  if (!run_store.ok()) return run_store.status();
  StoreReader store_reader(run_store.value());
  if (Status opened = store_reader.open_kept(); !opened.ok()) return opened;

  SamplePages sample(plan, options.limits, threads, walked.reuse, store_reader);
  if (Status learned = learn_repeated_text(*planned->detector, sample, plan); !learned.ok()) return learned;
  // A process of a partitioned build keeps the plan of its own files only (and the last, the
  // skipped paths): the rest of the walk's strings, ~400 bytes a file, are let go before the parse.
  const RecordParts parts(chunks, static_cast<std::uint32_t>(plan.file_count() + plan.skipped_count()));
  if (processes.size() > 1) {
    const auto [own_first, own_end] = files_of_process(chunks, processes.rank(), processes.size());
    walked.plan.keep_part(own_first, own_end, processes.rank() + 1 == processes.size());
    sample.drop_outside(own_first, own_end);
  }
  clock.lap("sample");

  // 2. Every page parsed once (or taken over): records, detector documents, the page store.
  // Which process holds each record: it parses its files, and the stages after the parse read
  // only the records it holds, asking the other processes for what they need of theirs.
  UrlIds url_ids;
  AnchorIds anchor_ids;
  ParseContext parse{plan, walked.by_rule, walked.reuse, sample, *planned->detector, store_reader, url_ids, anchor_ids};
  auto parsed = parse_site(parse, chunks, run_store.value(), base_url, threads, parse_stage_name(previous, reindex),
                           parts, processes, progress);
  if (!parsed.ok()) return parsed.status();
  HeldRecords& records = parsed.value();
  summary.input_files = records.size();
  if (Status whole = gather_parts(parse, chunks, run_store.value(), base_url, processes, threads, store_reader, records);
      !whole.ok()) {
    return whole;
  }
  // The files' paths and URLs are in the records now: the plan is let go (`plan` is empty from
  // here on), its outline kept.
  const PlanOutline plan_outline = outline_of(plan);
  walked.plan = SitePlan{};
  // The link texts by id; their table is not needed any more (no text is interned after the parse).
  std::vector<std::string> anchor_texts = anchor_ids.release();
  const ParsedLinks parsed_links = take_links(records, url_ids, anchor_texts);
  clock.lap("parse");

  // 3-5. The link graph and PageRank, the near-duplicates, the page each cluster is indexed under.
  // (`parse` refers to the detector, let go there, and is not used again.)
  auto collapsed = rank_and_collapse(run, work_dir, records, parsed_links, anchor_texts, planned.value(), store_reader, parts);
  if (!collapsed.ok()) return collapsed.status();

  // 6. The search index (a shard a process).
  if (Status indexed = index_pages(run, work_dir, previous, chunks, store_reader, records, parts, collapsed.value(),
                                   anchor_texts, reindex);
      !indexed.ok()) {
    return indexed;
  }
  // 7. The store's catalog for the next run (each process writes its files' part), and the
  // records beside the index (the first process).
  const auto own_files = files_of_process(chunks, processes.rank(), processes.size());
  const Status cataloged = write_catalog(run_store.value(), plan_outline, records, parsed_links, own_files, fingerprint,
                                         run_started_ns, processes);
  if (!cataloged.ok()) return cataloged;
  const Status written = write_record_files(work_dir, records, parts, collapsed->clusters, options, processes, summary);
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

/// index_site(), its messages as they come.
Result<IndexSummary> build_index(const IndexOptions& options) {
  std::string base = options.base_url;
  if (!base.empty() && base.back() != '/') base += '/';
  auto base_url = urls::normalize_url(base);
  if (!base_url.ok()) {
    return Status::error("--base-url must be an absolute http(s) URL, not '" + options.base_url + "'");
  }
  if (Status s = check_replaceable(options.out_dir, options.full); !s.ok()) return s;
  const LocalCollective alone;
  const Collective& processes = options.processes != nullptr ? *options.processes : alone;
  if (!options.archives.empty() && processes.size() > 1) {
    return Status::error("web archives are read by one process: run canon index on them without mpirun");
  }

  // Build beside INDEX_DIR, so the final move is a rename on the same file system; the first
  // process makes the directory and the others build in it too.
  auto work = start_build_directory(options.out_dir, processes);
  if (!work.ok()) return work.status();
  const fs::path work_dir = work->path();
  // A crawl: its pages' bodies written into the build directory (let go once the index is
  // built), its base URL the archive's.
  const fs::path crawl_bodies = work_dir / "archive-pages";
  std::optional<ArchiveSite> crawl;
  double crawl_seconds = 0;
  if (!options.archives.empty()) {
    Progress progress(options.show_progress);
    const auto started = std::chrono::steady_clock::now();
    auto read = read_archives(options.archives, crawl_bodies, resolve_thread_count(options.threads), progress);
    if (!read.ok()) return read.status();
    crawl = std::move(read).value();
    crawl_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    base_url = crawl->base_url;
  }
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
  auto summary = run(options, processes, base_url.value(), work_dir,
                     crawl ? std::optional<SitePlan>(std::move(crawl->plan)) : std::nullopt,
                     previous ? &*previous : nullptr, fingerprint, std::move(reindex));
  if (crawl) {
    std::error_code ec;
    fs::remove_all(crawl_bodies, ec);
  }
  if (!summary.ok()) return summary;
  summary->base_url = base_url.value();
  if (processes.size() > 1) {  // every process's figures, for the first's summary.json
    auto figures = gather_process_figures(summary.value(), processes);
    if (!figures.ok()) return figures.status();
    if (processes.rank() == 0) summary->by_process = std::move(figures).value();
  }
  if (crawl) {
    // The archives are read before the stages (the base URL comes from them).
    summary->stage_seconds.insert(summary->stage_seconds.begin(), {"archives", crawl_seconds});
    summary->archives = crawl->counts;
    summary->archive_problems = crawl->problems;
  }
  const Status finished = processes.rank() == 0 ? finish_index(summary.value(), options, work.value()) : Status::ok_status();
  // The other processes return once the index is in place (or fail with the first).
  if (Status all = status_of_all_processes(finished, processes, "put the index in place"); !all.ok()) return all;
  return summary;
}

}  // namespace

Result<IndexSummary> index_site(const IndexOptions& options) {
  auto summary = build_index(options);
  // A file being built is named by INDEX_DIR, not by the hidden build directory.
  if (!summary.ok()) return without_build_paths(summary.status());
  return summary;
}

}  // namespace canon::indexer
