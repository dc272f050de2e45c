/// @file rule_learner.cpp
/// @brief Learning URL rules from a labelled site, stage by stage, and evaluating a rule set on one.
///
/// The site is normalised and indexed here, and the stages run in order (rule_learner_stages.h:
/// pairwise rules, generalisation, validation and selection, each in its own file); the
/// evaluation and url-rules.json's summary are made here too.
///
/// Written by hand: learning rules from clusters is canon's own product (no packaged library
/// learns URL rules); RE2 does all matching and rewriting.
#include "urls/rule_learner.h"

#include <algorithm>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "urls/rule_learner_stages.h"
#include "urls/url.h"
#include "urls/url_parts.h"

namespace canon::urls {
using namespace detail;
namespace {

Site prepare(const std::vector<LabelledUrl>& labelled) {
  Site site;
  for (const LabelledUrl& l : labelled) {
    auto normal = normalize_url(l.url);
    if (!normal.ok()) {
      ++site.unusable;
      continue;
    }
    auto parts = split_url(normal.value());
    if (!parts.ok() || site.index_of.contains(normal.value())) {
      if (!parts.ok()) ++site.unusable;
      continue;
    }
    const std::size_t i = site.url.size();
    site.index_of.emplace(normal.value(), i);
    site.url.push_back(normal.value());
    site.parts.push_back(std::move(parts.value()));
    site.cluster.push_back(l.cluster);
    site.indexed.push_back(l.indexed);
    if (l.indexed) site.indexed_of_cluster.emplace(l.cluster, i);
  }
  return site;
}

nlohmann::ordered_json evaluation_json(const RuleEvaluation& e) {
  return {{"urls", e.urls},
          {"clusters", e.clusters},
          {"distinct_after", e.distinct_after},
          {"reduction", e.reduction()},
          {"best_reduction", e.best_reduction()},
          {"changed", e.changed},
          {"correct", e.correct},
          {"precision", e.precision()},
          {"originals_changed", e.originals_changed},
          {"capped", e.capped}};
}

}  // namespace

double RuleEvaluation::reduction() const {
  return urls == 0 ? 0.0 : static_cast<double>(urls - distinct_after) / static_cast<double>(urls);
}
double RuleEvaluation::best_reduction() const {
  return urls == 0 ? 0.0 : static_cast<double>(urls - clusters) / static_cast<double>(urls);
}
double RuleEvaluation::precision() const {
  return changed == 0 ? 1.0 : static_cast<double>(correct) / static_cast<double>(changed);
}

namespace {

/// evaluate_url_rules on a site already prepared.
RuleEvaluation evaluate(const RuleSet& rules, const Site& site) {
  RuleEvaluation e;
  e.urls = site.url.size();
  e.clusters = std::unordered_set<std::uint64_t>(site.cluster.begin(), site.cluster.end()).size();
  std::unordered_set<std::string> distinct;
  for (std::size_t i = 0; i < site.url.size(); ++i) {
    auto normal = rules.normalize(site.url[i]);
    const std::string& out = normal.ok() ? normal->url : site.url[i];
    if (normal.ok() && normal->capped) ++e.capped;
    distinct.insert(out);
    if (out == site.url[i]) continue;
    ++e.changed;
    if (site.indexed[i]) ++e.originals_changed;
    if (auto it = site.index_of.find(out); it != site.index_of.end() && site.cluster[it->second] == site.cluster[i]) {
      ++e.correct;
    }
  }
  e.distinct_after = distinct.size();
  return e;
}

}  // namespace

RuleEvaluation evaluate_url_rules(const RuleSet& rules, const std::vector<LabelledUrl>& labelled) {
  return evaluate(rules, prepare(labelled));
}

namespace {

/// Parameters in range, or the error naming the option.
Status check_parameters(const LearnParameters& parameters) {
  if (parameters.min_support < 1) return Status::error("--min-support must be at least 1");
  if (!(parameters.min_precision >= 0.0 && parameters.min_precision <= 1.0)) {
    return Status::error("--min-precision must be between 0 and 1");
  }
  if (!(parameters.held_out_fraction > 0.0 && parameters.held_out_fraction < 1.0)) {
    return Status::error("--held-out must be between 0 and 1, both excluded");
  }
  if (!(parameters.exception_share >= 0.0 && parameters.exception_share <= 1.0)) {
    return Status::error("--exception-share must be between 0 and 1");
  }
  return Status::ok_status();
}

/// The summary object of url-rules.json.
std::string summary_json(const LearnReport& report) {
  nlohmann::ordered_json summary = {
      {"urls", report.urls},
      {"unusable_urls", report.unusable},
      {"duplicate_clusters", report.duplicate_clusters},
      {"learning_clusters", report.learning_clusters},
      {"held_out_clusters", report.held_out_clusters},
      {"pairs", report.pairs},
      {"candidates", report.candidates},
      {"rejected",
       {{"support", report.rejected_support},
        {"untested", report.rejected_untested},
        {"precision", report.rejected_precision},
        {"originals", report.rejected_originals},
        {"redundant", report.rejected_redundant},
        {"together", report.rejected_together}}},
      {"rules", report.file.rules.size()},
      {"evaluation", evaluation_json(report.evaluation)}};
  return summary.dump();
}

}  // namespace

Result<LearnReport> learn_url_rules(const std::vector<LabelledUrl>& labelled, const LearnParameters& parameters) {
  if (Status ok = check_parameters(parameters); !ok.ok()) return ok;
  Site site = prepare(labelled);
  LearnReport report;
  report.urls = site.url.size();
  report.unusable = site.unusable;
  report.file.parameters = parameters;

  const PairwiseRules pairs = pairwise_rules(site, parameters.held_out_fraction, report);
  std::vector<Candidate> candidates = generalise(pairs);

  // Support first: only candidates with enough learning clusters are validated.
  std::vector<Candidate> supported;
  for (Candidate& c : candidates) {
    c.rule.evidence.support = c.clusters.size();
    if (c.rule.evidence.support >= parameters.min_support) {
      supported.push_back(std::move(c));
    } else {
      ++report.rejected_support;
    }
  }
  std::stable_sort(supported.begin(), supported.end(),
                   [](const Candidate& a, const Candidate& b) { return a.rule.specificity() > b.rule.specificity(); });
  report.candidates = supported.size();
  std::vector<UrlRule> rules;
  for (const Candidate& c : supported) rules.push_back(c.rule);
  auto compiled = RuleSet::compile(rules);
  if (!compiled.ok()) return Status::internal("a learned rule does not compile: " + compiled.status().message());
  validate(supported, compiled.value(), site);

  auto wider = drop_redundant(select_rules(supported, parameters, report), site, report);
  if (!wider.ok()) return wider.status();
  auto kept = check_together(std::move(wider).value(), site, report);
  if (!kept.ok()) return kept.status();
  report.file.rules = std::move(kept).value();
  auto final_set = RuleSet::compile(report.file.rules);
  if (!final_set.ok()) return Status::internal("a learned rule does not compile: " + final_set.status().message());
  report.evaluation = evaluate(final_set.value(), site);  // the site as prepared above
  report.file.summary_json = summary_json(report);
  return report;
}

}  // namespace canon::urls
