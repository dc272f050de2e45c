/// @file test_percent_encoding.cpp
/// @brief percent_encode(): what each set keeps and encodes (table); percent_decode() and
/// parse_query_string() (tables, and decode(encode(x)) == x on random bytes).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "common/percent_encoding.h"

using canon::KeepInUrl;
using canon::percent_decode;
using canon::percent_encode;

TEST_CASE("percent_encode: unreserved for query values, pchar and '/' for paths (table)") {
  struct Row {
    std::string text;
    KeepInUrl keep;
    const char* expected;
  };
  const Row rows[] = {
      {"Az09-._~", KeepInUrl::kUnreserved, "Az09-._~"},
      {"a b&c=d/é\"<", KeepInUrl::kUnreserved, "a%20b%26c%3Dd%2F%C3%A9%22%3C"},
      {"x&offset=5", KeepInUrl::kUnreserved, "x%26offset%3D5"},
      {"docs/a b/index.html", KeepInUrl::kPath, "docs/a%20b/index.html"},
      {"a:b@c!$&'()*+,;=.html", KeepInUrl::kPath, "a:b@c!$&'()*+,;=.html"},
      {"q?x#y%z", KeepInUrl::kPath, "q%3Fx%23y%25z"},
      {"caf\xC3\xA9", KeepInUrl::kPath, "caf%C3%A9"},
      {std::string("nul\0", 4) + "\x7F", KeepInUrl::kPath, "nul%00%7F"},
      {"", KeepInUrl::kPath, ""},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    CHECK(percent_encode(row.text, row.keep) == row.expected);
  }
}

TEST_CASE("percent_decode: %XX of either case, '+' only in forms, malformed escapes kept (table)") {
  struct Row {
    std::string text;
    bool plus_is_space;
    std::string expected;
  };
  const Row rows[] = {
      {"a%20b", false, "a b"},
      {"a+b", true, "a b"},
      {"a+b", false, "a+b"},
      {"%2B%2b", true, "++"},
      {"caf%C3%A9", false, "caf\xC3\xA9"},
      {"nul%00end", false, std::string("nul\0end", 7)},  // a NUL does not end the text
      {"%", false, "%"},
      {"%4", false, "%4"},
      {"%zz%4g", false, "%zz%4g"},
      {"100%", true, "100%"},
      {"%%41", false, "%A"},
      {"", true, ""},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    CHECK(percent_decode(row.text, row.plus_is_space) == row.expected);
  }
}

TEST_CASE("percent_decode undoes percent_encode, for random bytes") {
  std::mt19937 random(7);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int i = 0; i < 500; ++i) {
    std::string text(static_cast<std::size_t>(i % 40), '\0');
    for (char& c : text) c = static_cast<char>(byte(random));
    CAPTURE(i);
    CHECK(percent_decode(percent_encode(text, KeepInUrl::kUnreserved), true) == text);
    CHECK(percent_decode(percent_encode(text, KeepInUrl::kPath), false) == text);
  }
}

TEST_CASE("parse_query_string: pairs in order, decoded, split at the first '=' (table)") {
  struct Row {
    std::string text;
    std::vector<std::pair<std::string, std::string>> expected;
  };
  const Row rows[] = {
      {"q=kestrel&offset=10", {{"q", "kestrel"}, {"offset", "10"}}},
      {"q=a+b%26c%3Dd", {{"q", "a b&c=d"}}},
      {"q=a=b", {{"q", "a=b"}}},
      {"q&x=", {{"q", ""}, {"x", ""}}},
      {"&&q=1&&", {{"q", "1"}}},
      {"q=1&q=2", {{"q", "1"}, {"q", "2"}}},
      {"%71=x", {{"q", "x"}}},
      {"=v", {{"", "v"}}},
      {"", {}},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    std::vector<std::pair<std::string, std::string>> got;
    for (const auto& parameter : canon::parse_query_string(row.text)) got.emplace_back(parameter.name, parameter.value);
    CHECK(got == row.expected);
  }
}
