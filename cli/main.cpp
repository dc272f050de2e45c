/// @file main.cpp
/// @brief The `canon` command: registers the subcommands (cli/command_*.cpp) and runs one.
#include <iostream>

#include "cli/commands.h"

namespace canon::cli {

int exit_code(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return 0;
    case StatusCode::kInvalidArgument: return 1;
    case StatusCode::kNotFound: return 2;
    case StatusCode::kFailedPrecondition: return 3;
    case StatusCode::kIoError: return 4;
    case StatusCode::kCorruption: return 5;
    case StatusCode::kInternal: return 6;
  }
  return 6;
}

void fail(const Status& status) {
  std::cerr << "canon: " << status.message() << "\n";
  throw CLI::RuntimeError(exit_code(status.code()));
}

}  // namespace canon::cli

int main(int argc, char** argv) {
  CLI::App app{"canon: site search that collapses near-duplicate pages into their authoritative version"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("canon ") + CANON_VERSION);
  canon::cli::add_index_command(app);
  canon::cli::add_search_command(app);
  canon::cli::add_rank_command(app);
  canon::cli::add_serve_command(app);
  canon::cli::add_shard_command(app);
  canon::cli::add_synth_command(app);
  canon::cli::add_eval_command(app);
  canon::cli::add_urls_command(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
