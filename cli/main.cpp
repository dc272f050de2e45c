/// @file main.cpp
/// @brief The `canon` command: argument parsing and output only; the work is in the libraries.
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "dedup/detector.h"
#include "indexer/pipeline.h"
#include "query/render.h"
#include "query/searcher.h"

namespace {

int fail(const canon::Status& status) {
  std::cerr << "canon: " << status.message() << "\n";
  return 1;
}

void add_index_command(CLI::App& app, canon::indexer::IndexOptions& options, bool& quiet) {
  CLI::App* index = app.add_subcommand("index", "Index a saved site, collapsing near-duplicate pages");
  index->add_option("SITE_DIR", options.site_dir, "Directory of saved HTML pages")->required();
  index->add_option("--out,-o", options.out_dir, "Index directory to write (replaced when complete)")->required();
  index->add_option("--base-url", options.base_url, "URL the site is served at")->capture_default_str();
  index->add_option("--detector", options.detector, "Near-duplicate detector")
      ->capture_default_str()
      ->check(CLI::IsMember(canon::dedup::detector_names()));
  index->add_option("--threshold", options.dedup.threshold, "Similarity at which pages are near-duplicates")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  index->add_option("--shingle-size", options.dedup.shingle_size, "Words per shingle")
      ->capture_default_str()
      ->check(CLI::Range(1u, 16u));
  index->add_option("--num-hashes", options.dedup.num_hashes, "MinHash sketch size")
      ->capture_default_str()
      ->check(CLI::Range(1u, 4096u));
  index->add_option("--seed", options.dedup.seed, "Seed of the hash functions")->capture_default_str();
  index->add_option("--damping", options.pagerank.damping, "PageRank damping factor")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.999));
  index->add_flag("!--no-canonical", options.honour_canonical,
                  "Ignore rel=canonical when choosing a cluster's indexed page");
  index->add_flag("--quiet,-q", quiet, "No progress output");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"canon: site search that collapses near-duplicate pages into their authoritative version"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("canon ") + CANON_VERSION);

  canon::indexer::IndexOptions index_options;
  bool quiet = false;
  add_index_command(app, index_options, quiet);

  std::filesystem::path index_dir;
  std::vector<std::string> query_words;
  canon::query::SearchRequest request;
  bool json = false;
  CLI::App* search = app.add_subcommand("search", "Search an index; each result shows its collapsed alternates");
  search->add_option("INDEX_DIR", index_dir, "Index directory written by `canon index`")->required();
  search->add_option("QUERY", query_words, "Query (Xapian syntax: phrases, AND/OR/NOT, title:, site:)")->required();
  search->add_option("--limit,-n", request.limit, "Results to show")->capture_default_str()->check(CLI::Range(1, 10000));
  search->add_option("--offset", request.offset, "Results to skip")->capture_default_str();
  search->add_flag("--json", json, "Print results as JSON");

  CLI11_PARSE(app, argc, argv);

  if (app.got_subcommand("index")) {
    index_options.show_progress = !quiet;
    auto summary = canon::indexer::index_site(index_options);
    if (!summary.ok()) return fail(summary.status());
    std::cout << "Indexed " << index_options.site_dir.string() << " into " << index_options.out_dir.string() << ": ";
    bool first = true;
    for (const auto& [status, count] : summary->status_counts) {
      std::cout << (first ? "" : ", ") << count << " " << status;
      first = false;
    }
    std::cout << "; " << summary->duplicate_clusters << " near-duplicate clusters.\n";
    return 0;
  }

  auto searcher = canon::query::Searcher::open(index_dir);
  if (!searcher.ok()) return fail(searcher.status());
  for (const std::string& word : query_words) request.query += (request.query.empty() ? "" : " ") + word;
  if (!json && isatty(STDOUT_FILENO) == 1) {
    request.highlight_start = "\033[1m";
    request.highlight_end = "\033[0m";
  }
  auto results = searcher.value()->search(request);
  if (!results.ok()) return fail(results.status());
  if (json) {
    std::cout << canon::query::to_json(results.value()).dump(2) << "\n";
  } else {
    std::cout << canon::query::render_text(results.value());
  }
  return 0;
}
