/// @file test_page_encoding.cpp
/// @brief html/page_encoding.h: a page's bytes to UTF-8 as browsers decide its encoding (byte
/// order mark, HTTP charset, <meta> prescan, detection, windows-1252), as a table of input
/// bytes -> expected text, encoding and source. Inputs are written as byte escapes (checked
/// against iconv), never produced by the code under test.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "html/page_encoding.h"

using canon::html::decode_page;
using canon::html::DecodedPage;
using canon::html::EncodingSource;
using canon::html::encoding_source_name;

namespace {

/// Bytes as written in the tables ("\xE8", "\0"), NULs kept.
template <std::size_t N>
std::string bytes(const char (&s)[N]) {
  return {s, N - 1};
}

/// `text` in UTF-16 (little-endian unless `big_endian`), after a byte order mark.
std::string utf16_with_bom(std::u16string_view text, bool big_endian) {
  std::string out = big_endian ? "\xFE\xFF" : "\xFF\xFE";
  for (const char16_t unit : text) {
    const char high = static_cast<char>(unit >> 8);
    const char low = static_cast<char>(unit & 0xFF);
    out += big_endian ? high : low;
    out += big_endian ? low : high;
  }
  return out;
}

/// ASCII filler of `n` bytes (a comment, so that it declares nothing).
std::string filler(std::size_t n) {
  REQUIRE(n >= 7);
  return "<!--" + std::string(n - 7, 'x') + "-->";
}

}  // namespace

TEST_CASE("decode_page: the encoding a browser would use, and the text in UTF-8") {
  struct Row {
    const char* what;  // the row's comment: what it shows
    std::string bytes;
    std::string_view content_type;  // the HTTP Content-Type header; empty: none
    std::string_view text;          // expected in the UTF-8 text (a substring of it)
    std::string_view encoding;
    EncodingSource source;
  };
  using enum EncodingSource;
  const Row rows[] = {
      // --- byte order marks ---
      {"UTF-8 without BOM or declaration: valid UTF-8 is detected as UTF-8",
       bytes("<p>cr\xC3\xA8me br\xC3\xBBl\xC3\xA9" "e \xE2\x82\xAC \xF0\x9F\x98\x80</p>"), "",
       "<p>crème brûlée € 😀</p>", "UTF-8", kDetected},
      {"UTF-8 with BOM: the BOM decides and is removed", bytes("\xEF\xBB\xBF<p>caf\xC3\xA9</p>"), "",
       "<p>café</p>", "UTF-8", kByteOrderMark},
      {"UTF-16LE with BOM", utf16_with_bom(u"<p>Grüße € 😀</p>", false), "", "<p>Grüße € 😀</p>", "UTF-16LE",
       kByteOrderMark},
      {"UTF-16BE with BOM", utf16_with_bom(u"<p>Grüße € 😀</p>", true), "", "<p>Grüße € 😀</p>", "UTF-16BE",
       kByteOrderMark},
      {"a BOM overrides both the HTTP header and the meta",
       bytes("\xEF\xBB\xBF<meta charset=\"koi8-r\"><p>caf\xC3\xA9</p>"), "text/html; charset=windows-1252",
       "<p>café</p>", "UTF-8", kByteOrderMark},
      {"UTF-8 BOM before bytes that are not UTF-8: the BOM is believed, bad bytes become U+FFFD",
       bytes("\xEF\xBB\xBF<p>cr\xE8me</p>"), "", "<p>cr\xEF\xBF\xBDme</p>", "UTF-8", kByteOrderMark},
      {"UTF-16LE with an odd last byte: U+FFFD", bytes("\xFF\xFEh\0i\0!"), "", "hi\xEF\xBF\xBD", "UTF-16LE",
       kByteOrderMark},

      // --- <meta> declarations ---
      {"ISO-8859-1 via <meta charset> is decoded as windows-1252",
       bytes("<html><head><meta charset=\"ISO-8859-1\"></head><body><p>cr\xE8me</p>"), "", "<p>crème</p>",
       "windows-1252", kMeta},
      {"windows-1252 via http-equiv: 0x80-0x9F are letters and quotes, not C1 controls",
       bytes("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\">"
             "<p>\x80" "5, \x9C" "uvre, \x93quoted\x94, it\x92s, \x8A" "koda</p>"),
       "", "<p>€5, œuvre, “quoted”, it’s, Škoda</p>", "windows-1252", kMeta},
      {"ISO-8859-15: 0xA4 is the euro sign (ISO-8859-1 has the currency sign there)",
       bytes("<meta charset=iso-8859-15><p>\xA4" "10, \xBC, \xBD</p>"), "", "<p>€10, Œ, œ</p>", "ISO-8859-15",
       kMeta},
      {"KOI8-R: Russian", bytes("<meta charset=\"koi8-r\"><p>\xF0\xD2\xC9\xD7\xC5\xD4, \xCD\xC9\xD2!</p>"), "",
       "<p>Привет, мир!</p>", "KOI8-R", kMeta},
      {"Shift_JIS: Japanese",
       bytes("<meta charset=\"Shift_JIS\"><p>\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83\x65\x83\x4C\x83\x58\x83\x67</p>"),
       "", "<p>日本語のテキスト</p>", "Shift_JIS", kMeta},
      {"EUC-JP via http-equiv with the attributes in another order and upper case",
       bytes("<META CONTENT='text/html;charset=EUC-JP' HTTP-EQUIV='content-type'>"
             "<p>\xC6\xFC\xCB\xDC\xB8\xEC\xA4\xCE\xA5\xC6\xA5\xAD\xA5\xB9\xA5\xC8</p>"),
       "", "<p>日本語のテキスト</p>", "EUC-JP", kMeta},
      {"gb18030: Chinese, with a four-byte sequence",
       bytes("<meta charset=\"gb18030\"><p>\xD6\xD0\xCE\xC4 \x94\x39\xFC\x36</p>"), "", "<p>中文 😀</p>", "gb18030",
       kMeta},
      {"gb2312 is GBK (decoded by gb18030's decoder)", bytes("<meta charset=gb2312><p>\xD6\xD0\xCE\xC4</p>"), "",
       "<p>中文</p>", "GBK", kMeta},
      {"EUC-KR: Korean", bytes("<meta charset=euc-kr><p>\xC7\xD1\xB1\xB9\xBE\xEE</p>"), "", "<p>한국어</p>",
       "EUC-KR", kMeta},
      {"Big5: Chinese", bytes("<meta charset=big5><p>\xA4\xA4\xA4\xE5</p>"), "", "<p>中文</p>", "Big5", kMeta},
      {"ISO-2022-JP: escape sequences", bytes("<meta charset=iso-2022-jp><p>\x1B$BF|K\\\x1B(B</p>"), "",
       "<p>日本</p>", "ISO-2022-JP", kMeta},
      {"a label is trimmed and case-insensitive: \" LATIN1 \" is windows-1252",
       bytes("<meta charset=\" LATIN1 \"><p>na\xEFve</p>"), "", "<p>naïve</p>", "windows-1252", kMeta},
      {"us-ascii is windows-1252 too", bytes("<meta charset=us-ascii><p>\x93hi\x94</p>"), "", "<p>“hi”</p>",
       "windows-1252", kMeta},
      {"a <meta> declaring UTF-16 means UTF-8 (the bytes are ASCII-compatible)",
       bytes("<meta charset=\"utf-16\"><p>caf\xC3\xA9</p>"), "", "<p>café</p>", "UTF-8", kMeta},
      {"a declared encoding wins over bytes that happen to be valid UTF-8, as in browsers",
       bytes("<meta charset=windows-1252><p>caf\xC3\xA9</p>"), "", "<p>cafÃ©</p>", "windows-1252", kMeta},
      {"content=charset without http-equiv=content-type declares nothing",
       bytes("<meta content=\"text/html; charset=koi8-r\"><p>caf\xC3\xA9</p>"), "", "<p>café</p>", "UTF-8",
       kDetected},
      {"the first of two metas decides", bytes("<meta charset=koi8-r><meta charset=windows-1252><p>\xE1</p>"), "",
       "<p>А</p>", "KOI8-R", kMeta},
      {"a repeated attribute counts once (the first)",
       bytes("<meta charset=koi8-r charset=windows-1252><p>\xE1</p>"), "", "<p>А</p>", "KOI8-R", kMeta},
      {"charset= in another tag's attribute declares nothing",
       bytes("<div title='<meta charset=koi8-r>'><p>caf\xC3\xA9</p></div>"), "", "café", "UTF-8", kDetected},

      // --- HTTP Content-Type ---
      {"the HTTP header overrides a different meta",
       bytes("<meta charset=\"windows-1251\"><p>\xA4" "10</p>"), "text/html; charset=ISO-8859-15", "<p>€10</p>",
       "ISO-8859-15", kHttpHeader},
      {"a quoted charset in the HTTP header", bytes("<p>\x93\xFA\x96\x7B</p>"), "text/html;charset=\"Shift_JIS\"",
       "<p>日本</p>", "Shift_JIS", kHttpHeader},
      {"an HTTP header naming UTF-16 (no BOM) is believed, unlike a meta",
       bytes("<\0p\0>\0\xE9\0<\0/\0p\0>\0"), "text/html; charset=utf-16", "<p>é</p>", "UTF-16LE", kHttpHeader},
      {"an unknown label in the HTTP header falls through to the meta",
       bytes("<meta charset=koi8-r><p>\xE1</p>"), "text/html; charset=bogus", "<p>А</p>", "KOI8-R", kMeta},
      {"an HTTP header without a charset falls through to the meta", bytes("<meta charset=koi8-r><p>\xE1</p>"),
       "text/html", "<p>А</p>", "KOI8-R", kMeta},
      {"HTTP says UTF-8 of bytes that are not: the meta decides",
       bytes("<meta charset=\"iso-8859-15\"><p>\xA4" "5</p>"), "text/html; charset=utf-8", "<p>€5</p>",
       "ISO-8859-15", kMeta},

      // --- declarations that are ignored ---
      {"a declaration after the first 1024 bytes is ignored",
       filler(1100) + bytes("<meta charset=windows-1252><p>caf\xC3\xA9</p>"), "", "<p>café</p>", "UTF-8",
       kDetected},
      {"a meta ending at byte 1024 is read", filler(1024 - 21) + bytes("<meta charset=koi8-r><p>\xE1</p>"), "",
       "<p>А</p>", "KOI8-R", kMeta},
      {"a meta that crosses byte 1024 is not",
       filler(1024 - 26) + bytes("<meta charset=windows-1252><p>caf\xC3\xA9</p>"), "", "<p>café</p>", "UTF-8",
       kDetected},
      {"an unknown label is ignored", bytes("<meta charset=\"x-no-such-encoding\"><p>caf\xC3\xA9</p>"), "",
       "<p>café</p>", "UTF-8", kDetected},
      {"x-user-defined is treated as unknown", bytes("<meta charset=x-user-defined><p>caf\xC3\xA9</p>"), "",
       "<p>café</p>", "UTF-8", kDetected},
      {"a meta inside a comment is ignored",
       bytes("<!-- <meta charset=\"windows-1252\"> --><p>caf\xC3\xA9</p>"), "", "<p>café</p>", "UTF-8", kDetected},
      {"\"<!-->\" is a whole comment: the meta after it counts",
       bytes("<!--><meta charset=\"koi8-r\"><p>\xE1</p>"), "", "<p>А</p>", "KOI8-R", kMeta},

      // --- detection and the default ---
      {"a wrong declaration: UTF-8 declared, Latin-1 bytes: not believed, detected",
       bytes("<meta charset=\"utf-8\"><p>cr\xE8me</p>"), "", "<p>crème</p>", "windows-1252", kDetected},
      {"undeclared Latin-1: ICU detects ISO-8859-1, read as windows-1252",
       bytes("<p>Dies ist ein gew\xF6hnlicher deutscher Text \xFC" "ber Stra\xDF" "en und M\xE4rkte in der "
             "Stadt.</p>"),
       "", "Text über Straßen und Märkte", "windows-1252", kDetected},
      {"undeclared Shift_JIS: ICU detects it",
       bytes("<html><body><p>\x93\xFA\x96\x7B\x8C\xEA\x82\xCC\x83\x65\x83\x4C\x83\x58\x83\x67\x82\xC5\x82\xB7\x81"
             "\x42\x93\x8C\x8B\x9E\x82\xCD\x93\xFA\x96\x7B\x82\xCC\x8E\xF1\x93\x73\x82\xC5\x82\xB7\x81\x42</p>"
             "</body></html>"),
       "", "日本語のテキストです。東京は日本の首都です。", "Shift_JIS", kDetected},
      {"undeclared bytes nothing recognizes with confidence: windows-1252",
       bytes("<p>\xA4" "100</p>"), "", "<p>¤100</p>", "windows-1252", kDefault},
      {"UTF-8 with a stray byte, declared UTF-8: still UTF-8, the stray byte U+FFFD",
       bytes("<meta charset=utf-8><p>La cr\xC3\xA8me br\xC3\xBBl\xC3\xA9" "e, d\xC3\xA9licieuse \xE9 "
             "et l\xC3\xA9g\xC3\xA8re, se d\xC3\xA9guste fra\xC3\xAE" "che \xC3\xA0 c\xC3\xB4t\xC3\xA9 "
             "d'un caf\xC3\xA9.</p>"),
       "", "délicieuse \xEF\xBF\xBD et légère", "UTF-8", kDetected},

      // --- bytes invalid in the chosen encoding ---
      {"Shift_JIS with an invalid byte: U+FFFD (not ICU's U+001A)",
       bytes("<meta charset=shift_jis><p>\x93\xFA\xFF</p>"), "", "<p>日\xEF\xBF\xBD</p>", "Shift_JIS", kMeta},
      {"EUC-JP with a truncated last character: U+FFFD", bytes("<meta charset=euc-jp><p>\xC6\xFC\xCB"), "",
       "<p>日\xEF\xBF\xBD", "EUC-JP", kMeta},
  };
  for (const Row& row : rows) {
    INFO(std::string(row.what));
    canon::Result<DecodedPage> page = decode_page(row.bytes, row.content_type);
    REQUIRE_MESSAGE(page.ok(), page.status().message());
    CHECK_MESSAGE(page->utf8.find(row.text) != std::string::npos, page->utf8);
    CHECK(page->encoding == row.encoding);
    CHECK(encoding_source_name(page->source) == encoding_source_name(row.source));
  }
}

TEST_CASE("decode_page: valid UTF-8 comes back byte-identical, in the same buffer") {
  const std::string pages[] = {
      "",
      "plain ASCII <p>with markup</p>",
      "<meta charset=\"utf-8\"><p>caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80</p>",
      "<meta http-equiv=content-type content=\"text/html; charset=UTF-8\"><p>\xD0\x9F\xD1\x80\xD0\xB8</p>",
      std::string(100'000, 'a') + "\xC3\xA9",
  };
  for (const std::string& page : pages) {
    INFO(page.substr(0, 80));
    std::string input = page;
    const char* buffer = input.data();
    const bool heap = input.size() > std::string().capacity();
    canon::Result<DecodedPage> decoded = decode_page(std::move(input), "text/html; charset=utf-8");
    REQUIRE(decoded.ok());
    CHECK(decoded->utf8 == page);
    CHECK(decoded->encoding == "UTF-8");
    CHECK(decoded->source == EncodingSource::kHttpHeader);
    if (heap) CHECK(decoded->utf8.data() == buffer);  // moved through, not copied
  }
  std::string undeclared = std::string(4096, ' ') + "caf\xC3\xA9";
  const char* buffer = undeclared.data();
  canon::Result<DecodedPage> decoded = decode_page(std::move(undeclared));
  REQUIRE(decoded.ok());
  CHECK(decoded->utf8.data() == buffer);
  CHECK(decoded->encoding == "UTF-8");
  CHECK(decoded->source == EncodingSource::kDetected);
}

TEST_CASE("decode_page: ASCII in a declared ASCII-compatible encoding is moved through") {
  std::string page = "<meta charset=windows-1252>" + std::string(4096, 'x');
  const std::string expected = page;
  const char* buffer = page.data();
  canon::Result<DecodedPage> decoded = decode_page(std::move(page));
  REQUIRE(decoded.ok());
  CHECK(decoded->utf8 == expected);
  CHECK(decoded->utf8.data() == buffer);
  CHECK(decoded->encoding == "windows-1252");
}

TEST_CASE("decode_page: an encoding ICU cannot convert fails with its name") {
  // ISO-8859-16 is a WHATWG encoding whose converter Debian's ICU data leaves out; with an ICU
  // that has it the page decodes.
  canon::Result<DecodedPage> decoded = decode_page(bytes("<meta charset=iso-8859-16><p>\xAA</p>"));
  if (decoded.ok()) {
    CHECK(decoded->encoding == "ISO-8859-16");
    CHECK(decoded->utf8.find("<p>Ș</p>") != std::string::npos);
  } else {
    CHECK(decoded.status().message().find("ISO-8859-16") != std::string::npos);
  }
}

TEST_CASE("encoding_source_name: the names recorded") {
  CHECK(encoding_source_name(EncodingSource::kByteOrderMark) == "bom");
  CHECK(encoding_source_name(EncodingSource::kHttpHeader) == "http");
  CHECK(encoding_source_name(EncodingSource::kMeta) == "meta");
  CHECK(encoding_source_name(EncodingSource::kDetected) == "detected");
  CHECK(encoding_source_name(EncodingSource::kDefault) == "default");
}
