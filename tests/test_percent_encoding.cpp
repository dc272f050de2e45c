/// @file test_percent_encoding.cpp
/// @brief percent_encode(): what each set keeps and encodes (table).
#include <doctest/doctest.h>

#include <string>

#include "common/percent_encoding.h"

using canon::KeepInUrl;
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
