/// @file latency.cpp
/// @brief Times Searcher::search over a file of queries on one canon index, against a bare
/// Xapian search of the same database (docs/benchmarks-search.md, "Query latency"; run.sh drives it).
///
/// Usage: canon_query_latency INDEX_DIR QUERIES_FILE [REPEATS]   (INDEX_DIR: or a stub of shards)
///
/// Modes, timed per query in turn (so machine noise hits them alike; the modes take turns going
/// first, since the first pays for the caches) after one untimed warm-up pass: `full`
/// (Searcher::search as `canon search` runs it: static score, title and anchor matches,
/// snippets, alternates, and in a --no-collapse index the collapse and the authoritative page's
/// lookup; up to three sections per hit), `no-anchors` (the same without anchor text:
/// SearchRequest::anchor_weight 0), `no-sections` (the same without sections: SearchRequest::sections 0),
/// `no-alternates` (the same without parsing alternates), `no-snippets` (without snippets nor
/// alternates), `no-snippets-no-anchors` and `bare-xapian` (the same QueryParser setup, BM25
/// only, get_mset of 10, no document data read). Prints one Markdown table row per mode:
/// wall-clock p50, p90, p99 and mean in ms, and the p50 and p99 of the thread's CPU time, which
/// a busy machine inflates far less than wall time (what an idle machine's wall time would be,
/// roughly). MODES=full,no-sections (comma-separated) runs only the modes named.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <xapian.h>

#include "format/index_format.h"
#include "query/searcher.h"

namespace {

namespace fmt = canon::index_format;
using Clock = std::chrono::steady_clock;

struct Mode {
  std::string name;
  std::function<bool(const std::string&)> run;  // false: the query failed
  std::vector<double> ms;
  std::vector<double> cpu_ms;
  std::size_t failures = 0;
};

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t index =
      static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: canon_query_latency INDEX_DIR QUERIES_FILE [REPEATS]\n";
    return 2;
  }
  const std::string index_dir = argv[1];
  const int repeats = argc == 4 ? std::max(1, std::atoi(argv[3])) : 3;
  std::vector<std::string> queries;
  std::ifstream in(argv[2]);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) queries.push_back(line);
  }
  if (queries.empty()) {
    std::cerr << "canon_query_latency: no queries in " << argv[2] << "\n";
    return 2;
  }
  auto searcher = canon::query::Searcher::open(index_dir);
  if (!searcher.ok()) {
    std::cerr << "canon_query_latency: " << searcher.status().message() << "\n";
    return 1;
  }

  // The bare Xapian search: Searcher's parser configuration, BM25 only, no document data.
  // INDEX_DIR may be a stub file listing shards (docs/serving.md).
  Xapian::Database db(fmt::canon_database_path(index_dir).value().string());
  Xapian::QueryParser parser;
  parser.set_database(db);
  parser.set_stemmer(Xapian::Stem(fmt::kStemLanguage));
  parser.set_stemming_strategy(Xapian::QueryParser::STEM_SOME);
  parser.set_default_op(Xapian::Query::OP_AND);
  parser.add_prefix("title", std::string(fmt::kTitlePrefix));
  Xapian::Enquire enquire(db);

  const auto canon_mode = [&](bool snippets, bool alternates, double anchor_weight = canon::query::kDefaultAnchorWeight,
                              std::size_t sections = canon::query::kDefaultSections) {
    return [&, snippets, alternates, anchor_weight, sections](const std::string& query) {
      canon::query::SearchRequest request;
      request.query = query;
      request.with_snippets = snippets;
      request.with_alternates = alternates;
      request.anchor_weight = anchor_weight;
      request.sections = sections;
      return searcher.value()->search(request).ok();
    };
  };
  std::vector<Mode> modes;
  modes.push_back({"full", canon_mode(true, true), {}, {}, 0});
  modes.push_back({"no-anchors", canon_mode(true, true, 0.0), {}, {}, 0});
  modes.push_back({"no-sections", canon_mode(true, true, canon::query::kDefaultAnchorWeight, 0), {}, {}, 0});
  modes.push_back({"no-alternates", canon_mode(true, false), {}, {}, 0});
  modes.push_back({"no-snippets", canon_mode(false, false), {}, {}, 0});
  modes.push_back({"no-snippets-no-anchors", canon_mode(false, false, 0.0), {}, {}, 0});
  modes.push_back({"bare-xapian",
                   [&](const std::string& query) {
                     try {
                       enquire.set_query(
                           parser.parse_query(query, Xapian::QueryParser::FLAG_DEFAULT));
                       return enquire.get_mset(0, 10).size() <= 10;
                     } catch (const Xapian::Error&) {
                       return false;
                     }
                   },
                   {},
                   {},
                   0});

  // MODES=full,no-sections runs only those modes (a profile of one mode).
  if (const char* only = std::getenv("MODES"); only != nullptr && *only != '\0') {
    const std::string wanted = std::string(",") + only + ",";
    std::erase_if(modes, [&](const Mode& mode) { return wanted.find("," + mode.name + ",") == std::string::npos; });
  }
  for (Mode& mode : modes) {
    for (const std::string& query : queries) mode.run(query);  // warm-up, untimed
  }
  // Modes take turns going first: the first to run a query pays for reading its postings and
  // documents into the caches, which would otherwise always count against the same mode.
  std::size_t turn = 0;
  for (int r = 0; r < repeats; ++r) {
    for (const std::string& query : queries) {
      ++turn;
      for (std::size_t m = 0; m < modes.size(); ++m) {
        Mode& mode = modes[(turn + m) % modes.size()];
        const double cpu_start = thread_cpu_ms();
        const auto start = Clock::now();
        const bool ok = mode.run(query);
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        const double cpu = thread_cpu_ms() - cpu_start;
        if (ok) {
          mode.ms.push_back(ms);
          mode.cpu_ms.push_back(cpu);
        } else {
          ++mode.failures;
        }
      }
    }
  }

  std::printf(
      "| mode | searches | p50 ms | p90 ms | p99 ms | mean ms | CPU p50 ms | CPU p99 ms | failed "
      "|\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Mode& mode : modes) {
    double sum = 0;
    for (double ms : mode.ms) sum += ms;
    std::printf("| %s | %zu | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %zu |\n", mode.name.c_str(),
                mode.ms.size(), percentile(mode.ms, 0.50), percentile(mode.ms, 0.90),
                percentile(mode.ms, 0.99),
                mode.ms.empty() ? 0.0 : sum / static_cast<double>(mode.ms.size()),
                percentile(mode.cpu_ms, 0.50), percentile(mode.cpu_ms, 0.99), mode.failures);
  }
  return 0;
}
