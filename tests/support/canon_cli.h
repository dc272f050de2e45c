/// @file canon_cli.h
/// @brief Running the built canon binary (CANON_BINARY, set by CMake for the test) in a shell,
/// for end-to-end CLI tests: run_canon and what it captured.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/temp_dir.h"

#ifndef CANON_BINARY
#error "CANON_BINARY must name the canon executable"
#endif

namespace canon::testing {

/// What one run of canon did.
struct Run {
  int exit_code = -1;
  std::string out, err;
};

/// The whole file at `path` ("" when it cannot be read).
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// `s` single-quoted for the shell (test paths have no quotes).
inline std::string quoted(const std::string& s) { return "'" + s + "'"; }

/// Runs `canon ARGS` in `dir` through a shell (ARGS may hold redirections), capturing stdout
/// and stderr.
inline Run run_canon(const TempDir& dir, const std::string& args) {
  const auto out = dir.path() / "stdout", err = dir.path() / "stderr";
  const std::string command = "cd " + quoted(dir.path().string()) + " && " + quoted(CANON_BINARY) + " " + args +
                              " > " + quoted(out.string()) + " 2> " + quoted(err.string());
  const int status = std::system(command.c_str());
  Run run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = read_file(out);
  run.err = read_file(err);
  return run;
}

}  // namespace canon::testing
