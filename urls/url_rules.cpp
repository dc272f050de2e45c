/// @file url_rules.cpp
/// @brief Rule files, compiled rule sets and the Nutch export.
#include "urls/url_rules.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>

#include <cstdio>

#include <nlohmann/json.hpp>
#include <xxhash.h>
#include <re2/re2.h>
#include <re2/set.h>
#include <unordered_map>

#include "urls/url.h"
#include "urls/url_parts.h"

namespace canon::urls {
namespace {

using json = nlohmann::ordered_json;

constexpr std::string_view kFormatName = "canon url rules";
constexpr int kFormatVersion = 1;

/// `pattern` compiled to match a whole string; nullptr and a message when RE2 rejects it.
std::unique_ptr<RE2> compile_whole(const std::string& pattern, std::string& error) {
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_unique<RE2>("^(?:" + pattern + ")$", options);
  if (!re->ok()) {
    error = re->error();
    return nullptr;
  }
  return re;
}

/// Literal characters a pattern demands: characters outside classes, groups' syntax and
/// quantifiers (an escaped character counts as one).
std::size_t literal_characters(std::string_view pattern) {
  std::size_t count = 0;
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (in_class) {
      if (c == '\\') ++i;
      else if (c == ']') in_class = false;
      continue;
    }
    switch (c) {
      case '\\':
        ++i;
        ++count;
        break;
      case '[': in_class = true; break;
      case '(':
        if (i + 2 < pattern.size() && pattern[i + 1] == '?' && pattern[i + 2] == ':') i += 2;
        break;
      case ')': case '*': case '+': case '?': case '|': case '^': case '$': case '.': case '{': case '}':
        break;
      default:
        if (c >= '0' && c <= '9' && i > 0 && pattern[i - 1] == '{') break;
        ++count;
    }
  }
  return count;
}

json evidence_json(const RuleEvidence& e) {
  json out;
  out["support"] = e.support;
  out["precision"] = e.precision();
  out["held_out"] = {{"changed", e.held_out_changed}, {"correct", e.held_out_correct}};
  out["learning"] = {{"changed", e.learning_changed}, {"correct", e.learning_correct}};
  out["unresolved"] = e.unresolved;
  out["originals_changed"] = e.originals_changed;
  out["coverage"] = e.coverage;
  if (!e.example_from.empty()) out["example"] = {{"from", e.example_from}, {"to", e.example_to}};
  return out;
}

/// Reads an optional unsigned count of `object[key]` into `out`; false when it is there but not
/// a non-negative integer.
bool read_count(const json& object, const char* key, std::size_t& out) {
  if (!object.contains(key)) return true;
  if (!object[key].is_number_unsigned()) return false;
  out = object[key].get<std::size_t>();
  return true;
}

Status check_rule(const UrlRule& rule, const std::string& where) {
  std::string error;
  if (rule.kind == RuleKind::kPath) {
    if (rule.pattern.empty()) return Status::error(where + ": a path rule needs a \"pattern\"");
    auto re = compile_whole(rule.pattern, error);
    if (re == nullptr) return Status::error(where + ": pattern '" + rule.pattern + "': " + error);
    if (!re->CheckRewriteString(rule.rewrite, &error)) {
      return Status::error(where + ": rewrite '" + rule.rewrite + "': " + error);
    }
  }
  if (rule.kind == RuleKind::kDropParam) {
    if (rule.params.empty()) return Status::error(where + ": a drop-param rule needs a \"param\"");
    for (const ParamMatch& p : rule.params) {
      if (p.name.empty()) return Status::error(where + ": a parameter without a name");
      if (compile_whole(p.value.empty() ? ".*" : p.value, error) == nullptr) {
        return Status::error(where + ": value '" + p.value + "': " + error);
      }
    }
  }
  if (!rule.location.empty() && compile_whole(rule.location, error) == nullptr) {
    return Status::error(where + ": location '" + rule.location + "': " + error);
  }
  return Status::ok_status();
}

}  // namespace

const char* to_string(RuleKind kind) {
  switch (kind) {
    case RuleKind::kPath: return "path";
    case RuleKind::kDropParam: return "drop-param";
    case RuleKind::kSortParams: return "sort-params";
  }
  return "path";
}

std::string regex_quote(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string describe(const UrlRule& rule) {
  switch (rule.kind) {
    case RuleKind::kPath: return "path " + rule.pattern + " -> " + rule.rewrite;
    case RuleKind::kDropParam: {
      std::string out = "drop-param";
      for (const ParamMatch& p : rule.params) out += " " + p.name + "=" + p.value;
      return out;
    }
    case RuleKind::kSortParams: return "sort-params";
  }
  return "";
}

std::size_t UrlRule::specificity() const {
  switch (kind) {
    case RuleKind::kPath: return literal_characters(pattern);
    case RuleKind::kDropParam: {
      std::size_t n = literal_characters(location);
      for (const ParamMatch& p : params) n += p.name.size() + literal_characters(p.value);
      return n;
    }
    case RuleKind::kSortParams: return literal_characters(location);
  }
  return 0;
}

std::string encode_rule_file(const RuleFile& file) {
  json out;
  out["format"] = kFormatName;
  out["version"] = kFormatVersion;
  out["parameters"] = {{"min_support", file.parameters.min_support},
                       {"min_precision", file.parameters.min_precision},
                       {"held_out_fraction", file.parameters.held_out_fraction},
                       {"exception_share", file.parameters.exception_share}};
  out["summary"] = json::parse(file.summary_json.empty() ? "{}" : file.summary_json);
  json rules = json::array();
  for (const UrlRule& rule : file.rules) {
    json r;
    r["kind"] = to_string(rule.kind);
    switch (rule.kind) {
      case RuleKind::kPath:
        r["pattern"] = rule.pattern;
        r["rewrite"] = rule.rewrite;
        break;
      case RuleKind::kDropParam:
        r["params"] = json::array();
        for (const ParamMatch& p : rule.params) r["params"].push_back({{"name", p.name}, {"value", p.value}});
        r["location"] = rule.location;
        break;
      case RuleKind::kSortParams:
        r["location"] = rule.location;
        break;
    }
    if (!rule.exceptions.empty()) r["except"] = rule.exceptions;
    r.update(evidence_json(rule.evidence));
    rules.push_back(std::move(r));
  }
  out["rules"] = std::move(rules);
  return out.dump(2) + "\n";
}

namespace {

/// The "parameters" object of a rule file into `parameters` (the values learning used).
Status decode_parameters(const json& p, const std::string& where, LearnParameters& parameters) {
  if (!read_count(p, "min_support", parameters.min_support)) {
    return Status::error(where + ": parameters.min_support is not a count");
  }
  if (p.contains("min_precision") && p["min_precision"].is_number()) parameters.min_precision = p["min_precision"];
  if (p.contains("held_out_fraction") && p["held_out_fraction"].is_number()) {
    parameters.held_out_fraction = p["held_out_fraction"];
  }
  if (p.contains("exception_share") && p["exception_share"].is_number()) parameters.exception_share = p["exception_share"];
  return Status::ok_status();
}

/// A rule's "param"/"value" (one parameter, written by hand) and "params" ([{name, value}]).
Status decode_rule_params(const json& r, const std::string& where,
                          const std::function<Status(const char*, std::string&)>& text_of, UrlRule& rule) {
  if (r.contains("param")) {
    ParamMatch p;
    if (Status s = text_of("param", p.name); !s.ok()) return s;
    if (Status s = text_of("value", p.value); !s.ok()) return s;
    rule.params.push_back(std::move(p));
  }
  if (!r.contains("params")) return Status::ok_status();
  if (!r["params"].is_array()) return Status::error(where + ": \"params\" is not an array");
  for (const json& p : r["params"]) {
    if (!p.is_object() || !p.contains("name") || !p["name"].is_string() ||
        (p.contains("value") && !p["value"].is_string())) {
      return Status::error(where + ": each of \"params\" needs a \"name\" and may have a \"value\", strings");
    }
    rule.params.push_back({p["name"].get<std::string>(), p.contains("value") ? p["value"].get<std::string>() : ""});
  }
  return Status::ok_status();
}

/// A rule's "except" (URLs, normalised) and its evidence: counts, held-out and learning
/// checks, example.
Status decode_rule_evidence(const json& r, const std::string& where, UrlRule& rule) {
  if (r.contains("except")) {
    if (!r["except"].is_array()) return Status::error(where + ": \"except\" is not an array of URLs");
    for (const json& url : r["except"]) {
      if (!url.is_string()) return Status::error(where + ": \"except\" is not an array of URLs");
      auto normal = normalize_url(url.get<std::string>());
      if (!normal.ok()) return Status::error(where + ": except: " + normal.status().message());
      rule.exceptions.push_back(normal.value());
    }
  }
  if (!read_count(r, "support", rule.evidence.support) || !read_count(r, "coverage", rule.evidence.coverage) ||
      !read_count(r, "originals_changed", rule.evidence.originals_changed) ||
      !read_count(r, "unresolved", rule.evidence.unresolved)) {
    return Status::error(where + ": support, coverage and originals_changed must be counts");
  }
  for (auto [key, changed, correct] :
       {std::tuple{"held_out", &rule.evidence.held_out_changed, &rule.evidence.held_out_correct},
        std::tuple{"learning", &rule.evidence.learning_changed, &rule.evidence.learning_correct}}) {
    if (r.contains(key) && r[key].is_object() &&
        (!read_count(r[key], "changed", *changed) || !read_count(r[key], "correct", *correct))) {
      return Status::error(where + ": " + key + " counts must be counts");
    }
  }
  if (r.contains("example") && r["example"].is_object()) {
    const json& e = r["example"];
    if (e.contains("from") && e["from"].is_string()) rule.evidence.example_from = e["from"];
    if (e.contains("to") && e["to"].is_string()) rule.evidence.example_to = e["to"];
  }
  return Status::ok_status();
}

/// One element of a rule file's "rules"; `where` names it in errors.
Result<UrlRule> decode_rule(const json& r, const std::string& where) {
  if (!r.is_object()) return Status::error(where + ": not a JSON object");
  const auto text_of = [&](const char* key, std::string& out) -> Status {
    if (!r.contains(key)) return Status::ok_status();
    if (!r[key].is_string()) return Status::error(where + ": \"" + key + "\" is not a string");
    out = r[key].get<std::string>();
    return Status::ok_status();
  };
  std::string kind;
  if (Status s = text_of("kind", kind); !s.ok()) return s;
  UrlRule rule;
  if (kind == "path") {
    rule.kind = RuleKind::kPath;
  } else if (kind == "drop-param") {
    rule.kind = RuleKind::kDropParam;
  } else if (kind == "sort-params") {
    rule.kind = RuleKind::kSortParams;
  } else {
    return Status::error(where + ": unknown kind '" + kind + "' (path, drop-param or sort-params)");
  }
  for (auto [key, field] : {std::pair{"pattern", &rule.pattern}, std::pair{"rewrite", &rule.rewrite},
                            std::pair{"location", &rule.location}}) {
    if (Status s = text_of(key, *field); !s.ok()) return s;
  }
  if (Status s = decode_rule_params(r, where, text_of, rule); !s.ok()) return s;
  if (Status s = decode_rule_evidence(r, where, rule); !s.ok()) return s;
  if (Status ok = check_rule(rule, where); !ok.ok()) return ok;
  return rule;
}

}  // namespace

Result<RuleFile> decode_rule_file(std::string_view text, const std::string& where) {
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::error(where + ": not valid JSON");
  if (!doc.is_object()) return Status::error(where + ": not a JSON object");
  if (doc.contains("format") && doc["format"] != kFormatName) {
    return Status::error(where + ": not a canon URL rule file (format is not \"" + std::string(kFormatName) + "\")");
  }
  if (doc.contains("version") && doc["version"] != kFormatVersion) {
    return Status::error(where + ": URL rule file version " + doc["version"].dump() + ", this canon reads version " +
                         std::to_string(kFormatVersion));
  }
  if (!doc.contains("rules") || !doc["rules"].is_array()) return Status::error(where + ": no \"rules\" array");
  RuleFile file;
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(XXH3_64bits(text.data(), text.size())));
  file.digest = digest;
  if (doc.contains("parameters") && doc["parameters"].is_object()) {
    if (Status s = decode_parameters(doc["parameters"], where, file.parameters); !s.ok()) return s;
  }
  if (doc.contains("summary")) file.summary_json = doc["summary"].dump();
  std::size_t number = 0;
  for (const json& r : doc["rules"]) {
    auto rule = decode_rule(r, where + ": rule " + std::to_string(++number));
    if (!rule.ok()) return rule.status();
    file.rules.push_back(std::move(rule).value());
  }
  return file;
}

Result<RuleFile> read_rule_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::not_found("cannot open URL rule file " + path);
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::io_error("cannot read URL rule file " + path);
  return decode_rule_file(text.str(), path);
}

struct RuleSet::Rep {
  std::vector<UrlRule> rules;
  std::vector<std::unique_ptr<RE2>> pattern;   // kPath
  std::vector<std::vector<std::unique_ptr<RE2>>> values;  // kDropParam: one per parameter
  std::vector<std::unique_ptr<RE2>> location;  // kDropParam, kSortParams; nullptr: any
  std::size_t max_steps = 8;
  /// The path rules' patterns in one automaton, and the rule of each of its entries; nullptr
  /// when RE2 could not build it (then every path rule is tried).
  std::unique_ptr<RE2::Set> path_set;
  std::vector<std::size_t> path_set_rule;
  std::vector<std::size_t> path_rules, sort_rules;
  std::unordered_map<std::string, std::vector<std::size_t>> drop_rules_by_param;

  /// The rules that may change a URL of these parts, in rule order.
  std::vector<std::size_t> candidates(const UrlParts& parts, const std::string& location) const {
    std::vector<std::size_t> out;
    std::vector<int> matched;
    RE2::Set::ErrorInfo error{};
    if (path_set != nullptr && (path_set->Match(location, &matched, &error) || error.kind == RE2::Set::kNoError)) {
      for (int m : matched) out.push_back(path_set_rule[static_cast<std::size_t>(m)]);
    } else {
      out = path_rules;
    }
    for (const QueryParam& p : parts.params) {
      if (auto it = drop_rules_by_param.find(p.name); it != drop_rules_by_param.end()) {
        out.insert(out.end(), it->second.begin(), it->second.end());
      }
    }
    if (parts.params.size() >= 2) out.insert(out.end(), sort_rules.begin(), sort_rules.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
};

RuleSet::RuleSet(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
RuleSet::RuleSet(RuleSet&&) noexcept = default;
RuleSet& RuleSet::operator=(RuleSet&&) noexcept = default;
RuleSet::~RuleSet() = default;

Result<RuleSet> RuleSet::compile(std::vector<UrlRule> rules, std::size_t max_steps) {
  std::stable_sort(rules.begin(), rules.end(),
                   [](const UrlRule& a, const UrlRule& b) { return a.specificity() > b.specificity(); });
  for (UrlRule& rule : rules) std::sort(rule.exceptions.begin(), rule.exceptions.end());
  auto rep = std::make_unique<Rep>();
  rep->max_steps = max_steps;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const UrlRule& rule = rules[i];
    if (Status ok = check_rule(rule, "rule " + std::to_string(i + 1)); !ok.ok()) return ok;
    std::string error;
    rep->pattern.push_back(rule.kind == RuleKind::kPath ? compile_whole(rule.pattern, error) : nullptr);
    rep->values.emplace_back();
    for (const ParamMatch& p : rule.params) rep->values.back().push_back(compile_whole(p.value.empty() ? ".*" : p.value, error));
    rep->location.push_back(rule.location.empty() ? nullptr : compile_whole(rule.location, error));
    switch (rule.kind) {
      case RuleKind::kPath: rep->path_rules.push_back(i); break;
      case RuleKind::kDropParam: rep->drop_rules_by_param[rule.params.front().name].push_back(i); break;
      case RuleKind::kSortParams: rep->sort_rules.push_back(i); break;
    }
  }
  if (!rep->path_rules.empty()) {
    RE2::Options options;
    options.set_log_errors(false);
    options.set_max_mem(256 << 20);
    auto set = std::make_unique<RE2::Set>(options, RE2::ANCHOR_BOTH);
    bool added = true;
    for (std::size_t i : rep->path_rules) {
      added = added && set->Add(rules[i].pattern, nullptr) >= 0;
      rep->path_set_rule.push_back(i);
    }
    if (added && set->Compile()) rep->path_set = std::move(set);
  }
  rep->rules = std::move(rules);
  return RuleSet(std::move(rep));
}

const std::vector<UrlRule>& RuleSet::rules() const { return rep_->rules; }

std::string RuleSet::apply_one(std::size_t index, const std::string& url) const {
  auto parts = split_url(url);
  if (!parts.ok()) return url;
  const UrlRule& rule = rep_->rules[index];
  if (std::binary_search(rule.exceptions.begin(), rule.exceptions.end(), url)) return url;
  const std::string location = parts->location();
  if (rep_->location[index] != nullptr && !RE2::FullMatch(location, *rep_->location[index])) return url;
  switch (rule.kind) {
    case RuleKind::kPath: {
      std::string rewritten;
      if (!RE2::Extract(location, *rep_->pattern[index], rule.rewrite, &rewritten)) return url;
      auto moved = split_url(rewritten);
      if (!moved.ok()) return url;
      moved->has_query = parts->has_query;
      moved->params = std::move(parts->params);
      auto normal = normalize_url(join_url(moved.value()));
      return normal.ok() ? normal.value() : url;
    }
    case RuleKind::kDropParam: {
      // Every parameter the rule names must be there, with a matching value.
      const auto matches = [&](const QueryParam& q, std::size_t k) {
        return q.name == rule.params[k].name && RE2::FullMatch(q.value, *rep_->values[index][k]);
      };
      for (std::size_t k = 0; k < rule.params.size(); ++k) {
        if (std::none_of(parts->params.begin(), parts->params.end(), [&](const QueryParam& q) { return matches(q, k); })) {
          return url;
        }
      }
      std::erase_if(parts->params, [&](const QueryParam& q) {
        for (std::size_t k = 0; k < rule.params.size(); ++k) {
          if (matches(q, k)) return true;
        }
        return false;
      });
      if (parts->params.empty()) parts->has_query = false;
      return join_url(parts.value());
    }
    case RuleKind::kSortParams:
      std::stable_sort(parts->params.begin(), parts->params.end(),
                       [](const QueryParam& a, const QueryParam& b) { return a.name < b.name; });
      return join_url(parts.value());
  }
  return url;
}

std::vector<std::pair<std::size_t, std::string>> RuleSet::each_change(const std::string& url) const {
  std::vector<std::pair<std::size_t, std::string>> out;
  auto parts = split_url(url);
  if (!parts.ok()) return out;
  for (std::size_t i : rep_->candidates(parts.value(), parts->location())) {
    std::string next = apply_one(i, url);
    if (next != url) out.emplace_back(i, std::move(next));
  }
  return out;
}

Result<Normalized> RuleSet::normalize(std::string_view url) const {
  auto normal = normalize_url(url);
  if (!normal.ok()) return normal.status();
  Normalized out{normal.value(), {}, false};
  for (std::size_t step = 0;; ++step) {
    auto parts = split_url(out.url);
    if (!parts.ok()) return out;
    bool changed = false;
    for (std::size_t i : rep_->candidates(parts.value(), parts->location())) {
      std::string next = apply_one(i, out.url);
      if (next == out.url) continue;
      if (step == rep_->max_steps) {
        out.capped = true;
        return out;
      }
      out.url = std::move(next);
      out.rules.push_back(i);
      changed = true;
      break;
    }
    if (!changed) return out;
  }
}

namespace {

std::string xml_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      default: out += c;
    }
  }
  return out;
}

/// An RE2 rewrite string (\1, \\) as a Java replacement string ($1, \\, \$).
std::string java_replacement(std::string_view rewrite) {
  std::string out;
  for (std::size_t i = 0; i < rewrite.size(); ++i) {
    const char c = rewrite[i];
    if (c == '\\' && i + 1 < rewrite.size()) {
      const char next = rewrite[++i];
      if (next >= '0' && next <= '9') {
        out += '$';
        out += next;
      } else {
        out += '\\';
        out += next;
      }
    } else if (c == '$') {
      out += "\\$";
    } else {
      out += c;
    }
  }
  return out;
}

/// `text` safe inside an XML comment (which may not hold "--").
std::string comment_text(std::string_view text) {
  std::string out = xml_escape(text);
  for (std::size_t at = out.find("--"); at != std::string::npos; at = out.find("--", at)) out.replace(at, 2, "- -");
  return out;
}

void add_regex(std::ostringstream& out, const std::string& comment, const std::string& pattern,
               const std::string& substitution) {
  out << "<!-- " << comment_text(comment) << " -->\n<regex>\n  <pattern>" << xml_escape(pattern)
      << "</pattern>\n  <substitution>" << xml_escape(substitution) << "</substitution>\n</regex>\n";
}

}  // namespace

std::string nutch_regex_normalizer(const std::vector<UrlRule>& rules) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n<!-- URL rules learned by canon (canon urls export --format nutch), most specific "
         "first. -->\n<regex-normalize>\n";
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const UrlRule& rule = rules[i];
    const std::string name = "rule " + std::to_string(i + 1) + " (" + to_string(rule.kind) + ", support " +
                             std::to_string(rule.evidence.support) + ")";
    const std::string location = rule.location.empty() ? "[^?#]*" : "(?:" + rule.location + ")";
    // Java's regexes have lookahead (RE2's do not): the exceptions become one.
    std::string unless;
    for (const std::string& url : rule.exceptions) unless += (unless.empty() ? "" : "|") + regex_quote(url);
    if (!unless.empty()) unless = "(?!(?:" + unless + ")$)";
    switch (rule.kind) {
      case RuleKind::kPath: {
        RE2 re(rule.pattern);
        const int query_group = re.NumberOfCapturingGroups() + 1;
        add_regex(out, name, "^" + unless + "(?:" + rule.pattern + ")(\\?[^#]*)?$",
                  java_replacement(rule.rewrite) + "$" + std::to_string(query_group));
        break;
      }
      case RuleKind::kDropParam:
        // One parameter at a time (Nutch has no "all of them or none").
        for (const ParamMatch& p : rule.params) {
          const std::string param = regex_quote(p.name) + "=(?:" + (p.value.empty() ? "[^&#]*" : p.value) + ")";
          const std::string which = name + ", " + p.name;
          add_regex(out, which + ", not the last parameter", "^" + unless + "(" + location + "\\?(?:[^#]*&)?)" + param + "&", "$1");
          add_regex(out, which + ", the last of several", "^" + unless + "(" + location + "\\?[^#]*)&" + param + "$", "$1");
          add_regex(out, which + ", the only parameter", "^" + unless + "(" + location + ")\\?" + param + "$", "$1");
        }
        break;
      case RuleKind::kSortParams:
        out << "<!-- " << comment_text(name) << ": sort the query parameters of URLs matching "
            << comment_text(rule.location.empty() ? "any location" : rule.location)
            << ": enable Nutch's urlnormalizer-querystring, which sorts them. -->\n";
        break;
    }
  }
  out << "</regex-normalize>\n";
  return out.str();
}

}  // namespace canon::urls
