/// @file file_io.h
/// @brief Reading a file: the one place canon does it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>

#include "common/status.h"

namespace canon {

/// A POSIX file descriptor, closed when it goes out of scope. Move-only.
class Descriptor {
public:
  /// Takes `fd` (-1: none, as open() returns on failure).
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor();
  Descriptor(Descriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Descriptor& operator=(Descriptor&& other) noexcept {
    if (this != &other) {
      close();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }
  /// Closes it now; false when close() failed (errno says why: data written may be lost).
  bool close();

private:
  int fd_;
};

/// The first bytes of a file and the size it had when it was read.
struct FilePrefix {
  std::string bytes;
  std::uintmax_t size = 0;
  /// The file's last modification, in whole seconds since the epoch, from the file as opened.
  std::int64_t mtime_seconds = 0;
  /// The same, in nanoseconds (what a re-index compares: file_stamp()).
  std::int64_t mtime_ns = 0;
  /// True when the file held more than was read.
  bool cut() const { return size > bytes.size(); }
};

/// Up to `max_bytes` of the regular file at `path`, and its size. A path that is not a regular
/// file when it is opened (a FIFO, a device, a directory: reading one could block or never end)
/// is an error, as is a file that cannot be opened or read. On failure the Status says why
/// without naming the file ("No such file or directory", "not a regular file"), so each caller
/// names it as its message needs (a page's skip reason in pages.jsonl has its path already).
Result<FilePrefix> read_file_prefix(const std::filesystem::path& path,
                                    std::size_t max_bytes = std::numeric_limits<std::size_t>::max());

/// The bytes of the regular file at `path` (read_file_prefix, all of it).
/// A file's size and last modification (nanoseconds since the epoch), as stat() sees it.
struct StatStamp {
  std::uintmax_t size = 0;
  std::int64_t mtime_ns = 0;
};
/// The stamp of the file at `path` (following symlinks); an error when it cannot be stat'ed.
Result<StatStamp> file_stamp(const std::filesystem::path& path);

Result<std::string> read_file(const std::filesystem::path& path);

/// What the file or directory at a path is, whatever its name: its device and inode. A
/// directory replaced by another under the same name (`canon index` swaps its output in) has
/// another identity. All zero when the path cannot be stat'ed.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  bool operator==(const FileIdentity&) const = default;
};
FileIdentity file_identity(const std::filesystem::path& path);

}  // namespace canon
