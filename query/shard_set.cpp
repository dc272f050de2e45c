/// @file shard_set.cpp
/// @brief ShardSet: opening shards with deadlines, leaving out and retrying those that fail.
#include "query/shard_set.h"

#include <future>

namespace canon::query {
namespace fmt = canon::index_format;

Result<ShardSet> ShardSet::open(const std::filesystem::path& xapian_path, const ShardOptions& options) {
  ShardSet set;
  set.options_ = options;
  set.deadlines_.connect = options.deadline / 2;
  set.deadlines_.answer = options.deadline / 2;
  if (!options.spelling.empty()) {
    // A canon index holds its database in xapian/; a shard's directory is one.
    const std::filesystem::path inside = options.spelling / "xapian";
    const std::filesystem::path spelling = std::filesystem::exists(inside) ? inside : options.spelling;
    try {
      set.spelling_.emplace(spelling.string());
    } catch (const Xapian::Error& e) {
      return Status::not_found("cannot open the spelling database at '" + options.spelling.string() +
                               "': " + e.get_description());
    }
  }
  const std::optional<std::filesystem::path> stub = fmt::stub_file_at(xapian_path);
  try {
    if (!stub) {
      set.database_ = Xapian::Database(xapian_path.string());
      return set;
    }
  } catch (const Xapian::Error& e) {
    return Status::corruption("cannot open the index at '" + xapian_path.string() + "': " + e.get_description());
  }
  auto addresses = fmt::read_stub(*stub);
  if (!addresses.ok()) return addresses.status();
  std::vector<std::size_t> all;
  for (fmt::ShardAddress& address : addresses.value()) {
    all.push_back(set.shards_.size());
    Shard shard;
    shard.address = std::move(address);
    set.shards_.push_back(std::move(shard));
  }
  set.open_shards(all);
  if (set.missing().size() == set.shards_.size()) {
    std::string names;
    for (const std::string& name : set.missing()) names += (names.empty() ? "" : ", ") + name;
    return Status::io_error("no shard of '" + stub->string() + "' answered (" + names + ")");
  }
  return set;
}

std::vector<std::string> ShardSet::missing() const {
  std::vector<std::string> names;
  for (const Shard& shard : shards_) {
    if (!shard.database) names.push_back(shard.address.name());
  }
  return names;
}

bool ShardSet::has_remote() const {
  for (const Shard& shard : shards_) {
    if (shard.address.kind == fmt::ShardAddress::Kind::kTcp) return true;
  }
  return false;
}

const Xapian::Database* ShardSet::spelling_source() const {
  if (!sharded()) return &database_;
  for (const Shard& shard : shards_) {
    if (shard.database && shard.address.kind != fmt::ShardAddress::Kind::kTcp) return &*shard.database;
  }
  return spelling_ ? &*spelling_ : nullptr;
}

void ShardSet::open_shards(const std::vector<std::size_t>& which) {
  const auto now = std::chrono::steady_clock::now();
  last_try_ = now;
  // Each shard in a thread of its own: a shard that does not answer costs the search one
  // deadline however many shards do not answer.
  std::vector<std::future<std::optional<Xapian::Database>>> opening;
  for (std::size_t index : which) {
    opening.push_back(std::async(std::launch::async, [address = shards_[index].address, deadlines = deadlines_]() -> std::optional<Xapian::Database> {
      try {
        return fmt::open_shard(address, deadlines);
      } catch (const Xapian::Error&) {
        return std::nullopt;
      }
    }));
  }
  for (std::size_t i = 0; i < which.size(); ++i) {
    Shard& shard = shards_[which[i]];
    shard.database = opening[i].get();
    shard.opened_at = now;
    if (shard.address.kind == fmt::ShardAddress::Kind::kLocal) shard.identity = file_identity(shard.address.path);
  }
  rebuild();
}

void ShardSet::rebuild() {
  database_ = Xapian::Database();
  for (const Shard& shard : shards_) {
    if (shard.database) database_.add_database(*shard.database);
  }
}

std::vector<Xapian::Document> ShardSet::documents(const std::vector<Xapian::docid>& ids) const {
  std::vector<Xapian::Document> documents(ids.size());
  if (!has_remote()) {
    for (std::size_t i = 0; i < ids.size(); ++i) documents[i] = database_.get_document(ids[i]);
    return documents;
  }
  // database_ interleaves the shards that are open, in the stub's order: its document d is
  // document (d - 1) / n + 1 of the ((d - 1) mod n)-th of them.
  std::vector<const Xapian::Database*> open;
  for (const Shard& shard : shards_) {
    if (shard.database) open.push_back(&*shard.database);
  }
  const std::size_t n = open.size();
  std::vector<std::future<void>> asking;
  for (std::size_t k = 0; k < n; ++k) {
    asking.push_back(std::async(std::launch::async, [&, k] {
      for (std::size_t i = 0; i < ids.size(); ++i) {
        if ((ids[i] - 1) % n == k) documents[i] = open[k]->get_document((ids[i] - 1) / n + 1);
      }
    }));
  }
  for (auto& asked : asking) asked.get();  // rethrows a shard's Xapian::Error
  return documents;
}

bool ShardSet::refresh() {
  if (!sharded()) return false;
  const auto now = std::chrono::steady_clock::now();
  const bool retry = now - last_try_ >= options_.retry_after;
  std::vector<std::size_t> to_open;
  for (std::size_t i = 0; i < shards_.size(); ++i) {
    Shard& shard = shards_[i];
    if (!shard.database) {
      if (retry) to_open.push_back(i);
    } else if (now - shard.opened_at >= options_.refresh_after) {
      if (shard.address.kind == fmt::ShardAddress::Kind::kTcp || !(file_identity(shard.address.path) == shard.identity)) {
        to_open.push_back(i);
      } else {
        shard.opened_at = now;  // the same directory: nothing to open again
      }
    }
  }
  if (to_open.empty()) return false;
  open_shards(to_open);
  return true;
}

bool ShardSet::reconnect_after_failure() {
  if (!sharded()) return false;
  std::vector<std::size_t> remote;
  for (std::size_t i = 0; i < shards_.size(); ++i) {
    if (shards_[i].address.kind == fmt::ShardAddress::Kind::kTcp) {
      remote.push_back(i);
      shards_[i].database.reset();
    }
  }
  open_shards(remote);
  return missing().size() < shards_.size();
}

}  // namespace canon::query
