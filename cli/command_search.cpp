/// @file command_search.cpp
/// @brief `canon search INDEX_DIR QUERY...`: ranked results with their collapsed alternates.
#include <unistd.h>

#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/option_groups.h"
#include "query/render.h"
#include "query/searcher.h"

namespace canon::cli {
namespace {

/// Checks a --filter value: FACET=VALUE with a facet canon knows.
CLI::Validator filter_check() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        return query::parse_facet_filter(value) ? "" : "a filter is section=VALUE, release=VALUE or language=VALUE: not '" + value + "'";
      },
      "FACET=VALUE");
}

query::FacetFilter parse_filter(const std::string& text) { return *query::parse_facet_filter(text); }

/// The options that weigh the ranking's parts: --static-weight, --title-weight, --anchor-weight
/// and --static-score (read into `static_score`).
void add_weight_options(CLI::App& search, query::SearchRequest& request, std::string& static_score) {
  search.add_option("--static-weight", request.static_weight,
                    "Most that the static score (cluster PageRank) adds to BM25; 0 for BM25 alone")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1000.0));
  search.add_option("--title-weight", request.title_weight,
                    "How much a match in a page's title adds to its BM25 weight; 0 for none")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1000.0));
  search.add_option("--anchor-weight", request.anchor_weight,
                    "How much being linked to with the query as the link's text adds; 0 for none")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1000.0));
  search.add_option("--static-score", static_score,
                    "Static score: log (ln(1 + N * PageRank)) or pagerank")
      ->capture_default_str()
      ->check(CLI::IsMember({"log", "pagerank"}));
}

}  // namespace

void add_search_command(CLI::App& app) {
  struct Args {
    std::filesystem::path index_dir;
    std::vector<std::string> query_words;
    query::SearchRequest request;
    bool json = false;
    std::string static_score = "log";
    query::ShardOptions shards;
  };
  auto args = std::make_shared<Args>();
  CLI::App* search =
      app.add_subcommand("search", "Search an index; each result shows its collapsed alternates");
  search->add_option("INDEX_DIR", args->index_dir,
                     "Index directory written by `canon index` or `canon shard`, or a stub file listing shards")
      ->required();
  search
      ->add_option("QUERY", args->query_words,
                   "Query (Xapian syntax: phrases, AND/OR/NOT, title:, site:, path:)")
      ->required();
  search->add_option("--limit,-n", args->request.limit, "Results to show")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  search->add_option("--offset", args->request.offset, "Results to skip")->capture_default_str();
  search
      ->add_option("--sections", args->request.sections,
                   "Sections holding the query's words shown under each result (PAGE#ID); 0 for none")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  search
      ->add_option_function<std::vector<std::string>>(
          "--filter",
          [args](const std::vector<std::string>& filters) {
            for (const std::string& filter : filters) args->request.filters.push_back(parse_filter(filter));
          },
          "Only pages whose facet has this value: section=DIR, release=VERSION or language=CODE; repeat to "
          "narrow further")
      ->check(filter_check());
  search->add_flag("--facets", args->request.count_facets,
                   "Count the matches' facet values (section, release, language): the filters a reader can pick");
  search->add_flag_callback(
      "--no-correct", [args] { args->request.correct_spelling = false; },
      "Search the query as typed: no \"did you mean\" correction of words the index does not hold");
  add_weight_options(*search, args->request, args->static_score);
  add_shard_options(*search, args->shards);
  add_json_flag(*search, args->json, "Print results as JSON");

  search->callback([args] {
    auto searcher = query::Searcher::open(args->index_dir, args->shards);
    if (!searcher.ok()) fail(searcher.status());
    query::SearchRequest& request = args->request;
    request.static_score = args->static_score == "pagerank" ? query::StaticScore::kPageRank
                                                            : query::StaticScore::kLogPageRank;
    for (const std::string& word : args->query_words)
      request.query += (request.query.empty() ? "" : " ") + word;
    if (!args->json && isatty(STDOUT_FILENO) == 1) {
      request.highlight_start = "\033[1m";
      request.highlight_end = "\033[0m";
    }
    auto results = searcher.value()->search(request);
    if (!results.ok()) fail(results.status());
    if (args->json) {
      // Invalid UTF-8 (none is expected: pages are decoded and snippets cut at characters)
      // is written as U+FFFD rather than stopping the output.
      std::cout << query::to_json(results.value()).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cout << query::render_text(results.value());
    }
  });
}

}  // namespace canon::cli
