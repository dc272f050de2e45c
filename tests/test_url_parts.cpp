/// @file test_url_parts.cpp
/// @brief Table tests of splitting URLs and tokenising locations for URL rules.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "urls/url_parts.h"

using canon::urls::join_url;
using canon::urls::PathToken;
using canon::urls::QueryParam;
using canon::urls::split_url;
using canon::urls::tokenize_location;
using canon::urls::word_class;
using canon::urls::WordClass;

TEST_CASE("split_url: origin, path and parameters, and join_url gives the URL back") {
  struct Case {
    std::string url;
    std::string origin, path;
    bool has_query;
    std::vector<QueryParam> params;
  };
  const std::vector<Case> cases = {
      {"http://example.com/", "http://example.com", "/", false, {}},
      {"http://example.com/a/b.html", "http://example.com", "/a/b.html", false, {}},
      {"https://example.com:8443/a/", "https://example.com:8443", "/a/", false, {}},
      {"http://example.com/a?", "http://example.com", "/a", true, {}},
      {"http://example.com/a?x=1&y=", "http://example.com", "/a", true, {{"x", "1", true}, {"y", "", true}}},
      {"http://example.com/a?flag&x=1", "http://example.com", "/a", true, {{"flag", "", false}, {"x", "1", true}}},
      {"http://example.com/a?x=1=2", "http://example.com", "/a", true, {{"x", "1=2", true}}},
      {"http://example.com/?b=2&a=1", "http://example.com", "/", true, {{"b", "2", true}, {"a", "1", true}}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.url);
    auto parts = split_url(c.url);
    REQUIRE(parts.ok());
    CHECK(parts->origin == c.origin);
    CHECK(parts->path == c.path);
    CHECK(parts->has_query == c.has_query);
    CHECK(parts->params == c.params);
    CHECK(join_url(parts.value()) == c.url);
  }
  CHECK(split_url("http://example.com/a#frag")->path == "/a");
  CHECK(join_url(split_url("http://example.com/a?x=1&&y=2").value()) == "http://example.com/a?x=1&y=2");
  CHECK_FALSE(split_url("/relative/path").ok());
  CHECK_FALSE(split_url("://no-scheme").ok());
}

TEST_CASE("tokenize_location: the origin whole, delimiters alone, words between them") {
  using K = PathToken::Kind;
  struct Case {
    std::string path;
    std::vector<PathToken> after_origin;
  };
  const std::vector<Case> cases = {
      {"/", {{K::kDelimiter, "/"}}},
      {"/docs/a.html", {{K::kDelimiter, "/"}, {K::kWord, "docs"}, {K::kDelimiter, "/"}, {K::kWord, "a"},
                        {K::kDelimiter, "."}, {K::kWord, "html"}}},
      {"/page-12_b.html", {{K::kDelimiter, "/"}, {K::kWord, "page"}, {K::kDelimiter, "-"}, {K::kWord, "12"},
                           {K::kDelimiter, "_"}, {K::kWord, "b"}, {K::kDelimiter, "."}, {K::kWord, "html"}}},
      {"/cart;jsessionid=AB12", {{K::kDelimiter, "/"}, {K::kWord, "cart"}, {K::kDelimiter, ";"},
                                 {K::kWord, "jsessionid"}, {K::kDelimiter, "="}, {K::kWord, "AB12"}}},
      {"/my%20page/", {{K::kDelimiter, "/"}, {K::kWord, "my%20page"}, {K::kDelimiter, "/"}}},
      {"/a//b", {{K::kDelimiter, "/"}, {K::kWord, "a"}, {K::kDelimiter, "/"}, {K::kDelimiter, "/"}, {K::kWord, "b"}}},
      {"/~user/v1.2", {{K::kDelimiter, "/"}, {K::kDelimiter, "~"}, {K::kWord, "user"}, {K::kDelimiter, "/"},
                       {K::kWord, "v1"}, {K::kDelimiter, "."}, {K::kWord, "2"}}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.path);
    const auto tokens = tokenize_location("http://h", c.path);
    REQUIRE(!tokens.empty());
    CHECK(tokens.front() == PathToken{K::kOrigin, "http://h"});
    CHECK(std::vector<PathToken>(tokens.begin() + 1, tokens.end()) == c.after_origin);
    std::string joined;
    for (const PathToken& t : tokens) joined += t.text;
    CHECK(joined == "http://h" + c.path);
  }
}

TEST_CASE("tokenize_location, deep: words also cut where letters meet digits") {
  using K = PathToken::Kind;
  const auto words = [](const std::vector<PathToken>& tokens) {
    std::vector<std::string> out;
    for (const PathToken& t : tokens) {
      if (t.kind == K::kWord) out.push_back(t.text);
    }
    return out;
  };
  const auto deep = canon::urls::Tokenization::kDeep;
  CHECK(words(tokenize_location("http://h", "/mirror0/v12b.html", deep)) ==
        std::vector<std::string>{"mirror", "0", "v", "12", "b", "html"});
  CHECK(words(tokenize_location("http://h", "/mirror0/v12b.html")) == std::vector<std::string>{"mirror0", "v12b", "html"});
  CHECK(words(tokenize_location("http://h", "/a%20b2", deep)) == std::vector<std::string>{"a%20b", "2"});
}

TEST_CASE("word_class: the narrowest class, and widest() joins two") {
  struct Case {
    std::string word;
    WordClass cls;
  };
  const std::vector<Case> cases = {
      {"123", WordClass::kDigits},      {"0", WordClass::kDigits},        {"a8f3", WordClass::kHex},
      {"DEADBEEF1", WordClass::kHex},   {"html", WordClass::kAlpha},      {"cafe", WordClass::kAlpha},
      {"v12", WordClass::kAlphanumeric}, {"x9k2", WordClass::kAlphanumeric}, {"a%20b", WordClass::kWord},
      {"", WordClass::kWord},           {"caf\xc3\xa9", WordClass::kWord},
  };
  for (const Case& c : cases) {
    CAPTURE(c.word);
    CHECK(word_class(c.word) == c.cls);
  }
  using canon::urls::widest;
  CHECK(widest(WordClass::kDigits, WordClass::kDigits) == WordClass::kDigits);
  CHECK(widest(WordClass::kDigits, WordClass::kHex) == WordClass::kHex);
  CHECK(widest(WordClass::kDigits, WordClass::kAlpha) == WordClass::kAlphanumeric);
  CHECK(widest(WordClass::kHex, WordClass::kAlpha) == WordClass::kAlphanumeric);
  CHECK(widest(WordClass::kAlphanumeric, WordClass::kWord) == WordClass::kWord);
}
