/// @file commands.h
/// @brief The subcommands of `canon`, one file each; main.cpp only registers them.
///
/// Each add_X_command adds a CLI11 subcommand whose callback does the work through the stage
/// libraries. On failure a callback prints "canon: MESSAGE" to stderr (fail()) and exits
/// with status 1 through CLI::RuntimeError.
#pragma once

#include <CLI/CLI.hpp>

#include "common/status.h"

namespace canon::cli {

/// Prints "canon: MESSAGE" to stderr and throws CLI::RuntimeError(1).
[[noreturn]] void fail(const Status& status);

void add_index_command(CLI::App& app);
void add_search_command(CLI::App& app);
void add_rank_command(CLI::App& app);
void add_serve_command(CLI::App& app);
void add_synth_command(CLI::App& app);
void add_eval_command(CLI::App& app);

}  // namespace canon::cli
