/// @file page_encoding.cpp
/// @brief Encoding sniffing as the HTML standard has it (byte order mark, HTTP charset, <meta>
/// prescan, detection, windows-1252), ICU's converters and charset detector underneath.
#include "html/page_encoding.h"

#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>
#include <unicode/ucsdet.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/utf8.h"
#include "html/html_rules.h"

namespace canon::html {
namespace {

/// An encoding of the WHATWG Encoding Standard.
struct Encoding {
  /// The standard's name for it.
  std::string_view name;
  /// The ICU converter that decodes it.
  const char* icu_name;
  /// The standard's labels for it, lower case, separated by spaces.
  std::string_view labels;
};

/// The encodings and labels of the WHATWG Encoding Standard (encodings.json), decoded by ICU's
/// nearest converter: GBK with gb18030's decoder and EUC-KR as windows-949 (both as the
/// standard says), Shift_JIS as windows-31j, Big5 as Big5-HKSCS. Left out, so that their labels
/// are unknown: "replacement" (ISO-2022-KR, ISO-2022-CN, HZ-GB-2312) and x-user-defined.
/// Written out here because ICU's alias tables are not the standard's: Debian's ICU 72 has no
/// "HTML" alias standard, and its own aliases read "iso-8859-1" and "us-ascii" as Latin-1 and
/// ASCII, where browsers read windows-1252.
constexpr std::array<Encoding, 38> kEncodings{{
    {"UTF-8", "UTF-8", "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8"},
    {"windows-1252", "windows-1252",
     "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 "
     "iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252"},
    {"UTF-16BE", "UTF-16BE", "unicodefffe utf-16be"},
    {"UTF-16LE", "UTF-16LE", "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le"},
    {"IBM866", "ibm866", "866 cp866 csibm866 ibm866"},
    {"ISO-8859-2", "ISO-8859-2",
     "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2"},
    {"ISO-8859-3", "ISO-8859-3",
     "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3"},
    {"ISO-8859-4", "ISO-8859-4",
     "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4"},
    {"ISO-8859-5", "ISO-8859-5",
     "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 iso_8859-5:1988"},
    {"ISO-8859-6", "ISO-8859-6",
     "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e "
     "iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987"},
    {"ISO-8859-7", "ISO-8859-7",
     "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597 "
     "iso_8859-7 iso_8859-7:1987 sun_eu_greek"},
    {"ISO-8859-8", "ISO-8859-8",
     "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598 "
     "iso_8859-8 iso_8859-8:1988 visual"},
    {"ISO-8859-8-I", "ISO-8859-8", "csiso88598i iso-8859-8-i logical"},
    {"ISO-8859-10", "ISO-8859-10", "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6"},
    {"ISO-8859-13", "ISO-8859-13", "iso-8859-13 iso8859-13 iso885913"},
    {"ISO-8859-14", "ISO-8859-14", "iso-8859-14 iso8859-14 iso885914"},
    {"ISO-8859-15", "ISO-8859-15", "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9"},
    {"ISO-8859-16", "ISO-8859-16", "iso-8859-16"},
    {"KOI8-R", "KOI8-R", "cskoi8r koi koi8 koi8-r koi8_r"},
    {"KOI8-U", "KOI8-U", "koi8-ru koi8-u"},
    {"macintosh", "macintosh", "csmacintosh mac macintosh x-mac-roman"},
    {"windows-874", "windows-874", "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874"},
    {"windows-1250", "windows-1250", "cp1250 windows-1250 x-cp1250"},
    {"windows-1251", "windows-1251", "cp1251 windows-1251 x-cp1251"},
    {"windows-1253", "windows-1253", "cp1253 windows-1253 x-cp1253"},
    {"windows-1254", "windows-1254",
     "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 latin5 "
     "windows-1254 x-cp1254"},
    {"windows-1255", "windows-1255", "cp1255 windows-1255 x-cp1255"},
    {"windows-1256", "windows-1256", "cp1256 windows-1256 x-cp1256"},
    {"windows-1257", "windows-1257", "cp1257 windows-1257 x-cp1257"},
    {"windows-1258", "windows-1258", "cp1258 windows-1258 x-cp1258"},
    {"x-mac-cyrillic", "x-mac-cyrillic", "x-mac-cyrillic x-mac-ukrainian"},
    {"GBK", "GB18030", "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk"},
    {"gb18030", "GB18030", "gb18030"},
    {"Big5", "Big5-HKSCS", "big5 big5-hkscs cn-big5 csbig5 x-x-big5"},
    {"EUC-JP", "EUC-JP", "cseucpkdfmtjapanese euc-jp x-euc-jp"},
    {"ISO-2022-JP", "ISO-2022-JP", "csiso2022jp iso-2022-jp"},
    {"Shift_JIS", "windows-31j", "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis"},
    {"EUC-KR", "windows-949",
     "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 "
     "windows-949"},
}};
constexpr const Encoding* kUtf8 = &kEncodings[0];
constexpr const Encoding* kWindows1252 = &kEncodings[1];
constexpr const Encoding* kUtf16Be = &kEncodings[2];
constexpr const Encoding* kUtf16Le = &kEncodings[3];

/// Bytes of the page the <meta> prescan reads (the HTML standard's 1024).
constexpr std::size_t kPrescanBytes = 1024;
/// Bytes given to ICU's detector, around the first byte that is not UTF-8.
constexpr std::size_t kDetectionSampleBytes = 64 * 1024;
/// ICU's confidence (0-100) from which a detected encoding is used. Multi-byte encodings score
/// 100 on a sentence; a paragraph of a single-byte one scores 20-100 (a few hundred bytes of
/// Russian: 19-56, a line of French or German: 40-98); 10 is every recognizer's "no evidence".
constexpr std::int32_t kMinConfidence = 20;

bool is_ascii_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_ascii_alpha(char c) { return is_ascii_upper(c) || (c >= 'a' && c <= 'z'); }
char ascii_lower(char c) { return is_ascii_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

bool equals_ignoring_case(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != lower[i]) return false;
  }
  return true;
}

bool is_ascii(std::string_view bytes) {
  for (char c : bytes) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

/// ASCII bytes decode to themselves: all but UTF-16 and ISO-2022-JP (whose ESC sequences shift).
bool is_ascii_compatible(const Encoding* encoding) {
  return encoding != kUtf16Be && encoding != kUtf16Le && encoding->name != "ISO-2022-JP";
}

/// The Encoding Standard's "get an encoding": the encoding `label` names (trimmed of ASCII white
/// space, case-insensitive), or nullptr for an unknown label.
const Encoding* get_encoding(std::string_view label) {
  while (!label.empty() && is_html_space(label.front())) label.remove_prefix(1);
  while (!label.empty() && is_html_space(label.back())) label.remove_suffix(1);
  if (label.empty()) return nullptr;
  for (const Encoding& encoding : kEncodings) {
    for (std::string_view labels = encoding.labels; !labels.empty();) {
      const std::size_t end = std::min(labels.find(' '), labels.size());
      if (equals_ignoring_case(label, labels.substr(0, end))) return &encoding;
      labels.remove_prefix(std::min(end + 1, labels.size()));
    }
  }
  return nullptr;
}

/// The encoding a byte order mark at the start of `bytes` names, or nullptr.
const Encoding* byte_order_mark(std::string_view bytes) {
  if (bytes.starts_with("\xEF\xBB\xBF")) return kUtf8;
  if (bytes.starts_with("\xFE\xFF")) return kUtf16Be;
  if (bytes.starts_with("\xFF\xFE")) return kUtf16Le;
  return nullptr;
}

/// The charset parameter of a Content-Type header value ("text/html; charset=\"utf-8\""): the
/// first one, its value a token or a quoted string (the WHATWG MIME type parser, reduced to
/// what finds the charset); nullptr when none or an unknown label.
const Encoding* charset_of_content_type(std::string_view header) {
  std::size_t pos = header.find(';');
  while (pos < header.size()) {
    ++pos;  // past the ';'
    while (pos < header.size() && is_html_space(header[pos])) ++pos;
    const std::size_t name_end = header.find_first_of(";=", pos);
    if (name_end == std::string_view::npos) return nullptr;
    const std::string_view name = header.substr(pos, name_end - pos);
    pos = name_end;
    if (header[name_end] == ';') continue;
    std::string value;
    if (++pos < header.size() && header[pos] == '"') {
      for (++pos; pos < header.size() && header[pos] != '"'; ++pos) {
        if (header[pos] == '\\' && pos + 1 < header.size()) ++pos;
        value += header[pos];
      }
      pos = header.find(';', pos);
    } else {
      const std::size_t end = header.find(';', pos);
      value = header.substr(pos, end - pos);
      pos = end;
    }
    if (equals_ignoring_case(name, "charset")) return get_encoding(value);
  }
  return nullptr;
}

/// The HTML standard's "extracting a character encoding from a meta element", on a content
/// attribute's value (lower case already): the label after "charset", "=" and white space,
/// quoted or up to white space or ';'.
const Encoding* charset_of_meta_content(std::string_view content) {
  for (std::size_t pos = 0; (pos = content.find("charset", pos)) != std::string_view::npos;) {
    pos += 7;
    while (pos < content.size() && is_html_space(content[pos])) ++pos;
    if (pos >= content.size() || content[pos] != '=') continue;
    ++pos;
    while (pos < content.size() && is_html_space(content[pos])) ++pos;
    if (pos >= content.size()) return nullptr;
    const char quote = content[pos];
    if (quote == '"' || quote == '\'') {
      const std::size_t end = content.find(quote, pos + 1);
      if (end == std::string_view::npos) return nullptr;
      return get_encoding(content.substr(pos + 1, end - pos - 1));
    }
    std::size_t end = pos;
    while (end < content.size() && !is_html_space(content[end]) && content[end] != ';') ++end;
    return get_encoding(content.substr(pos, end - pos));
  }
  return nullptr;
}

/// The HTML standard's "prescan a byte stream to determine its encoding", written by hand (no
/// library of Debian's has it): skips comments, <!...>, <?...> and end tags, reads the
/// attributes of each start tag as a browser does, and stops at the first <meta> whose
/// charset or http-equiv="content-type" content="...charset=..." names a known encoding. Reading
/// past the end of its 1024 bytes ends it without an encoding.
class Prescanner {
public:
  explicit Prescanner(std::string_view bytes) : in_(bytes.substr(0, kPrescanBytes)) {}

  const Encoding* run() {
    for (; pos_ < in_.size(); ++pos_) {  // each iteration ends on the byte before the next
      if (at("<!--")) {
        // To the '>' of the first "-->"; its dashes may be those of "<!--" ("<!-->").
        const std::size_t end = in_.find("-->", pos_ + 2);
        if (end == std::string_view::npos) return nullptr;
        pos_ = end + 2;
      } else if (at("<meta") && pos_ + 5 < in_.size() && (is_html_space(in_[pos_ + 5]) || in_[pos_ + 5] == '/')) {
        pos_ += 5;
        if (const Encoding* encoding = meta()) return encoding;
      } else if (at("<") && pos_ + 1 < in_.size() &&
                 (is_ascii_alpha(in_[pos_ + 1]) ||
                  (in_[pos_ + 1] == '/' && pos_ + 2 < in_.size() && is_ascii_alpha(in_[pos_ + 2])))) {
        while (pos_ < in_.size() && !is_html_space(in_[pos_]) && in_[pos_] != '>') ++pos_;
        while (attribute()) {
        }
      } else if (at("<!") || at("</") || at("<?")) {
        pos_ = in_.find('>', pos_ + 2);
        if (pos_ == std::string_view::npos) return nullptr;
      }
    }
    return nullptr;
  }

private:
  struct Attribute {
    std::string name;
    std::string value;
  };

  /// The bytes at pos_ begin with `lower` (ASCII case-insensitive).
  bool at(std::string_view lower) const {
    return in_.size() - pos_ >= lower.size() && equals_ignoring_case(in_.substr(pos_, lower.size()), lower);
  }
  bool more() const { return pos_ < in_.size(); }

  /// The attributes of a <meta> (pos_ after "<meta"): its encoding, or nullptr.
  const Encoding* meta() {
    std::vector<std::string> seen;
    bool got_pragma = false;
    std::optional<bool> need_pragma;
    std::optional<const Encoding*> charset;  // nullopt: none yet; nullptr: an unknown label
    while (std::optional<Attribute> a = attribute()) {
      if (std::find(seen.begin(), seen.end(), a->name) != seen.end()) continue;
      seen.push_back(a->name);
      if (a->name == "http-equiv") {
        got_pragma = got_pragma || a->value == "content-type";
      } else if (a->name == "content") {
        const Encoding* encoding = charset_of_meta_content(a->value);
        if (encoding != nullptr && !charset) {
          charset = encoding;
          need_pragma = true;
        }
      } else if (a->name == "charset") {
        charset = get_encoding(a->value);
        need_pragma = false;
      }
    }
    if (!more() || !need_pragma || (*need_pragma && !got_pragma) || !charset || *charset == nullptr) return nullptr;
    // A page that reached the prescan is not UTF-16 (it would have had a byte order mark).
    if (*charset == kUtf16Be || *charset == kUtf16Le) return kUtf8;
    return *charset;
  }

  /// The HTML standard's "get an attribute": the next attribute of a tag, its name and value
  /// lower case; nullopt at the tag's '>' (pos_ left on it) or at the end of the bytes.
  std::optional<Attribute> attribute() {
    while (more() && (is_html_space(in_[pos_]) || in_[pos_] == '/')) ++pos_;
    if (!more() || in_[pos_] == '>') return std::nullopt;
    Attribute a;
    for (;; ++pos_) {  // the name
      if (!more()) return std::nullopt;
      const char c = in_[pos_];
      if (c == '=' && !a.name.empty()) break;
      if (is_html_space(c)) {
        while (more() && is_html_space(in_[pos_])) ++pos_;
        if (!more()) return std::nullopt;
        if (in_[pos_] != '=') return a;
        break;
      }
      if (c == '/' || c == '>') return a;
      a.name += ascii_lower(c);
    }
    ++pos_;  // past the '='
    while (more() && is_html_space(in_[pos_])) ++pos_;
    if (!more()) return std::nullopt;
    if (const char quote = in_[pos_]; quote == '"' || quote == '\'') {
      for (++pos_; more(); ++pos_) {
        if (in_[pos_] == quote) {
          ++pos_;
          return a;
        }
        a.value += ascii_lower(in_[pos_]);
      }
      return std::nullopt;
    }
    if (in_[pos_] == '>') return a;
    for (; more(); ++pos_) {
      if (is_html_space(in_[pos_]) || in_[pos_] == '>') return a;
      a.value += ascii_lower(in_[pos_]);
    }
    return std::nullopt;
  }

  std::string_view in_;
  std::size_t pos_ = 0;
};

/// True when `bytes` (not all valid UTF-8) look like UTF-8 with stray bytes: its valid
/// multi-byte characters outnumber its invalid bytes ten to one (the rule of ICU's UTF-8
/// recognizer, whose low score would otherwise lose to a single-byte encoding).
bool mostly_utf8(std::string_view bytes) {
  std::size_t valid = 0;
  std::size_t invalid = 0;
  for (std::size_t i = 0; i < bytes.size();) {
    if (static_cast<unsigned char>(bytes[i]) < 0x80) {
      ++i;
      continue;
    }
    const Utf8Char c = decode_utf8(bytes, i);
    ++(c.valid ? valid : invalid);
    i += c.length;
  }
  return valid > 10 * invalid;
}

using DetectorPtr = std::unique_ptr<UCharsetDetector, decltype(&ucsdet_close)>;
using ConverterPtr = std::unique_ptr<UConverter, decltype(&ucnv_close)>;

/// The encoding of `bytes`, whose first byte that is not UTF-8 is at `bad`, as detected in
/// the kDetectionSampleBytes around it: UTF-8 when mostly_utf8, else ICU's best known encoding
/// with at least kMinConfidence (never UTF-16: browsers do not detect it); nullptr when none.
const Encoding* detect(std::string_view bytes, std::size_t bad) {
  const std::size_t start = utf8_char_start(bytes, bad > kDetectionSampleBytes / 2 ? bad - kDetectionSampleBytes / 2 : 0);
  const std::string_view sample = bytes.substr(start, kDetectionSampleBytes);
  if (mostly_utf8(sample)) return kUtf8;
  UErrorCode error = U_ZERO_ERROR;
  const DetectorPtr detector(ucsdet_open(&error), &ucsdet_close);
  if (U_FAILURE(error)) return nullptr;
  ucsdet_enableInputFilter(detector.get(), true);  // judge the text, not the markup
  ucsdet_setText(detector.get(), sample.data(), static_cast<std::int32_t>(sample.size()), &error);
  std::int32_t count = 0;
  const UCharsetMatch** matches = ucsdet_detectAll(detector.get(), &count, &error);
  for (std::int32_t i = 0; U_SUCCESS(error) && i < count; ++i) {  // best first
    if (ucsdet_getConfidence(matches[i], &error) < kMinConfidence) break;
    const char* name = ucsdet_getName(matches[i], &error);
    if (U_FAILURE(error) || name == nullptr) break;
    const Encoding* encoding = get_encoding(name);
    if (encoding != nullptr && encoding != kUtf16Be && encoding != kUtf16Le) return encoding;
  }
  return nullptr;
}

/// ICU's to-Unicode callback for a byte sequence invalid (or unassigned) in its encoding:
/// U+FFFD, as browsers show it (ICU's own substitute is U+001A for a single byte in some
/// multi-byte encodings).
void to_replacement_character(const void* /*context*/, UConverterToUnicodeArgs* args, const char* /*bytes*/,
                              std::int32_t /*length*/, UConverterCallbackReason reason, UErrorCode* error) {
  if (reason > UCNV_IRREGULAR) return;  // reset, close, clone: nothing to write
  static constexpr UChar kReplacement = 0xFFFD;
  *error = U_ZERO_ERROR;
  ucnv_cbToUWriteUChars(args, &kReplacement, 1, 0, error);
}

/// `bytes` in `encoding` converted to UTF-8 by ICU.
Result<std::string> convert_to_utf8(std::string_view bytes, const Encoding* encoding) {
  const auto failure = [&](std::string_view what, UErrorCode error) {
    return Status::error("cannot decode the page as " + std::string(encoding->name) + ": " + std::string(what) +
                         " (" + u_errorName(error) + ")");
  };
  UErrorCode error = U_ZERO_ERROR;
  const ConverterPtr from(ucnv_open(encoding->icu_name, &error), &ucnv_close);
  if (U_FAILURE(error)) return failure("ICU has no converter for it", error);
  const ConverterPtr to(ucnv_open("UTF-8", &error), &ucnv_close);
  if (U_FAILURE(error)) return failure("ICU has no UTF-8 converter", error);
  ucnv_setToUCallBack(from.get(), to_replacement_character, nullptr, nullptr, nullptr, &error);
  if (U_FAILURE(error)) return failure("ICU refused the replacement callback", error);

  // Most pages grow by less than half (Latin letters: 1 byte to 2, CJK: 2 to 3); the buffer
  // doubles when they grow more.
  std::string out(bytes.size() + bytes.size() / 2 + 64, '\0');
  std::size_t written = 0;
  const char* source = bytes.data();
  std::array<UChar, 1024> pivot;
  UChar* pivot_source = pivot.data();
  UChar* pivot_target = pivot.data();
  for (bool reset = true;; reset = false) {
    char* target = out.data() + written;
    error = U_ZERO_ERROR;
    ucnv_convertEx(to.get(), from.get(), &target, out.data() + out.size(), &source, bytes.data() + bytes.size(),
                   pivot.data(), &pivot_source, &pivot_target, pivot.data() + pivot.size(), reset, /*flush=*/true,
                   &error);
    written = static_cast<std::size_t>(target - out.data());
    if (error != U_BUFFER_OVERFLOW_ERROR) break;
    out.resize(out.size() * 2);
  }
  if (U_FAILURE(error)) return failure("ICU's conversion failed", error);
  out.resize(written);
  return out;
}

/// `bytes` in `encoding` as a DecodedPage: moved through when they decode to themselves
/// (`valid_utf8` for UTF-8; ASCII in an ASCII-compatible encoding), else converted.
Result<DecodedPage> decoded(std::string bytes, const Encoding* encoding, EncodingSource source, bool valid_utf8) {
  DecodedPage page;
  page.encoding = encoding->name;
  page.source = source;
  if (encoding == kUtf8 ? valid_utf8 : (is_ascii_compatible(encoding) && is_ascii(bytes))) {
    page.utf8 = std::move(bytes);
    return page;
  }
  Result<std::string> utf8 = convert_to_utf8(bytes, encoding);
  if (!utf8.ok()) return utf8.status();
  page.utf8 = std::move(utf8).value();
  return page;
}

}  // namespace

Result<DecodedPage> decode_page(std::string bytes, std::string_view http_content_type) {
  if (const Encoding* bom = byte_order_mark(bytes)) {
    bytes.erase(0, bom == kUtf8 ? 3 : 2);
    const bool valid = bom == kUtf8 && is_valid_utf8(bytes);
    return decoded(std::move(bytes), bom, EncodingSource::kByteOrderMark, valid);
  }
  // The one validity pass, made when first needed.
  std::optional<std::size_t> first_invalid;
  const auto valid_utf8 = [&] {
    if (!first_invalid) first_invalid = first_invalid_utf8(bytes);
    return *first_invalid == std::string_view::npos;
  };
  // A declaration is believed unless it says UTF-8 of bytes that are not.
  const auto believed = [&](const Encoding* encoding) { return encoding != nullptr && (encoding != kUtf8 || valid_utf8()); };
  if (const Encoding* http = charset_of_content_type(http_content_type); believed(http)) {
    return decoded(std::move(bytes), http, EncodingSource::kHttpHeader, http == kUtf8);
  }
  if (const Encoding* meta = Prescanner(bytes).run(); believed(meta)) {
    return decoded(std::move(bytes), meta, EncodingSource::kMeta, meta == kUtf8);
  }
  if (valid_utf8()) return decoded(std::move(bytes), kUtf8, EncodingSource::kDetected, true);
  if (const Encoding* detected = detect(bytes, *first_invalid)) {
    return decoded(std::move(bytes), detected, EncodingSource::kDetected, false);
  }
  return decoded(std::move(bytes), kWindows1252, EncodingSource::kDefault, false);
}

std::string_view encoding_source_name(EncodingSource source) {
  switch (source) {
    case EncodingSource::kByteOrderMark: return "bom";
    case EncodingSource::kHttpHeader: return "http";
    case EncodingSource::kMeta: return "meta";
    case EncodingSource::kDetected: return "detected";
    case EncodingSource::kDefault: return "default";
  }
  return "default";
}

}  // namespace canon::html
