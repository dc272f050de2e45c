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

struct stat;

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

/// A file's size and last modification, as stat() saw it: what a re-index compares to tell
/// an unchanged file (previous_build.h) and what a page's document says of its file. The one
/// stamp of a file everywhere.
struct FileStamp {
  std::uint64_t size = 0;
  /// Nanoseconds since the epoch.
  std::int64_t mtime_ns = 0;
  /// Whole seconds since the epoch, rounded down as stat's st_mtime is (also before 1970).
  std::int64_t mtime_seconds() const {
    constexpr std::int64_t kSecond = 1'000'000'000;
    return mtime_ns / kSecond - (mtime_ns % kSecond < 0 ? 1 : 0);
  }
  friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

/// The first bytes of a file and its stamp when it was opened.
struct FilePrefix {
  std::string bytes;
  FileStamp stamp;
  /// True when the file held more than was read.
  bool cut() const { return stamp.size > bytes.size(); }
};

/// Up to `max_bytes` of the regular file at `path`, and its size. A path that is not a regular
/// file when it is opened (a FIFO, a device, a directory: reading one could block or never end)
/// is an error, as is a file that cannot be opened or read. On failure the Status says why
/// without naming the file ("No such file or directory", "not a regular file"), so each caller
/// names it as its message needs (a page's skip reason in pages.jsonl has its path already).
Result<FilePrefix> read_file_prefix(const std::filesystem::path& path,
                                    std::size_t max_bytes = std::numeric_limits<std::size_t>::max());

/// The stamp of the file at `path` (following symlinks); an error when it cannot be stat'ed.
Result<FileStamp> file_stamp(const std::filesystem::path& path);

/// The stamp stat() or fstat() gave in `info`.
FileStamp file_stamp_of(const struct stat& info);

/// The bytes of the regular file at `path` (read_file_prefix, all of it).
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
