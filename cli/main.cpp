/// @file main.cpp
/// @brief The `canon` command: registers the subcommands (cli/command_*.cpp) and runs one.
#include <iostream>

#include "cli/commands.h"

namespace canon::cli {

void fail(const Status& status) {
  std::cerr << "canon: " << status.message() << "\n";
  throw CLI::RuntimeError(1);
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
  canon::cli::add_synth_command(app);
  canon::cli::add_eval_command(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
