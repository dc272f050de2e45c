/// @file gen_powerlaw_graph.cpp
/// @brief Writes a seeded random directed graph with power-law in- and out-degrees as a
/// `source<TAB>target` edge list (the input of `canon rank`), for bench/pagerank/run.sh.
///
/// Each edge draws its source and its target independently from Zipf-like distributions over
/// node ranks (P(rank k) ~ k^-s, sampled by inverting the continuous approximation), with
/// separate random rank -> node permutations for sources and targets, so that neither the node
/// ids nor the file order carry the degrees. Like a crawl, the result has hubs, dangling nodes,
/// a few self-links and repeated links. Node ids are decimal integers 0..N-1; nodes that end up
/// in no edge are not written.
///
///   gen_powerlaw_graph --nodes N --edges M [--seed S] [--in-exponent A] [--out-exponent B]
///                      [--out FILE]
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Options {
  std::uint64_t nodes = 1'000'000;
  std::uint64_t edges = 10'000'000;
  std::uint64_t seed = 1;
  double in_exponent = 0.9;   // in-degree tail ~ d^-(1 + 1/0.9) = d^-2.1, as on the web
  double out_exponent = 0.6;  // out-degrees are less skewed: tail ~ d^-2.7
  std::string out = "-";
};

[[noreturn]] void usage(const char* message) {
  std::fprintf(stderr,
               "gen_powerlaw_graph: %s\nusage: gen_powerlaw_graph --nodes N --edges M [--seed S] "
               "[--in-exponent A] [--out-exponent B] [--out FILE]\n",
               message);
  std::exit(2);
}

/// Parses "10M", "500k", "1G" or a plain integer.
std::uint64_t parse_count(const char* text) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  double scale = 1;
  switch (*end) {
    case 'k': case 'K': scale = 1e3; ++end; break;
    case 'm': case 'M': scale = 1e6; ++end; break;
    case 'g': case 'G': scale = 1e9; ++end; break;
    default: break;
  }
  if (end == text || *end != '\0' || value < 0) usage("bad count");
  return static_cast<std::uint64_t>(std::llround(value * scale));
}

/// Ranks 0..n-1 with P(k) ~ (k + 1)^-s: inverse CDF of the continuous density x^-s on [1, n+1).
class ZipfRanks {
public:
  ZipfRanks(std::uint64_t n, double s) : n_(n) {
    one_minus_s_ = 1.0 - s;
    const double top = static_cast<double>(n) + 1.0;
    span_ = std::abs(one_minus_s_) < 1e-9 ? std::log(top) : std::pow(top, one_minus_s_) - 1.0;
  }
  std::uint64_t operator()(double u) const {
    const double x = std::abs(one_minus_s_) < 1e-9 ? std::exp(u * span_)
                                                   : std::pow(u * span_ + 1.0, 1.0 / one_minus_s_);
    const auto k = static_cast<std::uint64_t>(x) - 1;
    return k < n_ ? k : n_ - 1;
  }

private:
  std::uint64_t n_;
  double one_minus_s_ = 0.0, span_ = 0.0;
};

std::vector<std::uint32_t> random_permutation(std::uint64_t n, std::mt19937_64& rng) {
  std::vector<std::uint32_t> p(n);
  std::iota(p.begin(), p.end(), 0u);
  for (std::uint64_t i = n; i > 1; --i) {
    std::swap(p[i - 1], p[std::uniform_int_distribution<std::uint64_t>(0, i - 1)(rng)]);
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i + 1 >= argc) usage("missing value");
    const char* value = argv[++i];
    if (arg == "--nodes") {
      o.nodes = parse_count(value);
    } else if (arg == "--edges") {
      o.edges = parse_count(value);
    } else if (arg == "--seed") {
      o.seed = std::strtoull(value, nullptr, 10);
    } else if (arg == "--in-exponent") {
      o.in_exponent = std::strtod(value, nullptr);
    } else if (arg == "--out-exponent") {
      o.out_exponent = std::strtod(value, nullptr);
    } else if (arg == "--out") {
      o.out = value;
    } else {
      usage("unknown option");
    }
  }
  if (o.nodes == 0 || o.nodes > 0xFFFFFFFFull) usage("--nodes must be in 1..2^32-1");

  std::FILE* out = o.out == "-" ? stdout : std::fopen(o.out.c_str(), "wb");
  if (out == nullptr) {
    std::perror(o.out.c_str());
    return 1;
  }
  std::mt19937_64 rng(o.seed);
  const std::vector<std::uint32_t> source_of_rank = random_permutation(o.nodes, rng);
  const std::vector<std::uint32_t> target_of_rank = random_permutation(o.nodes, rng);
  const ZipfRanks source_rank(o.nodes, o.out_exponent), target_rank(o.nodes, o.in_exponent);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);

  std::vector<char> buffer(1 << 20);
  std::size_t used = 0;
  for (std::uint64_t e = 0; e < o.edges; ++e) {
    if (buffer.size() - used < 32) {
      std::fwrite(buffer.data(), 1, used, out);
      used = 0;
    }
    const std::uint32_t s = source_of_rank[source_rank(uniform(rng))];
    const std::uint32_t t = target_of_rank[target_rank(uniform(rng))];
    char* p = buffer.data() + used;
    p = std::to_chars(p, buffer.data() + buffer.size(), s).ptr;
    *p++ = '\t';
    p = std::to_chars(p, buffer.data() + buffer.size(), t).ptr;
    *p++ = '\n';
    used = static_cast<std::size_t>(p - buffer.data());
  }
  std::fwrite(buffer.data(), 1, used, out);
  if (std::fflush(out) != 0 || std::ferror(out) || (out != stdout && std::fclose(out) != 0)) {
    std::perror(o.out.c_str());
    return 1;
  }
  return 0;
}
