/// @file truth.h
/// @brief The two inputs of `canon eval dedup`: the ground truth `canon synth` writes
/// (truth.json) and the verdict `canon index` wrote (pages.jsonl, pairs.tsv).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"
#include "indexer/records/pages_jsonl.h"

namespace canon::eval {

/// The true near-duplicate clusters of a site: page paths relative to the site, '/'-separated.
/// Each cluster lists its original first, then its copies; every page of the site is in
/// exactly one cluster (pages without copies are singletons).
struct Truth {
  std::vector<std::vector<std::string>> clusters;
  /// Per cluster, how many of its first members are pages of the source in their own right
  /// (one page saved under several names); the others are copies. Empty: 1 for every cluster.
  std::vector<std::size_t> names;
  /// names[c], or 1 when names is empty.
  std::size_t names_of(std::size_t c) const { return names.empty() ? 1 : names[c]; }
};

/// Checks the invariants of Truth: no empty cluster, no empty path, no path twice.
Status check_truth(const Truth& truth);

/// truth.json's "clusters" member for `truth`.
nlohmann::json clusters_json(const Truth& truth);

/// Reads truth.json: an object whose "clusters" is an array of arrays of path strings (other
/// members, such as the generator's parameters, are ignored). Fails with a message naming the
/// file when it is missing, not JSON, shaped otherwise, or breaks check_truth.
Result<Truth> read_truth(const std::filesystem::path& path);

/// read_truth() of `text`, the contents of the file called `name` (for messages).
Result<Truth> parse_truth(std::string_view text, const std::string& name);

/// One line of pages.jsonl (indexer/records/pages_jsonl.h).
using IndexRecord = indexer::PageLine;

/// A verified near-duplicate pair of pairs.tsv (before union-find).
struct IndexPair {
  std::string url_a;
  std::string url_b;
  double similarity = 0.0;
};

/// What an index says about a site.
struct IndexVerdict {
  /// pages.jsonl, in file order.
  std::vector<IndexRecord> pages;
  /// pairs.tsv; nullopt for an index written before canon recorded pairs.
  std::optional<std::vector<IndexPair>> pairs;
};

/// Reads INDEX_DIR/pages.jsonl and, when present, INDEX_DIR/pairs.tsv. Fails when pages.jsonl
/// is missing (not a canon index) or a line of either file is malformed (the message names
/// the file and line).
Result<IndexVerdict> read_index_verdict(const std::filesystem::path& index_dir);

}  // namespace canon::eval
