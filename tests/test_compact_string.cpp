/// @file test_compact_string.cpp
/// @brief CompactString and CompactOptionalString against the std::string and
/// std::optional<std::string> they stand in for: the same values after the same operations.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "common/compact_string.h"

using canon::CompactOptionalString;
using canon::CompactString;

TEST_CASE("CompactString reads as the std::string assigned to it (table)") {
  const std::vector<std::string> values = {"", "a", "robots meta says noindex", std::string(300, 'x'), ""};
  CompactString compact;
  std::string model;
  for (const std::string& value : values) {
    compact = value;
    model = value;
    CHECK(compact.str() == model);
    CHECK(compact.empty() == model.empty());
    CHECK(compact.size() == model.size());
    CHECK(compact == model);
    const std::string& read = compact;  // reads as a const std::string&
    CHECK(read == model);
    CHECK("[" + compact + "]" == "[" + model + "]");
  }
  compact = "literal";
  CHECK(compact == "literal");
  compact.clear();
  CHECK(compact.empty());
  CHECK(sizeof(CompactString) == sizeof(void*));
}

TEST_CASE("CompactString copies are deep; moves leave the source empty") {
  CompactString a = std::string("first");
  CompactString b = a;
  b = "second";
  CHECK(a == "first");
  CHECK(b == "second");
  CompactString c = std::move(b);
  CHECK(c == "second");
  CHECK(b.empty());  // NOLINT(bugprone-use-after-move): a moved-from CompactString is empty
  a = c;
  CHECK(a == c);
}

TEST_CASE("CompactOptionalString behaves as std::optional<std::string> (table)") {
  struct Step {
    std::optional<std::string> assign;  // nullopt: reset()
  };
  const std::vector<Step> steps = {{std::nullopt}, {""}, {"http://localhost/a.html"}, {std::nullopt},
                                   {std::string(100, 'u')}, {""}};
  CompactOptionalString compact;
  std::optional<std::string> model;
  CHECK(compact == model);
  for (const Step& step : steps) {
    if (step.assign) {
      compact = *step.assign;
      model = *step.assign;
    } else {
      compact.reset();
      model.reset();
    }
    CHECK(compact.has_value() == model.has_value());
    CHECK(static_cast<bool>(compact) == static_cast<bool>(model));
    CHECK(compact.optional() == model);
    CHECK(compact == model);
    CHECK(compact.value_or("none") == model.value_or("none"));
    if (model) {
      CHECK(*compact == *model);
      CHECK(compact->size() == model->size());
      CHECK(compact.value() == model.value());
    } else {
      CHECK_THROWS_AS(compact.value(), std::bad_optional_access);
    }
  }
  // An empty string is a value, not "no value".
  compact = "";
  CHECK(compact.has_value());
  CHECK_FALSE(compact == CompactOptionalString());
  CHECK(sizeof(CompactOptionalString) == sizeof(void*));
}

TEST_CASE("CompactOptionalString copies are deep; from std::optional both ways") {
  CompactOptionalString a = std::optional<std::string>("x");
  CompactOptionalString b = a;
  *b = "y";
  CHECK(a == "x");
  CHECK(b == "y");
  CompactOptionalString none = std::optional<std::string>();
  CHECK_FALSE(none.has_value());
  a = std::nullopt;
  CHECK_FALSE(a);
  CHECK(b.optional() == std::optional<std::string>("y"));
}
