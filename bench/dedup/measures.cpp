/// @file measures.cpp
/// @brief dedup_measures: how candidate similarity measures separate true near-duplicate pairs
/// from the closest other pairs on a site with a truth.json (`canon synth`), or on any site.
///
/// Usage: dedup_measures SITE_DIR [TRUTH_JSON] [--top N]
/// Extracts every page's main text as `canon index` does, builds its k-word shingle sets
/// (k = 2, 3) and compares every two pages (all pairs: a few thousand pages at most). For each
/// k and measure it prints the quantiles of the true pairs (original-copy and copy-copy
/// separately) and the highest values among pairs that are not true pairs and whose titles
/// agree (the minhash detector's title rule), with their paths.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dedup/detectors/detector_support.h"
#include "dedup/sketches/shingles.h"
#include "dedup/sketches/tokenizer.h"
#include "eval/truth.h"
#include "html/html_extract.h"
#include "html/page_encoding.h"
#include "indexer/input/site_walker.h"

using namespace canon;

namespace {

struct Page {
  std::string path;
  std::vector<std::string> tokens;
  std::vector<std::string> title;  // distinct title words, sorted
};

/// The minhash detector's title rule: one title's words all occur in the other's, or either
/// title has no words.
bool titles_agree(const Page& a, const Page& b) {
  if (a.title.empty() || b.title.empty()) return true;
  return std::includes(a.title.begin(), a.title.end(), b.title.begin(), b.title.end()) ||
         std::includes(b.title.begin(), b.title.end(), a.title.begin(), a.title.end());
}

std::size_t common_count(const dedup::ShingleSet& a, const dedup::ShingleSet& b) {
  std::size_t c = 0;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] < b[j]) ++i;
    else if (b[j] < a[i]) ++j;
    else ++c, ++i, ++j;
  }
  return c;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: dedup_measures SITE_DIR [TRUTH_JSON] [--top N]\n");
    return 2;
  }
  const std::filesystem::path site = argv[1];
  std::string truth_path;
  std::size_t top = 10;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--top") == 0 && i + 1 < argc) top = std::stoul(argv[++i]);
    else truth_path = argv[i];
  }
  auto listing = indexer::walk_site(site);
  if (!listing.ok()) {
    std::fprintf(stderr, "%s\n", listing.status().message().c_str());
    return 1;
  }
  std::vector<Page> pages;
  for (const indexer::SiteFile& f : listing->files) {
    std::FILE* in = std::fopen(f.absolute_path.c_str(), "rb");
    if (!in) continue;
    std::string bytes;
    char buf[65536];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, in)) > 0;) bytes.append(buf, got);
    std::fclose(in);
    if (!html::check_page_bytes(bytes).ok()) continue;
    auto decoded = html::decode_page(std::move(bytes));
    if (!decoded.ok()) continue;
    const html::ExtractedPage page = html::extract_page(decoded->utf8, "http://site/" + f.relative_path);
    if (page.refresh_url || page.robots_noindex) continue;
    std::vector<std::string> title = dedup::tokenize(page.title);
    std::sort(title.begin(), title.end());
    title.erase(std::unique(title.begin(), title.end()), title.end());
    pages.push_back({f.relative_path, dedup::tokenize(page.main_text), std::move(title)});
  }
  // Truth: pair -> 1 original-copy, 2 copy-copy.
  std::map<std::string, std::pair<std::size_t, std::size_t>> where;  // path -> (cluster, rank)
  if (!truth_path.empty()) {
    auto truth = eval::read_truth(truth_path);
    if (!truth.ok()) {
      std::fprintf(stderr, "%s\n", truth.status().message().c_str());
      return 1;
    }
    for (std::size_t c = 0; c < truth->clusters.size(); ++c) {
      for (std::size_t r = 0; r < truth->clusters[c].size(); ++r) where[truth->clusters[c][r]] = {c, r};
    }
  }
  const std::size_t n = pages.size();
  std::printf("%zu pages\n", n);
  for (const unsigned k : {2u, 3u}) {
    std::vector<dedup::ShingleSet> sets(n);
    canon::parallel_for(n, 0, [&](std::size_t i, std::size_t) { sets[i] = dedup::shingle_set(pages[i].tokens, k); });
    struct Row {
      double jaccard, cmin, guarded;
      std::size_t a, b;
    };
    std::vector<std::vector<Row>> found(n);
    canon::parallel_for(n, 0, [&](std::size_t a, std::size_t) {
      for (std::size_t b = a + 1; b < n; ++b) {
        if (sets[a].empty() || sets[b].empty()) continue;
        const std::size_t c = common_count(sets[a], sets[b]);
        if (c == 0) continue;
        const double sa = static_cast<double>(sets[a].size()), sb = static_cast<double>(sets[b].size());
        const double j = c / (sa + sb - c), cmin = c / std::min(sa, sb);
        const double guarded = std::min(sa, sb) / std::max(sa, sb) >= 0.5 ? cmin : j;
        found[a].push_back({j, cmin, guarded, a, b});
      }
    });
    std::vector<Row> all;
    for (auto& f : found) all.insert(all.end(), f.begin(), f.end());
    const auto kind = [&](std::size_t a, std::size_t b) {
      auto x = where.find(pages[a].path), y = where.find(pages[b].path);
      if (x == where.end() || y == where.end() || x->second.first != y->second.first) return 0;
      return x->second.second == 0 || y->second.second == 0 ? 1 : 2;
    };
    // Every true pair, including those with no common shingle (value 0).
    std::set<std::pair<std::size_t, std::size_t>> seen;
    const char* names[] = {"jaccard", "containment(min)", "containment if sizes within 2x, else jaccard"};
    for (int m = 0; m < 3; ++m) {
      const auto value = [&](const Row& r) { return m == 0 ? r.jaccard : m == 1 ? r.cmin : r.guarded; };
      std::vector<double> orig_copy, copy_copy;
      std::vector<Row> others;
      for (const Row& r : all) {
        const int t = kind(r.a, r.b);
        if (t == 1) orig_copy.push_back(value(r));
        else if (t == 2) copy_copy.push_back(value(r));
        else if (titles_agree(pages[r.a], pages[r.b])) others.push_back(r);
      }
      std::sort(others.begin(), others.end(), [&](const Row& x, const Row& y) { return value(x) > value(y); });
      std::printf("\nk=%u %s\n", k, names[m]);
      for (auto [label, v] : {std::pair{"original-copy", &orig_copy}, std::pair{"copy-copy", &copy_copy}}) {
        if (v->empty()) continue;
        std::printf("  true %-13s n=%-5zu min %.3f  p1 %.3f  p5 %.3f  median %.3f\n", label, v->size(),
                    quantile(*v, 0), quantile(*v, 0.01), quantile(*v, 0.05), quantile(*v, 0.5));
      }
      std::size_t above[5] = {};
      for (const Row& r : others) {
        for (int t = 0; t < 5; ++t) above[t] += value(r) >= 0.3 + 0.1 * t;
      }
      std::printf("  other pairs (titles agreeing) >= 0.3: %zu  >= 0.4: %zu  >= 0.5: %zu  >= 0.6: %zu  >= 0.7: %zu\n",
                  above[0], above[1], above[2], above[3], above[4]);
      for (std::size_t i = 0; i < std::min(top, others.size()); ++i) {
        const Row& r = others[i];
        std::printf("    %.3f (J %.3f, sizes %zu/%zu)  %s  %s\n", value(r), r.jaccard, sets[r.a].size(),
                    sets[r.b].size(), pages[r.a].path.c_str(), pages[r.b].path.c_str());
      }
    }
  }
  return 0;
}
