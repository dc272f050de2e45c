/// @file file_io.cpp
/// @brief Reading a file: through the FileSystem seam (common/file_system.h), whose POSIX files
/// are opened without blocking and checked to be regular on the descriptor that is read (not on
/// the path, which could change in between).
#include "common/file_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/file_system.h"

namespace canon {

Descriptor::~Descriptor() {
  if (fd_ >= 0) ::close(fd_);
}

bool Descriptor::close() {
  const int fd = fd_;
  fd_ = -1;
  return fd < 0 || ::close(fd) == 0;
}

FileStamp file_stamp_of(const struct stat& info) {
  return FileStamp{static_cast<std::uint64_t>(info.st_size),
                   static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec};
}

Result<FilePrefix> read_file_prefix(const std::filesystem::path& path, std::size_t max_bytes) {
  auto opened = io::file_system().open(path);
  if (!opened.ok()) return opened.status();
  const io::ReadableFile& in = *opened.value();
  FilePrefix file;
  file.stamp = in.stamp();
  const std::size_t wanted = static_cast<std::size_t>(std::min<std::uint64_t>(file.stamp.size, max_bytes));
  file.bytes.resize(wanted);
  std::size_t done = 0;
  while (done < wanted) {
    auto n = in.read_some(done, file.bytes.data() + done, wanted - done);
    if (!n.ok()) return n.status();
    if (n.value() == 0) break;  // the file shrank since it was opened
    done += n.value();
  }
  file.bytes.resize(done);
  if (done < wanted) file.stamp.size = done;
  return file;
}

Result<FileStamp> file_stamp(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return Status::io_error(std::strerror(errno));
  return file_stamp_of(info);
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
