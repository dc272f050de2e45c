/// @file faulty_file_system.h
/// @brief A FileSystem (common/file_system.h) that does what the system's does but for the faults
/// a test asks of it: writes that fail with an errno (ENOSPC, EIO) once a file holds some bytes,
/// reads that fail, and reads that come back short. Install it with io::ScopedFileSystem.
#pragma once

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/file_system.h"

namespace canon::testing {

class FaultyFileSystem final : public io::FileSystem {
public:
  /// Writes to files whose path contains `path_part` fail with `error` once the file holds
  /// `after_bytes` bytes (the write that would pass them fails whole).
  void fail_writes(std::string path_part, int error, std::size_t after_bytes = 0) {
    write_faults_.push_back({std::move(path_part), error, after_bytes});
  }
  /// Reads of files whose path contains `path_part` fail with `error`.
  void fail_reads(std::string path_part, int error) { read_faults_.push_back({std::move(path_part), error, 0}); }
  /// Every read returns at most `max_bytes` bytes (0: as many as asked).
  void short_reads(std::size_t max_bytes) { short_reads_ = max_bytes; }
  /// How many writes and reads it made fail.
  std::size_t failures() const { return failures_; }

  Result<std::unique_ptr<io::WritableFile>> create(const std::filesystem::path& path) override {
    auto file = io::system_file_system().create(path);
    if (!file.ok()) return file.status();
    const Fault* fault = find(write_faults_, path);
    return std::unique_ptr<io::WritableFile>(new Writable(std::move(file).value(), fault, failures_));
  }
  Result<std::unique_ptr<io::ReadableFile>> open(const std::filesystem::path& path) override {
    auto file = io::system_file_system().open(path);
    if (!file.ok()) return file.status();
    const Fault* fault = find(read_faults_, path);
    return std::unique_ptr<io::ReadableFile>(new Readable(std::move(file).value(), fault, short_reads_, failures_));
  }
  Status set_modified(const std::filesystem::path& path, std::int64_t seconds) override {
    return io::system_file_system().set_modified(path, seconds);
  }

private:
  struct Fault {
    std::string path_part;
    int error = 0;
    std::size_t after_bytes = 0;
  };

  static const Fault* find(const std::vector<Fault>& faults, const std::filesystem::path& path) {
    const std::string name = path.string();
    for (const Fault& fault : faults) {
      if (name.find(fault.path_part) != std::string::npos) return &fault;
    }
    return nullptr;
  }

  class Writable final : public io::WritableFile {
  public:
    Writable(std::unique_ptr<io::WritableFile> file, const Fault* fault, std::atomic<std::size_t>& failures)
        : file_(std::move(file)), fault_(fault), failures_(failures) {}
    Status append(std::string_view bytes) override {
      if (fault_ != nullptr && written_ + bytes.size() > fault_->after_bytes) {
        ++failures_;
        return Status::io_error(std::strerror(fault_->error));
      }
      written_ += bytes.size();
      return file_->append(bytes);
    }
    Status close() override { return file_->close(); }

  private:
    std::unique_ptr<io::WritableFile> file_;
    const Fault* fault_;
    std::atomic<std::size_t>& failures_;
    std::size_t written_ = 0;
  };

  class Readable final : public io::ReadableFile {
  public:
    Readable(std::unique_ptr<io::ReadableFile> file, const Fault* fault, std::size_t short_reads,
             std::atomic<std::size_t>& failures)
        : file_(std::move(file)), fault_(fault), short_reads_(short_reads), failures_(failures) {}
    FileStamp stamp() const override { return file_->stamp(); }
    Result<std::size_t> read_some(std::uint64_t offset, char* out, std::size_t size) const override {
      if (fault_ != nullptr) {
        ++failures_;
        return Status::io_error(std::string("read error: ") + std::strerror(fault_->error));
      }
      if (short_reads_ != 0) size = std::min(size, short_reads_);
      return file_->read_some(offset, out, size);
    }

  private:
    std::unique_ptr<io::ReadableFile> file_;
    const Fault* fault_;
    std::size_t short_reads_;
    std::atomic<std::size_t>& failures_;
  };

  std::vector<Fault> write_faults_;
  std::vector<Fault> read_faults_;
  std::size_t short_reads_ = 0;
  std::atomic<std::size_t> failures_{0};
};

}  // namespace canon::testing
