/// @file shard_set.h
/// @brief The database a Searcher searches: one Xapian database, or the shards a stub lists,
/// each opened on its own so that a shard that is down or slow is left out (and tried again
/// later) instead of failing or hanging every search (docs/serving.md).
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <xapian.h>

#include "common/file_io.h"
#include "common/status.h"
#include "format/shards.h"

namespace canon::query {

/// How a sharded index is searched.
struct ShardOptions {
  /// The most a search may wait for a remote shard: connecting and each request get half of
  /// it, so that a shard that does not answer is found out, and the search run again without
  /// it, within the deadline.
  std::chrono::milliseconds deadline{4000};
  /// How long a shard left out stays out before a search tries it again.
  std::chrono::milliseconds retry_after{1000};
  /// How often the shards are looked at again for a new version: a local shard whose directory
  /// was replaced (`canon index`, `canon shard` swap it) is opened again; a remote shard is
  /// connected to again (xapian-tcpsrv opens its database for each connection).
  std::chrono::milliseconds refresh_after{10000};
  /// A database whose spelling table corrects queries ("did you mean") when no shard of the
  /// stub is local: Xapian's remote backend reads no spelling table, and each shard `canon
  /// shard` writes holds the whole index's (a shard's directory, or a canon index). Empty: none.
  std::filesystem::path spelling;
};

/// One database, or the shards of a stub. Not thread-safe (as Xapian::Database).
class ShardSet {
public:
  /// Opens the database at `xapian_path` (a database directory, a stub directory or a stub
  /// file). Each shard of a stub is opened on its own; those that do not answer are left out
  /// (missing()). Fails when none can be opened, or the stub cannot be read.
  static Result<ShardSet> open(const std::filesystem::path& xapian_path, const ShardOptions& options);

  /// The shards that answered, searched as one.
  const Xapian::Database& database() const { return database_; }
  /// True when the database is a stub's shards (even a stub of one).
  bool sharded() const { return !shards_.empty(); }
  /// The names (ShardAddress::name) of the shards left out, in the stub's order.
  std::vector<std::string> missing() const;
  /// True when the stub lists a remote shard.
  bool has_remote() const;
  /// The database whose spelling table corrects queries: the one database; over a stub, the
  /// first local shard that answered (each holds the whole index's table), else
  /// ShardOptions::spelling's database when given; nullptr when there is none.
  const Xapian::Database* spelling_source() const;
  /// The documents of database() with ids `ids`, in that order. Xapian asks a remote shard
  /// for one document per round trip; here each shard is asked for its documents in a thread
  /// of its own, so that the shards answer at the same time. Throws Xapian::Error.
  std::vector<Xapian::Document> documents(const std::vector<Xapian::docid>& ids) const;

  /// Tries again the shards left out once retry_after has passed since the last try, and
  /// opens again the shards open for refresh_after (ShardOptions). True when database()
  /// changed.
  bool refresh();
  /// After a search failed with Xapian::NetworkError: the connections of every remote shard may
  /// hold half an exchange, so each is opened again; those that do not answer within the
  /// deadline are left out. True when at least one shard is still there to search.
  bool reconnect_after_failure();

private:
  struct Shard {
    index_format::ShardAddress address;
    std::optional<Xapian::Database> database;  // nothing while left out
    std::chrono::steady_clock::time_point opened_at{};
    FileIdentity identity;  // a local shard's directory, when it was opened
  };
  ShardSet() = default;
  /// Opens the shards of `which` at once (one thread per remote shard, so that slow shards cost
  /// one deadline, not one each), leaving out those that fail; then rebuilds database_.
  void open_shards(const std::vector<std::size_t>& which);
  void rebuild();

  ShardOptions options_;
  std::optional<Xapian::Database> spelling_;  // ShardOptions::spelling's, when given
  index_format::ShardDeadlines deadlines_;
  std::vector<Shard> shards_;
  Xapian::Database database_;
  std::chrono::steady_clock::time_point last_try_{};
};

}  // namespace canon::query
