/// @file pipeline_stages.cpp
/// @brief The stages pipeline.cpp runs: the walk, the links and PageRank, near-duplicates and the
/// authority, each with what it counts in the run's summary.
#include "indexer/pipeline_stages.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "dedup/detectors/registry.h"
#include "indexer/partitioned/partitioned_build.h"
#include "indexer/stages/site_links_by_owner.h"
#include "ranking/click_depth.h"
#include "ranking/out_link_rows.h"
#include "urls/url.h"

namespace canon::indexer::detail {
namespace {

/// The links of the whole graph: the rows of every process counted.
std::size_t count_edges(const ranking::OutLinkRows& rows, const Collective& processes) {
  return count_of_processes(rows.edge_count(), processes).total;
}

/// The folders above `url`'s page: 0 for the site's root and the pages beside it.
std::uint32_t folder_depth(std::string_view url) {
  const std::string path = urls::url_path(url);  // starts with '/'
  return static_cast<std::uint32_t>(std::count(path.begin(), path.end(), '/') - 1);
}

/// Each of this process's nodes' click depth from the site's entry pages (ranking/click_depth.h)
/// into its record: the entry pages are those in the fewest folders (the site's root and the
/// pages beside it). Collective.
void measure_click_depths(const SiteGraph& site, const Collective& processes, HeldRecords& records) {
  const ranking::OutLinkRows& rows = site.rows;
  std::uint32_t shallowest[] = {std::numeric_limits<std::uint32_t>::max()};
  for (ranking::NodeId node = rows.first(); node < rows.end(); ++node) {
    shallowest[0] = std::min(shallowest[0], folder_depth(records[site.record_of(node)].url));
  }
  processes.all_reduce_min(shallowest);
  std::vector<ranking::NodeId> entries;
  for (ranking::NodeId node = rows.first(); node < rows.end(); ++node) {
    if (folder_depth(records[site.record_of(node)].url) == shallowest[0]) entries.push_back(node);
  }
  const std::vector<std::uint32_t> depths = ranking::click_depths(rows, entries, processes);
  for (std::size_t k = 0; k < depths.size(); ++k) records[site.own_records[k]].click_depth = depths[k];
}

/// How the site's files compare with `previous` (compare_files): in a partitioned build the first
/// process compares them and tells the others, so that all re-use the same files.
Result<FileChanges> compare_with_previous(const WalkedSite& walked, const PreviousBuild& previous,
                                          const IndexOptions& options, unsigned threads, const Collective& processes) {
  if (processes.size() == 1) return compare_files(walked.plan, previous, options.limits, threads, walked.by_rule.marked);
  FileChanges mine;
  if (processes.rank() == 0) mine = compare_files(walked.plan, previous, options.limits, threads, walked.by_rule.marked);
  const std::vector<std::string> first_process_changes =
      processes.all_gather_bytes(processes.rank() == 0 ? encode_file_changes(mine) : std::string());
  if (processes.rank() == 0) return mine;
  auto changes = decode_file_changes(first_process_changes[0], walked.plan.files.size());
  if (!changes.ok()) return changes.status();
  for (const std::uint32_t entry : changes->unchanged_entry) {
    if (entry != kNoEntry && entry >= previous.catalog.files.size()) {
      return Status::corruption("process 0 re-uses a file the previous build does not have");
    }
  }
  return changes;
}

/// Why a run found no page to index: where it looked, and what it skipped.
std::string no_pages_message(const SitePlan& plan, const IndexOptions& options) {
  std::string message = "no HTML pages (.html, .htm) found in '" + options.site_dir.string() + "'";
  if (options.archives.size() == 1) message = "no HTML pages found in '" + options.archives.front().string() + "'";
  if (options.archives.size() > 1) {
    message = "no HTML pages found in the " + std::to_string(options.archives.size()) + " web archives";
  }
  if (plan.skipped.empty()) return message;
  const SkippedPath& first = plan.skipped.front();
  return message + " (" + std::to_string(plan.skipped.size()) + " skipped, the first '" + first.relative_path +
         "': " + first.reason + ")";
}

/// Ok when `plan` has a page to read; else kNotFound saying so, on every process when one found
/// none (collective: each process walked the whole site).
Status check_has_pages(const SitePlan& plan, const IndexOptions& options, const Collective& processes) {
  const Status mine = plan.file_count() == 0 ? Status::not_found(no_pages_message(plan, options)) : Status::ok_status();
  return status_of_all_processes(mine, processes, "find the site's pages");
}
}  // namespace

void rank_pages(SiteGraph& site, const ranking::PageRankOptions& options, const Collective& processes,
                HeldRecords& records, IndexSummary& summary) {
  summary.graph_nodes = site.rows.node_count();
  summary.graph_edges = count_edges(site.rows, processes);
  measure_click_depths(site, processes, records);
  const ranking::PageRankResult ranks =
      ranking::compute_pagerank(std::move(site.rows), options, processes, ranking::ScoresOf::kOwnNodes);
  summary.pagerank_iterations = ranks.iterations;
  summary.pagerank_converged = ranks.converged;
  for (std::size_t k = 0; k < ranks.scores.size(); ++k) records[site.own_records[k]].pagerank = ranks.scores[k];
}

Result<SiteGraph> link_site(HeldRecords& records, const ParsedLinks& links,
                            std::vector<std::string>& anchor_texts, const RecordParts& parts,
                            const Collective& processes) {
  return link_pages_by_owner(records, parts.first(processes.rank()), parts.end(processes.rank()), links, anchor_texts,
                             processes);
}

Result<WalkedSite> walk_site(const IndexOptions& options, const std::string& base_url, std::optional<SitePlan> crawl,
                             const PreviousBuild* previous, unsigned threads, const Collective& processes,
                             ReindexSummary& reindex, IndexSummary& summary) {
  auto plan = crawl ? Result<SitePlan>(std::move(*crawl)) : plan_site(options.site_dir, base_url);
  if (!plan.ok()) return plan.status();
  if (Status pages = check_has_pages(plan.value(), options, processes); !pages.ok()) return pages;
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

std::string parse_stage_name(const PreviousBuild* previous, const ReindexSummary& reindex) {
  if (previous == nullptr) return "parse";
  return "parse (" + std::to_string(reindex.added) + " new, " + std::to_string(reindex.changed) + " changed, " +
         std::to_string(reindex.deleted) + " deleted, " + std::to_string(reindex.retried) + " retried, " +
         std::to_string(reindex.unchanged) + " unchanged, of them " + std::to_string(reindex.restamped) +
         " with a new time)";
}

Result<ClusterAssignment> choose_authority(const IndexOptions& options, dedup::Detector& detector,
                                           const dedup::Clusters& clusters, HeldRecords& records,
                                           const UrlRuleDuplicates& by_rule, const dedup::DocumentLoader& load_page,
                                           const RecordParts& parts, const Collective& processes, IndexSummary& summary) {
  auto chosen = choose_authorities_by_owner(
      records, clusters, detector, load_page, options.honour_canonical,
      options.split_chains ? dedup::ChainPolicy::kSplit : dedup::ChainPolicy::kKeep, parts, processes);
  if (!chosen.ok()) return chosen.status();
  summary.split_off = chosen->split_off;
  summary.split_for_definitions = chosen->split_for_definitions;
  summary.place_preferences = chosen->place_preferences;
  auto assignment = assign_clusters(records, chosen.value(), parts, processes);
  if (!assignment.ok()) return assignment;
  summary.duplicate_clusters = assignment->duplicate_clusters;
  if (by_rule.count > 0) {
    if (Status placed = place_url_rule_duplicates(records, parts, processes); !placed.ok()) return placed;
    // The clusters a rule duplicate joined count too.
    auto counted = count_duplicate_clusters(records, parts, processes);
    if (!counted.ok()) return counted.status();
    summary.duplicate_clusters = counted.value();
  }
  return assignment;
}

Result<dedup::Clusters> find_near_duplicates(dedup::Detector& detector, const dedup::DocumentLoader& load_page,
                                             const StoreReader& store_reader, Progress& progress,
                                             const Collective& processes, IndexSummary& summary) {
  progress.start("near-duplicates", 0);
  dedup::Clusters clusters = detector.find_clusters(load_page);
  progress.finish();
  summary.candidates_examined = clusters.candidates_examined;
  summary.near_duplicate_pairs = clusters.pairs.size();
  if (Status read = status_of_all_processes(store_reader.failed(), processes, "read the pages it measured"); !read.ok()) {
    return read;
  }
  return clusters;
}

Status learn_repeated_text(dedup::Detector& detector, SamplePages& sample, const SitePlan& plan) {
  if (Status read = sample.failed(); !read.ok()) return read;
  detector.learn_site(sample.documents(plan));
  sample.drop_stored();
  return Status::ok_status();
}

Result<std::unique_ptr<dedup::Detector>> make_run_detector(const IndexOptions& options, unsigned threads,
                                                          const ChunkLayout& chunks, const Collective& processes) {
  dedup::DedupOptions dedup_options = options.dedup;
  dedup_options.threads = threads;
  auto detector = dedup::make_detector(options.detector, dedup_options);
  if (!detector.ok()) return detector;
  const auto [first, end] = files_of_process(chunks, processes.rank(), processes.size());
  detector.value()->place({&processes, first, end});
  detector.value()->reset(static_cast<std::uint32_t>(chunks.files));
  return detector;
}
}  // namespace canon::indexer::detail
