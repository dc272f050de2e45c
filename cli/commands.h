/// @file commands.h
/// @brief The subcommands of `canon`, one file each; main.cpp only registers them.
///
/// Each add_X_command adds a CLI11 subcommand whose callback does the work through the stage
/// libraries. On failure a callback prints "canon: MESSAGE" to stderr (fail()) and exits
/// through CLI::RuntimeError with the status exit_code() gives the error's code.
#pragma once

#include <CLI/CLI.hpp>

#include "common/status.h"

namespace canon::cli {

/// The exit status for a failure of `code`, one per code so that scripts decide by it
/// (README, "Exit status"): invalid argument 1, not found 2, failed precondition 3, I/O error 4,
/// corruption 5, internal 6.
int exit_code(StatusCode code);

/// Prints "canon: MESSAGE" to stderr (a build directory's path in it named as its destination,
/// common/build_dir.h) and throws CLI::RuntimeError(exit_code(status.code())).
[[noreturn]] void fail(const Status& status);

void add_index_command(CLI::App& app);
void add_search_command(CLI::App& app);
void add_rank_command(CLI::App& app);
void add_serve_command(CLI::App& app);
void add_synth_command(CLI::App& app);
void add_eval_command(CLI::App& app);
void add_urls_command(CLI::App& app);
void add_shard_command(CLI::App& app);
void add_export_command(CLI::App& app);

}  // namespace canon::cli
