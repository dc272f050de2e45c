/// @file command_index.cpp
/// @brief `canon index SITE_DIR --out INDEX_DIR` (or web archives instead of SITE_DIR): the whole
/// pipeline (indexer/pipeline.h).
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/option_groups.h"
#include "cli/processes.h"
#include "dedup/detectors/detector.h"
#include "dedup/detectors/registry.h"
#include "indexer/pipeline.h"
#include "urls/url_rules.h"

namespace canon::cli {

namespace {

/// The near-duplicate detector's options (dedup::DedupOptions) on `index`.
void add_detector_options(CLI::App& index, indexer::IndexOptions& options) {
  index.add_option("--detector", options.detector, "Near-duplicate detector")
      ->capture_default_str()
      ->check(CLI::IsMember(dedup::detector_names()));
  index.add_option("--threshold", options.dedup.threshold, "Similarity at which pages are near-duplicates")
      ->capture_default_str()
      // Given explicitly, it reaches keyword and mwo too (instead of their papers' 0.8).
      ->each([&options](const std::string&) { options.dedup.threshold_explicit = true; })
      ->check(CLI::Range(0.0, 1.0));
  index.add_option("--shingle-size", options.dedup.shingle_size, "Words per shingle")
      ->capture_default_str()
      ->check(CLI::Range(1u, 16u));
  index.add_option("--num-hashes", options.dedup.num_hashes, "MinHash sketch size")
      ->capture_default_str()
      ->check(CLI::Range(1u, 4096u));
  add_seed_option(index, options.dedup.seed, "Seed of the hash functions");
  index.add_flag("!--no-title-rule", options.dedup.title_rule,
                 "minhash/exact: compare pages on their text alone, whatever their names");
  index.add_option("--renamed-threshold", options.dedup.renamed_threshold,
                   "minhash/exact: similarity needed by pages whose names differ only in common words and numbers")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  index.add_option("--moved-threshold", options.dedup.moved_threshold,
                   "minhash/exact: share of a page's text found in the other's needed by the same item at a "
                   "parallel path (a re-export, a platform module's copy)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  index.add_option("--copy-threshold", options.dedup.copy_threshold,
                   "minhash/exact: similarity needed by pages of one name at mirrored paths (a copy below a "
                   "prefix or in another release)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  index.add_option("--parallel-threshold", options.dedup.parallel_threshold,
                   "minhash/exact: similarity needed by pages of one name at paths that do not mirror each other")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  index.add_flag("!--keep-boilerplate", options.dedup.discount_boilerplate,
                 "minhash/exact: compare pages on all their text, the site's repeated text too");
}

/// Reads and compiles the rule file `path` into `options` (fail() when it cannot be read or a
/// rule does not compile).
void load_url_rules(const std::string& path, indexer::IndexOptions& options) {
  auto file = urls::read_rule_file(path);
  if (!file.ok()) fail(file.status());
  auto rules = urls::RuleSet::compile(file->rules);
  if (!rules.ok()) fail(Status::error(path + ": " + rules.status().message()));
  options.url_rules = std::make_shared<const urls::RuleSet>(std::move(rules).value());
  options.url_rules_digest = file->digest;
}

/// What was indexed: the site directory, or the archives.
std::string input_name(const indexer::IndexOptions& options) {
  if (options.archives.empty()) return options.site_dir.string();
  if (options.archives.size() == 1) return options.archives.front().string();
  return std::to_string(options.archives.size()) + " archives";
}

/// SITE_DIR or the web archives named on the command line (indexer::archive_inputs) into `options`.
void take_inputs(const std::vector<std::filesystem::path>& inputs, bool base_url_given, indexer::IndexOptions& options) {
  auto archives = indexer::archive_inputs(inputs);
  if (!archives.ok()) fail(archives.status());
  if (!archives.value()) {
    options.site_dir = inputs.front();
    return;
  }
  if (base_url_given) {
    fail(Status::error("--base-url does not apply to web archives: their records give the URLs"));
  }
  options.archives = std::move(*archives.value());
}

/// What the run did, on `out` (stdout, or nowhere under --quiet): the pages by status, the
/// clusters, the URL rules' duplicates, and what a re-index re-used (or why the build was a full
/// one); warnings on stderr.
void print_summary(const indexer::IndexOptions& options, const indexer::IndexSummary& summary, std::ostream& out) {
  out << "Indexed " << input_name(options) << " into " << options.out_dir.string() << ": ";
  const char* separator = "";
  for (const auto& [status, count] : summary.status_counts) {
    out << separator << count << " " << status;
    separator = ", ";
  }
  out << "; " << summary.duplicate_clusters << " near-duplicate clusters.\n";
  if (summary.pages_with_warnings > 0) {
    std::cerr << "canon: warning: " << summary.pages_with_warnings
              << " pages show far more text than canon found in their main content (pages.jsonl's \"warnings\")\n";
  }
  if (summary.archives) {
    const indexer::ArchiveCounts& a = *summary.archives;
    out << "Archives: " << a.pages << " pages and " << a.redirects << " redirects read (base URL "
        << summary.base_url << "); " << a.older_captures << " older captures and " << a.skipped
        << " other captures recorded as skipped.\n";
    for (const std::string& problem : summary.archive_problems) {
      std::cerr << "canon: warning: " << problem << " (the records before it are indexed)\n";
    }
  }
  if (options.archives.empty() && options.base_url == index_format::kDefaultBaseUrl) {
    out << "Base URL: " << options.base_url << " (the default): `canon serve " << options.out_dir.string()
        << "` serves the site's pages there itself; give --base-url for the address the site is served at.\n";
  }
  if (options.url_rules) {
    out << "URL rules: " << summary.url_rule_duplicates << " pages recorded as duplicates without being read ("
        << summary.url_rules << " rules).\n";
  }
  const indexer::ReindexSummary& reindex = summary.reindex;
  if (!reindex.full_because.empty()) {
    out << "Full build: " << reindex.full_because << ".\n";
    return;
  }
  out << "Re-indexed: " << reindex.added << " new, " << reindex.changed << " changed, " << reindex.deleted
      << " deleted, " << reindex.unchanged << " unchanged (" << reindex.restamped << " with a new time), "
      << reindex.retried << " unreadable before and read again; documents " << reindex.documents_added
      << " added, " << reindex.documents_rewritten << " rewritten, " << reindex.documents_updated
      << " updated, " << reindex.documents_removed << " removed, " << reindex.documents_kept << " kept.\n";
  if (!reindex.index_rewritten_because.empty()) {
    out << "The search index was written afresh: " << reindex.index_rewritten_because << ".\n";
  }
}

}  // namespace

void add_index_command(CLI::App& app) {
  struct Args {
    indexer::IndexOptions options;
    bool quiet = false;
    bool no_collapse = false;
    std::string url_rules;
    std::vector<std::filesystem::path> inputs;
  };
  auto args = std::make_shared<Args>();
  indexer::IndexOptions& options = args->options;
  CLI::App* index = app.add_subcommand("index", "Index a saved site, collapsing near-duplicate pages");
  index->add_option("SITE", args->inputs,
                    "Directory of saved HTML pages, or web archives (.warc, .warc.gz files, or a directory of them)")
      ->required();
  index->add_option("--out,-o", options.out_dir, "Index directory to write (replaced when complete)")->required();
  CLI::Option* base_url = index->add_option("--base-url", options.base_url, "URL the site is served at (not for archives)")
                              ->capture_default_str();
  add_detector_options(*index, options);
  add_pagerank_options(*index, options.pagerank);
  index->add_flag("!--keep-chains", options.split_chains,
                  "Keep union-find's clusters, even where a duplicate is not a near-duplicate of "
                  "its authoritative page");
  index->add_flag("!--no-canonical", options.honour_canonical,
                  "Ignore rel=canonical when choosing a cluster's authoritative page");
  index->add_flag("--no-collapse", args->no_collapse,
                  "Index duplicates too, each with its cluster id; search collapses clusters");
  index->add_flag("--full", options.full,
                  "Parse every file again, even when INDEX_DIR's page store could be re-used");
  index->add_option("--url-rules", args->url_rules,
                    "URL rules (canon urls learn): pages whose URL they make another page's are recorded as its "
                    "duplicates without being read");
  index->add_flag("--merge", options.merge_shards,
                  "Under mpirun: merge the processes' shards into one database instead of a stub listing them");
  add_quiet_flag(*index, args->quiet, "No progress and no summary: nothing but errors and warnings");
  add_threads_option(*index, options.threads, "Parse and detection threads");
  index->add_option("--chunk-files", options.chunk_files,
                    "Files per chunk of the site, each parsed and written into its own Xapian database by one thread, "
                    "the chunks then merged (0: by the site's size and the threads). The index does not depend on it")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 40))
      ->capture_default_str();

  index->callback([args, base_url] {
    take_inputs(args->inputs, base_url->count() > 0, args->options);
    args->options.show_progress = !args->quiet;
    args->options.collapse =
        args->no_collapse ? indexer::CollapseMode::kQueryTime : indexer::CollapseMode::kIndexTime;
    if (!args->url_rules.empty()) load_url_rules(args->url_rules, args->options);
    // Under mpirun, each process builds its part (docs/partitioned-build.md).
    auto processes = RunProcesses::start();
    if (!processes.ok()) fail(processes.status());
    args->options.processes = processes.value()->collective();
    args->options.threads = processes.value()->threads(args->options.threads);
    auto summary = indexer::index_site(args->options);
    if (!summary.ok()) processes.value()->fail(summary.status());
    std::ostream nowhere(nullptr);  // --quiet: the summary is dropped, warnings still shown
    if (processes.value()->reports()) print_summary(args->options, summary.value(), args->quiet ? nowhere : std::cout);
  });
}

}  // namespace canon::cli
