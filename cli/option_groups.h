/// @file option_groups.h
/// @brief Options that several subcommands take, declared once so that their names, ranges and
/// help agree (as PISA's tools/app.hpp does).
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "query/shard_set.h"
#include "ranking/pagerank.h"

namespace canon::cli {

/// `-j, --threads N`: worker threads, 0 (the default) for all cores, at most 1024.
CLI::Option* add_threads_option(CLI::App& app, unsigned& threads, const std::string& what);
/// `-q, --quiet`: nothing on stdout or stderr but what the command exists to print, errors and
/// warnings (README, "CLI").
CLI::Option* add_quiet_flag(CLI::App& app, bool& quiet, const std::string& what);
/// `--json`.
CLI::Option* add_json_flag(CLI::App& app, bool& json, const std::string& what);
/// `--seed S`.
CLI::Option* add_seed_option(CLI::App& app, std::uint64_t& seed, const std::string& what);
/// PageRank's `--damping`, `--tolerance` and `--max-iterations`, with their defaults.
void add_pagerank_options(CLI::App& app, ranking::PageRankOptions& options);
/// `--shard-deadline SECONDS` (the most a search waits for a remote shard) and
/// `--shard-refresh SECONDS` (how often shards are looked at for a new version): ShardOptions.
void add_shard_options(CLI::App& app, query::ShardOptions& options);

}  // namespace canon::cli
