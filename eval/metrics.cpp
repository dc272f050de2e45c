/// @file metrics.cpp
/// @brief Pairwise, page-level and authority scores of a dedup verdict against the truth.
#include "eval/metrics.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <vector>

namespace canon::eval {
namespace {

std::uint64_t pairs_of(std::uint64_t n) { return n * (n - (n > 0 ? 1 : 0)) / 2; }

/// Σ C(run length, 2) over the runs of equal values of a sorted range.
template <class It>
std::uint64_t pairs_in_runs(It first, It last) {
  std::uint64_t total = 0;
  while (first != last) {
    const It run_end = std::find_if(first, last, [&](const auto& v) { return !(v == *first); });
    total += pairs_of(static_cast<std::uint64_t>(run_end - first));
    first = run_end;
  }
  return total;
}

std::uint64_t true_pair_count(std::span<const std::uint64_t> truth_labels) {
  std::vector<std::uint64_t> sorted(truth_labels.begin(), truth_labels.end());
  std::sort(sorted.begin(), sorted.end());
  return pairs_in_runs(sorted.begin(), sorted.end());
}

nlohmann::json pair_json(const PairCounts& c) {
  return {{"precision", c.precision()},
          {"recall", c.recall()},
          {"f1", c.f1()},
          {"true_positives", c.true_positives},
          {"false_positives", c.false_positives},
          {"false_negatives", c.false_negatives}};
}

std::string fixed(double value, int decimals = 4) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

/// `text` right-aligned in `width` columns (ASCII text only).
std::string right(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string left(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

}  // namespace

double ratio_or_one(std::uint64_t num, std::uint64_t den) {
  return den == 0 ? 1.0 : static_cast<double>(num) / static_cast<double>(den);
}

PairCounts count_pairs(std::span<const std::uint64_t> truth_labels,
                       std::span<const std::pair<std::uint32_t, std::uint32_t>> detected) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> unique;
  unique.reserve(detected.size());
  for (auto [a, b] : detected) {
    if (a == b) continue;
    unique.emplace_back(std::min(a, b), std::max(a, b));
  }
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  PairCounts counts;
  for (auto [a, b] : unique) {
    if (truth_labels[a] == truth_labels[b]) {
      ++counts.true_positives;
    } else {
      ++counts.false_positives;
    }
  }
  counts.false_negatives = true_pair_count(truth_labels) - counts.true_positives;
  return counts;
}

PairCounts count_cluster_pairs(std::span<const std::uint64_t> truth_labels,
                               std::span<const std::uint64_t> detected_labels) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cells;  // (detected, truth) per page
  cells.reserve(truth_labels.size());
  for (std::size_t i = 0; i < truth_labels.size(); ++i)
    cells.emplace_back(detected_labels[i], truth_labels[i]);
  std::sort(cells.begin(), cells.end());
  const std::uint64_t both = pairs_in_runs(cells.begin(), cells.end());
  std::vector<std::uint64_t> detected(detected_labels.begin(), detected_labels.end());
  std::sort(detected.begin(), detected.end());
  const std::uint64_t detected_pairs = pairs_in_runs(detected.begin(), detected.end());
  PairCounts counts;
  counts.true_positives = both;
  counts.false_positives = detected_pairs - both;
  counts.false_negatives = true_pair_count(truth_labels) - both;
  return counts;
}

namespace {

/// The truth's pages numbered in truth order, each with its true cluster.
struct TruthPages {
  std::unordered_map<std::string, std::uint32_t> id_of;
  std::vector<std::uint64_t> labels;
  std::vector<bool> is_copy;
};

TruthPages number_truth_pages(const Truth& truth) {
  TruthPages pages;
  for (std::size_t c = 0; c < truth.clusters.size(); ++c) {
    for (std::size_t m = 0; m < truth.clusters[c].size(); ++m) {
      pages.id_of.emplace(truth.clusters[c][m], static_cast<std::uint32_t>(pages.labels.size()));
      pages.labels.push_back(c);
      pages.is_copy.push_back(m > 0);
    }
  }
  return pages;
}

/// The index's record of each truth page; an error when the two do not describe the same site.
Result<std::vector<const IndexRecord*>> match_records(const TruthPages& truth, const IndexVerdict& verdict) {
  std::vector<const IndexRecord*> record_of(truth.labels.size(), nullptr);
  std::size_t unknown = 0;
  std::string unknown_example;
  for (const IndexRecord& record : verdict.pages) {
    auto it = truth.id_of.find(record.path);
    if (it == truth.id_of.end()) {
      if (unknown++ == 0) unknown_example = record.path;
      continue;
    }
    if (record_of[it->second] != nullptr) return Status::error("pages.jsonl lists '" + record.path + "' twice");
    record_of[it->second] = &record;
  }
  if (unknown > 0) {
    return Status::error(
        "the index and the truth describe different sites: " + std::to_string(unknown) +
        " page(s) of pages.jsonl are not in the truth (e.g. '" + unknown_example + "')");
  }
  for (const auto& [path, id] : truth.id_of) {
    if (record_of[id] == nullptr) {
      std::size_t missing = static_cast<std::size_t>(std::count(record_of.begin(), record_of.end(), nullptr));
      return Status::error(
          "the index and the truth describe different sites: " + std::to_string(missing) +
          " page(s) of the truth are not in pages.jsonl (e.g. '" + path + "')");
    }
  }
  return record_of;
}

/// Detected clusters: pages.jsonl's `cluster`, dense; pages without one (skipped, redirect) alone.
std::vector<std::uint64_t> detected_labels_of(const std::vector<const IndexRecord*>& record_of) {
  const std::size_t n = record_of.size();
  std::vector<std::uint64_t> labels(n);
  std::unordered_map<std::uint64_t, std::uint64_t> dense;
  for (std::size_t i = 0; i < n; ++i) {
    if (record_of[i]->cluster) labels[i] = dense.emplace(*record_of[i]->cluster, dense.size()).first->second;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!record_of[i]->cluster) labels[i] = dense.size() + i;
  }
  return labels;
}

/// pairs.tsv's pairs against the truth; an error when a pair names a page that is not indexed
/// or a duplicate.
Result<PairCounts> count_verified_pairs(const std::vector<IndexPair>& pairs, const std::vector<const IndexRecord*>& record_of,
                                        const std::vector<std::uint64_t>& truth_labels) {
  std::unordered_map<std::string, std::uint32_t> id_of_url;  // indexed and duplicate pages
  for (std::size_t i = 0; i < record_of.size(); ++i) {
    if (record_of[i]->cluster) id_of_url.emplace(record_of[i]->url, static_cast<std::uint32_t>(i));
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> detected;
  for (const IndexPair& pair : pairs) {
    auto a = id_of_url.find(pair.url_a);
    auto b = id_of_url.find(pair.url_b);
    if (a == id_of_url.end() || b == id_of_url.end()) {
      const std::string& url = a == id_of_url.end() ? pair.url_a : pair.url_b;
      return Status::error("pairs.tsv names '" + url + "', which is not an indexed or duplicate page of pages.jsonl");
    }
    detected.emplace_back(a->second, b->second);
  }
  return count_pairs(truth_labels, detected);
}

}  // namespace

Result<DedupEvaluation> evaluate_dedup(const Truth& truth, const IndexVerdict& verdict) {
  const TruthPages pages = number_truth_pages(truth);
  auto matched = match_records(pages, verdict);
  if (!matched.ok()) return matched.status();
  const std::vector<const IndexRecord*>& record_of = matched.value();
  const std::vector<std::uint64_t> detected_labels = detected_labels_of(record_of);

  DedupEvaluation result;
  result.pages = record_of.size();
  result.after_union_find = count_cluster_pairs(pages.labels, detected_labels);
  if (verdict.pairs) {
    auto before = count_verified_pairs(*verdict.pairs, record_of, pages.labels);
    if (!before.ok()) return before.status();
    result.before_union_find = before.value();
  }
  for (std::size_t i = 0; i < record_of.size(); ++i) {
    const bool predicted = record_of[i]->status == indexer::PageStatus::kDuplicate;
    PageCounts& c = result.page_counts;
    if (pages.is_copy[i]) {
      ++(predicted ? c.true_positives : c.false_negatives);
    } else {
      ++(predicted ? c.false_positives : c.true_negatives);
    }
  }
  for (std::size_t c = 0; c < truth.clusters.size(); ++c) {
    const auto& cluster = truth.clusters[c];
    if (cluster.size() < 2) continue;
    ++result.true_clusters;
    result.copies += cluster.size() - 1;
    // The original: the first of the source's names of the page, or the one of them indexed.
    std::uint32_t original = pages.id_of.at(cluster.front());
    for (std::size_t m = 1; m < truth.names_of(c); ++m) {
      const std::uint32_t name = pages.id_of.at(cluster[m]);
      if (record_of[name]->status == indexer::PageStatus::kIndexed) original = name;
    }
    const bool indexed = record_of[original]->status == indexer::PageStatus::kIndexed;
    bool found = false;
    if (record_of[original]->cluster) {
      for (std::size_t m = 0; m < cluster.size() && !found; ++m) {
        const std::uint32_t other = pages.id_of.at(cluster[m]);
        found = other != original && detected_labels[other] == detected_labels[original];
      }
    }
    AuthorityCounts& a = result.authority;
    ++a.clusters;
    a.original_indexed += indexed ? 1 : 0;
    a.found += found ? 1 : 0;
    a.found_original_indexed += found && indexed ? 1 : 0;
  }
  return result;
}

nlohmann::json to_json(const DedupEvaluation& e) {
  const PageCounts& p = e.page_counts;
  const AuthorityCounts& a = e.authority;
  return {
      {"pages", e.pages},
      {"true_clusters", e.true_clusters},
      {"copies", e.copies},
      {"pairwise",
       {{"before_union_find",
         e.before_union_find ? pair_json(*e.before_union_find) : nlohmann::json(nullptr)},
        {"after_union_find", pair_json(e.after_union_find)}}},
      {"page_level",
       {{"sensitivity", p.sensitivity()},
        {"specificity", p.specificity()},
        {"precision", p.precision()},
        {"accuracy", p.accuracy()},
        {"f1", p.f1()},
        {"true_positives", p.true_positives},
        {"false_positives", p.false_positives},
        {"true_negatives", p.true_negatives},
        {"false_negatives", p.false_negatives}}},
      {"authority",
       {{"clusters", a.clusters},
        {"original_indexed", a.original_indexed},
        {"accuracy", a.accuracy()},
        {"found", a.found},
        {"found_original_indexed", a.found_original_indexed},
        {"found_accuracy", a.found_accuracy()}}},
  };
}

std::string render_text(const DedupEvaluation& e) {
  std::string out = std::to_string(e.pages) + " pages; " + std::to_string(e.true_clusters) +
                    " true clusters with copies (" + std::to_string(e.copies) + " copies)\n\n";

  const auto pair_row = [](const std::string& name, const std::optional<PairCounts>& c) {
    std::string row = left(name, 20);
    if (!c) return row + "  (not recorded: the index has no pairs.tsv)\n";
    return row + right(fixed(c->precision()), 10) + right(fixed(c->recall()), 8) +
           right(fixed(c->f1()), 8) + right(std::to_string(c->true_positives), 9) +
           right(std::to_string(c->false_positives), 9) +
           right(std::to_string(c->false_negatives), 9) + "\n";
  };
  out += left("pairs", 20) + right("precision", 10) + right("recall", 8) + right("F1", 8) +
         right("TP", 9) + right("FP", 9) + right("FN", 9) + "\n";
  out += pair_row("before union-find", e.before_union_find);
  out += pair_row("after union-find", e.after_union_find);

  const PageCounts& p = e.page_counts;
  out += "\n" + left("pages (copy = +)", 20) + right("sensitivity", 12) + right("specificity", 12) +
         right("precision", 10) + right("accuracy", 9) + right("F1", 8) + "\n";
  out += left("", 20) + right(fixed(p.sensitivity()), 12) + right(fixed(p.specificity()), 12) +
         right(fixed(p.precision()), 10) + right(fixed(p.accuracy()), 9) + right(fixed(p.f1()), 8) +
         "\n";
  out += left("", 20) + "TP " + std::to_string(p.true_positives) + ", FP " +
         std::to_string(p.false_positives) + ", TN " + std::to_string(p.true_negatives) + ", FN " +
         std::to_string(p.false_negatives) + "\n";

  const AuthorityCounts& a = e.authority;
  out += "\nauthority: original indexed in " + std::to_string(a.original_indexed) + " of " +
         std::to_string(a.clusters) + " true clusters (" + fixed(a.accuracy()) + "); in " +
         std::to_string(a.found_original_indexed) + " of the " + std::to_string(a.found) +
         " found (" + fixed(a.found_accuracy()) + ")\n";
  return out;
}

}  // namespace canon::eval
