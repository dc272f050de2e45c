/// @file command_eval.cpp
/// @brief `canon eval dedup INDEX_DIR --truth truth.json`: scores an index's near-duplicate
/// clusters against a ground truth (eval/metrics.h); `canon eval diversity INDEX_DIR`: top-k
/// diversity with no collapsing, query-time and index-time collapse (eval/diversity.h); `canon
/// eval findability INDEX_DIR`: every page searched by its title (eval/findability.h).
/// docs/evaluation.md has the definitions.
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/option_groups.h"
#include "eval/diversity.h"
#include "eval/findability.h"
#include "eval/metrics.h"
#include "eval/truth.h"

namespace canon::cli {
namespace {

void add_eval_dedup_command(CLI::App& eval_app) {
  struct Args {
    std::filesystem::path index_dir;
    std::filesystem::path truth;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* dedup = eval_app.add_subcommand(
      "dedup",
      "Pairwise precision/recall/F1 (before and after union-find), page-level scores, authority");
  dedup->add_option("INDEX_DIR", args->index_dir, "Index directory written by `canon index`")
      ->required();
  dedup->add_option("--truth", args->truth, "truth.json written by `canon synth`")->required();
  add_json_flag(*dedup, args->json, "Print the scores as JSON");

  dedup->callback([args] {
    auto truth = eval::read_truth(args->truth);
    if (!truth.ok()) fail(truth.status());
    auto verdict = eval::read_index_verdict(args->index_dir);
    if (!verdict.ok()) fail(verdict.status());
    auto evaluation = eval::evaluate_dedup(truth.value(), verdict.value());
    if (!evaluation.ok()) fail(evaluation.status());
    if (args->json) {
      std::cout << eval::to_json(evaluation.value()).dump(2) << "\n";
    } else {
      std::cout << eval::render_text(evaluation.value());
    }
  });
}

constexpr const char* kDiversityFooter = R"(
INDEX_DIR must be built with `canon index --no-collapse`: it holds every page with its cluster
and authoritative page. The three modes are searched on the same site:
  none   every page, no collapsing (a copy of INDEX_DIR's documents, searched without a collapse key)
  query  INDEX_DIR itself: query-time collapse on the cluster id (what `canon search` does on it)
  index  only the authoritative pages: what `canon index` without --no-collapse writes
The two copies are written to a temporary directory (--work-dir) and removed afterwards.

A query's relevant clusters are the clusters of every page that matches it without collapsing;
each cluster is one subtopic. Dup@k: share of the top k whose cluster is that of a higher
result. Distinct@k: clusters in the top k. Cluster recall@k: relevant clusters in the top k /
min(k, relevant clusters). alpha-nDCG@k: each cluster a subtopic, every page of a relevant
cluster relevant to it. Means over the queries with at least one match.
Without --queries, --sample queries are drawn (--seed) from page titles and, when the site is
known (--site, or the directory of --truth), headings. See docs/evaluation.md.
)";

void add_eval_diversity_command(CLI::App& eval_app) {
  struct Args {
    std::filesystem::path index_dir;
    std::filesystem::path queries;
    std::filesystem::path truth;
    std::filesystem::path site;
    std::filesystem::path work_dir;
    std::size_t k = 10;
    double alpha = eval::kDefaultAlpha;
    std::size_t sample = 100;
    std::uint64_t seed = 1;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* diversity = eval_app.add_subcommand(
      "diversity",
      "Dup@k, Distinct@k, cluster recall@k and alpha-nDCG@k with no collapsing, query-time and "
      "index-time collapse");
  diversity->footer(kDiversityFooter);
  diversity
      ->add_option("INDEX_DIR", args->index_dir, "Index built with `canon index --no-collapse`")
      ->required();
  CLI::Option* queries =
      diversity->add_option("--queries", args->queries,
                            "Query file: one query per line (`canon search` syntax; # comments)");
  diversity->add_option("--k", args->k, "Cut-off rank")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  diversity->add_option("--alpha", args->alpha, "alpha of alpha-nDCG")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  diversity->add_option("--truth", args->truth,
                        "truth.json of a `canon synth` site: its true clusters are the "
                        "subtopics (default: the index's detected clusters)");
  diversity->add_option("--site", args->site,
                        "The indexed site, for drawing queries from headings too (default: the "
                        "directory of --truth)");
  diversity->add_option("--sample", args->sample, "Queries to draw when --queries is not given")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}))
      ->excludes(queries);
  add_seed_option(*diversity, args->seed, "Seed of the query draw (reproducible for a seed)")->excludes(queries);
  diversity->add_option("--work-dir", args->work_dir,
                        "Where to build the two derived views (default: the temporary directory)");
  add_json_flag(*diversity, args->json, "Print the scores (and the queries) as JSON");

  diversity->callback([args] {
    eval::DiversityOptions options;
    options.index_dir = args->index_dir;
    options.k = args->k;
    options.alpha = args->alpha;
    options.work_dir = args->work_dir;
    if (!args->truth.empty()) options.truth_path = args->truth;
    if (!args->queries.empty()) {
      auto queries = eval::read_queries(args->queries);
      if (!queries.ok()) fail(queries.status());
      options.queries = std::move(queries.value());
    } else {
      std::filesystem::path site = args->site;
      if (site.empty() && !args->truth.empty()) site = args->truth.parent_path();
      auto queries = eval::sample_queries(args->index_dir, site, args->sample, args->seed);
      if (!queries.ok()) fail(queries.status());
      options.queries = std::move(queries.value());
    }
    auto evaluation = eval::evaluate_diversity(options);
    if (!evaluation.ok()) fail(evaluation.status());
    if (args->json) {
      std::cout << eval::to_json(evaluation.value()).dump(2) << "\n";
    } else {
      std::cout << eval::render_text(evaluation.value());
    }
  });
}

void add_eval_findability_command(CLI::App& eval_app) {
  struct Args {
    std::filesystem::path index_dir;
    std::size_t k = 3;
    bool json = false;
    double title_weight = query::kDefaultTitleWeight;
  };
  auto args = std::make_shared<Args>();
  CLI::App* findability = eval_app.add_subcommand(
      "findability",
      "Search every indexed and duplicate page by its title (and heading, where titles are shared): "
      "is the page, or the page it was collapsed into, in the top k?");
  findability->add_option("INDEX_DIR", args->index_dir, "Index built by `canon index`")->required();
  findability->add_option("--k", args->k, "Cut-off rank")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  findability->add_option("--title-weight", args->title_weight,
                          "How much a match in a page's title adds to its BM25 weight (canon search --title-weight)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1000.0));
  add_json_flag(*findability, args->json, "Print the counts as JSON");
  findability->callback([args] {
    auto result = eval::evaluate_findability(args->index_dir, args->k, args->title_weight);
    if (!result.ok()) fail(result.status());
    const eval::FindabilityResult& r = result.value();
    const auto group = [](const eval::FindabilityCount& c) {
      return nlohmann::json{{"pages", c.pages}, {"found", c.found}, {"rate", c.rate()}};
    };
    if (args->json) {
      nlohmann::json missed = nlohmann::json::array();
      for (const auto& [path, query] : r.missed) missed.push_back({{"path", path}, {"query", query}});
      std::cout << nlohmann::json{{"k", r.k},
                                  {"unique_title", group(r.unique_title)},
                                  {"shared_title", group(r.shared_title)},
                                  {"shared_title_ambiguous", group(r.shared_title_ambiguous)},
                                  {"shared_title_without_heading", r.shared_title_without_heading},
                                  {"duplicates", group(r.duplicates)},
                                  {"missed", missed}}
                       .dump(2)
                << "\n";
      return;
    }
    std::printf("Pages found by their title in the top %zu (the page or the page it was collapsed into):\n", r.k);
    std::printf("  unique titles:           %zu of %zu (%.4f); duplicates among them %zu of %zu\n",
                r.unique_title.found, r.unique_title.pages, r.unique_title.rate(), r.duplicates.found,
                r.duplicates.pages);
    std::printf("  shared titles + heading: %zu of %zu (%.4f); %zu shared titles without a heading not searched\n",
                r.shared_title.found, r.shared_title.pages, r.shared_title.rate(), r.shared_title_without_heading);
    std::printf("  title + heading naming more than %zu pages: %zu of %zu (%.4f)\n", r.k,
                r.shared_title_ambiguous.found, r.shared_title_ambiguous.pages, r.shared_title_ambiguous.rate());
    for (const auto& [path, query] : r.missed) std::printf("  missed: %s  (query: %s)\n", path.c_str(), query.c_str());
  });
}

}  // namespace

void add_eval_command(CLI::App& app) {
  CLI::App* eval_app = app.add_subcommand("eval", "Evaluate an index against a ground truth");
  eval_app->require_subcommand(1);
  add_eval_dedup_command(*eval_app);
  add_eval_diversity_command(*eval_app);
  add_eval_findability_command(*eval_app);
}

}  // namespace canon::cli
