/// @file main.cpp
/// @brief The `canon` command: registers the subcommands (cli/command_*.cpp) and runs one; alone,
/// it prints its help.
#include <malloc.h>
#include <sys/resource.h>

#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "cli/help_text.h"
#include "common/build_dir.h"

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
  // A file being built is named by the directory the user gave (common/build_dir.h).
  std::cerr << "canon: " << without_build_paths(status.message()) << "\n";
  throw CLI::RuntimeError(exit_code(status.code()));
}

}  // namespace canon::cli

namespace {

/// glibc's malloc hands blocks of at least M_MMAP_THRESHOLD bytes out of their own mappings,
/// given back to the system when freed; by default the threshold rises to the largest block
/// freed so far (up to 32 MiB), after which a page's large buffers (its bytes, its text, gumbo's
/// tree) come from the heap and what they free stays with the process. canon frees such blocks
/// page after page: with the threshold kept at glibc's initial 128 KiB, `canon index` on
/// python3.11-doc peaks at 80-87 MiB instead of 98 (docs/real-sites.md), at the same CPU. A
/// MALLOC_MMAP_THRESHOLD_ in the environment is left to rule. A build linked with jemalloc
/// (CMakeLists.txt) does not allocate through glibc's malloc, and this setting changes nothing.
void keep_large_blocks_returnable() {
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}

/// Lets the process open as many files as its hard limit allows (the soft limit raised to it,
/// as a shell's `ulimit -n hard` would). A run holds a file open for each segment of its page
/// store, one per chunk of the site, and the index stage's merge holds its databases open: a
/// partitioned build cuts a site into up to 8 chunks a thread of each process (1,024 with 128
/// processes of one thread), a site of 100M files into 5,000 at least, where Debian's soft limit
/// is 1,024 and its hard limit far higher. A limit that cannot be raised is left as it is.
void allow_open_files_up_to_hard_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
}

}  // namespace

int main(int argc, char** argv) {
  keep_large_blocks_returnable();
  allow_open_files_up_to_hard_limit();
  CLI::App app{"canon: site search that collapses near-duplicate pages into their authoritative version"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("canon ") + CANON_VERSION);
  app.footer("Run `canon COMMAND --help` for a command's options (README.md, \"CLI\").");
  canon::cli::add_index_command(app);
  canon::cli::add_search_command(app);
  canon::cli::add_rank_command(app);
  canon::cli::add_serve_command(app);
  canon::cli::add_shard_command(app);
  canon::cli::add_export_command(app);
  canon::cli::add_synth_command(app);
  canon::cli::add_eval_command(app);
  canon::cli::add_urls_command(app);
  canon::cli::name_option_values(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RequiredError& e) {
    // `canon` (or `canon eval`, `canon urls`) alone: its help on stdout and status 1, as git does.
    if (!canon::cli::lacks_command(app)) return app.exit(e);
    std::cout << app.help();
    return 1;
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return 0;
}
