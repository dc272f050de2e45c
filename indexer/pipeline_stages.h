/// @file pipeline_stages.h
/// @brief The stages of `canon index` as pipeline.cpp runs them (docs/design.md, "The
/// pipeline"): each a function from the hand-off of the one before to its own.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/collective.h"
#include "common/status.h"
#include "dedup/detectors/detector.h"
#include "indexer/chunk_layout.h"
#include "indexer/index_options.h"
#include "indexer/index_summary.h"
#include "indexer/input/site_plan.h"
#include "indexer/input/url_rule_duplicates.h"
#include "indexer/partitioned/record_holders.h"
#include "indexer/records/page_record.h"
#include "indexer/reuse/previous_build.h"
#include "indexer/stages/cluster_assignment.h"
#include "indexer/stages/parse_stage.h"
#include "indexer/stages/site_links.h"
#include "ranking/pagerank.h"

namespace canon::indexer::detail {

/// Stage 1's hand-off: the site's files and their URLs, the files URL rules make duplicates,
/// and what the previous build lends the run (nothing on a full build).
struct WalkedSite {
  SitePlan plan;
  UrlRuleDuplicates by_rule;
  Reuse reuse;
};

/// Stage 1: the site's files and their URLs (`crawl`, the plan of web archives, or the walk of
/// the site's directory), and which are unchanged since `previous` (counted in `reindex`); the
/// URL rules' duplicates counted in `summary`. Fails when the site has no page.
Result<WalkedSite> walk_site(const IndexOptions& options, const std::string& base_url, std::optional<SitePlan> crawl,
                             const PreviousBuild* previous, unsigned threads, const Collective& processes,
                             ReindexSummary& reindex, IndexSummary& summary);

/// The run's near-duplicate detector: `options.detector` with the run's thread count, its work
/// shared with `processes`, ready for the run's documents (`chunks.files`), of which this process
/// adds those of its own chunks.
Result<std::unique_ptr<dedup::Detector>> make_run_detector(const IndexOptions& options, unsigned threads,
                                                          const ChunkLayout& chunks, const Collective& processes);

/// The sample stage: the detector learns the text the site repeats on many pages from `sample`
/// (Detector::learn_site); the sample's stored pages are let go. Fails when the sample could
/// not be read.
Status learn_repeated_text(dedup::Detector& detector, SamplePages& sample, const SitePlan& plan);

/// The parse stage's name on the terminal: on a re-index, what it parses and what it re-uses.
std::string parse_stage_name(const PreviousBuild* previous, const ReindexSummary& reindex);

/// Stage 3, first half: redirects, the link graph and the pages records name besides their links,
/// each process working out the links of the records it holds (link_pages_by_owner), the link
/// texts other processes' pages are called by added to `anchor_texts` (links.anchor_texts).
Result<SiteGraph> link_site(HeldRecords& records, const ParsedLinks& links,
                            std::vector<std::string>& anchor_texts, const RecordParts& parts,
                            const Collective& processes);

/// Stage 3, second half: each page's click depth, and PageRank over the site's link graph, into
/// the records of this process's nodes (the later stages read only their own records'), each
/// process iterating over its own rows (`site.rows`, let go once the iteration's copy is made);
/// the graph's size and the iterations in `summary`.
void rank_pages(SiteGraph& site, const ranking::PageRankOptions& options, const Collective& processes,
                HeldRecords& records, IndexSummary& summary);

/// Stage 4: the clusters of near-duplicate pages. The detector kept a sketch of each page; when
/// it needs a page's text again (to verify a candidate pair) `load_page` reads it from the page
/// store. Counts in `summary`; fails when the store could not be read (on every process of a
/// partitioned build, when one could not: collective).
Result<dedup::Clusters> find_near_duplicates(dedup::Detector& detector, const dedup::DocumentLoader& load_page,
                                             const StoreReader& store_reader, Progress& progress,
                                             const Collective& processes, IndexSummary& summary);

/// Stage 5: the page each cluster is indexed under, marked in the records this process holds
/// (`parts`); the files URL rules made duplicates placed in their page's cluster. Counts in
/// `summary`. Collective; fails when a message between the processes does not decode.
Result<ClusterAssignment> choose_authority(const IndexOptions& options, dedup::Detector& detector,
                                           const dedup::Clusters& clusters, HeldRecords& records,
                                           const UrlRuleDuplicates& by_rule, const dedup::DocumentLoader& load_page,
                                           const RecordParts& parts, const Collective& processes, IndexSummary& summary);

}  // namespace canon::indexer::detail
