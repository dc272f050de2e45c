/// @file url_rules_bench.cpp
/// @brief URL rules measured on a real site's URLs with generated URL-pattern duplicates
/// (docs/url-rules.md, "Measured"): learned rules against a hand-written normaliser.
///
/// The site's pages (every .html file of SITE_DIR, under --base-url) are the originals. Each
/// gets, at random (--seed), duplicate URLs of several patterns at once: a /print/ prefix, an
/// old release folder (/releases/MAJOR.MINOR/), `index.html` after a directory URL, a session id
/// (?sid=HEX, or ;jsessionid=HEX in the path), tracking parameters (utm_source, utm_medium),
/// and a few pairs of them. Listing pages with two parameters are added as originals, with
/// copies whose parameters come in the other order. The originals are split by a hash of their
/// URL: 70 % are learned from (they and their copies are a labelled site, as an index's
/// clusters are), 30 % are new pages whose copies the learner never saw.
///
/// Printed, per normaliser (learned rules; the usual hand-written one: session ids, utm_*,
/// index.html, trailing slash, parameter order), one Markdown row: rules, reduction
/// (N - distinct) / N on the whole site against the best possible, originals rewritten
/// (precision on originals), and the share of the new pages' copies normalised to their page.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <xxhash.h>

#include "urls/rule_learner.h"
#include "urls/url.h"
#include "urls/url_rules.h"

namespace {

namespace fs = std::filesystem;
using canon::urls::LabelledUrl;

struct Page {
  std::string url;
  std::vector<std::string> copies;
  bool learned = false;
};

std::string hex(std::mt19937_64& random, int digits) {
  static const char* chars = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < digits; ++i) out += chars[random() % 16];
  return out;
}

/// Adds `query` ("a=1&b=2") to `url`, after any query it has.
std::string with_query(const std::string& url, const std::string& query) {
  return url + (url.find('?') == std::string::npos ? "?" : "&") + query;
}

/// The copies of `url` (an original at http://HOST/PATH).
std::vector<std::string> copies_of(const std::string& url, const std::string& origin, std::mt19937_64& random) {
  std::vector<std::string> out;
  const std::string path = url.substr(origin.size());  // from its '/'
  const auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(random) < p; };
  if (chance(0.3)) out.push_back(origin + "/print" + path);
  if (chance(0.3)) {
    out.push_back(origin + "/releases/" + std::to_string(1 + random() % 3) + "." + std::to_string(random() % 12) + path);
  }
  if (path.ends_with('/') && chance(0.8)) out.push_back(url + "index.html");
  if (chance(0.25)) out.push_back(with_query(url, "sid=" + hex(random, 16)));
  if (chance(0.15) && !path.ends_with('/') && url.find('?') == std::string::npos) {
    out.push_back(url + ";jsessionid=" + hex(random, 12));
  }
  static const char* sources[] = {"twitter", "newsletter", "rss", "mastodon"};
  static const char* media[] = {"social", "email", "feed"};
  if (chance(0.25)) {
    out.push_back(with_query(url, std::string("utm_source=") + sources[random() % 4] + "&utm_medium=" + media[random() % 3]));
  }
  if (chance(0.1)) out.push_back(with_query(origin + "/print" + path, "sid=" + hex(random, 16)));
  return out;
}

/// The usual hand-written normaliser, as rules: session ids, tracking parameters, index pages,
/// trailing slashes, parameter order.
std::vector<canon::urls::UrlRule> hand_written() {
  using canon::urls::RuleKind;
  std::vector<canon::urls::UrlRule> rules;
  for (const char* param : {"sid", "sessionid", "session_id", "PHPSESSID", "jsessionid", "utm_source", "utm_medium",
                            "utm_campaign", "utm_term", "utm_content"}) {
    canon::urls::UrlRule r;
    r.kind = RuleKind::kDropParam;
    r.params.push_back({param, ""});
    rules.push_back(r);
  }
  canon::urls::UrlRule jsession;
  jsession.pattern = "(.*);jsessionid=[^/]*";
  jsession.rewrite = "\\1";
  rules.push_back(jsession);
  canon::urls::UrlRule index;
  index.pattern = "(.*/)index\\.html?";
  index.rewrite = "\\1";
  rules.push_back(index);
  canon::urls::UrlRule slash;  // "a/b/" and "a/b" one page: the slash dropped (but the root's)
  slash.pattern = "(.*://[^/]+/.+)/";
  slash.rewrite = "\\1";
  rules.push_back(slash);
  canon::urls::UrlRule sort;
  sort.kind = RuleKind::kSortParams;
  rules.push_back(sort);
  return rules;
}

struct Row {
  std::size_t rules = 0;
  canon::urls::RuleEvaluation whole;
  std::size_t originals = 0, originals_changed = 0;
  std::size_t new_copies = 0, new_copies_right = 0;
};

Row measure(const canon::urls::RuleSet& set, const std::vector<Page>& pages, const std::vector<LabelledUrl>& all) {
  Row row;
  row.rules = set.rules().size();
  row.whole = canon::urls::evaluate_url_rules(set, all);
  for (const Page& p : pages) {
    ++row.originals;
    auto self = set.normalize(p.url);
    if (self.ok() && self->url != p.url) ++row.originals_changed;
    if (p.learned) continue;
    for (const std::string& copy : p.copies) {
      ++row.new_copies;
      auto n = set.normalize(copy);
      if (n.ok() && n->url == p.url) ++row.new_copies_right;
    }
  }
  return row;
}

void print_row(const std::string& site, const std::string& normaliser, const Row& r) {
  std::printf("| %s | %s | %zu | %zu | %.1f %% | %.1f %% | %zu of %zu | %.1f %% (%zu of %zu) |\n", site.c_str(),
              normaliser.c_str(), r.whole.urls, r.rules, 100.0 * r.whole.reduction(), 100.0 * r.whole.best_reduction(),
              r.originals_changed, r.originals, r.new_copies == 0 ? 0.0 : 100.0 * r.new_copies_right / r.new_copies,
              r.new_copies_right, r.new_copies);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: url_rules_bench NAME SITE_DIR [SEED]\n");
    return 1;
  }
  const std::string name = argv[1];
  const fs::path site_dir = argv[2];
  const std::uint64_t seed = argc > 3 ? std::stoull(argv[3]) : 1;
  const std::string origin = "http://docs.example";
  std::mt19937_64 random(seed);

  std::vector<std::string> paths;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(site_dir, ec); it != fs::recursive_directory_iterator(); ++it) {
    const std::string ext = it->path().extension().string();
    if (it->is_regular_file() && (ext == ".html" || ext == ".htm")) {
      paths.push_back(fs::relative(it->path(), site_dir).generic_string());
    }
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Page> pages;
  std::set<std::string> seen;
  for (const std::string& path : paths) {
    auto url = canon::urls::file_url(origin + "/", path);
    if (url.ok() && seen.insert(url.value()).second) pages.push_back({url.value(), {}, false});
  }
  for (int i = 0; i < 200; ++i) {  // listing pages: parameters in name order are the originals
    pages.push_back({origin + "/list.html?cat=" + std::to_string(i % 20) + "&page=" + std::to_string(i / 20), {}, false});
  }
  for (Page& p : pages) {
    p.copies = copies_of(p.url, origin, random);
    if (p.url.find("/list.html?") != std::string::npos) {
      const std::size_t q = p.url.find('?'), amp = p.url.find('&');
      p.copies.push_back(p.url.substr(0, q + 1) + p.url.substr(amp + 1) + "&" + p.url.substr(q + 1, amp - q - 1));
    }
    p.learned = XXH3_64bits(p.url.data(), p.url.size()) % 10 < 7;
  }
  // What the learner sees: the learned pages and their copies, clustered. The whole site: all.
  std::set<std::string> all_urls;
  std::vector<LabelledUrl> learning, all;
  for (std::size_t c = 0; c < pages.size(); ++c) {
    const Page& p = pages[c];
    if (!all_urls.insert(p.url).second) continue;
    all.push_back({p.url, c, true});
    if (p.learned) learning.push_back({p.url, c, true});
    for (const std::string& copy : p.copies) {
      if (!all_urls.insert(copy).second) continue;
      all.push_back({copy, c, false});
      if (p.learned) learning.push_back({copy, c, false});
    }
  }
  auto report = canon::urls::learn_url_rules(learning, canon::urls::LearnParameters{});
  if (!report.ok()) {
    std::fprintf(stderr, "url_rules_bench: %s\n", report.status().message().c_str());
    return 1;
  }
  auto learned = canon::urls::RuleSet::compile(report->file.rules);
  auto usual = canon::urls::RuleSet::compile(hand_written());
  if (!learned.ok() || !usual.ok()) {
    std::fprintf(stderr, "url_rules_bench: rules do not compile\n");
    return 1;
  }
  print_row(name, "learned", measure(learned.value(), pages, all));
  print_row(name, "hand-written", measure(usual.value(), pages, all));
  if (std::getenv("SHOW_RULES") != nullptr) {
    for (const auto& r : report->file.rules) {
      std::fprintf(stderr, "%s (support %zu, precision %.2f, %zu exceptions)\n", canon::urls::describe(r).c_str(),
                   r.evidence.support, r.evidence.precision(), r.exceptions.size());
    }
  }
  if (std::getenv("SHOW_REJECTED") != nullptr) {
    for (const auto& [r, why] : report->rejected) {
      std::fprintf(stderr, "rejected: %s: %s (support %zu, held out %zu/%zu, learning %zu/%zu)\n",
                   canon::urls::describe(r).c_str(), why.c_str(), r.evidence.support, r.evidence.held_out_correct,
                   r.evidence.held_out_changed, r.evidence.learning_correct, r.evidence.learning_changed);
    }
  }
  return 0;
}
