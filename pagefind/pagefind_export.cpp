/// @file pagefind_export.cpp
/// @brief `canon export pagefind` (pagefind_export.h): canon's pages streamed to Pagefind's
/// Node API, which writes the bundle.
#include "pagefind/pagefind_export.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "common/progress.h"
#include "format/facets.h"
#include "format/index_format.h"
#include "pagefind/bundle_pages.h"
#include "pagefind/pagefind_assets.h"

extern char** environ;

namespace canon::pagefind {

namespace fs = std::filesystem;
namespace fmt = index_format;

fs::path default_pagefind_package() {
  if (const char* given = std::getenv("CANON_PAGEFIND"); given != nullptr && *given != '\0') return given;
  return fs::path(CANON_SOURCE_DIR) / "pagefind" / "node_modules" / "pagefind";
}

namespace {

/// The language most of the database's pages declare (value slot kLanguageSlot), "" when none.
std::string most_declared_language(const Xapian::Database& db) {
  std::map<std::string, std::size_t> pages;
  for (auto v = db.valuestream_begin(fmt::kLanguageSlot); v != db.valuestream_end(fmt::kLanguageSlot); ++v) ++pages[*v];
  std::string most;
  std::size_t count = 0;
  for (const auto& [language, n] : pages) {
    if (n > count) most = language, count = n;
  }
  return most;
}

/// Node.js running a script with a pipe to its stdin and its stdout into a file.
class NodeProcess {
public:
  /// Starts `node` on `script` with `arguments`; its stdout goes to `report`.
  Status start(const std::string& node, std::string_view script, const std::vector<std::string>& arguments,
               const fs::path& report) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) return Status::io_error(std::string("cannot make a pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, report.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> words = {node, "--input-type=module", "-e", std::string(script)};
    words.insert(words.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    const int spawned = posix_spawnp(&pid_, node.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[0]);
    if (spawned != 0) {
      close(pipe_fds[1]);
      pid_ = -1;
      return Status::failed_precondition("cannot run '" + node + "' (" + std::strerror(spawned) +
                                         "): canon export pagefind needs Node.js (Debian's nodejs; "
                                         "scripts/install-deps.sh installs it)");
    }
    input_ = pipe_fds[1];
    return Status::ok_status();
  }

  /// Writes `bytes` to the script's stdin; false once it stopped reading.
  bool write(std::string_view bytes) {
    while (!bytes.empty() && input_ >= 0) {
      const ssize_t n = ::write(input_, bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return input_ >= 0;
  }

  /// Closes its stdin and waits for it: its exit status (-1 when it did not exit normally).
  int finish() {
    if (input_ >= 0) close(input_);
    input_ = -1;
    if (pid_ < 0) return -1;
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  ~NodeProcess() { finish(); }

private:
  pid_t pid_ = -1;
  int input_ = -1;
};

/// Streams every indexed page of `db` to `node` as a JSON line, until it stops reading (its exit
/// status then says why); counts the duplicates left out.
void send_pages(const Xapian::Database& db, const std::string& base_url, NodeProcess& node, Progress& progress,
                PagefindExportReport& report) {
  progress.start("export pagefind", db.get_doccount());
  std::size_t done = 0;
  std::string line;
  for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
    const std::optional<BundlePage> page = bundle_page(db.get_document(*it), base_url);
    progress.update(++done);
    if (!page) {
      ++report.duplicates;
      continue;
    }
    line = nlohmann::json{{"url", page->url}, {"html", bundle_page_html(*page)}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
    line += '\n';
    if (!node.write(line)) break;
  }
  progress.finish();
}

/// Writes canon's search box for the bundle into `dir`.
Status write_search_box(const fs::path& dir) {
  for (const auto& [name, text] : search_box_files()) {
    std::ofstream file(dir / name, std::ios::binary | std::ios::trunc);
    file.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!file.flush()) return Status::io_error("cannot write '" + (dir / name).string() + "'");
  }
  return Status::ok_status();
}

/// Puts the bundle written at `built` in place of `out_dir` (which, when it exists, must hold a
/// bundle).
Status swap_into_place(const fs::path& built, const fs::path& out_dir) {
  std::error_code ec;
  if (!fs::exists(out_dir, ec)) {
    fs::rename(built, out_dir, ec);
    return ec ? Status::io_error("cannot move the bundle to '" + out_dir.string() + "': " + ec.message())
              : Status::ok_status();
  }
  const fs::path old = out_dir.string() + ".old-" + std::to_string(getpid());
  fs::rename(out_dir, old, ec);
  if (!ec) fs::rename(built, out_dir, ec);
  if (ec) return Status::io_error("cannot replace '" + out_dir.string() + "': " + ec.message());
  fs::remove_all(old, ec);
  return Status::ok_status();
}

}  // namespace

Result<PagefindExportReport> export_pagefind(const PagefindExportOptions& options) {
  auto db = fmt::open_canon_index(options.index_dir);
  if (!db.ok()) return db.status();
  std::error_code ec;
  if (fs::exists(options.out_dir, ec) && !fs::exists(options.out_dir / "pagefind-entry.json", ec) &&
      !fs::is_empty(options.out_dir, ec)) {
    return Status::failed_precondition("'" + options.out_dir.string() +
                                       "' holds files and no Pagefind bundle: give a new directory, or one a "
                                       "previous export wrote");
  }
  const fs::path package = options.pagefind_package.empty() ? default_pagefind_package() : options.pagefind_package;
  if (!fs::is_regular_file(package / "lib" / "index.js", ec)) {
    return Status::failed_precondition("no pagefind package at '" + package.string() +
                                       "' (lib/index.js): run scripts/install-deps.sh, or give --pagefind DIR "
                                       "(npm install pagefind@" + std::string(kPagefindVersion) + ")");
  }
  const fs::path out = fs::absolute(options.out_dir);
  // What the export writes beside the bundle's place, gone however it ends (the bundle itself
  // is renamed into place on success).
  struct Scratch {
    fs::path built, answer;
    ~Scratch() {
      std::error_code ignored;
      fs::remove_all(built, ignored);
      fs::remove(answer, ignored);
    }
  } scratch{out.parent_path() / ("." + out.filename().string() + ".exporting-" + std::to_string(getpid())), {}};
  const fs::path& built = scratch.built;
  const fs::path& answer = scratch.answer = built.string() + ".report";
  fs::remove_all(built, ec);
  fs::create_directories(out.parent_path(), ec);
  PagefindExportReport report;
  report.language = most_declared_language(db.value());
  signal(SIGPIPE, SIG_IGN);  // a Node.js that stops reading is reported by its exit status
  NodeProcess node;
  if (Status started = node.start(options.node, export_script(), {package.string(), built.string(), report.language}, answer);
      !started.ok()) {
    return started;
  }
  Progress progress(options.progress);
  send_pages(db.value(), fmt::read_indexed_site(options.index_dir).base_url, node, progress, report);
  const int exit_status = node.finish();
  auto said = read_file(answer);
  const nlohmann::json j = nlohmann::json::parse(said.ok() ? said.value() : "", nullptr, /*allow_exceptions=*/false);
  if (exit_status != 0 || !j.is_object()) {
    return Status::internal("Pagefind's indexer failed (node exited with status " + std::to_string(exit_status) +
                            "; its messages are above)");
  }
  report.pages = j.value("pages", std::size_t{0});
  for (const auto& refused : j.value("errors", nlohmann::json::array())) {
    if (refused.is_string()) report.refused.push_back(refused.get<std::string>());
  }
  if (Status box = write_search_box(built); !box.ok()) return box;
  if (Status swapped = swap_into_place(built, out); !swapped.ok()) return swapped;
  return report;
}

}  // namespace canon::pagefind
