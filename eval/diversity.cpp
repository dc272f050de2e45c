/// @file diversity.cpp
/// @brief `canon eval diversity`'s run: the two views derived from one `--no-collapse` index,
/// every query searched on the three views and scored, and the report (JSON and text).
///
/// The metrics are in diversity_metrics.cpp and the queries' reading and sampling in
/// diversity_queries.cpp; this file holds everything that touches the index.
#include "eval/diversity.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <xapian.h>

#include "eval/truth.h"
#include "format/index_format.h"
#include "indexer/records/pages_jsonl.h"
#include "query/searcher.h"

namespace canon::eval {
namespace fs = std::filesystem;
namespace fmt = canon::index_format;
namespace {

/// `data` without its `key=...` line.
std::string without_field(const std::string& data, std::string_view key) {
  std::string out;
  std::size_t pos = 0;
  while (pos < data.size()) {
    std::size_t end = data.find('\n', pos);
    end = end == std::string::npos ? data.size() : end + 1;
    const std::string_view line(data.data() + pos, end - pos);
    if (!(line.size() > key.size() && line.starts_with(key) && line[key.size()] == '='))
      out.append(line);
    pos = end;
  }
  return out;
}

/// Writes INDEX/xapian of a derived view of a query-time-collapse database: every document
/// (`keep_duplicates`, each shown as itself: its `canon_authoritative` is dropped) or only the
/// authoritative pages; either way marked as an index-time database, so search does not
/// collapse it. Documents are added in docid order and committed once, as `canon index` does.
Status write_view(const Xapian::Database& source, const fs::path& index_dir, bool keep_duplicates) {
  try {
    fs::create_directories(index_dir);
    Xapian::WritableDatabase out(fmt::IndexLayout{index_dir}.xapian().string(),
                                 Xapian::DB_CREATE_OR_OVERWRITE | Xapian::DB_BACKEND_GLASS);
    for (auto it = source.postlist_begin(""); it != source.postlist_end(""); ++it) {
      Xapian::Document doc = source.get_document(*it);
      const std::string data = doc.get_data();
      if (fmt::data_field(data, fmt::kDataAuthoritative).empty()) {
        out.add_document(doc);
      } else if (keep_duplicates) {
        doc.set_data(without_field(data, fmt::kDataAuthoritative));
        out.add_document(doc);
      }
    }
    for (auto key = source.metadata_keys_begin(); key != source.metadata_keys_end(); ++key)
      out.set_metadata(*key, source.get_metadata(*key));
    out.set_metadata(std::string(fmt::kCollapseMetadataKey),
                     std::string(fmt::to_string(fmt::CollapseMode::kIndexTime)));
    out.commit();
    return Status::ok_status();
  } catch (const Xapian::Error& e) {
    return Status::error("cannot write a view of the index in '" + index_dir.string() +
                         "': " + e.get_description());
  } catch (const fs::filesystem_error& e) {
    return Status::error(std::string("cannot write a view of the index: ") + e.what());
  }
}

std::uint64_t directory_bytes(const fs::path& dir) {
  std::uint64_t bytes = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->is_regular_file(ec)) bytes += it->file_size(ec);
  }
  return bytes;
}

/// Bytes of `xapian_dir` once compacted (as xapian-compact does), written to `scratch` and
/// removed again: a size that does not depend on how the database was written.
Result<std::uint64_t> compacted_bytes(const fs::path& xapian_dir, const fs::path& scratch) {
  try {
    Xapian::Database(xapian_dir.string()).compact(scratch.string());
  } catch (const Xapian::Error& e) {
    return Status::error("cannot compact '" + xapian_dir.string() + "': " + e.get_description());
  }
  const std::uint64_t bytes = directory_bytes(scratch);
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return bytes;
}

/// Removes a directory tree when it goes out of scope.
class RemoveOnExit {
public:
  explicit RemoveOnExit(fs::path dir) : dir_(std::move(dir)) {}
  ~RemoveOnExit() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  RemoveOnExit(const RemoveOnExit&) = delete;
  RemoveOnExit& operator=(const RemoveOnExit&) = delete;

private:
  fs::path dir_;
};

/// Cluster label of every page that is a document of the uncollapsed view, by URL.
struct Labels {
  std::unordered_map<std::string, std::uint64_t> by_url;
  std::unordered_map<std::uint64_t, std::size_t> sizes;
};

Result<Labels> page_labels(const IndexVerdict& verdict, const std::optional<Truth>& truth) {
  std::unordered_map<std::string, std::uint64_t> truth_label;
  if (truth) {
    for (std::size_t c = 0; c < truth->clusters.size(); ++c) {
      for (const std::string& path : truth->clusters[c]) truth_label[path] = c;
    }
  }
  Labels labels;
  for (const IndexRecord& page : verdict.pages) {
    if (page.status != indexer::PageStatus::kIndexed && page.status != indexer::PageStatus::kDuplicate) continue;
    std::uint64_t label = 0;
    if (truth) {
      const auto it = truth_label.find(page.path);
      if (it == truth_label.end()) {
        return Status::error("page '" + page.path +
                             "' of the index is not in the truth: they describe different sites");
      }
      label = it->second;
    } else {
      if (!page.cluster) return Status::error("page '" + page.path + "' has no cluster");
      label = *page.cluster;
    }
    labels.by_url[page.url] = label;
    ++labels.sizes[label];
  }
  return labels;
}

/// The cluster labels of the results of `query`, best first.
Result<std::vector<std::uint64_t>> ranking(query::Searcher& searcher, const std::string& query,
                                           std::size_t limit, const Labels& labels,
                                           const std::string& view) {
  query::SearchRequest request;
  request.query = query;
  request.limit = limit;
  request.with_snippets = false;
  request.with_alternates = false;
  auto results = searcher.search(request);
  if (!results.ok())
    return Status::error("query '" + query + "' (" + view + "): " + results.status().message());
  std::vector<std::uint64_t> clusters;
  clusters.reserve(results->hits.size());
  for (const query::SearchHit& hit : results->hits) {
    const auto it = labels.by_url.find(hit.url);
    if (it == labels.by_url.end()) {
      return Status::error("result '" + hit.url + "' of query '" + query +
                           "' is not an authoritative page of pages.jsonl: the index is inconsistent");
    }
    clusters.push_back(it->second);
  }
  return clusters;
}

std::string human_bytes(std::uint64_t bytes) {
  char out[32];
  if (bytes >= 10ull << 20) {
    std::snprintf(out, sizeof out, "%.1f MB", static_cast<double>(bytes) / 1e6);
  } else {
    std::snprintf(out, sizeof out, "%.0f kB", static_cast<double>(bytes) / 1e3);
  }
  return out;
}

/// Each indexed or duplicate page's subtopic: its true cluster with a truth file, else its
/// detected cluster.
Result<Labels> read_labels(const DiversityOptions& options) {
  auto verdict = read_index_verdict(options.index_dir);
  if (!verdict.ok()) return verdict.status();
  std::optional<Truth> truth;
  if (options.truth_path) {
    auto read = read_truth(*options.truth_path);
    if (!read.ok()) return read.status();
    truth = std::move(read.value());
  }
  return page_labels(verdict.value(), truth);
}

/// The two views derived from the query-time index at `index_dir`: every page (`none_dir`) and
/// the duplicates removed (`collapsed_dir`).
Status write_views(const fs::path& index_dir, const fs::path& none_dir, const fs::path& collapsed_dir) {
  try {
    const Xapian::Database source(fmt::IndexLayout{index_dir}.xapian().string());
    if (Status s = write_view(source, none_dir, /*keep_duplicates=*/true); !s.ok()) return s;
    return write_view(source, collapsed_dir, /*keep_duplicates=*/false);
  } catch (const Xapian::Error& e) {
    return Status::error("cannot read the index at '" + index_dir.string() + "': " + e.get_description());
  }
}

/// One way of showing results: no collapsing, query-time or index-time collapse.
struct DiversityView {
  std::string mode;
  query::Searcher* searcher;
  fs::path dir;
};

/// Runs every query on every view (views[0]: no collapsing, which also gives each query's
/// relevant clusters) and adds each view's scores to `sums`; counts the queries that match
/// something and their relevant clusters.
Status score_queries(std::span<const DiversityView> views, const DiversityOptions& options, const Labels& labels,
                     std::vector<DiversityScores>& sums, double& relevant_clusters, std::size_t& scored_queries) {
  const std::size_t all = std::max<std::size_t>(1, views[0].searcher->document_count());
  for (const std::string& query : options.queries) {
    // Relevance: the clusters of every page matching the query, uncollapsed.
    auto matches = ranking(*views[0].searcher, query, all, labels, views[0].mode);
    if (!matches.ok()) return matches.status();
    if (matches->empty()) continue;
    QueryRelevance relevance;
    for (std::uint64_t cluster : matches.value()) relevance.cluster_sizes.emplace(cluster, labels.sizes.at(cluster));
    relevant_clusters += static_cast<double>(relevance.cluster_sizes.size());
    ++scored_queries;
    for (std::size_t v = 0; v < views.size(); ++v) {
      std::vector<std::uint64_t> top;
      if (v == 0) {
        top.assign(matches->begin(), matches->begin() + std::min(options.k, matches->size()));
      } else {
        auto ranked = ranking(*views[v].searcher, query, options.k, labels, views[v].mode);
        if (!ranked.ok()) return ranked.status();
        top = std::move(ranked.value());
      }
      const DiversityScores s = score_ranking(top, relevance, options.k, options.alpha);
      sums[v].dup += s.dup;
      sums[v].distinct += s.distinct;
      sums[v].cluster_recall += s.cluster_recall;
      sums[v].alpha_ndcg += s.alpha_ndcg;
    }
  }
  return Status::ok_status();
}

}  // namespace

Result<DiversityEvaluation> evaluate_diversity(const DiversityOptions& options) {
  auto opened = query::Searcher::open(options.index_dir);
  if (!opened.ok()) return opened.status();
  std::unique_ptr<query::Searcher> query_view = std::move(opened.value());
  if (!query_view->collapses_at_query_time()) {
    return Status::error("'" + options.index_dir.string() +
                         "' collapses near-duplicates at index time; canon eval diversity needs "
                         "every page: build the index with `canon index --no-collapse`");
  }
  auto labels = read_labels(options);
  if (!labels.ok()) return labels.status();

  // The two derived views, beside each other in a directory of our own.
  static std::atomic<int> counter{0};
  const fs::path work =
      (options.work_dir.empty() ? fs::temp_directory_path() : options.work_dir) /
      ("canon-diversity-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  RemoveOnExit cleanup(work);
  const fs::path none_dir = work / "none";
  const fs::path index_dir = work / "index";
  if (Status s = write_views(options.index_dir, none_dir, index_dir); !s.ok()) return s;
  auto none_open = query::Searcher::open(none_dir);
  if (!none_open.ok()) return none_open.status();
  auto index_open = query::Searcher::open(index_dir);
  if (!index_open.ok()) return index_open.status();

  const DiversityView views[] = {{"none", none_open.value().get(), none_dir},
                        {std::string(fmt::to_string(fmt::CollapseMode::kQueryTime)), query_view.get(), options.index_dir},
                        {std::string(fmt::to_string(fmt::CollapseMode::kIndexTime)), index_open.value().get(), index_dir}};

  DiversityEvaluation evaluation;
  evaluation.k = options.k;
  evaluation.alpha = options.alpha;
  evaluation.subtopics = options.truth_path ? "truth" : "detected";
  evaluation.queries = options.queries;
  std::vector<DiversityScores> sums(std::size(views));
  double relevant_clusters = 0.0;
  if (Status s = score_queries(views, options, labels.value(), sums, relevant_clusters, evaluation.scored_queries);
      !s.ok()) {
    return s;
  }
  const double n = static_cast<double>(std::max<std::size_t>(1, evaluation.scored_queries));
  evaluation.mean_relevant_clusters = relevant_clusters / n;
  for (std::size_t v = 0; v < std::size(views); ++v) {
    ModeDiversity mode;
    mode.mode = views[v].mode;
    mode.documents = views[v].searcher->document_count();
    auto bytes = compacted_bytes(fmt::IndexLayout{views[v].dir}.xapian(), work / "compacted");
    if (!bytes.ok()) return bytes.status();
    mode.index_bytes = bytes.value();
    mode.mean = {sums[v].dup / n, sums[v].distinct / n, sums[v].cluster_recall / n,
                 sums[v].alpha_ndcg / n};
    evaluation.modes.push_back(mode);
  }
  return evaluation;
}

nlohmann::json to_json(const DiversityEvaluation& e) {
  nlohmann::json modes = nlohmann::json::array();
  for (const ModeDiversity& m : e.modes) {
    modes.push_back({{"mode", m.mode},
                     {"documents", m.documents},
                     {"index_bytes", m.index_bytes},
                     {"dup_at_k", m.mean.dup},
                     {"distinct_at_k", m.mean.distinct},
                     {"cluster_recall_at_k", m.mean.cluster_recall},
                     {"alpha_ndcg_at_k", m.mean.alpha_ndcg}});
  }
  return {{"k", e.k},
          {"alpha", e.alpha},
          {"subtopics", e.subtopics},
          {"queries", e.queries.size()},
          {"scored_queries", e.scored_queries},
          {"mean_relevant_clusters", e.mean_relevant_clusters},
          {"modes", modes},
          {"query_list", e.queries}};
}

std::string render_text(const DiversityEvaluation& e) {
  static const std::map<std::string, std::string> kNames{
      {"none", "no collapsing"}, {"query", "query-time collapse"}, {"index", "index-time collapse"}};
  const std::string k = std::to_string(e.k);
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof line,
                "%zu queries, %zu with matches (%.1f relevant clusters each on average); "
                "subtopics: %s clusters; alpha = %.2f\n\n",
                e.queries.size(), e.scored_queries, e.mean_relevant_clusters, e.subtopics.c_str(),
                e.alpha);
  out << line;
  std::snprintf(line, sizeof line, "%-20s %9s %11s %8s %12s %11s %13s\n", "mode", "documents",
                "index size", ("Dup@" + k).c_str(), ("Distinct@" + k).c_str(),
                ("recall@" + k).c_str(), ("a-nDCG@" + k).c_str());
  out << line;
  for (const ModeDiversity& m : e.modes) {
    std::snprintf(line, sizeof line, "%-20s %9zu %11s %8.4f %12.2f %11.4f %13.4f\n",
                  kNames.at(m.mode).c_str(), m.documents, human_bytes(m.index_bytes).c_str(),
                  m.mean.dup, m.mean.distinct, m.mean.cluster_recall, m.mean.alpha_ndcg);
    out << line;
  }
  return out.str();
}

}  // namespace canon::eval
