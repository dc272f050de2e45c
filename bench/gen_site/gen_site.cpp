/// @file gen_site.cpp
/// @brief Generates large synthetic sites for canon's scale benchmarks (bench/scale/).
///
/// A site of N pages of about W words each, written as saved HTML under OUT_DIR:
/// - words drawn from a Zipf (s = 1) distribution over a vocabulary of pronounceable
///   pseudo-words, as natural text roughly follows;
/// - a shared page template (header, nav, footer), so extraction has chrome to remove;
/// - links: every page links to the home page and its section index, plus L links whose
///   targets follow a power law (a few pages get most in-links), scattered over the site;
/// - near-duplicate clusters: a fraction D of pages are originals with 1-3 copies under
///   mirror/ with about E of their words replaced; copies get no in-links but one from
///   their original ("printer-friendly version").
/// Writes OUT_DIR/truth.json in `canon synth`'s format ({"clusters": [[original, copy...]]}).
/// Reproducible for a seed; standard library only.
///
/// Usage: gen_site --pages N --out OUT_DIR [--words 300] [--links 10] [--dup-fraction 0.1]
///                 [--edit-ratio 0.05] [--vocabulary 50000] [--seed 1]
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bench/pseudo_words.h"

namespace {

struct Options {
  std::uint64_t pages = 0;
  std::string out;
  unsigned words = 300;
  unsigned links = 10;
  double dup_fraction = 0.1;
  double edit_ratio = 0.05;
  std::uint64_t vocabulary = 50000;
  std::uint64_t seed = 1;
};

/// Uniform in [0, 1) from 53 random bits (std distributions differ between libraries).
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

/// Rank in [0, n) with P(r) roughly proportional to 1 / (r + 1): inverse transform of the
/// continuous 1/x density on [1, n + 1).
std::uint64_t zipf_rank(std::mt19937_64& rng, std::uint64_t n) {
  const double r = std::exp(uniform(rng) * std::log(static_cast<double>(n) + 1.0)) - 1.0;
  return std::min<std::uint64_t>(static_cast<std::uint64_t>(r), n - 1);
}

std::vector<std::string> make_vocabulary(std::uint64_t size, std::uint64_t seed) {
  return canon::bench::pseudo_words(size, seed, 200, 5000);
}

std::string page_path(std::uint64_t id) {
  if (id == 0) return "index.html";
  return "s" + std::to_string(id / 1000) + "/p" + std::to_string(id) + ".html";
}

std::string link_href(std::uint64_t id) { return "/" + page_path(id); }

/// Page `id`'s words: a fresh Zipf sample seeded by the page id.
std::vector<std::uint32_t> page_words(const Options& o, std::uint64_t id) {
  std::mt19937_64 rng(o.seed * 0x9E3779B97F4A7C15ULL + id);
  const unsigned n = o.words / 2 + static_cast<unsigned>(rng() % (o.words + 1));
  std::vector<std::uint32_t> words(n);
  for (auto& w : words) w = static_cast<std::uint32_t>(zipf_rank(rng, o.vocabulary));
  return words;
}

void write_page(const std::filesystem::path& file, const std::string& title, const std::vector<std::string>& vocab,
                const std::vector<std::uint32_t>& words, const std::vector<std::uint64_t>& links,
                const std::string& extra_link) {
  std::string html;
  html.reserve(words.size() * 8 + 1024);
  html += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>";
  html += title;
  html += "</title></head>\n<body><header><a href=\"/\">Synthetic Site</a> - generated for canon benchmarks</header>\n"
          "<nav><a href=\"/\">Home</a> <a href=\"/s0/p1.html\">Guide</a> <a href=\"/s0/p2.html\">Reference</a> "
          "<a href=\"/s0/p3.html\">About</a></nav>\n<main><h1>";
  html += title;
  html += "</h1>\n<p>";
  for (std::size_t i = 0; i < words.size(); ++i) {
    html += vocab[words[i]];
    if (i + 1 == words.size()) break;
    html += (i % 60 == 59) ? ".</p>\n<p>" : " ";
  }
  html += ".</p>\n<ul>";
  for (std::uint64_t target : links) {
    html += "<li><a href=\"" + link_href(target) + "\">page " + std::to_string(target) + "</a></li>";
  }
  html += extra_link;
  html += "</ul></main>\n<footer>Copyright the synthetic authors. <a href=\"/s0/p3.html\">Contact</a></footer>"
          "</body></html>\n";
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << html;
}

bool parse_args(int argc, char** argv, Options& o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const char* value = argv[i + 1];
    if (key == "--pages") o.pages = std::stoull(value);
    else if (key == "--out") o.out = value;
    else if (key == "--words") o.words = static_cast<unsigned>(std::stoul(value));
    else if (key == "--links") o.links = static_cast<unsigned>(std::stoul(value));
    else if (key == "--dup-fraction") o.dup_fraction = std::stod(value);
    else if (key == "--edit-ratio") o.edit_ratio = std::stod(value);
    else if (key == "--vocabulary") o.vocabulary = std::stoull(value);
    else if (key == "--seed") o.seed = std::stoull(value);
    else return false;
  }
  return o.pages >= 4 && !o.out.empty() && o.vocabulary >= 10 && o.words >= 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (argc % 2 == 0 || !parse_args(argc, argv, o)) {
    std::cerr << "usage: gen_site --pages N(>=4) --out DIR [--words 300] [--links 10] [--dup-fraction 0.1]\n"
                 "                [--edit-ratio 0.05] [--vocabulary 50000] [--seed 1]\n";
    return 2;
  }
  const std::vector<std::string> vocab = make_vocabulary(o.vocabulary, o.seed);
  const std::filesystem::path out(o.out);
  std::filesystem::create_directories(out);
  std::mt19937_64 rng(o.seed);
  // Popular pages are scattered over the site: rank r maps to page (r * stride) mod N.
  std::uint64_t stride = 2654435761ULL % o.pages;
  while (stride < 2 || std::gcd(stride, o.pages) != 1) stride = (stride + 1) % o.pages;

  std::ofstream truth(out / "truth.json");
  truth << "{\"clusters\": [";
  const char* separator = "\n";
  const bool show_progress = isatty(2);
  for (std::uint64_t id = 0; id < o.pages; ++id) {
    std::vector<std::uint64_t> links;
    for (unsigned l = 0; l < o.links; ++l) links.push_back((zipf_rank(rng, o.pages) * stride) % o.pages);
    const std::vector<std::uint32_t> words = page_words(o, id);
    const std::string title = "Page " + std::to_string(id) + " " + vocab[words[0]] + " " + vocab[words[1 % words.size()]];
    const unsigned copies = uniform(rng) < o.dup_fraction ? 1 + static_cast<unsigned>(rng() % 3) : 0;
    std::string copy_links;
    truth << separator << "[\"" << page_path(id) << "\"";
    separator = ",\n";
    for (unsigned c = 0; c < copies; ++c) {
      const std::string copy_path = "mirror" + std::to_string(c) + "/" + page_path(id);
      copy_links += "<li><a href=\"/" + copy_path + "\">printer-friendly version</a></li>";
      std::vector<std::uint32_t> edited = words;
      for (auto& w : edited) {
        if (uniform(rng) < o.edit_ratio) w = static_cast<std::uint32_t>(zipf_rank(rng, o.vocabulary));
      }
      write_page(out / copy_path, title, vocab, edited, links, "");
      truth << ", \"" << copy_path << "\"";
    }
    truth << "]";
    write_page(out / page_path(id), title, vocab, words, links, copy_links);
    if (show_progress && id % 10000 == 0) std::fprintf(stderr, "\rgen_site: %llu/%llu pages", (unsigned long long)id, (unsigned long long)o.pages);
  }
  truth << "\n]}\n";
  if (show_progress) std::fprintf(stderr, "\rgen_site: %llu/%llu pages\n", (unsigned long long)o.pages, (unsigned long long)o.pages);
  return truth ? 0 : 1;
}
