/// @file file_system.h
/// @brief The seam between canon and the files it writes and reads itself (LevelDB's Env is the
/// model): the pages' bytes, the page store's segments and catalog, pages.jsonl, graph.tsv,
/// pairs.tsv, summary.json and a crawl's bodies all go through file_system(). Tests install
/// another FileSystem (ScopedFileSystem) to make writes fail (no space, an I/O error) and reads
/// come back short at chosen points (tests/support/faulty_file_system.h). Xapian writes its
/// databases itself, and directories are made, synced and renamed directly (common/build_dir.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>

#include "common/file_io.h"
#include "common/status.h"

namespace canon::io {

/// A file being written, from its start. Not thread-safe.
class WritableFile {
public:
  virtual ~WritableFile() = default;
  /// Appends all of `bytes`; an error (kIoError, the system's reason without the file's name)
  /// when they cannot all be written.
  virtual Status append(std::string_view bytes) = 0;
  /// Closes the file; an error when what was written may be lost. Called once.
  virtual Status close() = 0;
};

/// A regular file open for reading. read_some is thread-safe (positioned reads).
class ReadableFile {
public:
  virtual ~ReadableFile() = default;
  /// The file's size and modification time as it was opened.
  virtual FileStamp stamp() const = 0;
  /// Up to `size` bytes at `offset` into `out`: how many were read, 0 at the end of the file,
  /// possibly fewer than asked before it (as read(2) may). An error (kIoError) when reading fails.
  virtual Result<std::size_t> read_some(std::uint64_t offset, char* out, std::size_t size) const = 0;
};

/// Where files are written and read.
class FileSystem {
public:
  virtual ~FileSystem() = default;
  /// A new empty file at `path` (an existing one is replaced).
  virtual Result<std::unique_ptr<WritableFile>> create(const std::filesystem::path& path) = 0;
  /// The regular file at `path`; kNotFound when there is none, kFailedPrecondition for what is
  /// not a regular file (a FIFO or a device, which could block or never end), kIoError else.
  virtual Result<std::unique_ptr<ReadableFile>> open(const std::filesystem::path& path) = 0;
  /// Sets the modification time of the file at `path` (whole seconds since the epoch).
  virtual Status set_modified(const std::filesystem::path& path, std::int64_t seconds) = 0;
};

/// The operating system's files (POSIX).
FileSystem& system_file_system();

/// The FileSystem canon uses: system_file_system() unless a ScopedFileSystem says otherwise.
FileSystem& file_system();

/// Installs `file_system` for its lifetime (tests; not while a build runs).
class ScopedFileSystem {
public:
  explicit ScopedFileSystem(FileSystem& file_system);
  ~ScopedFileSystem();
  ScopedFileSystem(const ScopedFileSystem&) = delete;
  ScopedFileSystem& operator=(const ScopedFileSystem&) = delete;

private:
  FileSystem* previous_;
};

/// Reads exactly `size` bytes at `offset` (read_some until they are all read); kCorruption
/// when the file ends first.
Status read_exactly(const ReadableFile& file, std::uint64_t offset, char* out, std::size_t size);

/// Writes `bytes` as the whole of a new file at `path`.
Status write_whole_file(const std::filesystem::path& path, std::string_view bytes);

}  // namespace canon::io
