/// @file test_utf8.cpp
/// @brief common/utf8.h: validation, decoding one character, and cutting at a character
/// boundary, as tables of input -> expected, with the invalid forms of RFC 3629 (overlongs,
/// surrogates, truncated sequences, values above U+10FFFF); every scalar value round-trips.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include <xapian.h>

#include "common/utf8.h"

using canon::decode_utf8;
using canon::first_invalid_utf8;
using canon::is_valid_utf8;
using canon::utf8_char_start;
using canon::utf8_prefix;

namespace {

constexpr std::size_t kValid = std::string_view::npos;

/// Bytes as written in the tables ("\xC3\xA9"), with NULs kept.
template <std::size_t N>
std::string_view bytes(const char (&s)[N]) {
  return {s, N - 1};
}

}  // namespace

TEST_CASE("first_invalid_utf8: valid text, and the offset of the first bad byte") {
  struct Row {
    std::string_view text;
    std::size_t bad;
    const char* what;
  };
  const Row rows[] = {
      {bytes(""), kValid, "empty"},
      {bytes("plain ASCII, with a NUL \0 byte"), kValid, "ASCII (NUL is a character)"},
      {bytes("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), kValid, "two-, three- and four-byte forms"},
      {bytes("\x7F"), kValid, "U+007F, the last one-byte form"},
      {bytes("\xC2\x80"), kValid, "U+0080, the first two-byte form"},
      {bytes("\xDF\xBF"), kValid, "U+07FF"},
      {bytes("\xE0\xA0\x80"), kValid, "U+0800, the first three-byte form"},
      {bytes("\xED\x9F\xBF"), kValid, "U+D7FF, just below the surrogates"},
      {bytes("\xEE\x80\x80"), kValid, "U+E000, just above the surrogates"},
      {bytes("\xEF\xBF\xBF"), kValid, "U+FFFF, a noncharacter, is valid UTF-8"},
      {bytes("\xF0\x90\x80\x80"), kValid, "U+10000, the first four-byte form"},
      {bytes("\xF4\x8F\xBF\xBF"), kValid, "U+10FFFF, the last scalar value"},
      {bytes("a\x80" "b"), 1, "a lone continuation byte"},
      {bytes("\xC3\xA9\xA9"), 2, "a continuation byte too many"},
      {bytes("\xC0\x80"), 0, "overlong NUL (C0)"},
      {bytes("\xC1\xBF"), 0, "overlong U+007F (C1)"},
      {bytes("ab\xE0\x80\xAF"), 2, "overlong '/' in three bytes"},
      {bytes("\xE0\x9F\xBF"), 0, "overlong U+07FF in three bytes"},
      {bytes("\xF0\x8F\xBF\xBF"), 0, "overlong U+FFFF in four bytes"},
      {bytes("x\xED\xA0\x80"), 1, "surrogate U+D800"},
      {bytes("\xED\xBF\xBF"), 0, "surrogate U+DFFF"},
      {bytes("\xED\xA0\xBD\xED\xB8\x80"), 0, "a surrogate pair (CESU-8), not UTF-8"},
      {bytes("\xF4\x90\x80\x80"), 0, "U+110000, above U+10FFFF"},
      {bytes("\xF5\x80\x80\x80"), 0, "F5 starts nothing"},
      {bytes("\xF8\x88\x80\x80\x80"), 0, "five-byte form"},
      {bytes("ok\xFE"), 2, "FE"},
      {bytes("\xFF"), 0, "FF"},
      {bytes("\xC3"), 0, "truncated at the end: two-byte lead alone"},
      {bytes("abc\xF0\x9F\x98"), 3, "truncated four-byte form"},
      {bytes("\xE2\x82" "A"), 0, "a lead byte followed by ASCII"},
      {bytes("\xC3\xA9\xC3"), 2, "valid, then truncated"},
      {bytes("caf\xE9 au lait"), 3, "Latin-1 text: E9 followed by a space"},
  };
  for (const Row& row : rows) {
    INFO(row.what);
    CHECK(first_invalid_utf8(row.text) == row.bad);
    CHECK(is_valid_utf8(row.text) == (row.bad == kValid));
  }
}

TEST_CASE("decode_utf8: the character at an offset, an invalid byte alone") {
  struct Row {
    std::string_view text;
    std::size_t offset;
    char32_t code_point;
    std::size_t length;
    bool valid;
    const char* what;
  };
  const Row rows[] = {
      {bytes("A"), 0, U'A', 1, true, "ASCII"},
      {bytes("\xC3\xA9"), 0, 0xE9, 2, true, "é"},
      {bytes("\xE2\x82\xAC"), 0, 0x20AC, 3, true, "€"},
      {bytes("\xF0\x9F\x98\x80"), 0, 0x1F600, 4, true, "😀"},
      {bytes("a\xC3\xA9"), 1, 0xE9, 2, true, "read from the middle of a text"},
      {bytes("\xC3\xA9"), 1, 0xA9, 1, false, "from inside a character: a continuation byte"},
      {bytes("\xED\xA0\x80"), 0, 0xED, 1, false, "surrogate: the lead byte alone"},
      {bytes("\xC0\x80"), 0, 0xC0, 1, false, "overlong"},
      {bytes("\xF4\x90\x80\x80"), 0, 0xF4, 1, false, "above U+10FFFF"},
      {bytes("\xE2\x82"), 0, 0xE2, 1, false, "truncated"},
      {bytes("\xE2\x82\xAC"), 0, 0x20AC, 3, true, "the whole sequence, no more"},
  };
  for (const Row& row : rows) {
    INFO(row.what);
    const canon::Utf8Char c = decode_utf8(row.text, row.offset);
    CHECK(c.code_point == row.code_point);
    CHECK(c.length == row.length);
    CHECK(c.valid == row.valid);
  }
}

TEST_CASE("every scalar value decodes as itself; surrogates and truncations are invalid") {
  for (unsigned cp = 0; cp <= 0x10FFFF; ++cp) {
    char buffer[4];
    const unsigned n = Xapian::Unicode::to_utf8(cp, buffer);
    const std::string_view text(buffer, n);
    const canon::Utf8Char c = decode_utf8(text, 0);
    const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    if (c.valid == surrogate || (!surrogate && (c.code_point != cp || c.length != n))) {
      FAIL("U+" << std::hex << cp);
    }
    if (is_valid_utf8(text) == surrogate) FAIL("U+" << std::hex << cp);
    // Every shorter prefix of a multi-byte form is invalid at its start.
    for (unsigned cut = 1; cut < n; ++cut) {
      if (first_invalid_utf8(text.substr(0, cut)) != 0) FAIL("U+" << std::hex << cp << " cut " << cut);
    }
  }
}

TEST_CASE("utf8_char_start: back to the first byte of the character") {
  struct Row {
    std::string_view text;
    std::size_t offset;
    std::size_t start;
    const char* what;
  };
  const std::string_view hello = bytes("h\xC3\xA9llo");
  const Row rows[] = {
      {hello, 0, 0, "the start"},
      {hello, 1, 1, "a lead byte is a start"},
      {hello, 2, 1, "inside é"},
      {hello, 3, 3, "ASCII after é"},
      {hello, hello.size(), hello.size(), "the end stays"},
      {hello, 99, 99, "past the end stays"},
      {bytes("\xE2\x82\xAC"), 2, 0, "the last byte of €"},
      {bytes("\xF0\x9F\x98\x80"), 3, 0, "the last byte of 😀"},
      {bytes("\x80\x80\x80"), 2, 0, "only continuation bytes: stops at 0"},
  };
  for (const Row& row : rows) {
    INFO(row.what);
    CHECK(utf8_char_start(row.text, row.offset) == row.start);
  }
}

TEST_CASE("utf8_prefix: at most N bytes, never half a character") {
  struct Row {
    std::string_view text;
    std::size_t max_bytes;
    std::string_view prefix;
    const char* what;
  };
  const Row rows[] = {
      {bytes("abc"), 5, bytes("abc"), "fits"},
      {bytes("abc"), 3, bytes("abc"), "fits exactly"},
      {bytes("abc"), 2, bytes("ab"), "ASCII cut anywhere"},
      {bytes("abc"), 0, bytes(""), "nothing"},
      {bytes("a\xC3\xA9"), 2, bytes("a"), "é does not fit"},
      {bytes("a\xC3\xA9"), 3, bytes("a\xC3\xA9"), "é fits"},
      {bytes("\xE2\x82\xAC\xE2\x82\xAC"), 4, bytes("\xE2\x82\xAC"), "one € of two"},
      {bytes("\xE2\x82\xAC\xE2\x82\xAC"), 5, bytes("\xE2\x82\xAC"), "one € of two, a byte short"},
      {bytes("\xE2\x82\xAC"), 2, bytes(""), "no whole character"},
  };
  for (const Row& row : rows) {
    INFO(row.what);
    CHECK(utf8_prefix(row.text, row.max_bytes) == row.prefix);
  }
}
