/// @file throughput.cpp
/// @brief dedup_throughput: the default (minhash) detector on a stream of generated pages.
///
/// Usage: dedup_throughput [--docs 1000000] [--words 300] [--threads 2] [--dup-fraction 0.1]
///                         [--edit-ratio 0.05] [--detector minhash] [--seed 1]
/// Pages are generated as bench/gen_site does (Zipf words over a 50 000-word pseudo-word
/// vocabulary, lengths uniform in [W/2, 3W/2]); a fraction of them are originals with 1-3 copies
/// in which each word is replaced with probability edit-ratio. Each page is generated, handed
/// to Detector::add once on `threads` threads and dropped, as the streaming pipeline does; the
/// loader regenerates a page from its id (the pipeline would re-parse it). Prints the seconds of
/// add (minus the time to generate the text, measured separately), find_clusters (LSH
/// candidates, verification with loads, union-find), state bytes per page, and how many copies
/// ended in their original's cluster.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "bench/pseudo_words.h"
#include "dedup/detectors/detector.h"
#include "dedup/detectors/detector_support.h"
#include "dedup/detectors/registry.h"

using namespace canon;

namespace {

struct Options {
  std::uint32_t docs = 1000000;
  unsigned words = 300;
  unsigned threads = 2;
  double dup_fraction = 0.1;
  double edit_ratio = 0.05;
  std::string detector = "minhash";
  std::uint64_t seed = 1;
};

constexpr std::uint64_t kVocabulary = 50000;

double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

std::uint64_t zipf_rank(std::mt19937_64& rng, std::uint64_t n) {
  const double r = std::exp(uniform(rng) * std::log(static_cast<double>(n) + 1.0)) - 1.0;
  return std::min<std::uint64_t>(static_cast<std::uint64_t>(r), n - 1);
}

/// Pronounceable pseudo-words, frequent ones short (as gen_site's).
std::vector<std::string> make_vocabulary(std::uint64_t seed) {
  std::vector<std::string> words = canon::bench::pseudo_words(kVocabulary, seed, 100, 3000);
  for (std::uint64_t r = 0; r < words.size(); ++r) words[r] += std::to_string(r % 7);  // distinct words
  return words;
}

/// Which page a document is: its base page and, for a copy, the seed of its edits (0: none).
struct DocSpec {
  std::uint32_t base;
  std::uint32_t edit_seed;
};

void generate(const Options& o, const std::vector<std::string>& vocabulary, DocSpec spec,
              std::string& text) {
  std::mt19937_64 rng(o.seed * 0x9e3779b97f4a7c15ULL + spec.base);
  std::mt19937_64 edits(spec.edit_seed * 0xbf58476d1ce4e5b9ULL + 17);
  const unsigned n = o.words / 2 + static_cast<unsigned>(rng() % (o.words + 1));
  text.clear();
  for (unsigned i = 0; i < n; ++i) {
    std::uint64_t rank = zipf_rank(rng, kVocabulary);
    if (spec.edit_seed != 0 && uniform(edits) < o.edit_ratio) rank = zipf_rank(edits, kVocabulary);
    text += vocabulary[rank];
    text += ' ';
  }
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

/// CPU seconds of the whole process (all threads) so far: on a shared machine wall time
/// depends on the other load, CPU time much less.
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf("usage: dedup_throughput [--docs 1000000] [--words 300] [--threads 2]\n"
                  "  [--dup-fraction 0.1] [--edit-ratio 0.05] [--detector minhash] [--seed 1]\n"
                  "Pages are generated on the fly (8 bytes of bookkeeping per page are kept,\n"
                  "never the texts); prints wall and CPU seconds per phase.\n");
      return 0;
    }
  }
  if (argc % 2 == 0) {
    std::fprintf(stderr, "flags take one value each (--help)\n");
    return 2;
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--docs") o.docs = static_cast<std::uint32_t>(std::stoul(value));
    else if (flag == "--words") o.words = static_cast<unsigned>(std::stoul(value));
    else if (flag == "--threads") o.threads = static_cast<unsigned>(std::stoul(value));
    else if (flag == "--dup-fraction") o.dup_fraction = std::stod(value);
    else if (flag == "--edit-ratio") o.edit_ratio = std::stod(value);
    else if (flag == "--detector") o.detector = value;
    else if (flag == "--seed") o.seed = std::stoull(value);
    else {
      std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  const std::vector<std::string> vocabulary = make_vocabulary(o.seed);
  // Families: an original followed by its 1-3 copies, at consecutive ids.
  std::vector<DocSpec> specs;
  std::vector<std::uint32_t> original_of;
  specs.reserve(o.docs);
  std::mt19937_64 rng(o.seed);
  std::uint32_t copies = 0;
  while (specs.size() < o.docs) {
    const auto id = static_cast<std::uint32_t>(specs.size());
    specs.push_back({id, 0});
    original_of.push_back(id);
    if (uniform(rng) < o.dup_fraction) {
      const unsigned n = 1 + static_cast<unsigned>(rng() % 3);
      for (unsigned c = 0; c < n && specs.size() < o.docs; ++c) {
        specs.push_back({id, static_cast<std::uint32_t>(specs.size())});
        original_of.push_back(id);
        ++copies;
      }
    }
  }

  dedup::DedupOptions options;
  options.threads = o.threads;
  auto made = dedup::make_detector(o.detector, options);
  if (!made.ok()) {
    std::fprintf(stderr, "%s\n", made.status().message().c_str());
    return 1;
  }
  dedup::Detector& detector = *made.value();

  // Text generation alone, to subtract from the add phase.
  auto start = std::chrono::steady_clock::now();
  double cpu_start = cpu_seconds();
  std::vector<std::size_t> bytes(canon::worker_count(o.docs, o.threads), 0);
  canon::parallel_for(o.docs, o.threads, [&](std::size_t d, std::size_t worker) {
    thread_local std::string text;
    generate(o, vocabulary, specs[d], text);
    bytes[worker] += text.size();
  });
  const double generate_seconds = seconds_since(start);
  const double generate_cpu = cpu_seconds() - cpu_start;

  start = std::chrono::steady_clock::now();
  cpu_start = cpu_seconds();
  detector.reset(o.docs);
  canon::parallel_for(o.docs, o.threads, [&](std::size_t d, std::size_t) {
    thread_local std::string text;
    generate(o, vocabulary, specs[d], text);
    detector.add(static_cast<std::uint32_t>(d), dedup::DedupDocument{"", "", text});
  });
  const double add_seconds = seconds_since(start) - generate_seconds;
  const double add_cpu = cpu_seconds() - cpu_start - generate_cpu;

  std::atomic<std::uint64_t> loads{0};
  const dedup::DocumentLoader load = [&](std::uint32_t d, const auto& use) {
    ++loads;
    std::string text;
    generate(o, vocabulary, specs[d], text);
    use(dedup::DedupDocument{"", "", text});
  };
  start = std::chrono::steady_clock::now();
  cpu_start = cpu_seconds();
  const dedup::Clusters clusters = detector.find_clusters(load);
  const double cluster_seconds = seconds_since(start);
  const double cluster_cpu = cpu_seconds() - cpu_start;

  std::uint32_t found = 0;
  for (std::uint32_t d = 0; d < o.docs; ++d) {
    if (original_of[d] != d && clusters.cluster_of[d] == clusters.cluster_of[original_of[d]]) ++found;
  }
  std::uint64_t total_bytes = 0;
  for (const std::size_t b : bytes) total_bytes += b;
  std::printf("detector %s, %u docs (%.0f bytes of text each), %u copies, %u threads\n",
              o.detector.c_str(), o.docs, static_cast<double>(total_bytes) / o.docs, copies,
              o.threads);
  std::printf("generate text (not counted): %.1f s wall, %.1f s CPU\n", generate_seconds,
              generate_cpu);
  std::printf("add (tokens, shingles, sketches): %.1f s wall, %.1f s CPU\n", add_seconds, add_cpu);
  std::printf("find_clusters (candidates, verification, clusters): %.1f s wall, %.1f s CPU\n",
              cluster_seconds, cluster_cpu);
  std::printf("total detector time: %.1f s wall, %.1f s CPU\n", add_seconds + cluster_seconds,
              add_cpu + cluster_cpu);
  std::printf("state: %zu bytes per document\n", detector.state_bytes_per_document());
  std::printf("candidates %zu, verified pairs %zu, documents loaded %llu\n",
              clusters.candidates_examined, clusters.pairs.size(),
              static_cast<unsigned long long>(loads.load()));
  std::printf("copies in their original's cluster: %u of %u (%.4f)\n", found, copies,
              copies ? static_cast<double>(found) / copies : 1.0);
  return 0;
}
