/// @file file_io.cpp
/// @brief Reading a file with POSIX calls: opened without blocking, checked to be a regular
/// file on the descriptor that is read (not on the path, which could change in between).
#include "common/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace canon {

Descriptor::~Descriptor() {
  if (fd_ >= 0) ::close(fd_);
}

bool Descriptor::close() {
  const int fd = fd_;
  fd_ = -1;
  return fd < 0 || ::close(fd) == 0;
}

namespace {

FileStamp stamp_of(const struct stat& info) {
  return FileStamp{static_cast<std::uint64_t>(info.st_size),
                   static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec};
}

}  // namespace

Result<FilePrefix> read_file_prefix(const std::filesystem::path& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one.
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) {
    return errno == ENOENT ? Status::not_found(std::strerror(errno)) : Status::io_error(std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return Status::io_error(std::strerror(errno));
  if (!S_ISREG(info.st_mode)) return Status::failed_precondition("not a regular file");
  FilePrefix file;
  file.stamp = stamp_of(info);
  const std::size_t wanted = static_cast<std::size_t>(std::min<std::uint64_t>(file.stamp.size, max_bytes));
  file.bytes.resize(wanted);
  std::size_t done = 0;
  while (done < wanted) {
    const ssize_t n = ::read(fd.get(), file.bytes.data() + done, wanted - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::io_error(std::string("read error: ") + std::strerror(errno));
    if (n == 0) break;  // the file shrank since fstat
    done += static_cast<std::size_t>(n);
  }
  file.bytes.resize(done);
  if (done < wanted) file.stamp.size = done;
  return file;
}

Result<FileStamp> file_stamp(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return Status::io_error(std::strerror(errno));
  return stamp_of(info);
}

Result<std::string> read_file(const std::filesystem::path& path) {
  auto file = read_file_prefix(path);
  if (!file.ok()) return file.status();
  return std::move(file.value().bytes);
}

FileIdentity file_identity(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

}  // namespace canon
