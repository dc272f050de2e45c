/// @file rule_learner.h
/// @brief Learning URL rules from near-duplicate clusters (after Koppula et al., WSDM 2010), and
/// measuring what a rule set does to a labelled site (docs/url-rules.md).
///
/// Each duplicate's URL is aligned with its cluster's indexed URL; the alignment is a pairwise
/// rule (context: what the duplicate's URL must match; transformation: what is kept, deleted or
/// set). Pairwise rules of one shape are generalised across clusters (a kept part that varies
/// becomes a wildcard, a deleted value that varies becomes its narrowest type: digits, hex,
/// alpha, alphanumeric, word), each candidate is validated on clusters held out from learning,
/// and candidates are kept by support and precision. Rewriting a page in its own right, or a
/// duplicate's URL into another cluster's URL, counts against a rule; a rewrite into a URL the
/// site does not have is not judged (another rule may complete it). A rule keeps the few pages
/// in their own right it would rewrite as exceptions, URLs it leaves alone: at most
/// --exception-share of the duplicates it rewrites correctly, plus, for pages it would rewrite
/// into URLs the site does not have (a folder's listing page), a small allowance that grows
/// with those correct rewrites: 1 page from 45, 2 from 59, 3 from 73 (docs/url-rules.md,
/// "Exceptions").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "urls/url_rules.h"

namespace canon::urls {

/// One URL of a site and what the clusters say of it.
struct LabelledUrl {
  std::string url;
  /// Pages of one near-duplicate cluster share it; a page in its own right has one of its own.
  std::uint64_t cluster = 0;
  /// The page the cluster is indexed under (exactly one per cluster; a cluster without one
  /// teaches nothing but its URLs still count against rules that rewrite into them).
  bool indexed = false;
};

/// What a rule set does to every URL of a labelled site, each normalised to a fixed point.
struct RuleEvaluation {
  std::size_t urls = 0;              ///< distinct usable URLs
  std::size_t clusters = 0;          ///< distinct clusters among them
  std::size_t distinct_after = 0;    ///< distinct URLs after normalisation
  std::size_t changed = 0;           ///< URLs the rules change
  std::size_t correct = 0;           ///< ... into a URL of their own cluster
  std::size_t originals_changed = 0;  ///< indexed pages the rules change (each a page made unfindable)
  std::size_t capped = 0;            ///< URLs whose normalisation hit the step cap
  /// (urls - distinct_after) / urls: the share of fetches the rules save.
  double reduction() const;
  /// (urls - clusters) / urls: what perfect rules would save.
  double best_reduction() const;
  /// correct / changed (1 when nothing changed).
  double precision() const;
};

/// Normalises every URL of `site` with `rules` and counts what happened.
RuleEvaluation evaluate_url_rules(const RuleSet& rules, const std::vector<LabelledUrl>& site);

/// What learning saw and decided, beside the rules it kept.
struct LearnReport {
  RuleFile file;                  ///< the rules kept, most specific first, and the parameters
  std::size_t urls = 0;           ///< distinct usable URLs
  std::size_t unusable = 0;       ///< URLs that are not absolute http(s) URLs
  std::size_t duplicate_clusters = 0;  ///< clusters with an indexed page and at least one duplicate
  std::size_t learning_clusters = 0;
  std::size_t held_out_clusters = 0;
  std::size_t pairs = 0;          ///< duplicate -> indexed URL pairs learned from
  std::size_t candidates = 0;     ///< distinct candidate rules validated
  std::size_t rejected_support = 0;     ///< below min_support
  std::size_t rejected_untested = 0;    ///< changed no held-out URL
  std::size_t rejected_precision = 0;   ///< below min_precision (held out or learning)
  std::size_t rejected_originals = 0;   ///< would rewrite more indexed pages than it may except (above)
  std::size_t rejected_redundant = 0;   ///< every change it makes, a wider kept rule makes
  std::size_t rejected_together = 0;    ///< fine alone, but rewrote an indexed page in the set
  RuleEvaluation evaluation;      ///< the kept rules over the whole site
  /// Each validated candidate that was not kept, with why (support-rejected ones are not listed).
  std::vector<std::pair<UrlRule, std::string>> rejected;
};

/// Learns rules from `site`. Clusters are held out by a hash of their indexed URL, so the
/// split does not depend on cluster numbering or order. Fails only for parameters out of range.
Result<LearnReport> learn_url_rules(const std::vector<LabelledUrl>& site, const LearnParameters& parameters);

}  // namespace canon::urls
