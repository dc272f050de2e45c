/// @file rule_learner_generalise.cpp
/// @brief Stage 2 of learning URL rules: pairwise rules generalised across clusters into candidates.
///
/// Pairwise rules of one shape form a family: a kept run that varies becomes a wildcard, a
/// deleted word or parameter value that varies becomes its narrowest class, and each group of
/// members that delete the same texts also gives a specific candidate. Validation (stage 3)
/// decides which of them hold.
#include "urls/rule_learner_stages.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

namespace canon::urls::detail {
namespace {

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

}  // namespace

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

}  // namespace canon::urls::detail
