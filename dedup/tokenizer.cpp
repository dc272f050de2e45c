/// @file tokenizer.cpp
/// @brief tokenize(): Xapian's Unicode word rules, lowercased; invalid UTF-8 separates words.
#include "dedup/tokenizer.h"

#include <xapian.h>

namespace canon::dedup {

std::vector<std::string> tokenize(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  Xapian::Utf8Iterator it(text.data(), text.size());
  for (const Xapian::Utf8Iterator end; it != end;) {
    const unsigned ch = *it;
    const std::size_t left = it.left();
    ++it;
    // Utf8Iterator returns each byte of an invalid sequence as the code point of the same value
    // (0x80-0xFF, some of which are letters); a valid encoding of those takes two bytes, so a
    // one-byte step tells them apart.
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

}  // namespace canon::dedup
