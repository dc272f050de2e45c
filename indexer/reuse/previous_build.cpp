/// @file previous_build.cpp
/// @brief Opening a previous index's page store and finding the files that changed since.
#include "indexer/reuse/previous_build.h"

#include <algorithm>

#include "common/file_io.h"
#include "common/parallel.h"
#include "format/index_format.h"

#ifndef CANON_VERSION
#error "CANON_VERSION must be defined (CMake passes the project version)"
#endif

namespace canon::indexer {
namespace fs = std::filesystem;

std::vector<std::pair<std::string, std::string>> store_fingerprint(const std::string& base_url,
                                                                    const std::string& url_rules_digest,
                                                                    const html::PageLimits& limits) {
  return {
      {"canon", CANON_VERSION},
      {"base_url", base_url},
      {"url_rules", url_rules_digest.empty() ? "none" : url_rules_digest},
      {"max_page_bytes", std::to_string(limits.max_page_bytes)},
      {"max_nesting", std::to_string(limits.max_nesting)},
      {"max_links", std::to_string(limits.max_links)},
      {"max_title_bytes", std::to_string(limits.max_title_bytes)},
      {"max_attribute_bytes", std::to_string(limits.max_attribute_bytes)},
  };
}

Result<PreviousBuild> open_previous_build(const fs::path& index_dir,
                                          const std::vector<std::pair<std::string, std::string>>& fingerprint) {
  std::error_code ec;
  if (!fs::exists(index_dir, ec) || fs::is_empty(index_dir, ec)) return Status::not_found("there is no index yet");
  const index_format::IndexLayout layout{index_dir};
  PreviousBuild previous;
  previous.store_dir = layout.store();
  previous.xapian_dir = layout.xapian();
  auto catalog = store::read_store_catalog(layout.store_catalog());
  if (!catalog.ok()) {
    if (catalog.status().code() == StatusCode::kNotFound) {
      return Status::not_found("the index has no page store (an earlier canon built it)");
    }
    return Status::error("the index's " + catalog.status().message(), catalog.status().code());
  }
  previous.catalog = std::move(catalog).value();
  for (const auto& [name, value] : fingerprint) {
    std::string was = "(none)";
    for (const auto& [old_name, old_value] : previous.catalog.fingerprint) {
      if (old_name == name) was = old_value;
    }
    if (was != value) {
      return Status::failed_precondition("the index was built with " + name + " " + was + ", this run has " + value);
    }
  }
  for (std::uint32_t e = 0; e < previous.catalog.files.size(); ++e) {
    previous.entry_of_path.emplace(previous.catalog.files[e].path, e);
  }
  return previous;
}

namespace {

/// A second: more than the file system's clock can lag the one the run began by.
constexpr std::int64_t kRacyNanoseconds = 1'000'000'000;

/// How a file compares with its entry.
enum class Comparison { kUnchanged, kRestamped, kChanged };

Comparison compare(const SiteFile& file, const store::CatalogEntry& e, std::int64_t run_started_ns, const html::PageLimits& limits,
                   std::optional<FileStamp>& new_stamp) {
  if (!e.unreadable.empty()) return Comparison::kChanged;
  auto stamp = file_stamp(file.absolute_path);
  if (!stamp.ok()) return Comparison::kChanged;
  const bool same_stamp = stamp.value() == e.file;
  if (same_stamp && e.file.mtime_ns < run_started_ns - kRacyNanoseconds) return Comparison::kUnchanged;
  // Another size, neither cut at the page limit: other bytes, without reading them (the parse will).
  if (stamp->size != e.file.size && std::max(stamp->size, e.file.size) <= limits.max_page_bytes) {
    return Comparison::kChanged;
  }
  // Modified about when the previous run read it (the time cannot tell), or since: the bytes can.
  auto bytes = read_page_bytes(file.absolute_path, limits);
  if (!bytes.ok() || content_hash(bytes->bytes) != e.content_hash) return Comparison::kChanged;
  if (bytes->stamp == e.file) return Comparison::kUnchanged;
  new_stamp = bytes->stamp;
  return Comparison::kRestamped;
}

}  // namespace


FileChanges compare_files(const SitePlan& plan, const PreviousBuild& previous, const html::PageLimits& limits,
                          unsigned threads, const std::vector<bool>& by_url_rule) {
  FileChanges changes;
  const std::size_t files = plan.files.size();
  changes.unchanged_entry.assign(files, kNoEntry);
  changes.restamped.resize(files);
  std::vector<std::uint32_t> entry(files, kNoEntry);
  std::size_t matched = 0;
  for (std::size_t i = 0; i < files; ++i) {
    if (!plan.serves_url(i) || plan.files.is_redirect(i)) continue;  // a crawl's redirect: nothing to compare
    const auto it = previous.entry_of_path.find(std::string(plan.files.relative_path(i)));
    if (!by_url_rule.empty() && by_url_rule[i]) {
      matched += it != previous.entry_of_path.end() ? 1 : 0;
      continue;
    }
    if (it != previous.entry_of_path.end()) entry[i] = it->second;
  }
  parallel_for(files, threads, [&](std::size_t i, std::size_t) {
    if (entry[i] == kNoEntry) return;
    const Comparison comparison = compare(plan.files[i], previous.catalog.files[entry[i]],
                                          previous.catalog.run_started_ns, limits, changes.restamped[i]);
    if (comparison != Comparison::kChanged) changes.unchanged_entry[i] = entry[i];
  });
  for (std::size_t i = 0; i < files; ++i) {
    if (entry[i] == kNoEntry) {
      changes.added += plan.serves_url(i) && (by_url_rule.empty() || !by_url_rule[i]) ? 1 : 0;
      continue;
    }
    ++matched;
    if (changes.unchanged_entry[i] != kNoEntry) {
      ++changes.unchanged;
      changes.restamped_count += changes.restamped[i] ? 1 : 0;
    } else if (!previous.catalog.files[entry[i]].unreadable.empty()) {
      ++changes.retried;
    } else {
      ++changes.changed;
    }
  }
  changes.deleted = previous.catalog.files.size() - matched;
  return changes;
}

namespace {

void put_u64(std::string& out, std::uint64_t value) {
  for (int byte = 0; byte < 8; ++byte) out.push_back(static_cast<char>(value >> (8 * byte)));
}

/// Reads 8-byte little-endian values from the front of `bytes`; false once they run out.
bool take_u64(std::string_view& bytes, std::uint64_t& value) {
  if (bytes.size() < 8) return false;
  value = 0;
  for (int byte = 0; byte < 8; ++byte) value |= std::uint64_t{static_cast<unsigned char>(bytes[byte])} << (8 * byte);
  bytes.remove_prefix(8);
  return true;
}

}  // namespace

std::string encode_file_changes(const FileChanges& changes) {
  std::string out;
  for (const std::size_t count : {changes.added, changes.changed, changes.unchanged, changes.restamped_count,
                                  changes.retried, changes.deleted, changes.unchanged_entry.size()}) {
    put_u64(out, count);
  }
  for (std::size_t i = 0; i < changes.unchanged_entry.size(); ++i) {
    put_u64(out, changes.unchanged_entry[i]);
    const std::optional<FileStamp>& stamp = changes.restamped[i];
    put_u64(out, stamp ? 1 : 0);
    if (stamp) {
      put_u64(out, stamp->size);
      put_u64(out, static_cast<std::uint64_t>(stamp->mtime_ns));
    }
  }
  return out;
}

Result<FileChanges> decode_file_changes(std::string_view bytes, std::size_t files) {
  const Status damaged = Status::corruption("the comparison of the files with the previous build is damaged");
  FileChanges changes;
  std::uint64_t count = 0;
  for (std::size_t* field : {&changes.added, &changes.changed, &changes.unchanged, &changes.restamped_count,
                             &changes.retried, &changes.deleted}) {
    if (!take_u64(bytes, count)) return damaged;
    *field = static_cast<std::size_t>(count);
  }
  if (!take_u64(bytes, count) || count != files) return damaged;
  changes.unchanged_entry.resize(files);
  changes.restamped.resize(files);
  for (std::size_t i = 0; i < files; ++i) {
    std::uint64_t entry = 0, has_stamp = 0;
    if (!take_u64(bytes, entry) || entry > kNoEntry || !take_u64(bytes, has_stamp)) return damaged;
    changes.unchanged_entry[i] = static_cast<std::uint32_t>(entry);
    if (has_stamp == 0) continue;
    std::uint64_t size = 0, ns = 0;
    if (!take_u64(bytes, size) || !take_u64(bytes, ns)) return damaged;
    changes.restamped[i] = FileStamp{size, static_cast<std::int64_t>(ns)};
  }
  if (!bytes.empty()) return damaged;
  return changes;
}

}  // namespace canon::indexer
