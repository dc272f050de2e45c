/// @file option_groups.cpp
/// @brief The shared options of canon's subcommands.
#include "cli/option_groups.h"

namespace canon::cli {

CLI::Option* add_threads_option(CLI::App& app, unsigned& threads, const std::string& what) {
  return app.add_option("--threads,-j", threads, what + " (0: all cores)")
      ->capture_default_str()
      ->check(CLI::Range(0u, 1024u));
}

CLI::Option* add_quiet_flag(CLI::App& app, bool& quiet, const std::string& what) {
  return app.add_flag("--quiet,-q", quiet, what);
}

CLI::Option* add_json_flag(CLI::App& app, bool& json, const std::string& what) {
  return app.add_flag("--json", json, what);
}

CLI::Option* add_seed_option(CLI::App& app, std::uint64_t& seed, const std::string& what) {
  return app.add_option("--seed", seed, what)->capture_default_str();
}

void add_pagerank_options(CLI::App& app, ranking::PageRankOptions& options) {
  app.add_option("--damping", options.damping, "PageRank: probability of following a link")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.999999));
  app.add_option("--tolerance", options.tolerance, "PageRank: stop when the L1 change of an iteration is below this")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--max-iterations", options.max_iterations, "PageRank: stop after this many iterations")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1000000u));
}

void add_shard_options(CLI::App& app, query::ShardOptions& options) {
  const auto milliseconds = [](double seconds) { return std::chrono::milliseconds(static_cast<long>(seconds * 1000)); };
  app.add_option_function<double>(
         "--shard-deadline", [&options, milliseconds](double seconds) { options.deadline = milliseconds(seconds); },
         "Seconds a search waits for a remote shard; past it the shard is left out of the results "
         "and tried again a second later")
      ->default_str(std::to_string(query::ShardOptions{}.deadline.count() / 1000))
      ->check(CLI::Range(0.01, 600.0));
  app.add_option_function<double>(
         "--shard-refresh", [&options, milliseconds](double seconds) { options.refresh_after = milliseconds(seconds); },
         "Seconds between looks at the shards for a new version (a replaced directory, a remote "
         "shard connected to again)")
      ->default_str(std::to_string(query::ShardOptions{}.refresh_after.count() / 1000))
      ->check(CLI::Range(0.1, 86400.0));
  app.add_option("--spelling", options.spelling,
                 "A shard's directory (or a canon index) whose spelling table corrects queries when every "
                 "shard of the stub is remote (Xapian's remote backend reads no spelling table)");
}

}  // namespace canon::cli
