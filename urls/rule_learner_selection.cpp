/// @file rule_learner_selection.cpp
/// @brief Stages 3 to 6 of learning URL rules: validation, selection with exceptions, and pruning.
///
/// Each supported candidate is applied alone to the whole site and judged on held-out and
/// learning clusters; those that pass keep the few indexed pages they would rewrite as
/// exceptions (docs/url-rules.md, "Exceptions"); then rules that add nothing to a wider one go,
/// and so does any rule that, with the others, still moves an indexed page.
#include "urls/rule_learner_stages.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace canon::urls::detail {
namespace {

/// P(X <= k) for X ~ Binomial(n, p), 0 < p < 1.
double binomial_at_most(std::size_t k, std::size_t n, double p) {
  double term = std::pow(1.0 - p, static_cast<double>(n));  // P(X = 0); 0 for a huge n, as it should be
  double sum = term;
  for (std::size_t i = 0; i < k && i < n; ++i) {
    term *= static_cast<double>(n - i) / static_cast<double>(i + 1) * p / (1.0 - p);
    sum += term;
  }
  return sum;
}

/// A rule that rewrites pages in their own right at this rate of the URLs it changes is one to
/// refuse; the allowance below is what such a rule shows less than kAllowanceSignificance of
/// the time (docs/url-rules.md, "Exceptions").
constexpr double kHarmfulOriginalRate = 0.1;
constexpr double kAllowanceSignificance = 0.05;
/// The allowance never exceeds this many pages: it is for a folder's own pages (its listing
/// page, perhaps a search page), not for a share of the site.
constexpr std::size_t kMaxAllowance = 3;

/// How many indexed pages a rule that rewrites `correct` duplicates correctly may keep as
/// exceptions beyond --exception-share when it rewrites them into URLs the site does not have:
/// the largest a <= kMaxAllowance such that a rule rewriting pages in their own right at
/// kHarmfulOriginalRate would rewrite at most a of `correct` + a URLs with a probability of at
/// most kAllowanceSignificance (0 below 45 correct rewrites, 1 from 45, 2 from 59, 3 from 73).
std::size_t allowance_for_missing_urls(std::size_t correct) {
  for (std::size_t a = kMaxAllowance; a > 0; --a) {
    if (binomial_at_most(a, correct + a, kHarmfulOriginalRate) <= kAllowanceSignificance) return a;
  }
  return 0;
}

/// Why `candidate`, which rewrites `correct` duplicates correctly, may not keep the indexed
/// pages it rewrites as exceptions; empty when it may (or rewrites none). Those it rewrites into
/// URLs of the site (taking them for other pages) may be at most --exception-share of `correct`,
/// as may all of them together, plus allowance_for_missing_urls(correct) of those rewritten
/// into URLs the site does not have. An --exception-share of 0 allows no exception at all.
std::string why_no_exceptions(const Candidate& candidate, std::size_t correct, double exception_share) {
  const RuleEvidence& e = candidate.rule.evidence;
  if (e.originals_changed == 0) return "";
  const std::size_t to_site = candidate.originals_to_site_urls;
  const double by_share = exception_share * static_cast<double>(correct);
  const std::size_t allowance = exception_share > 0.0 ? allowance_for_missing_urls(correct) : 0;
  if (e.originals_changed <= kMaxExceptions && static_cast<double>(to_site) <= by_share &&
      static_cast<double>(e.originals_changed) <= by_share + static_cast<double>(allowance)) {
    return "";
  }
  const auto most = [](double pages) { return std::to_string(static_cast<std::size_t>(std::floor(pages))); };
  return "rewrites " + std::to_string(e.originals_changed) +
         (e.originals_changed == 1 ? " indexed page, " : " indexed pages, ") + std::to_string(to_site) +
         " into URLs the site has; it may except " + most(by_share + static_cast<double>(allowance)) + ", " +
         most(by_share) + " of them into URLs the site has";
}

}  // namespace

void validate(std::vector<Candidate>& supported, const RuleSet& compiled, const Site& site) {
  for (std::size_t i = 0; i < site.url.size(); ++i) {
    for (const auto& [r, out] : compiled.each_change(site.url[i])) {
      RuleEvidence& e = supported[r].rule.evidence;
      ++e.coverage;
      const auto it = site.index_of.find(out);
      if (site.indexed[i]) {
        ++e.originals_changed;
        if (it != site.index_of.end()) ++supported[r].originals_to_site_urls;
        if (supported[r].originals.size() <= kMaxExceptions) supported[r].originals.push_back(site.url[i]);
        continue;
      }
      // A URL the site does not have cannot be judged: it may be a step on the way, as the
      // print copy with a session id loses one rule's part before the other's.
      if (it == site.index_of.end()) {
        ++e.unresolved;
        continue;
      }
      const bool correct = site.cluster[it->second] == site.cluster[i];
      if (site.held_out.contains(site.cluster[i])) {
        ++e.held_out_changed;
        e.held_out_correct += correct ? 1 : 0;
      } else {
        ++e.learning_changed;
        e.learning_correct += correct ? 1 : 0;
      }
      if (correct && e.example_from.empty()) {
        e.example_from = site.url[i];
        e.example_to = out;
      }
    }
  }

}

std::vector<UrlRule> select_rules(std::vector<Candidate>& supported, const LearnParameters& parameters,
                                  LearnReport& report) {
  std::vector<bool> passes(supported.size(), false);
  std::set<std::size_t> general_families;
  for (std::size_t r = 0; r < supported.size(); ++r) {
    const RuleEvidence& e = supported[r].rule.evidence;
    const std::size_t correct = e.learning_correct + e.held_out_correct;
    const std::string no_exceptions = why_no_exceptions(supported[r], correct, parameters.exception_share);
    const bool excepted = e.originals_changed > 0 && no_exceptions.empty();
    const double learning_precision =
        e.learning_changed == 0 ? 1.0 : static_cast<double>(e.learning_correct) / static_cast<double>(e.learning_changed);
    if (!no_exceptions.empty()) {
      ++report.rejected_originals;
      report.rejected.emplace_back(supported[r].rule, no_exceptions);
    } else if (e.held_out_correct == 0) {
      ++report.rejected_untested;
      report.rejected.emplace_back(supported[r].rule, "changes no URL of a held-out cluster");
    } else if (e.precision() < parameters.min_precision || learning_precision < parameters.min_precision) {
      ++report.rejected_precision;
      report.rejected.emplace_back(supported[r].rule, "precision below --min-precision");
    } else {
      passes[r] = true;
      if (excepted) supported[r].rule.exceptions = supported[r].originals;
      if (supported[r].general) general_families.insert(supported[r].family);
    }
  }
  std::vector<UrlRule> kept;
  for (std::size_t r = 0; r < supported.size(); ++r) {
    if (passes[r] && (supported[r].general || !general_families.contains(supported[r].family))) {
      kept.push_back(supported[r].rule);
    }
  }

  return kept;
}

Result<std::vector<UrlRule>> drop_redundant(std::vector<UrlRule> kept, const Site& site, LearnReport& report) {
  if (kept.size() > 1) {
    auto set = RuleSet::compile(kept);
    if (!set.ok()) return Status::internal("a learned rule does not compile: " + set.status().message());
    kept = set->rules();
    const std::size_t n = kept.size();
    std::vector<std::vector<bool>> covers(n, std::vector<bool>(n, true));  // covers[a][b]: b makes all of a's changes
    std::vector<std::size_t> changes(n, 0);
    for (std::size_t i = 0; i < site.url.size(); ++i) {
      const auto each = set->each_change(site.url[i]);
      for (const auto& change : each) {
        const std::size_t a = change.first;
        ++changes[a];
        for (std::size_t b = 0; b < n; ++b) {
          if (!covers[a][b] || a == b) continue;
          const bool same = std::any_of(each.begin(), each.end(),
                                        [&](const auto& c) { return c.first == b && c.second == change.second; });
          if (!same) covers[a][b] = false;
        }
      }
    }
    std::vector<bool> dropped(n, false);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return changes[a] < changes[b]; });
    for (std::size_t a : order) {
      for (std::size_t b = 0; b < n && !dropped[a]; ++b) {
        if (b != a && !dropped[b] && covers[a][b] && (changes[b] > changes[a] || (changes[b] == changes[a] && b < a))) {
          dropped[a] = true;
          ++report.rejected_redundant;
        }
      }
    }
    std::vector<UrlRule> wider;
    for (std::size_t a = 0; a < n; ++a) {
      if (!dropped[a]) wider.push_back(std::move(kept[a]));
    }
    kept = std::move(wider);
  }

  return kept;
}

Result<std::vector<UrlRule>> check_together(std::vector<UrlRule> kept, const Site& site, LearnReport& report) {
  for (bool clean = false; !clean && !kept.empty();) {
    auto set = RuleSet::compile(kept);
    if (!set.ok()) return Status::internal("a learned rule does not compile: " + set.status().message());
    clean = true;
    for (std::size_t i = 0; i < site.url.size() && clean; ++i) {
      if (!site.indexed[i]) continue;
      auto normal = set->normalize(site.url[i]);
      if (normal.ok() && normal->url != site.url[i]) {
        kept = set->rules();
        const std::size_t culprit = normal->rules.front();
        report.rejected.emplace_back(kept[culprit], "with the other rules, rewrites the indexed page " + site.url[i]);
        kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(culprit));
        ++report.rejected_together;
        clean = false;
      }
    }
    if (clean) kept = set->rules();
  }
  return kept;
}

}  // namespace canon::urls::detail
