/// @file test_tokenizer.cpp
/// @brief tokenize(): Xapian word characters, case folding, invalid UTF-8.
#include <doctest/doctest.h>

#include <random>
#include <string_view>
#include <string>
#include <vector>

#include <xapian.h>

#include "dedup/sketches/tokenizer.h"

using canon::dedup::tokenize;
using Words = std::vector<std::string>;

TEST_CASE("tokenize splits on non-word characters and lowercases") {
  struct Case {
    const char* name;
    std::string text;
    Words words;
  };
  const Case cases[] = {
      {"empty", "", {}},
      {"only separators", " \t\n.,;!? -- ", {}},
      {"ascii", "Hello, World!", {"hello", "world"}},
      {"whitespace runs", "  a\tb\n\nc  ", {"a", "b", "c"}},
      {"digits are word chars", "Version 2.0.1 costs $30",
       {"version", "2", "0", "1", "costs", "30"}},
      {"mixed letters and digits", "mp3 x86_64", {"mp3", "x86_64"}},
      // U+0027 and U+2019 are punctuation (Po, Pf) in Xapian's tables, so they split words.
      {"ascii apostrophe", "Don't", {"don", "t"}},
      {"typographic apostrophe", "it\u2019s", {"it", "s"}},
      // '_' is connector punctuation (Pc), a word character; '-' is not.
      {"underscore and hyphen", "snake_case well-known", {"snake_case", "well", "known"}},
      {"non-ascii case folding", "ÉCOLE Économie", {"école", "économie"}},
      {"greek", "ΣΟΦΙΑ", {"σοφια"}},
      {"sharp s unchanged", "Straße", {"straße"}},
      {"combining mark stays in word", "cafe\u0301!", {"cafe\u0301"}},
      {"cjk passes through as one run", "日本語のテキスト。次", {"日本語のテキスト", "次"}},
      {"emoji separates", "a😀b", {"a", "b"}},
      {"invalid bytes separate", "abc\xff\xfe" "def", {"abc", "def"}},
      // Latin-1 0xE9 ('é') is not valid UTF-8: it separates rather than becoming a letter.
      {"latin-1 text", "caf\xe9 au lait", {"caf", "au", "lait"}},
      {"lone lead byte", "x\xc3(y", {"x", "y"}},
      {"truncated sequence at end", "ok\xe6\x97", {"ok"}},
      {"lone continuation bytes", "\x80\xbf" "a\xaa", {"a"}},
      {"valid two-byte letter", "\xc3\xa9t\xc3\xa9", {"été"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(tokenize(c.text) == c.words);
  }
}

TEST_CASE("tokenize never throws and yields stable, non-empty words on random bytes") {
  std::mt19937 rng(7);
  const std::string pieces[] = {"a", "Z", "9", " ", ".", "é", "É", "日", "\xff", "\xc3",
                                "\x80", "\xe6\x97", "_", "'", "\u0301", "\xf0\x9f"};
  for (int round = 0; round < 500; ++round) {
    std::string text;
    const int len = static_cast<int>(rng() % 40);
    for (int i = 0; i < len; ++i) {
      if (rng() % 4 == 0) {
        text += static_cast<char>(rng() % 256);
      } else {
        text += pieces[rng() % std::size(pieces)];
      }
    }
    Words words;
    REQUIRE_NOTHROW(words = tokenize(text));
    for (const std::string& w : words) {
      CAPTURE(w);
      CHECK(!w.empty());
      CHECK(tokenize(w) == Words{w});  // words are valid UTF-8, already folded, unsplittable
    }
  }
}

namespace {

/// The reference tokenizer: one Xapian::Utf8Iterator over the whole text, every character
/// through Xapian's tables (the implementation before the ASCII fast path).
Words reference_tokenize(std::string_view text) {
  Words words;
  std::string word;
  Xapian::Utf8Iterator it(text.data(), text.size());
  for (const Xapian::Utf8Iterator end; it != end;) {
    const unsigned ch = *it;
    const std::size_t left = it.left();
    ++it;
    const bool invalid_byte = ch >= 0x80 && left - it.left() == 1;
    if (!invalid_byte && Xapian::Unicode::is_wordchar(ch)) {
      Xapian::Unicode::append_utf8(word, Xapian::Unicode::tolower(ch));
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

}  // namespace

TEST_CASE("the ASCII fast path agrees with Xapian's tables on every ASCII character") {
  for (int c = 1; c < 128; ++c) {
    CAPTURE(c);
    const std::string text = "x" + std::string(1, static_cast<char>(c)) + "y";
    CHECK(tokenize(text) == reference_tokenize(text));
    const std::string alone(1, static_cast<char>(c));
    CHECK(tokenize(alone) == reference_tokenize(alone));
  }
}

TEST_CASE("tokenize and tokenize_joined equal the reference on random mixed text") {
  std::mt19937 rng(13);
  const std::string pieces[] = {"a", "Z", "9", " ", ".", "é", "É", "日", "\xff", "\xc3",
                                "\x80", "\xe6\x97", "_", "'", "\u0301", "\xf0\x9f", "Ⱥ",
                                "ȺȺȺ", "İ", "Hello", "\x1f", "\t"};
  canon::dedup::JoinedWords joined;
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const int len = static_cast<int>(rng() % 60);
    for (int i = 0; i < len; ++i) {
      if (rng() % 4 == 0) {
        text += static_cast<char>(rng() % 256);
      } else {
        text += pieces[rng() % std::size(pieces)];
      }
    }
    CAPTURE(text);
    const Words expected = reference_tokenize(text);
    CHECK(tokenize(text) == expected);
    canon::dedup::tokenize_joined(text, joined);  // reused across rounds
    std::string expected_joined;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (i > 0) expected_joined += '\x1f';
      expected_joined += expected[i];
    }
    REQUIRE(joined.size() == expected.size());
    CHECK(joined.joined == expected_joined);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(joined.range(i, 1) == expected[i]);
      if (i + 2 < expected.size()) {
        CHECK(joined.range(i, 3) == expected[i] + '\x1f' + expected[i + 1] + '\x1f' + expected[i + 2]);
      }
    }
  }
}
