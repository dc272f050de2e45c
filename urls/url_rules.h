/// @file url_rules.h
/// @brief URL rules: what they are, their file (url-rules.json), and normalising URLs with
/// them to a fixed point (docs/url-rules.md).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace canon::urls {

/// What a rule does to a URL.
enum class RuleKind {
  /// Rewrites the location (origin + path) matching `pattern` (RE2, whole location) into
  /// `rewrite` (RE2 rewrite string: \1..\9 are the pattern's groups); the query is kept.
  kPath,
  /// Deletes the query parameters `params` names when each is there with a value matching its
  /// `value` (RE2, whole value; empty: any) and the location matches `location` (RE2, whole
  /// location; empty: any). A duplicate's URL often has several at once (utm_source and
  /// utm_medium): one rule deletes them together.
  kDropParam,
  /// Sorts the query parameters by name (stably) when the location matches `location`.
  kSortParams,
};

/// "path", "drop-param", "sort-params".
const char* to_string(RuleKind kind);

/// `text` as an RE2 (and Java) pattern that matches it literally.
std::string regex_quote(std::string_view text);

/// How well a rule did when it was learned (all counts of URLs the rule changes, applied alone).
struct RuleEvidence {
  std::size_t support = 0;        ///< learning clusters it was generalised from
  /// Duplicate URLs of held-out clusters it changes into a URL of the site.
  std::size_t held_out_changed = 0;
  std::size_t held_out_correct = 0;  ///< ... into a URL of their own cluster
  std::size_t learning_changed = 0;  ///< the same of learning clusters
  std::size_t learning_correct = 0;
  std::size_t originals_changed = 0;  ///< indexed pages (pages in their own right) it would change
  /// Duplicate URLs it changes into a URL the site does not have: not judged (it may be a step
  /// that another rule completes).
  std::size_t unresolved = 0;
  std::size_t coverage = 0;  ///< URLs of the whole site it changes
  std::string example_from, example_to;  ///< one URL it changes correctly, and into what
  /// held_out_correct / held_out_changed (0 when nothing held out was changed).
  double precision() const {
    return held_out_changed == 0 ? 0.0 : static_cast<double>(held_out_correct) / static_cast<double>(held_out_changed);
  }
};

/// A query parameter a drop-param rule deletes: its name, and what its value must match.
struct ParamMatch {
  std::string name;
  std::string value;  ///< RE2, whole value; empty: any
  bool operator==(const ParamMatch&) const = default;
};

/// One rule.
struct UrlRule {
  RuleKind kind = RuleKind::kPath;
  std::string pattern;   ///< kPath
  std::string rewrite;   ///< kPath
  std::vector<ParamMatch> params;  ///< kDropParam
  std::string location;  ///< kDropParam, kSortParams
  /// URLs (normalised) the rule leaves alone although it matches them: pages in their own right
  /// that learning found the rule would rewrite (at most --exception-share of what it gets right,
  /// plus up to 3 rewritten into URLs the site does not have: docs/url-rules.md, "Exceptions").
  std::vector<std::string> exceptions;
  RuleEvidence evidence;  ///< zero for a hand-written rule

  /// How specific the rule is: the number of literal characters its patterns demand. Rules
  /// are tried most specific first.
  std::size_t specificity() const;
};

/// The parameters a rule file was learned with, written beside its rules.
struct LearnParameters {
  std::size_t min_support = 2;
  double min_precision = 1.0;
  double held_out_fraction = 0.3;
  /// A rule that would rewrite indexed pages keeps them as exceptions when they number at most
  /// this share of the duplicate URLs it rewrites correctly, plus a small allowance (at most 3,
  /// from 45 correct rewrites on) of pages rewritten into URLs the site does not have; else it is
  /// refused. 0: no exceptions at all (docs/url-rules.md, "Exceptions").
  double exception_share = 0.01;
};

/// One line saying what `rule` does: "path PATTERN -> REWRITE", "drop-param NAME=VALUE ...",
/// "sort-params" (pages.jsonl's `url_rule`, and the summaries canon prints).
std::string describe(const UrlRule& rule);

/// The contents of a url-rules.json.
struct RuleFile {
  LearnParameters parameters;
  std::vector<UrlRule> rules;
  /// Anything about the learning run worth keeping (counts, the reduction reached): written as
  /// the "summary" object, read back as its JSON text.
  std::string summary_json = "{}";
  /// XXH3-64 of the file's bytes, hexadecimal (set by decode_rule_file): what an index built with
  /// the rules records of them.
  std::string digest;
};

/// The JSON text of `file` (docs/url-rules.md, "url-rules.json"), pretty-printed.
std::string encode_rule_file(const RuleFile& file);

/// Parses a rule file; `where` (its path) names it in errors. Fails with a message naming the
/// rule and the problem for malformed JSON, an unknown kind, a pattern RE2 rejects, or a
/// rewrite using a group its pattern lacks.
Result<RuleFile> decode_rule_file(std::string_view text, const std::string& where);

/// Reads and decodes a rule file.
Result<RuleFile> read_rule_file(const std::string& path);

/// What normalising one URL did.
struct Normalized {
  std::string url;                 ///< the canonical URL
  std::vector<std::size_t> rules;  ///< index (in the RuleSet's order) of each rule applied, in order
  bool capped = false;             ///< stopped at the step cap, not at a fixed point
};

/// Rules compiled for applying. Immutable after construction; thread-safe to use.
class RuleSet {
public:
  /// Compiles `rules`, sorted most specific first (ties keep their order). Fails as
  /// decode_rule_file does for a rule that does not compile.
  static Result<RuleSet> compile(std::vector<UrlRule> rules, std::size_t max_steps = 8);

  RuleSet(RuleSet&&) noexcept;
  RuleSet& operator=(RuleSet&&) noexcept;
  ~RuleSet();

  /// The rules, in the order they are tried.
  const std::vector<UrlRule>& rules() const;

  /// `url` after RFC 3986 normalisation and then the rules, applied one at a time (the first
  /// rule in order that changes the URL), to a fixed point or `max_steps` steps. A URL that is
  /// not an absolute http(s) URL fails.
  Result<Normalized> normalize(std::string_view url) const;

  /// `url` (already normalised) after rule `index` alone, once; the URL itself when the rule
  /// does not apply.
  std::string apply_one(std::size_t index, const std::string& url) const;

  /// Each rule that changes `url` (already normalised) when applied alone, in rule order, with
  /// the URL it makes. Path rules are found through one RE2::Set match, not one by one.
  std::vector<std::pair<std::size_t, std::string>> each_change(const std::string& url) const;

private:
  struct Rep;
  explicit RuleSet(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

/// The rules as a Nutch regex-normalize.xml (urlnormalizer-regex): one <regex> per rule, in the
/// order they are tried, each matching the whole URL. Sort rules have no regex form: they are
/// listed as comments naming Nutch's urlnormalizer-querystring, which sorts parameters.
std::string nutch_regex_normalizer(const std::vector<UrlRule>& rules);

}  // namespace canon::urls
