/// @file shards.h
/// @brief A canon index in shards, and the stub files that list shards (docs/serving.md).
///
/// Xapian searches several databases as one (Database::add_database; the document ids of the
/// shards interleave). A stub database file lists them, one per line, in Xapian's own syntax:
/// `auto PATH` (a database on this machine; a relative PATH is relative to the stub's
/// directory) or `remote HOST:PORT` (a database that `xapian-tcpsrv` serves); `#` starts a
/// comment. Xapian, Omega and `quest` read these files; canon reads them too, so as to open each
/// shard on its own, with a deadline, and to search on without a shard that does not answer.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <xapian.h>

#include "common/status.h"
#include "format/index_format.h"

namespace canon::index_format {

/// Where one shard is.
struct ShardAddress {
  enum class Kind { kLocal, kTcp };
  Kind kind = Kind::kLocal;
  /// kLocal: the database's path (made absolute against the stub's directory).
  std::filesystem::path path;
  /// kTcp: where xapian-tcpsrv listens.
  std::string host;
  unsigned port = 0;

  /// The shard as the stub names it: its path, or HOST:PORT.
  std::string name() const;
  bool operator==(const ShardAddress&) const = default;
};

/// The stub file Xapian reads when asked to open `path`: `path` itself when it is a regular
/// file, `path`/XAPIANDB when `path` is a directory holding one (a "stub directory"); nothing
/// otherwise (a database directory, or nothing there).
std::optional<std::filesystem::path> stub_file_at(const std::filesystem::path& path);

/// The shards `stub` lists, in order. Fails, naming the file and line, on a line Xapian would
/// not read or one canon does not open (`remote :PROGRAM ARGS`, `inmemory`, a single-file
/// database), and on a stub that lists no shard or cannot be read.
Result<std::vector<ShardAddress>> read_stub(const std::filesystem::path& stub);

/// How long a remote shard may take: to connect, and to answer each request (Xapian throws
/// Xapian::NetworkTimeoutError past either). Local shards have no deadline.
struct ShardDeadlines {
  std::chrono::milliseconds connect{2000};
  std::chrono::milliseconds answer{2000};
};

/// Opens one shard. Throws Xapian::Error (Xapian::NetworkError when a remote shard does not
/// answer, Xapian::DatabaseOpeningError when a local one cannot be opened).
Xapian::Database open_shard(const ShardAddress& shard, const ShardDeadlines& deadlines);

/// Writes IndexLayout::stub(), a stub directory at IndexLayout::xapian() listing shards 1 ..
/// `parts` (IndexLayout::shard(), relative paths), with a comment naming what `made_by` them.
/// An I/O error when it cannot be written.
Status write_stub(const IndexLayout& layout, unsigned parts, std::string_view made_by);

/// Splits the canon index at `index_dir` into `parts` shards, written to `out_dir`
/// (IndexLayout::shard(1..parts), and IndexLayout::xapian() a stub directory listing them, so
/// that `out_dir` is searched as `index_dir` is). Document d goes to shard (d - 1) mod parts as
/// its document (d - 1) / parts + 1: Xapian's interleaving of the shards gives every document
/// back its id. Every shard carries the index's metadata (collapse mode, static-score bounds).
/// `out_dir` is built beside its place and put there when complete; an existing `out_dir` is
/// replaced only when it is a canon index. Fails when `index_dir` is not a canon index on this
/// machine, `parts` is 0, or a write fails.
Status split_index(const std::filesystem::path& index_dir, unsigned parts, const std::filesystem::path& out_dir);

}  // namespace canon::index_format
