/// @file command_rank.cpp
/// @brief `canon rank EDGES`: PageRank of any link graph given as a `source<TAB>target` list.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "cli/commands.h"
#include "cli/option_groups.h"
#include "common/collective.h"
#include "ranking/edge_list.h"
#include "ranking/out_link_rows.h"
#include "ranking/pagerank.h"

namespace canon::cli {

using ranking::NodeId;

namespace {

/// Opens `path` for reading ("-" is stdin), or fails with the reason.
std::istream& open_input(const std::string& path, std::optional<std::ifstream>& file) {
  if (path == "-") return std::cin;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(Status::error(path + ": is a directory"));
  file.emplace(path, std::ios::binary);
  if (!*file) fail(Status::error("cannot open " + path + ": " + std::strerror(errno)));
  return *file;
}

std::string input_name(const std::string& path) { return path == "-" ? "stdin" : path; }

/// What `canon rank` was given.
struct RankArgs {
  std::string edges_path;
  std::string nodes_path;
  ranking::PageRankOptions pagerank;
  bool timings = false;
  bool quiet = false;
};

/// EDGES (and --nodes) read into a graph's edge list and node names, or fails with the reason.
ranking::EdgeList read_graph(const RankArgs& args) {
  std::optional<std::ifstream> edges_file;
  std::istream& edges_in = open_input(args.edges_path, edges_file);
  auto list = ranking::read_edge_list(edges_in, input_name(args.edges_path));
  if (!list.ok()) fail(list.status());
  edges_file.reset();
  if (!args.nodes_path.empty()) {
    std::optional<std::ifstream> nodes_file;
    std::istream& nodes_in = open_input(args.nodes_path, nodes_file);
    if (Status read = ranking::read_node_list(nodes_in, input_name(args.nodes_path), list->nodes); !read.ok()) {
      fail(read);
    }
  }
  list->nodes.release_lookup_table();  // only the names are needed from here on
  return std::move(list.value());
}

/// The --timings line: each phase's seconds and the time per edge and iteration.
void print_timings(const RankArgs& args, const ranking::PageRankResult& result, double load_s, double build_s,
                   double pagerank_s, double output_s, NodeId node_count, std::size_t edge_count,
                   std::size_t input_edges) {
  const unsigned threads =
      args.pagerank.threads != 0 ? args.pagerank.threads : std::thread::hardware_concurrency();
  // Per edge and iteration: the iterations alone (pagerank_s also has the setup).
  const double edge_iterations = static_cast<double>(edge_count) * result.iterations;
  char line[512];
  std::snprintf(line, sizeof line,
                "canon rank timings: load_s=%.3f build_s=%.3f pagerank_s=%.3f pagerank_setup_s=%.3f "
                "output_s=%.3f iterations=%u threads=%u nodes=%u edges=%zu input_edges=%zu "
                "ns_per_edge_iteration=%.3f\n",
                load_s, build_s, pagerank_s, result.setup_seconds, output_s, result.iterations, threads,
                node_count, edge_count, input_edges,
                edge_iterations > 0 ? result.iteration_seconds * 1e9 / edge_iterations : 0.0);
  std::cerr << line;
}

/// Reads the graph, runs PageRank and prints the scores (and the summary and timings).
void run_rank(const RankArgs& args) {
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  const auto start = Clock::now();
  ranking::EdgeList list = read_graph(args);
  const double load_s = seconds_since(start);

  auto phase = Clock::now();
  const std::size_t input_edges = list.edges.size();
  const auto node_count = static_cast<NodeId>(list.nodes.size());
  ranking::OutLinkRows graph = ranking::OutLinkRows::build(node_count, 0, node_count, std::move(list.edges));
  const double build_s = seconds_since(phase);

  const std::size_t edge_count = graph.edge_count();
  phase = Clock::now();
  const ranking::PageRankResult result = ranking::compute_pagerank(std::move(graph), args.pagerank, LocalCollective());
  const double pagerank_s = seconds_since(phase);

  phase = Clock::now();
  if (Status written = ranking::write_scores(std::cout, list.nodes, result.scores); !written.ok()) fail(written);
  const double output_s = seconds_since(phase);

  if (!args.quiet) {
    std::cerr << "canon rank: " << node_count << " nodes, " << edge_count << " edges, " << result.iterations
              << " iterations, " << (result.converged ? "converged" : "stopped at max iterations") << "\n";
  }
  if (args.timings) {
    print_timings(args, result, load_s, build_s, pagerank_s, output_s, node_count, edge_count, input_edges);
  }
}

}  // namespace

void add_rank_command(CLI::App& app) {
  auto args = std::make_shared<RankArgs>();
  args->pagerank.threads = 0;  // all cores
  CLI::App* rank = app.add_subcommand(
      "rank",
      "PageRank of a link graph: EDGES has one source<TAB>target per line; prints id<TAB>score");
  rank->add_option("EDGES", args->edges_path, "Edge list file, or - for stdin")->required();
  rank->add_option("--nodes", args->nodes_path,
                   "File of node ids, one per line (adds nodes without links)");
  add_pagerank_options(*rank, args->pagerank);
  add_threads_option(*rank, args->pagerank.threads, "Worker threads");
  rank->add_flag("--timings", args->timings, "Print load, build and PageRank times to stderr");
  add_quiet_flag(*rank, args->quiet, "No summary line on stderr");
  rank->callback([args] { run_rank(*args); });
}

}  // namespace canon::cli
