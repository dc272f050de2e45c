/// @file rule_learner_stages.h
/// @brief The stages of learning URL rules, and what they hand each other (internal to canon_urls).
///
/// learn_url_rules (rule_learner.cpp) prepares the site and runs the stages in order: pairwise
/// rules from the learning clusters (rule_learner_pairs.cpp), their generalisation into
/// candidates (rule_learner_generalise.cpp), then validation on the whole site, selection, and
/// the checks for redundant rules and for the rules together (rule_learner_selection.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/status.h"
#include "urls/rule_learner.h"
#include "urls/url_parts.h"
#include "urls/url_rules.h"

namespace canon::urls::detail {

/// The site, normalised and indexed.
struct Site {
  std::vector<std::string> url;
  std::vector<UrlParts> parts;
  std::vector<std::uint64_t> cluster;
  std::vector<bool> indexed;
  std::unordered_map<std::string, std::size_t> index_of;
  std::unordered_map<std::uint64_t, std::size_t> indexed_of_cluster;
  std::unordered_set<std::uint64_t> held_out;
  std::size_t unusable = 0;
};

/// A rule never carries more exceptions than this.
inline constexpr std::size_t kMaxExceptions = 1000;

using Tokens = std::vector<PathToken>;

/// One duplicate's location aligned with its indexed page's: gap 0, keep 0, gap 1, ..., keep
/// k-1, gap k, where each gap deletes `drops[g]` and inserts `inserts[g]`.
struct PathEdit {
  Tokenization how = Tokenization::kWords;
  std::vector<Tokens> drops, inserts, keeps;
  std::uint64_t cluster = 0;
  std::size_t source = 0;  ///< site index of the duplicate
};

/// The query parameters a duplicate has and its indexed page lacks (by name, sorted by name:
/// one pairwise rule deletes them together).
struct DroppedParams {
  std::vector<QueryParam> params;
  std::uint64_t cluster = 0;
};

/// What stage 1 finds in the learning clusters.
struct PairwiseRules {
  std::vector<PathEdit> edits;  ///< locations aligned, both tokenizations
  std::map<std::string, std::vector<DroppedParams>> dropped_params;  ///< by the names, joined
  std::vector<std::uint64_t> sorting_clusters;  ///< clusters with a pair that sorts parameters
};

/// A candidate rule, the clusters it came from, and its family: candidates generalised from one
/// group of pairwise rules (the general one and the specific ones it subsumes).
struct Candidate {
  UrlRule rule;
  std::set<std::uint64_t> clusters;
  std::vector<std::string> originals;  ///< indexed pages it would rewrite (the first kMaxExceptions + 1)
  /// Of those, the ones it would rewrite into a URL the site has (another page's, or one of the
  /// page's own duplicates'): evidence that it takes pages for others, not a page it merely
  /// does not fit.
  std::size_t originals_to_site_urls = 0;
  std::size_t family = 0;
  bool general = false;
};

/// Stage 1: each duplicate of a learning cluster against the cluster's indexed page. Holds
/// clusters out (site.held_out) as it meets them; counts pairs and clusters in `report`.
PairwiseRules pairwise_rules(Site& site, double held_out_fraction, LearnReport& report);

/// Stage 2: each shape's pairwise rules generalised, and their specific forms.
std::vector<Candidate> generalise(const PairwiseRules& pairs);

/// Stage 3: every candidate applied alone to every URL of the site (`rules`: the candidates'
/// rules compiled, in the same order). An indexed page it changes is an original it would
/// make unfindable; a duplicate it changes is right when it lands on a URL of its own cluster.
void validate(std::vector<Candidate>& supported, const RuleSet& compiled, const Site& site);

/// Stage 4: the candidates that pass (support was checked before), with their exceptions; a
/// general rule that passes replaces its family's specific ones.
std::vector<UrlRule> select_rules(std::vector<Candidate>& supported, const LearnParameters& parameters,
                                  LearnReport& report);

/// Stage 5: a rule whose every change another kept rule makes too (the same URL into the same
/// URL) adds nothing, as "mirror0" beside "mirror" + digits; the wider rule stays.
Result<std::vector<UrlRule>> drop_redundant(std::vector<UrlRule> kept, const Site& site, LearnReport& report);

/// Stage 6: normalising to a fixed point with all the kept rules must not move an indexed page
/// either; the rule that first moves one goes, until none does.
Result<std::vector<UrlRule>> check_together(std::vector<UrlRule> kept, const Site& site, LearnReport& report);

}  // namespace canon::urls::detail
