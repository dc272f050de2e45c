/// @file build_dir.cpp
/// @brief Build beside, then swap into place.
#include "common/build_dir.h"

#include <stdio.h>  // renameat2
#include <fcntl.h>  // AT_FDCWD
#include <signal.h>  // kill(pid, 0)
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

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

namespace {

/// Whether `tail` is TAG-PID: lower-case letters, '-', digits, nothing else.
bool is_tag_and_pid(std::string_view tail) {
  const std::size_t dash = tail.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash + 1 == tail.size()) return false;
  const auto all = [](std::string_view s, char low, char high) {
    return std::all_of(s.begin(), s.end(), [=](char c) { return c >= low && c <= high; });
  };
  return all(tail.substr(0, dash), 'a', 'z') && all(tail.substr(dash + 1), '0', '9');
}

}  // namespace

std::string without_build_paths(std::string_view message) {
  // A path component ".NAME.TAG-PID" (it ends at '/', a quote, white space, ':', ',', ';', ')'
  // or the end) is written "NAME". Scanned by hand: std::regex trips GCC 12's
  // -Wmaybe-uninitialized in the sanitizer build.
  constexpr std::string_view kEnds = "/'\" \t\n:,;)";
  std::string out;
  std::size_t at = 0;
  for (std::size_t slash = message.find("/."); slash != std::string_view::npos; slash = message.find("/.", slash + 1)) {
    const std::size_t start = slash + 2;
    const std::size_t end = std::min(message.find_first_of(kEnds, start), message.size());
    const std::string_view component = message.substr(start, end - start);
    const std::size_t last_dot = component.rfind('.');
    if (last_dot == std::string_view::npos || last_dot == 0 || !is_tag_and_pid(component.substr(last_dot + 1))) continue;
    out.append(message.substr(at, slash + 1 - at)).append(component.substr(0, last_dot));
    at = end;
  }
  return out.append(message.substr(at));
}

Status without_build_paths(const Status& status) {
  if (status.ok()) return status;
  return Status::error(without_build_paths(status.message()), status.code());
}

}  // namespace canon
