/// @file test_url_rules.cpp
/// @brief Rule files (round trip, and a clear error for each kind of bad file), normalising with
/// rules to a fixed point, the RE2::Set shortcut against trying every rule, the Nutch export.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "urls/url_rules.h"

using canon::urls::decode_rule_file;
using canon::urls::encode_rule_file;
using canon::urls::RuleFile;
using canon::urls::RuleKind;
using canon::urls::RuleSet;
using canon::urls::UrlRule;

namespace {

UrlRule path_rule(std::string pattern, std::string rewrite) {
  UrlRule r;
  r.kind = RuleKind::kPath;
  r.pattern = std::move(pattern);
  r.rewrite = std::move(rewrite);
  return r;
}

UrlRule drop_rule(std::string param, std::string value, std::string location = "") {
  UrlRule r;
  r.kind = RuleKind::kDropParam;
  r.params.push_back({std::move(param), std::move(value)});
  r.location = std::move(location);
  return r;
}

UrlRule sort_rule(std::string location = "") {
  UrlRule r;
  r.kind = RuleKind::kSortParams;
  r.location = std::move(location);
  return r;
}

std::string normalized(const RuleSet& rules, const std::string& url) {
  auto out = rules.normalize(url);
  REQUIRE(out.ok());
  return out->url;
}

}  // namespace

TEST_CASE("rule files: what encode_rule_file writes, decode_rule_file reads back") {
  RuleFile file;
  file.parameters.min_support = 3;
  file.parameters.min_precision = 0.9;
  UrlRule print = path_rule("(http://h)/print(.*)", "\\1\\2");
  print.evidence.support = 7;
  print.evidence.held_out_changed = 4;
  print.evidence.held_out_correct = 4;
  print.evidence.coverage = 11;
  print.evidence.example_from = "http://h/print/a.html";
  print.evidence.example_to = "http://h/a.html";
  file.rules = {print, drop_rule("sid", "[0-9]+", "http://h/app/.*"), sort_rule()};
  auto back = decode_rule_file(encode_rule_file(file), "rules.json");
  REQUIRE(back.ok());
  CHECK(back->parameters.min_support == 3);
  CHECK(back->parameters.min_precision == doctest::Approx(0.9));
  REQUIRE(back->rules.size() == 3);
  CHECK(back->rules[0].pattern == print.pattern);
  CHECK(back->rules[0].rewrite == print.rewrite);
  CHECK(back->rules[0].evidence.support == 7);
  CHECK(back->rules[0].evidence.held_out_correct == 4);
  CHECK(back->rules[0].evidence.coverage == 11);
  CHECK(back->rules[0].evidence.example_to == "http://h/a.html");
  CHECK(back->rules[1].kind == RuleKind::kDropParam);
  CHECK(back->rules[1].params == std::vector<canon::urls::ParamMatch>{{"sid", "[0-9]+"}});
  CHECK(back->rules[1].location == "http://h/app/.*");
  CHECK(back->rules[2].kind == RuleKind::kSortParams);
  // A hand-written file needs only its rules.
  auto minimal = decode_rule_file(R"({"rules": [{"kind": "drop-param", "param": "utm_source"}]})", "mine.json");
  REQUIRE(minimal.ok());
  REQUIRE(minimal->rules.size() == 1);
  CHECK(minimal->rules[0].params == std::vector<canon::urls::ParamMatch>{{"utm_source", ""}});
}

TEST_CASE("rule files: each kind of bad file is refused with a message naming the problem") {
  struct Case {
    std::string text;
    std::string message_part;
  };
  const std::vector<Case> cases = {
      {"", "not valid JSON"},
      {"{\"rules\": [", "not valid JSON"},
      {"[1, 2]", "not a JSON object"},
      {"{}", "no \"rules\" array"},
      {R"j({"format": "something else", "rules": []})j", "not a canon URL rule file"},
      {R"j({"version": 2, "rules": []})j", "version 2"},
      {R"j({"rules": [7]})j", "rule 1: not a JSON object"},
      {R"j({"rules": [{"kind": "rename"}]})j", "rule 1: unknown kind 'rename'"},
      {R"j({"rules": [{"kind": "path"}]})j", "rule 1: a path rule needs a \"pattern\""},
      {R"j({"rules": [{"kind": "path", "pattern": "(a", "rewrite": ""}]})j", "rule 1: pattern '(a'"},
      {R"j({"rules": [{"kind": "path", "pattern": "(a)", "rewrite": "\\2"}]})j", "rule 1: rewrite '\\2'"},
      {R"j({"rules": [{"kind": "sort-params"}, {"kind": "drop-param"}]})j", "rule 2: a drop-param rule needs a \"param\""},
      {R"j({"rules": [{"kind": "drop-param", "param": "x", "value": "[z-a]"}]})j", "rule 1: value '[z-a]'"},
      {R"j({"rules": [{"kind": "drop-param", "params": [{"value": "1"}]}]})j", "rule 1: each of \"params\" needs a \"name\""},
      {R"j({"rules": [{"kind": "drop-param", "params": {}}]})j", "rule 1: \"params\" is not an array"},
      {R"j({"rules": [{"kind": "sort-params", "location": "*"}]})j", "rule 1: location '*'"},
      {R"j({"rules": [{"kind": "path", "pattern": 5}]})j", "rule 1: \"pattern\" is not a string"},
      {R"j({"rules": [{"kind": "sort-params", "support": -1}]})j", "must be counts"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    auto file = decode_rule_file(c.text, "bad.json");
    REQUIRE_FALSE(file.ok());
    CHECK(file.status().message().starts_with("bad.json: "));
    CHECK(file.status().message().find(c.message_part) != std::string::npos);
  }
}

TEST_CASE("normalize: RFC 3986 first, then rules to a fixed point, most specific first") {
  auto rules = RuleSet::compile({
      drop_rule("sid", "[0-9a-f]+"),
      sort_rule(),
      path_rule("(http://h)/print(.*)", "\\1\\2"),
      path_rule("(http://h/docs/)[0-9]+\\.[0-9]+(.*)", "\\1latest\\2"),
  });
  REQUIRE(rules.ok());
  // Untouched URLs come back RFC-normalised only.
  CHECK(normalized(rules.value(), "HTTP://H:80/a/./b.html#x") == "http://h/a/b.html");
  // Three rules in turn: print prefix, release folder, session id; then the parameters sorted.
  auto out = rules->normalize("http://h/print/docs/3.11/a.html?z=1&sid=00ff&b=2");
  REQUIRE(out.ok());
  CHECK(out->url == "http://h/docs/latest/a.html?b=2&z=1");
  CHECK(out->rules.size() == 4);
  CHECK_FALSE(out->capped);
  // The only parameter dropped leaves no '?'.
  CHECK(normalized(rules.value(), "http://h/a.html?sid=12") == "http://h/a.html");
  // A value outside the rule's class stays.
  CHECK(normalized(rules.value(), "http://h/a.html?sid=XYZ") == "http://h/a.html?sid=XYZ");
  // Most specific first: the longer literal pattern is tried before the shorter one.
  CHECK(rules->rules().front().pattern == "(http://h/docs/)[0-9]+\\.[0-9]+(.*)");
  // Not a URL: an error, not a guess.
  CHECK_FALSE(rules->normalize("not a url").ok());
}

TEST_CASE("normalize: a drop-param rule of several parameters deletes them together or not at all") {
  UrlRule utm;
  utm.kind = RuleKind::kDropParam;
  utm.params = {{"utm_medium", "[a-z]+"}, {"utm_source", ""}};
  auto rules = RuleSet::compile({utm});
  REQUIRE(rules.ok());
  CHECK(normalized(rules.value(), "http://h/a?utm_source=x&id=3&utm_medium=feed") == "http://h/a?id=3");
  CHECK(normalized(rules.value(), "http://h/a?utm_source=x&id=3") == "http://h/a?utm_source=x&id=3");
  CHECK(normalized(rules.value(), "http://h/a?utm_source=x&utm_medium=F1") == "http://h/a?utm_source=x&utm_medium=F1");
}

TEST_CASE("normalize: rules that undo each other stop at the step cap") {
  auto rules = RuleSet::compile({path_rule("(http://h/)a(.*)", "\\1b\\2"), path_rule("(http://h/)b(.*)", "\\1a\\2")}, 5);
  REQUIRE(rules.ok());
  auto out = rules->normalize("http://h/a.html");
  REQUIRE(out.ok());
  CHECK(out->capped);
  CHECK(out->rules.size() == 5);
}

TEST_CASE("normalize: a rewrite that is not a URL is not applied") {
  auto rules = RuleSet::compile({path_rule("http://h/(.*)", "no scheme \\1")});
  REQUIRE(rules.ok());
  CHECK(normalized(rules.value(), "http://h/a.html") == "http://h/a.html");
}

TEST_CASE("each_change (through one RE2::Set) equals trying every rule alone (model test)") {
  std::mt19937_64 random(7);
  const std::vector<std::string> words = {"a", "b", "docs", "print", "v1", "12", "x"};
  const auto pick = [&](const std::vector<std::string>& from) { return from[random() % from.size()]; };
  for (int round = 0; round < 20; ++round) {
    std::vector<UrlRule> rules;
    for (int i = 0; i < 30; ++i) {
      switch (random() % 4) {
        case 0: rules.push_back(path_rule("(http://h/)" + pick(words) + "/(.*)", "\\1\\2")); break;
        case 1: rules.push_back(path_rule("(http://h/.*)/" + pick(words) + "(\\.html)", "\\1\\2")); break;
        case 2: rules.push_back(drop_rule(pick(words), random() % 2 ? "[0-9]+" : "")); break;
        default: rules.push_back(sort_rule(random() % 2 ? "" : "http://h/" + pick(words) + "/.*")); break;
      }
    }
    auto set = RuleSet::compile(rules);
    REQUIRE(set.ok());
    for (int u = 0; u < 50; ++u) {
      std::string url = "http://h";
      for (int depth = 1 + static_cast<int>(random() % 3); depth > 0; --depth) url += "/" + pick(words);
      url += ".html";
      if (random() % 2) url += "?" + pick(words) + "=" + pick({"1", "22", "z"}) + "&" + pick(words) + "=3";
      std::vector<std::pair<std::size_t, std::string>> every;
      for (std::size_t r = 0; r < set->rules().size(); ++r) {
        std::string out = set->apply_one(r, url);
        if (out != url) every.emplace_back(r, out);
      }
      CAPTURE(url);
      CHECK(set->each_change(url) == every);
    }
  }
}

TEST_CASE("nutch_regex_normalizer: one regex per rule over the whole URL, query kept") {
  const std::string xml = canon::urls::nutch_regex_normalizer(
      {path_rule("(http://h)/print(.*)", "\\1\\2"), drop_rule("sid", "[0-9]+"), sort_rule()});
  CHECK(xml.starts_with("<?xml version=\"1.0\"?>"));
  CHECK(xml.find("<pattern>^(?:(http://h)/print(.*))(\\?[^#]*)?$</pattern>") != std::string::npos);
  CHECK(xml.find("<substitution>$1$2$3</substitution>") != std::string::npos);
  CHECK(xml.find("sid=(?:[0-9]+)&amp;</pattern>") != std::string::npos);
  CHECK(xml.find("urlnormalizer-querystring") != std::string::npos);
  CHECK(xml.find("</regex-normalize>") != std::string::npos);
}
