/// @file byte_codec.h
/// @brief The byte encoding shared by canon's own files and messages (the page store's records
/// and its catalog, docs/index-format.md; a detector's state sent between the processes of a
/// partitioned build): LEB128 integers, strings as a LEB128 length and their bytes, lists as a
/// LEB128 count and their items, fixed-width little-endian integers. Hand-written: a few lines on the hot path of every page, where Debian's
/// serialisation libraries want a schema compiler or build an object tree per field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace canon::codec {

inline void put_varint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

inline void put_string(std::string& out, std::string_view text) {
  put_varint(out, text.size());
  out.append(text);
}

inline void put_list(std::string& out, const std::vector<std::string>& texts) {
  put_varint(out, texts.size());
  for (const std::string& text : texts) put_string(out, text);
}

inline void put_fixed(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

inline std::uint64_t get_fixed(const char* in, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[i])) << (8 * i);
  return value;
}

/// Reads encoded fields front to back; any overrun marks the input bad (ok() false) and every
/// later read gives zero or empty.
class Reader {
public:
  explicit Reader(std::string_view bytes) : rest_(bytes) {}
  bool ok() const { return ok_; }
  bool at_end() const { return rest_.empty(); }
  /// The bytes not read yet (a view of the input).
  std::string_view rest() const { return rest_; }

  std::uint64_t varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (rest_.empty()) return fail();
      const auto byte = static_cast<unsigned char>(rest_.front());
      rest_.remove_prefix(1);
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return fail();
  }
  std::uint64_t fixed(int bytes) {
    if (rest_.size() < static_cast<std::size_t>(bytes)) return fail();
    const std::uint64_t value = get_fixed(rest_.data(), bytes);
    rest_.remove_prefix(static_cast<std::size_t>(bytes));
    return value;
  }
  std::string string() { return std::string(view()); }
  /// The next string, as string() reads it, but a view of the input (valid while the input is):
  /// no copy of a large one.
  std::string_view view() {
    const std::uint64_t size = varint();
    if (!ok_ || size > rest_.size()) return fail(), std::string_view();
    const std::string_view text = rest_.substr(0, size);
    rest_.remove_prefix(size);
    return text;
  }
  std::vector<std::string> list() {
    const std::uint64_t count = varint();
    std::vector<std::string> texts;
    if (!ok_ || count > rest_.size()) return fail(), texts;  // each string takes a byte at least
    texts.reserve(count);
    for (std::uint64_t i = 0; i < count && ok_; ++i) texts.push_back(string());
    return texts;
  }
  /// Marks the input bad: a value read is out of its range.
  void mark_bad() { fail(); }
  /// A count of items that take a byte each at least; larger than what is left is an overrun.
  std::uint64_t count() {
    const std::uint64_t n = varint();
    if (n > rest_.size()) return fail();
    return n;
  }

private:
  std::uint64_t fail() {
    ok_ = false;
    rest_ = {};
    return 0;
  }
  std::string_view rest_;
  bool ok_ = true;
};

}  // namespace canon::codec
