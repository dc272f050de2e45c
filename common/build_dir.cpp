/// @file build_dir.cpp
/// @brief Build beside, then swap into place.
#include "common/build_dir.h"

#include <stdio.h>  // renameat2
#include <fcntl.h>  // AT_FDCWD
#include <signal.h>  // kill(pid, 0)
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <regex>

#include "common/fault_injection.h"
#include "common/file_io.h"

namespace canon {
namespace fs = std::filesystem;
namespace {

/// Removes `PREFIX<pid>` directories in `parent` whose process is gone.
void remove_stale(const fs::path& parent, const std::string& prefix) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string_view digits = std::string_view(name).substr(prefix.size());
    pid_t pid = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || pid <= 0) continue;
    if (kill(pid, 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ec);
  }
}

}  // namespace

Result<BuildDirectory> BuildDirectory::create(const fs::path& destination, std::string_view tag) {
  const fs::path out = fs::absolute(destination).lexically_normal();
  const fs::path target = out.has_filename() ? out : out.parent_path();
  const fs::path parent = target.parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  const std::string prefix = "." + target.filename().string() + "." + std::string(tag) + "-";
  remove_stale(parent, prefix);
  fs::path path = parent / (prefix + std::to_string(getpid()));
  fs::remove_all(path, ec);
  if (!fs::create_directory(path, ec)) {
    // Named by the destination: the hidden directory is no name the user knows.
    return Status::io_error("cannot write '" + target.string() + "': cannot create a directory in '" +
                            parent.string() + "' to build it in: " + (ec ? ec.message() : "it exists"));
  }
  return BuildDirectory(std::move(path), target);
}

BuildDirectory::BuildDirectory(BuildDirectory&& other) noexcept
    : path_(std::move(other.path_)), destination_(std::move(other.destination_)), done_(other.done_) {
  other.done_ = true;  // the moved-from object owns nothing
}

BuildDirectory::~BuildDirectory() {
  if (done_) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

namespace {

/// fsync()s `path` (a file or a directory); an error names it.
Status sync_path(const fs::path& path) {
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return Status::io_error("cannot open '" + path.string() + "' to sync it: " + std::strerror(errno));
  if (::fsync(fd.get()) != 0) return Status::io_error("cannot sync '" + path.string() + "': " + std::strerror(errno));
  return Status::ok_status();
}

/// fsync()s every file and directory below `root`, and `root`: what the swap puts in place is
/// on disk before it becomes the destination, so a power cut leaves the old contents or the
/// whole new ones.
Status sync_tree(const fs::path& root) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_symlink(ec)) continue;
    if (Status s = sync_path(it->path()); !s.ok()) return s;
  }
  if (ec) return Status::io_error("cannot list '" + root.string() + "' to sync it: " + ec.message());
  return sync_path(root);
}

}  // namespace

Status BuildDirectory::commit() {
  std::error_code ec;
  if (Status synced = sync_tree(path_); !synced.ok()) return synced;
  if (fs::exists(destination_, ec)) {
    if (renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, destination_.c_str(), RENAME_EXCHANGE) != 0) {
      return Status::io_error("cannot replace '" + destination_.string() + "': " + std::strerror(errno));
    }
    done_ = true;
    fault_point("replaced");  // the new contents in place, the previous ones not yet removed
    fs::remove_all(path_, ec);  // now the previous contents
    return sync_path(destination_.parent_path().empty() ? "." : destination_.parent_path());
  }
  fs::rename(path_, destination_, ec);
  if (ec) return Status::io_error("cannot put the new '" + destination_.string() + "' in place: " + ec.message());
  done_ = true;
  return sync_path(destination_.parent_path().empty() ? "." : destination_.parent_path());
}

std::string without_build_paths(std::string_view message) {
  // "/.NAME.TAG-PID" as a whole path component (NAME the shortest that makes one).
  static const std::regex build_path(R"(/\.([^/'"]+?)\.[a-z]+-[0-9]+(?=[/'"\s:,;)]|$))");
  return std::regex_replace(std::string(message), build_path, "/$1");
}

Status without_build_paths(const Status& status) {
  if (status.ok()) return status;
  return Status::error(without_build_paths(status.message()), status.code());
}

}  // namespace canon
