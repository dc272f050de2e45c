/// @file file_system.cpp
/// @brief The POSIX FileSystem, the installed one, and the helpers over the seam.
#include "common/file_system.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace canon::io {

namespace {

Status system_error() { return Status::io_error(std::strerror(errno)); }

class PosixWritableFile final : public WritableFile {
public:
  explicit PosixWritableFile(Descriptor fd) : fd_(std::move(fd)) {}
  Status append(std::string_view bytes) override {
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd_.get(), bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return n < 0 ? system_error() : Status::io_error("nothing written");
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return Status::ok_status();
  }
  Status close() override { return fd_.close() ? Status::ok_status() : system_error(); }

private:
  Descriptor fd_;
};

class PosixReadableFile final : public ReadableFile {
public:
  PosixReadableFile(Descriptor fd, FileStamp stamp) : fd_(std::move(fd)), stamp_(stamp) {}
  FileStamp stamp() const override { return stamp_; }
  Result<std::size_t> read_some(std::uint64_t offset, char* out, std::size_t size) const override {
    for (;;) {
      const ssize_t n = ::pread(fd_.get(), out, size, static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Status::io_error(std::string("read error: ") + std::strerror(errno));
      return static_cast<std::size_t>(n);
    }
  }

private:
  Descriptor fd_;
  FileStamp stamp_;
};

class PosixFileSystem final : public FileSystem {
public:
  Result<std::unique_ptr<WritableFile>> create(const std::filesystem::path& path) override {
    Descriptor fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fd.get() < 0) return system_error();
    return std::unique_ptr<WritableFile>(new PosixWritableFile(std::move(fd)));
  }
  Result<std::unique_ptr<ReadableFile>> open(const std::filesystem::path& path) override {
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one.
    Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (fd.get() < 0) return errno == ENOENT ? Status::not_found(std::strerror(errno)) : system_error();
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) return system_error();
    if (!S_ISREG(info.st_mode)) return Status::failed_precondition("not a regular file");
    return std::unique_ptr<ReadableFile>(new PosixReadableFile(std::move(fd), file_stamp_of(info)));
  }
  Status set_modified(const std::filesystem::path& path, std::int64_t seconds) override {
    const timespec times[2] = {{seconds, 0}, {seconds, 0}};
    return ::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0 ? Status::ok_status() : system_error();
  }
};

std::atomic<FileSystem*> installed{nullptr};

}  // namespace

FileSystem& system_file_system() {
  static PosixFileSystem posix;
  return posix;
}

FileSystem& file_system() {
  FileSystem* chosen = installed.load(std::memory_order_acquire);
  return chosen != nullptr ? *chosen : system_file_system();
}

ScopedFileSystem::ScopedFileSystem(FileSystem& file_system)
    : previous_(installed.exchange(&file_system, std::memory_order_acq_rel)) {}

ScopedFileSystem::~ScopedFileSystem() { installed.store(previous_, std::memory_order_release); }

Status read_exactly(const ReadableFile& file, std::uint64_t offset, char* out, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    auto n = file.read_some(offset + done, out + done, size - done);
    if (!n.ok()) return n.status();
    if (n.value() == 0) return Status::corruption("the file ends before the bytes it should hold");
    done += n.value();
  }
  return Status::ok_status();
}

Status write_whole_file(const std::filesystem::path& path, std::string_view bytes) {
  auto file = file_system().create(path);
  if (!file.ok()) return file.status();
  const Status written = file.value()->append(bytes);
  const Status closed = file.value()->close();
  return written.ok() ? closed : written;
}

}  // namespace canon::io
