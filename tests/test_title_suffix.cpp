/// @file test_title_suffix.cpp
/// @brief repeated_title_suffix and without_suffix: one table row per behaviour.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "query/title_suffix.h"

using canon::query::repeated_title_suffix;
using canon::query::without_suffix;

TEST_CASE("repeated_title_suffix: the suffix at least half of the titles share, after a separator (table)") {
  struct Row {
    const char* comment;
    std::vector<std::string> titles;
    const char* suffix;
  };
  const Row rows[] = {
      {"Sphinx's em dash, a name holding the separator too",
       {"asyncio — Asynchronous I/O — Python 3.11.2 documentation", "os — Miscellaneous — Python 3.11.2 documentation",
        "Glossary — Python 3.11.2 documentation", "Index — Python 3.11.2 documentation", "Search"},
       " — Python 3.11.2 documentation"},
      {"a hyphen, on more than half", {"Vec in std::vec - Rust", "Option in std - Rust", "std - Rust", "Foreword - The Book", "x - Rust"},
       " - Rust"},
      {"a parenthesis that ends the title",
       {"String (Java SE 17 & JDK 17)", "List (Java SE 17 & JDK 17)", "Map (Java SE 17 & JDK 17)",
        "java.util (Java SE 17 & JDK 17)"},
       " (Java SE 17 & JDK 17)"},
      {"fewer than half share it", {"a - Site", "b - Site", "c - Site", "d - Site", "e", "f", "g", "h", "i"}, ""},
      {"fewer than four titles share it", {"a | Site", "b | Site", "c | Site"}, ""},
      {"no separator: nothing", {"SELECT", "INSERT", "UPDATE", "DELETE"}, ""},
      {"a title that is only the suffix leaves no words: not counted", {" - Rust", " - Rust", " - Rust", " - Rust"}, ""},
      {"a parenthesis inside the title is not a suffix", {"f (x) y", "g (x) y", "h (x) y", "i (x) y"}, ""},
  };
  for (const Row& row : rows) {
    INFO(row.comment);
    CHECK(repeated_title_suffix(row.titles) == row.suffix);
  }
}

TEST_CASE("without_suffix: the title without it, when something is left") {
  CHECK(without_suffix("Vec in std::vec - Rust", " - Rust") == "Vec in std::vec");
  CHECK(without_suffix("Rust", " - Rust") == "Rust");
  CHECK(without_suffix("The Rust Book", " - Rust") == "The Rust Book");
  CHECK(without_suffix("Anything", "") == "Anything");
}
