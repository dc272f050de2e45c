/// @file rule_learner.cpp
/// @brief Pairwise rules from clusters, their generalisation, validation and selection.
///
/// Written by hand: learning rules from clusters is canon's own product (no packaged library
/// learns URL rules); RE2 does all matching and rewriting.
#include "urls/rule_learner.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "urls/url.h"
#include "urls/url_parts.h"

namespace canon::urls {
namespace {

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

/// Whether a cluster is held out from learning: by a hash of its indexed URL, stable across
/// runs, cluster numberings and input orders.
bool is_held_out(const std::string& indexed_url, double fraction) {
  const std::uint64_t h = XXH3_64bits(indexed_url.data(), indexed_url.size());
  return static_cast<double>(h % 1'000'000) < fraction * 1'000'000.0;
}

using Tokens = std::vector<PathToken>;

/// A run of tokens common to both locations: source start, target start, length.
struct Block {
  std::size_t s, t, n;
};

/// The matching blocks of S[s0, s1) and T[t0, t1): the longest common run (the earliest of
/// equal length), then recursively the blocks left and right of it (as Ratcliff/Obershelp, and
/// Python's difflib, align sequences).
void matching_blocks(const Tokens& S, std::size_t s0, std::size_t s1, const Tokens& T, std::size_t t0,
                     std::size_t t1, std::vector<Block>& out) {
  if (s0 >= s1 || t0 >= t1) return;
  Block best{0, 0, 0};
  std::vector<std::size_t> previous(t1 - t0 + 1, 0), current(t1 - t0 + 1, 0);
  for (std::size_t i = s0; i < s1; ++i) {
    for (std::size_t j = t0; j < t1; ++j) {
      const std::size_t n = S[i] == T[j] ? previous[j - t0] + 1 : 0;
      current[j - t0 + 1] = n;
      if (n > best.n) best = {i + 1 - n, j + 1 - n, n};
    }
    std::swap(previous, current);
  }
  if (best.n == 0) return;
  matching_blocks(S, s0, best.s, T, t0, best.t, out);
  out.push_back(best);
  matching_blocks(S, best.s + best.n, s1, T, best.t + best.n, t1, out);
}

/// One duplicate's location aligned with its indexed page's: gap 0, keep 0, gap 1, ..., keep
/// k-1, gap k, where each gap deletes `drops[g]` and inserts `inserts[g]`.
struct PathEdit {
  Tokenization how = Tokenization::kWords;
  std::vector<Tokens> drops, inserts, keeps;
  std::uint64_t cluster = 0;
  std::size_t source = 0;  ///< site index of the duplicate
};

/// A rule never carries more exceptions than this.
constexpr std::size_t kMaxExceptions = 1000;

/// At most \1..\9 in an RE2 rewrite.
constexpr std::size_t kMaxKeeps = 9;

std::optional<PathEdit> align(const UrlParts& from, const UrlParts& to, Tokenization how) {
  const Tokens S = tokenize_location(from.origin, from.path, how);
  const Tokens T = tokenize_location(to.origin, to.path, how);
  std::vector<Block> blocks;
  matching_blocks(S, 0, S.size(), T, 0, T.size(), blocks);
  if (blocks.empty() || blocks.size() > kMaxKeeps) return std::nullopt;
  PathEdit edit;
  std::size_t s = 0, t = 0;
  for (const Block& b : blocks) {
    edit.drops.emplace_back(S.begin() + s, S.begin() + b.s);
    edit.inserts.emplace_back(T.begin() + t, T.begin() + b.t);
    edit.keeps.emplace_back(S.begin() + b.s, S.begin() + b.s + b.n);
    s = b.s + b.n;
    t = b.t + b.n;
  }
  edit.drops.emplace_back(S.begin() + s, S.end());
  edit.inserts.emplace_back(T.begin() + t, T.end());
  return edit;
}

std::string text_of(const Tokens& tokens) {
  std::string out;
  for (const PathToken& t : tokens) out += t.text;
  return out;
}

/// What pairwise rules of one shape share: the number of kept runs, each gap's deleted tokens
/// with words blanked, and each gap's inserted text.
std::string shape_of(const PathEdit& e) {
  std::string key = std::to_string(static_cast<int>(e.how)) + ':' + std::to_string(e.keeps.size());
  for (std::size_t g = 0; g < e.drops.size(); ++g) {
    key += '\x1f';
    for (const PathToken& t : e.drops[g]) key += t.kind == PathToken::Kind::kWord ? std::string("\x02") : t.text;
    key += '\x1e';
    key += text_of(e.inserts[g]);
  }
  return key;
}

std::string rewrite_quote(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += '\\';
    out += c;
  }
  return out;
}

/// The pattern of kept run `g` where its text varies across `members`: anything, between the
/// origin and delimiters all of them start and end with (structure stays, words go: "(.*/)"
/// before "index.html" does not match "genindex.html").
std::string varying_run_pattern(const std::vector<const PathEdit*>& members, std::size_t g) {
  const auto is_structure = [](const PathToken& t) { return t.kind != PathToken::Kind::kWord; };
  const Tokens& first = members.front()->keeps[g];
  std::size_t shortest = first.size();
  for (const PathEdit* m : members) shortest = std::min(shortest, m->keeps[g].size());
  std::size_t prefix = 0;
  while (prefix < shortest && is_structure(first[prefix]) &&
         std::all_of(members.begin(), members.end(), [&](const PathEdit* m) { return m->keeps[g][prefix] == first[prefix]; })) {
    ++prefix;
  }
  std::size_t suffix = 0;
  const auto from_end = [&](const PathEdit* m, std::size_t k) -> const PathToken& {
    return m->keeps[g][m->keeps[g].size() - 1 - k];
  };
  while (prefix + suffix < shortest && is_structure(from_end(members.front(), suffix)) &&
         std::all_of(members.begin(), members.end(),
                     [&](const PathEdit* m) { return from_end(m, suffix) == from_end(members.front(), suffix); })) {
    ++suffix;
  }
  std::string pattern = regex_quote(text_of(Tokens(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(prefix))));
  pattern += ".*";
  return pattern + regex_quote(text_of(Tokens(first.end() - static_cast<std::ptrdiff_t>(suffix), first.end())));
}

/// The path rule generalising `members` (all of one shape): a word deleted with the same text
/// in every member stays literal, else becomes the narrowest class of its texts; a kept run
/// with the same text everywhere stays literal, else matches anything.
UrlRule path_rule(const std::vector<const PathEdit*>& members) {
  const PathEdit& first = *members.front();
  UrlRule rule;
  rule.kind = RuleKind::kPath;
  for (std::size_t g = 0; g < first.drops.size(); ++g) {
    for (std::size_t j = 0; j < first.drops[g].size(); ++j) {
      const PathToken& token = first.drops[g][j];
      bool same = true;
      WordClass cls = word_class(token.text);
      for (const PathEdit* m : members) {
        same = same && m->drops[g][j].text == token.text;
        cls = widest(cls, word_class(m->drops[g][j].text));
      }
      rule.pattern += same ? regex_quote(token.text) : word_class_pattern(cls);
    }
    rule.rewrite += rewrite_quote(text_of(first.inserts[g]));
    if (g < first.keeps.size()) {
      const std::string kept = text_of(first.keeps[g]);
      const bool same = std::all_of(members.begin(), members.end(),
                                    [&](const PathEdit* m) { return text_of(m->keeps[g]) == kept; });
      rule.pattern += same ? "(" + regex_quote(kept) + ")" : "(" + varying_run_pattern(members, g) + ")";
      rule.rewrite += "\\" + std::to_string(g + 1);
    }
  }
  return rule;
}

/// The RE2 pattern of a parameter value class over `values`.
std::string value_pattern(const std::vector<std::string>& values) {
  bool any_empty = false;
  std::optional<WordClass> cls;
  for (const std::string& v : values) {
    if (v.empty()) {
      any_empty = true;
      continue;
    }
    const WordClass c = word_class(v);
    cls = cls ? widest(*cls, c) : c;
  }
  if (!cls) return "";
  const std::string one = *cls == WordClass::kWord ? std::string("[^&#]+") : word_class_pattern(*cls);
  return any_empty ? "(?:" + one + ")?" : one;
}

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

std::string candidate_key(const UrlRule& r) {
  std::string key = std::string(to_string(r.kind)) + '\x1f' + r.pattern + '\x1f' + r.rewrite + '\x1f' + r.location;
  for (const ParamMatch& p : r.params) key += '\x1f' + p.name + '=' + p.value;
  return key;
}

/// Adds the candidates of one family: the general rule over all `members` when they differ in
/// what they delete, and one rule per group of members deleting the same texts.
template <class Member, class MakeRule, class Specific>
void add_family(std::vector<Candidate>& out, std::unordered_map<std::string, std::size_t>& seen, std::size_t family,
                const std::vector<Member>& members, MakeRule make_rule, Specific specific_key) {
  std::map<std::string, std::vector<Member>> by_specific;
  for (const Member& m : members) by_specific[specific_key(m)].push_back(m);
  const auto add = [&](const std::vector<Member>& group, bool general) {
    UrlRule rule = make_rule(group);
    std::set<std::uint64_t> clusters;
    for (const Member& m : group) clusters.insert(m->cluster);
    const std::string key = candidate_key(rule);
    if (auto it = seen.find(key); it != seen.end()) {
      out[it->second].clusters.insert(clusters.begin(), clusters.end());
      return;
    }
    seen.emplace(key, out.size());
    out.push_back({.rule = std::move(rule),
                   .clusters = std::move(clusters),
                   .originals = {},
                   .originals_to_site_urls = 0,
                   .family = family,
                   .general = general});
  };
  if (by_specific.size() > 1) add(members, true);
  for (const auto& [key, group] : by_specific) add(group, by_specific.size() == 1);
}

/// The query parameters a duplicate has and its indexed page lacks (by name, sorted by name:
/// one pairwise rule deletes them together).
struct DroppedParams {
  std::vector<QueryParam> params;
  std::uint64_t cluster = 0;
};

/// Whether `to`'s parameters are `from`'s (less those named in `dropped`) sorted by name, and
/// were not in that order already.
bool sorts_params(const UrlParts& from, const UrlParts& to, const std::set<std::string>& dropped) {
  std::vector<QueryParam> kept;
  for (const QueryParam& p : from.params) {
    if (!dropped.contains(p.name)) kept.push_back(p);
  }
  if (kept == to.params || kept.size() < 2) return false;
  std::stable_sort(kept.begin(), kept.end(), [](const QueryParam& a, const QueryParam& b) { return a.name < b.name; });
  return kept == to.params;
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

/// What stage 1 finds in the learning clusters.
struct PairwiseRules {
  std::vector<PathEdit> edits;  ///< locations aligned, both tokenizations
  std::map<std::string, std::vector<DroppedParams>> dropped_params;  ///< by the names, joined
  std::vector<std::uint64_t> sorting_clusters;  ///< clusters with a pair that sorts parameters
};

/// Stage 1: each duplicate of a learning cluster against the cluster's indexed page. Holds
/// clusters out (site.held_out) as it meets them; counts pairs and clusters in `report`.
PairwiseRules pairwise_rules(Site& site, double held_out_fraction, LearnReport& report) {
  PairwiseRules out;
  std::set<std::uint64_t> duplicate_clusters;
  for (std::size_t i = 0; i < site.url.size(); ++i) {
    auto target = site.indexed_of_cluster.find(site.cluster[i]);
    if (site.indexed[i] || target == site.indexed_of_cluster.end()) continue;
    const std::uint64_t cluster = site.cluster[i];
    if (duplicate_clusters.insert(cluster).second && is_held_out(site.url[target->second], held_out_fraction)) {
      site.held_out.insert(cluster);
    }
    if (site.held_out.contains(cluster)) continue;
    ++report.pairs;
    const UrlParts& from = site.parts[i];
    const UrlParts& to = site.parts[target->second];
    if (from.location() != to.location()) {
      // Both cuts of words: whole words generalise an id ("8F3A9C21" as hex), deep tokens a
      // name with a number ("mirror0" as "mirror" + digits). Validation picks what holds.
      for (Tokenization how : {Tokenization::kWords, Tokenization::kDeep}) {
        if (auto edit = align(from, to, how)) {
          edit->how = how;
          edit->cluster = cluster;
          edit->source = i;
          out.edits.push_back(std::move(*edit));
        }
      }
    }
    std::set<std::string> dropped;
    DroppedParams pair_drops{{}, cluster};
    for (const QueryParam& p : from.params) {
      const bool kept = std::any_of(to.params.begin(), to.params.end(), [&](const QueryParam& q) { return q.name == p.name; });
      if (!kept && dropped.insert(p.name).second) pair_drops.params.push_back(p);
    }
    if (!pair_drops.params.empty()) {
      std::sort(pair_drops.params.begin(), pair_drops.params.end(),
                [](const QueryParam& a, const QueryParam& b) { return a.name < b.name; });
      std::string names;
      for (const QueryParam& p : pair_drops.params) names += p.name + '&';
      out.dropped_params[names].push_back(std::move(pair_drops));
    }
    if (sorts_params(from, to, dropped)) out.sorting_clusters.push_back(cluster);
  }
  report.duplicate_clusters = duplicate_clusters.size();
  report.held_out_clusters = site.held_out.size();
  report.learning_clusters = report.duplicate_clusters - report.held_out_clusters;
  return out;
}

/// Stage 2: each shape's pairwise rules generalised, and their specific forms.
std::vector<Candidate> generalise(const PairwiseRules& pairs) {
  std::vector<Candidate> candidates;
  std::unordered_map<std::string, std::size_t> seen;
  std::size_t family = 0;
  std::map<std::string, std::vector<const PathEdit*>> shapes;
  for (const PathEdit& e : pairs.edits) shapes[shape_of(e)].push_back(&e);
  for (const auto& [shape, members] : shapes) {
    add_family(candidates, seen, family++, members, path_rule, [](const PathEdit* e) {
      std::string key;
      for (const Tokens& d : e->drops) key += text_of(d) + '\x1f';
      return key;
    });
  }
  for (const auto& [names, drops] : pairs.dropped_params) {
    std::vector<const DroppedParams*> members;
    for (const DroppedParams& d : drops) members.push_back(&d);
    add_family(
        candidates, seen, family++, members,
        [](const std::vector<const DroppedParams*>& group) {
          UrlRule rule;
          rule.kind = RuleKind::kDropParam;
          for (std::size_t k = 0; k < group.front()->params.size(); ++k) {
            std::set<std::string> distinct;
            std::vector<std::string> values;
            for (const DroppedParams* d : group) {
              values.push_back(d->params[k].value);
              distinct.insert(d->params[k].value);
            }
            rule.params.push_back({group.front()->params[k].name,
                                   distinct.size() == 1 ? regex_quote(*distinct.begin()) : value_pattern(values)});
          }
          return rule;
        },
        [](const DroppedParams* d) {
          std::string values;
          for (const QueryParam& p : d->params) values += p.value + '&';
          return values;
        });
  }
  if (!pairs.sorting_clusters.empty()) {
    Candidate sort;
    sort.rule.kind = RuleKind::kSortParams;
    sort.clusters.insert(pairs.sorting_clusters.begin(), pairs.sorting_clusters.end());
    sort.family = family++;
    sort.general = true;
    candidates.push_back(std::move(sort));
  }

  return candidates;
}

/// Stage 3: every candidate applied alone to every URL of the site (`rules`: the candidates'
/// rules compiled, in the same order). An indexed page it changes is an original it would
/// make unfindable; a duplicate it changes is right when it lands on a URL of its own cluster.
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

/// Stage 4: the candidates that pass (support was checked before), with their exceptions; a
/// general rule that passes replaces its family's specific ones.
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

/// Stage 5: a rule whose every change another kept rule makes too (the same URL into the same
/// URL) adds nothing, as "mirror0" beside "mirror" + digits; the wider rule stays.
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

/// Stage 6: normalising to a fixed point with all the kept rules must not move an indexed page
/// either; the rule that first moves one goes, until none does.
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
