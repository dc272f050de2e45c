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
    set.shards_.push_back({std::move(address), std::nullopt});
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

void ShardSet::open_shards(const std::vector<std::size_t>& which) {
  last_try_ = std::chrono::steady_clock::now();
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
  for (std::size_t i = 0; i < which.size(); ++i) shards_[which[i]].database = opening[i].get();
  rebuild();
}

void ShardSet::rebuild() {
  database_ = Xapian::Database();
  for (const Shard& shard : shards_) {
    if (shard.database) database_.add_database(*shard.database);
  }
}

bool ShardSet::retry_missing() {
  if (!sharded() || std::chrono::steady_clock::now() - last_try_ < options_.retry_after) return false;
  std::vector<std::size_t> left_out;
  for (std::size_t i = 0; i < shards_.size(); ++i) {
    if (!shards_[i].database) left_out.push_back(i);
  }
  if (left_out.empty()) return false;
  open_shards(left_out);
  for (std::size_t i : left_out) {
    if (shards_[i].database) return true;
  }
  return false;
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
