/// @file test_partitioned_build.cpp
/// @brief A partitioned build (docs/partitioned-build.md): P processes, each parsing its part of
/// the site and taking the others' parts over, give exactly the one-process index: the same
/// pages.jsonl, graph.tsv and pairs.tsv byte for byte and the same Xapian documents. The
/// processes are simulated by threads (tests/support/thread_collective.h); the same code under
/// mpirun is tests/mpi_index.sh.
#include <doctest/doctest.h>

#include <cerrno>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <xapian.h>

#include "dedup/names/page_names.h"
#include "indexer/partitioned/parsed_part.h"
#include "indexer/pipeline.h"
#include "urls/url_rules.h"
#include "support/detector_fixtures.h"
#include "support/faulty_file_system.h"
#include "support/site_files.h"
#include "support/temp_dir.h"
#include "support/thread_collective.h"

namespace fs = std::filesystem;
using canon::indexer::IndexOptions;

using canon::testing::sample_site;
using canon::testing::slurp;
using canon::testing::write;

namespace {

/// A site of `pages` pages of random words that link to each other, a copy of every fifth page
/// below mirror/ with a word changed, a redirect, a noindex page, a file that is not HTML, and
/// broken symbolic links that the walk skips (their records follow the files', but their lines
/// fall among the others' in path order).
void generate_site(const fs::path& site, int pages) {
  std::mt19937 random(29);
  const auto word = [&] { return "w" + std::to_string(random() % 400); };
  std::vector<std::string> bodies;
  for (int p = 0; p < pages; ++p) {
    std::string body = "<h1>Topic " + std::to_string(p) + "</h1><p>";
    for (int w = 0; w < 120; ++w) body += word() + " ";
    body += "</p>";
    for (int l = 0; l < 4; ++l) {
      const int to = static_cast<int>(random() % static_cast<unsigned>(pages));
      body += "<a href=\"/d" + std::to_string(to % 7) + "/p" + std::to_string(to) + ".html\">topic " +
              std::to_string(to) + "</a> ";
    }
    bodies.push_back(body);
    const std::string html = "<html><head><title>Topic " + std::to_string(p) + "</title></head><body>" + body +
                             "</body></html>";
    write(site / ("d" + std::to_string(p % 7)) / ("p" + std::to_string(p) + ".html"), html);
    if (p % 5 == 0) {
      write(site / "mirror" / ("d" + std::to_string(p % 7)) / ("p" + std::to_string(p) + ".html"),
            "<html><head><title>Topic " + std::to_string(p) + "</title></head><body>" + body +
                " extra</body></html>");
    }
  }
  write(site / "moved.html", "<html><head><meta http-equiv=\"refresh\" content=\"0; url=/d1/p1.html\"></head></html>");
  write(site / "private.html",
        "<html><head><meta name=\"robots\" content=\"noindex\"><title>Private</title></head><body>x</body></html>");
  write(site / "logo.html", std::string("\x89PNG\r\n\x1a\n\0\0\0", 11));
  for (const char* broken : {"a-broken.html", "d3/broken.html", "zz-broken.html"}) {
    fs::create_symlink(site / "nowhere.html", site / broken);
  }
  // Two files of one URL in each of seven directories (index.html serves it): fourteen files in
  // a row, so that chunks of seven cut between a pair's files.
  for (int d = 0; d < 7; ++d) {
    for (const char* name : {"index.htm", "index.html"}) {
      write(site / ("same" + std::to_string(d)) / name,
            "<html><head><title>Same " + std::to_string(d) + " " + name + "</title></head><body>" + bodies[d] +
                "</body></html>");
    }
  }
}

/// Every document of the Xapian database of the index at `dir`, in docid order: data and terms.
std::string dump_xapian(const fs::path& dir) {
  Xapian::Database db((dir / "xapian").string());
  std::ostringstream out;
  for (auto id = db.postlist_begin(""); id != db.postlist_end(""); ++id) {
    const Xapian::Document doc = db.get_document(*id);
    out << *id << " " << doc.get_data() << "|";
    for (auto term = doc.termlist_begin(); term != doc.termlist_end(); ++term) out << " " << *term << ":" << term.get_wdf();
    out << "\n";
  }
  return out.str();
}

/// How a test's builds differ from options_for's (URL rules, the collapse mode); may be empty.
using Configure = std::function<void(IndexOptions&)>;

IndexOptions options_for(const fs::path& site, const fs::path& out, const Configure& configure = {}) {
  IndexOptions options;
  options.site_dir = site;
  options.out_dir = out;
  options.show_progress = false;
  options.threads = 2;
  options.chunk_files = 7;  // several chunks for every process on a small site
  if (configure) configure(options);
  return options;
}

/// Builds `site` into `out` with `processes` simulated processes; each must succeed.
void build(const fs::path& site, const fs::path& out, unsigned processes, bool merge = false,
           const Configure& configure = {}) {
  std::mutex mutex;
  std::vector<std::string> failures;
  canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
    IndexOptions options = options_for(site, out, configure);
    options.processes = &collective;
    options.merge_shards = merge;
    auto summary = canon::indexer::index_site(options);
    if (!summary.ok()) {
      const std::lock_guard lock(mutex);
      failures.push_back("process " + std::to_string(collective.rank()) + ": " + summary.status().message());
    }
  });
  for (const std::string& failure : failures) FAIL(failure);
}

void check_same_index(const fs::path& site, const Configure& configure = {}) {
  canon::testing::TempDir dir;
  auto one = canon::indexer::index_site(options_for(site, dir.path() / "one", configure));
  REQUIRE_MESSAGE(one.ok(), one.status().message());
  struct Run {
    unsigned processes;
    bool merge;
  };
  for (const Run run : {Run{2, false}, Run{3, false}, Run{5, false}, Run{2, true}, Run{3, true}}) {
    const auto [processes, merge] = run;
    CAPTURE(processes);
    CAPTURE(merge);
    const fs::path out = dir.path() / ("p" + std::to_string(processes) + (merge ? "-merged" : ""));
    build(site, out, processes, merge, configure);
    for (const char* file : {"pages.jsonl", "graph.tsv", "pairs.tsv"}) {
      CAPTURE(file);
      CHECK(slurp(out / file) == slurp(dir.path() / "one" / file));
    }
    // The same documents under the same ids: in shards that Xapian interleaves (a stub lists
    // them), or merged into one database.
    CHECK(fs::exists(out / "xapian" / "XAPIANDB") == !merge);
    CHECK(fs::exists(out / "shard-1") == !merge);
    CHECK(dump_xapian(out) == dump_xapian(dir.path() / "one"));
    // Only the first process's build directory: nothing else beside the index.
    std::size_t beside = 0;
    for (const auto& entry : fs::directory_iterator(dir.path())) beside += entry.path().filename().string().starts_with(".");
    CHECK(beside == 0);
  }
  // One process re-indexes an index in shards: the page store is re-used, the database written
  // afresh, and the index is the one-process index.
  auto again = canon::indexer::index_site(options_for(site, dir.path() / "p3", configure));
  REQUIRE_MESSAGE(again.ok(), again.status().message());
  CHECK(again->reindex.full_because.empty());
  CHECK(again->reindex.index_rewritten_because == "the previous index is in shards (a partitioned build)");
  CHECK(slurp(dir.path() / "p3" / "pages.jsonl") == slurp(dir.path() / "one" / "pages.jsonl"));
  CHECK(dump_xapian(dir.path() / "p3") == dump_xapian(dir.path() / "one"));
  CHECK_FALSE(fs::exists(dir.path() / "p3" / "shard-1"));
}

/// A process of a partitioned build whose parsed parts travel through files: the part it gives
/// is saved (save_parsed_part) and the parts it receives are loaded (load_parsed_part), as parts
/// parsed at different times and kept would be merged; everything else goes through `inner`.
class PartsThroughFiles final : public canon::Collective {
public:
  PartsThroughFiles(const canon::Collective& inner, fs::path dir) : inner_(inner), dir_(std::move(dir)) {}
  unsigned rank() const override { return inner_.rank(); }
  unsigned size() const override { return inner_.size(); }
  void all_gather(std::span<const double> mine, std::span<double> all,
                  std::span<const std::size_t> counts) const override {
    inner_.all_gather(mine, all, counts);
  }
  void all_reduce_min(std::span<std::uint32_t> values) const override { inner_.all_reduce_min(values); }
  std::vector<std::string> all_gather_bytes(std::string_view mine) const override {
    using namespace canon::indexer::detail;
    auto part = decode_parsed_part(mine, "this process's part");
    if (!part.ok()) return inner_.all_gather_bytes(mine);
    const auto path_of = [&](unsigned p) { return dir_ / ("part-" + std::to_string(p)); };
    REQUIRE(save_parsed_part(path_of(rank()), part.value()).ok());
    std::vector<std::string> all = inner_.all_gather_bytes("");  // only a barrier: every part is saved
    for (unsigned p = 0; p < size(); ++p) {
      auto loaded = load_parsed_part(path_of(p));
      REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
      all[p] = encode_parsed_part(loaded.value());
    }
    // Every process has read every file before any writes its next piece of its part over it
    // (parts go a chunk a round).
    inner_.all_gather_bytes("");
    return all;
  }
  std::vector<std::string> all_to_all_bytes(const std::vector<std::string>& to_each) const override {
    return inner_.all_to_all_bytes(to_each);
  }

private:
  const canon::Collective& inner_;
  fs::path dir_;
};

}  // namespace

TEST_CASE("a partitioned build gives the one-process index: sample_site") { check_same_index(sample_site()); }

TEST_CASE("a partitioned build gives the one-process index: more processes than chunks, some with no file") {
  canon::testing::TempDir dir;
  auto one = canon::indexer::index_site(options_for(sample_site(), dir.path() / "one"));
  REQUIRE_MESSAGE(one.ok(), one.status().message());
  build(sample_site(), dir.path() / "nine", 9);  // sample_site's 40 files in chunks of 7: 6 chunks
  for (const char* file : {"pages.jsonl", "graph.tsv", "pairs.tsv"}) {
    CAPTURE(file);
    CHECK(slurp(dir.path() / "nine" / file) == slurp(dir.path() / "one" / file));
  }
  CHECK(dump_xapian(dir.path() / "nine") == dump_xapian(dir.path() / "one"));
}

TEST_CASE("a partitioned build gives the one-process index: one process holds every file") {
  // One chunk: process 0 holds every page, the others none; each still keeps its part's state.
  canon::testing::TempDir dir;
  const Configure one_chunk = [](IndexOptions& options) { options.chunk_files = 1000; };
  auto one = canon::indexer::index_site(options_for(sample_site(), dir.path() / "one", one_chunk));
  REQUIRE_MESSAGE(one.ok(), one.status().message());
  build(sample_site(), dir.path() / "two", 2, false, one_chunk);
  for (const char* file : {"pages.jsonl", "graph.tsv", "pairs.tsv"}) {
    CAPTURE(file);
    CHECK(slurp(dir.path() / "two" / file) == slurp(dir.path() / "one" / file));
  }
}

TEST_CASE("parts saved and loaded merge into the one-process index") {
  canon::testing::TempDir dir;
  auto one = canon::indexer::index_site(options_for(sample_site(), dir.path() / "one"));
  REQUIRE_MESSAGE(one.ok(), one.status().message());
  fs::create_directories(dir.path() / "parts");
  std::mutex mutex;
  std::vector<std::string> failures;
  canon::testing::run_processes(3, [&](const canon::Collective& collective) {
    const PartsThroughFiles through_files(collective, dir.path() / "parts");
    IndexOptions options = options_for(sample_site(), dir.path() / "three");
    options.processes = &through_files;
    options.merge_shards = true;
    auto summary = canon::indexer::index_site(options);
    const std::lock_guard lock(mutex);
    if (!summary.ok()) failures.push_back(summary.status().message());
  });
  for (const std::string& failure : failures) FAIL(failure);
  for (unsigned p = 0; p < 3; ++p) CHECK(fs::file_size(dir.path() / "parts" / ("part-" + std::to_string(p))) > 0);
  for (const char* file : {"pages.jsonl", "graph.tsv", "pairs.tsv"}) {
    CAPTURE(file);
    CHECK(slurp(dir.path() / "three" / file) == slurp(dir.path() / "one" / file));
  }
  CHECK(dump_xapian(dir.path() / "three") == dump_xapian(dir.path() / "one"));
}

TEST_CASE("a partitioned build gives the one-process index: a generated site with copies, a redirect, noindex") {
  canon::testing::TempDir site;
  generate_site(site.path(), 150);
  check_same_index(site.path());
}

TEST_CASE("a partitioned build gives the one-process index: URL rules, and collapse at query time") {
  canon::testing::TempDir site;
  generate_site(site.path(), 150);
  SUBCASE("URL rules record the mirror's pages unread, in their pages' clusters") {
    std::vector<canon::urls::UrlRule> rules(1);
    rules[0].pattern = "(http://localhost)/mirror(/.*)";
    rules[0].rewrite = "\\1\\2";
    auto compiled = canon::urls::RuleSet::compile(rules);
    REQUIRE(compiled.ok());
    const auto rule_set = std::make_shared<const canon::urls::RuleSet>(std::move(compiled).value());
    check_same_index(site.path(), [&](IndexOptions& options) {
      options.url_rules = rule_set;
      options.url_rules_digest = "test-rules";
    });
  }
  SUBCASE("every copy indexed, collapsed by search") {
    check_same_index(site.path(),
                     [](IndexOptions& options) { options.collapse = canon::indexer::CollapseMode::kQueryTime; });
  }
}

TEST_CASE("a partitioned build gives the one-process index: a detector that sends no state reads the others' pages") {
  canon::testing::TempDir site;
  generate_site(site.path(), 60);
  check_same_index(site.path(), [](IndexOptions& options) { options.detector = "simhash"; });
}

TEST_CASE("a partitioned build gives the one-process index: the exact detector reads moved pages of any process") {
  // Every process holds the whole exact detector and reads the texts of moved pages again (a
  // trait re-exported by another crate: core/ and std/ hold parallel trees), asking where they
  // are stored of the processes that hold them: core's files and std's fall in different parts.
  canon::testing::TempDir site;
  const canon::testing::MovedSite moved = canon::testing::moved_site(30, 5, canon::dedup::SiteNames::kMinPlaceTreePaths);
  for (std::size_t d = 0; d < moved.texts.size(); ++d) {
    write(site.path() / moved.urls[d].substr(std::string("http://h/").size()),
          "<html><head><title>" + moved.titles[d] + "</title></head><body><p>" + moved.texts[d] + "</p></body></html>");
  }
  const Configure exact = [](IndexOptions& options) {
    options.detector = "exact";
    options.chunk_files = 40;
  };
  // The one-process build merges the moved pair: what the processes must read again.
  canon::testing::TempDir one;
  REQUIRE(canon::indexer::index_site(options_for(site.path(), one.path() / "index", exact)).ok());
  const std::string pairs = slurp(one.path() / "index" / "pairs.tsv");
  CHECK(pairs.find("core/cmp/trait.Eq.html") != std::string::npos);
  CHECK(pairs.find("std/cmp/trait.Eq.html") != std::string::npos);
  check_same_index(site.path(), exact);
}

TEST_CASE("a partitioned build fails on every process when the first cannot create the build directory") {
  canon::testing::TempDir dir;
  write(dir.path() / "file", "not a directory");
  std::mutex mutex;
  std::vector<std::string> messages;
  canon::testing::run_processes(3, [&](const canon::Collective& collective) {
    IndexOptions options = options_for(sample_site(), dir.path() / "file" / "index");
    options.processes = &collective;
    auto summary = canon::indexer::index_site(options);
    const std::lock_guard lock(mutex);
    messages.push_back(summary.ok() ? "ok" : summary.status().message());
  });
  REQUIRE(messages.size() == 3);
  for (const std::string& message : messages) CHECK(message != "ok");
}

TEST_CASE("a page store segment that cannot be read ends the run on every process, none left waiting") {
  // The pages of one chunk cannot be read back: whichever processes measure them or index them
  // fail, and the others must not wait for them in the next exchange.
  canon::testing::TempDir site, dir;
  generate_site(site.path(), 150);
  canon::testing::FaultyFileSystem faulty;
  faulty.fail_reads("/3.seg", EIO);
  const canon::io::ScopedFileSystem installed(faulty);
  std::mutex mutex;
  std::vector<std::string> messages;
  canon::testing::run_processes(3, [&](const canon::Collective& collective) {
    IndexOptions options = options_for(site.path(), dir.path() / "index");
    options.processes = &collective;
    auto summary = canon::indexer::index_site(options);
    const std::lock_guard lock(mutex);
    messages.push_back(summary.ok() ? "ok" : summary.status().message());
  });
  CHECK(faulty.failures() > 0);
  REQUIRE(messages.size() == 3);
  for (const std::string& message : messages) {
    CAPTURE(message);
    CHECK(message.find("3.seg") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(dir.path() / "index"));
}

TEST_CASE("summary.json's processes.by_process: each process's own bytes and memory, by rank") {
  canon::testing::TempDir dir;
  constexpr unsigned kProcesses = 3;
  std::mutex mutex;
  std::vector<std::optional<canon::indexer::IndexSummary>> summaries(kProcesses);
  canon::testing::run_processes(kProcesses, [&](const canon::Collective& collective) {
    IndexOptions options = options_for(sample_site(), dir.path() / "index");
    options.processes = &collective;
    auto summary = canon::indexer::index_site(options);
    const std::lock_guard lock(mutex);
    if (summary.ok()) summaries[collective.rank()] = std::move(summary).value();
  });
  for (const auto& summary : summaries) REQUIRE(summary.has_value());
  // The first process holds every process's figures, each as that process counted them.
  const std::vector<canon::indexer::ProcessFigures>& by_process = summaries[0]->by_process;
  REQUIRE(by_process.size() == kProcesses);
  for (unsigned rank = 0; rank < kProcesses; ++rank) {
    CAPTURE(rank);
    CHECK(by_process[rank].exchanged == summaries[rank]->stage_exchanged);
    REQUIRE(by_process[rank].memory.size() == summaries[rank]->stage_memory.size());
    for (std::size_t k = 0; k < by_process[rank].memory.size(); ++k) {
      CHECK(by_process[rank].memory[k].first == summaries[rank]->stage_memory[k].first);
      CHECK(by_process[rank].memory[k].second.peak_resident_bytes ==
            summaries[rank]->stage_memory[k].second.peak_resident_bytes);
    }
    if (rank > 0) CHECK(summaries[rank]->by_process.empty());
  }
  // summary.json says the same.
  const auto json = nlohmann::json::parse(slurp(dir.path() / "index" / "summary.json"));
  const nlohmann::json& written = json["processes"]["by_process"];
  REQUIRE(written.size() == kProcesses);
  for (unsigned rank = 0; rank < kProcesses; ++rank) {
    for (const auto& [stage, bytes] : summaries[rank]->stage_exchanged) {
      CAPTURE(stage);
      CHECK(written[rank]["exchanged_bytes"][stage]["sent"] == bytes.first);
      CHECK(written[rank]["exchanged_bytes"][stage]["received"] == bytes.second);
    }
  }
  CHECK(written[0]["exchanged_bytes"] == json["processes"]["exchanged_bytes"]);
}
