/// @file command_urls.cpp
/// @brief `canon urls learn|normalize|export`: URL rules learned from an index's clusters, URLs
/// normalised with them, and the index's duplicate URLs for crawlers (docs/url-rules.md).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <unordered_map>

#include "cli/commands.h"
#include "cli/option_groups.h"
#include "indexer/records/pages_jsonl.h"
#include "urls/rule_learner.h"
#include "urls/url_rules.h"

namespace canon::cli {
namespace {

namespace fs = std::filesystem;

/// The sites' URLs with what the index's clusters say of them: indexed and duplicate pages by
/// their cluster; a redirect joins the cluster of the page it leads to (a crawler need not
/// fetch it either); every other page (skipped, or redirecting out of the index) stands alone.
std::vector<urls::LabelledUrl> labelled_urls(const std::vector<indexer::PageLine>& lines) {
  std::unordered_map<std::string, std::uint64_t> cluster_of_url;
  for (const indexer::PageLine& line : lines) {
    if (line.cluster && !line.url.empty()) cluster_of_url.emplace(line.url, *line.cluster);
  }
  constexpr std::uint64_t kOwnCluster = std::uint64_t{1} << 63;  // above every index cluster id
  std::vector<urls::LabelledUrl> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const indexer::PageLine& line = lines[i];
    if (line.url.empty()) continue;
    switch (line.status) {
      case indexer::PageStatus::kIndexed:
        out.push_back({line.url, *line.cluster, true});
        break;
      case indexer::PageStatus::kDuplicate:
        out.push_back({line.url, *line.cluster, false});
        break;
      case indexer::PageStatus::kRedirect:
        if (auto it = line.redirect_to ? cluster_of_url.find(*line.redirect_to) : cluster_of_url.end();
            it != cluster_of_url.end()) {
          out.push_back({line.url, it->second, false});
          break;
        }
        [[fallthrough]];
      default:
        out.push_back({line.url, kOwnCluster | i, true});
    }
  }
  return out;
}

/// Writes `text` to `path` through a temporary file renamed over it.
void write_text_file(const fs::path& path, const std::string& text) {
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) fail(Status::io_error("cannot write " + temporary.string() + ": " + std::strerror(errno)));
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) fail(Status::io_error("cannot write " + path.string() + ": " + ec.message()));
}

std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", 100.0 * share);
  return text;
}

/// One line saying what `rule` does, with where it applies when that is not everywhere.
std::string describe_with_location(const urls::UrlRule& r) {
  return urls::describe(r) + (r.location.empty() ? "" : " where " + r.location);
}

void print_learn_report(const urls::LearnReport& report, const fs::path& written, bool show_rejected) {
  const auto& rules = report.file.rules;
  std::printf("Learned %zu URL rule%s from %zu duplicate clusters (%zu learning, %zu held out; %zu pairs) into %s\n",
              rules.size(), rules.size() == 1 ? "" : "s", report.duplicate_clusters, report.learning_clusters,
              report.held_out_clusters, report.pairs, written.c_str());
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const urls::UrlRule& r = rules[i];
    const urls::RuleEvidence& e = r.evidence;
    std::printf("%3zu. %s\n", i + 1, describe_with_location(r).c_str());
    std::printf("     support %zu, held-out precision %.2f (%zu/%zu), coverage %zu", e.support, e.precision(),
                e.held_out_correct, e.held_out_changed, e.coverage);
    if (!r.exceptions.empty()) std::printf(", %zu exception%s: %s%s", r.exceptions.size(), r.exceptions.size() == 1 ? "" : "s",
                                           r.exceptions.front().c_str(), r.exceptions.size() > 1 ? " ..." : "");
    std::printf("\n");
    if (!e.example_from.empty()) std::printf("     e.g. %s  ->  %s\n", e.example_from.c_str(), e.example_to.c_str());
  }
  std::printf("Candidates validated: %zu; rejected: %zu below --min-support, %zu untested on held-out clusters, "
              "%zu below --min-precision, %zu rewriting indexed pages (%zu more only together), %zu redundant\n",
              report.candidates, report.rejected_support, report.rejected_untested, report.rejected_precision,
              report.rejected_originals, report.rejected_together, report.rejected_redundant);
  if (show_rejected) {
    for (const auto& [rule, why] : report.rejected) {
      const urls::RuleEvidence& e = rule.evidence;
      std::printf("  rejected: %s\n     %s (support %zu, held out %zu/%zu, learning %zu/%zu, coverage %zu)\n",
                  describe_with_location(rule).c_str(), why.c_str(), e.support, e.held_out_correct, e.held_out_changed,
                  e.learning_correct, e.learning_changed, e.coverage);
    }
  }
  const urls::RuleEvaluation& ev = report.evaluation;
  std::printf("On the whole site: %zu URLs become %zu (reduction %s of a possible %s); %zu changed, %zu into their "
              "own cluster; %zu indexed pages changed\n",
              ev.urls, ev.distinct_after, percent(ev.reduction()).c_str(), percent(ev.best_reduction()).c_str(),
              ev.changed, ev.correct, ev.originals_changed);
}

void add_learn_command(CLI::App& urls_app) {
  struct Args {
    fs::path index_dir;
    fs::path out;
    urls::LearnParameters parameters;
    bool quiet = false;
    bool show_rejected = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* learn = urls_app.add_subcommand("learn", "Learn URL rules from an index's near-duplicate clusters");
  learn->add_option("INDEX_DIR", args->index_dir, "Index directory written by `canon index`")->required();
  learn->add_option("--min-support", args->parameters.min_support,
                    "Keep a rule only when at least this many learning clusters taught it")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  learn->add_option("--min-precision", args->parameters.min_precision,
                    "Keep a rule only when this share of the URLs it changes (held-out and learning clusters "
                    "alike) land in their own cluster")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  learn->add_option("--held-out", args->parameters.held_out_fraction,
                    "Share of the duplicate clusters held out from learning to validate rules on")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 0.99));
  learn->add_option("--exception-share", args->parameters.exception_share,
                    "A rule that would rewrite indexed pages keeps them as exceptions when they are at most this "
                    "share of the duplicates it rewrites correctly, plus up to 3 rewritten into URLs the site does not "
                    "have (from 45 correct rewrites on); else it is refused. 0: no exceptions")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  learn->add_option("--out,-o", args->out, "Where to write the rules (default: INDEX_DIR/url-rules.json)");
  add_quiet_flag(*learn, args->quiet, "Print nothing but errors");
  learn->add_flag("--show-rejected", args->show_rejected,
                  "Also list each validated candidate that was not kept, and why");
  learn->callback([args] {
    auto lines = indexer::read_page_lines(args->index_dir);
    if (!lines.ok()) fail(lines.status());
    auto report = urls::learn_url_rules(labelled_urls(lines.value()), args->parameters);
    if (!report.ok()) fail(report.status());
    const fs::path out = args->out.empty() ? args->index_dir / "url-rules.json" : args->out;
    write_text_file(out, urls::encode_rule_file(report->file));
    if (!args->quiet) print_learn_report(report.value(), out, args->show_rejected);
  });
}

void add_normalize_command(CLI::App& urls_app) {
  struct Args {
    std::string rules;
    std::vector<std::string> urls;
  };
  auto args = std::make_shared<Args>();
  CLI::App* normalize = urls_app.add_subcommand(
      "normalize", "Print each URL and its canonical URL under a rule file (URL<TAB>CANONICAL, in input order)");
  normalize->add_option("--rules", args->rules, "A url-rules.json (from `canon urls learn`, or written by hand)")
      ->required();
  normalize->add_option("URL", args->urls, "URLs to normalise; '-' (or none) reads them from stdin, one per line");
  normalize->callback([args] {
    auto file = urls::read_rule_file(args->rules);
    if (!file.ok()) fail(file.status());
    auto rules = urls::RuleSet::compile(file->rules);
    if (!rules.ok()) fail(Status::error(args->rules + ": " + rules.status().message()));
    std::size_t bad = 0;
    std::size_t number = 0;
    const auto one = [&](const std::string& url) {
      ++number;
      auto normal = rules->normalize(url);
      if (!normal.ok()) {
        std::cerr << "canon: URL " << number << " ('" << url << "'): " << normal.status().message() << "\n";
        ++bad;
        return;
      }
      std::cout << url << '\t' << normal->url << '\n';
    };
    const bool from_stdin = args->urls.empty() || (args->urls.size() == 1 && args->urls[0] == "-");
    if (from_stdin) {
      for (std::string line; std::getline(std::cin, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty()) one(line);
      }
    } else {
      for (const std::string& url : args->urls) one(url);
    }
    std::cout.flush();
    if (bad > 0) {
      fail(Status::error(std::to_string(bad) + " of " + std::to_string(number) + " URLs are not absolute http(s) URLs"));
    }
  });
}

void add_urls_export_command(CLI::App& urls_app) {
  struct Args {
    fs::path index_dir;
    std::string format = "tsv";
    std::string rules;
  };
  auto args = std::make_shared<Args>();
  CLI::App* exported = urls_app.add_subcommand(
      "export", "For crawlers: every duplicate URL of an index and its canonical URL, or the rules for Nutch");
  exported->add_option("INDEX_DIR", args->index_dir, "Index directory written by `canon index`")->required();
  exported->add_option("--format", args->format,
                       "tsv: DUPLICATE_URL<TAB>CANONICAL_URL per duplicate; nutch: the learned rules as a Nutch "
                       "regex-normalize.xml")
      ->capture_default_str()
      ->check(CLI::IsMember({"tsv", "nutch"}));
  exported->add_option("--rules", args->rules, "Rule file for --format nutch (default: INDEX_DIR/url-rules.json)");
  exported->callback([args] {
    if (args->format == "nutch") {
      const std::string path = args->rules.empty() ? (args->index_dir / "url-rules.json").string() : args->rules;
      auto file = urls::read_rule_file(path);
      if (!file.ok()) {
        if (file.status().code() == StatusCode::kNotFound && args->rules.empty()) {
          fail(Status::not_found(path + " does not exist: run `canon urls learn " + args->index_dir.string() +
                                 "` first"));
        }
        fail(file.status());
      }
      auto set = urls::RuleSet::compile(file->rules);  // tried most specific first, as normalize does
      if (!set.ok()) fail(set.status());
      std::cout << urls::nutch_regex_normalizer(set->rules());
      return;
    }
    auto lines = indexer::read_page_lines(args->index_dir);
    if (!lines.ok()) fail(lines.status());
    for (const indexer::PageLine& line : lines.value()) {
      if (line.status == indexer::PageStatus::kDuplicate) std::cout << line.url << '\t' << line.authoritative << '\n';
    }
  });
}

}  // namespace

void add_urls_command(CLI::App& app) {
  CLI::App* urls_app = app.add_subcommand("urls", "URL rules: learn them from an index, normalise URLs, export for crawlers");
  urls_app->require_subcommand(1);
  add_learn_command(*urls_app);
  add_normalize_command(*urls_app);
  add_urls_export_command(*urls_app);
}

}  // namespace canon::cli
