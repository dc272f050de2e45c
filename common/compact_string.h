/// @file compact_string.h
/// @brief Strings that most records leave unset, held in one pointer (8 bytes) instead of a
/// std::string (32) or a std::optional<std::string> (40).
///
/// Why by hand: a page record keeps a dozen such fields (why a page was skipped, the encoding it
/// was decoded from, the redirect it makes, the rule that recorded it, ...) and nearly every page
/// leaves them unset; a record is held for every file of the site through the whole run, so on
/// the generated 1M-page site (1.2M files) each 24 bytes of record is ~27 MiB of the run's peak
/// (docs/benchmarks.md, "Memory per page"). A set value costs a heap block of its own, so these
/// types are for fields that are rare, not for every page's title or URL.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace canon {

/// An optional string in one pointer: null for "no value". Has the parts of std::optional's
/// interface the records use; copies copy the text.
class CompactOptionalString {
public:
  CompactOptionalString() = default;
  CompactOptionalString(std::nullopt_t) {}
  CompactOptionalString(std::string text) : text_(std::make_unique<std::string>(std::move(text))) {}
  CompactOptionalString(const char* text) : CompactOptionalString(std::string(text)) {}
  CompactOptionalString(const std::optional<std::string>& text) {
    if (text) text_ = std::make_unique<std::string>(*text);
  }
  CompactOptionalString(const CompactOptionalString& other)
      : text_(other.text_ ? std::make_unique<std::string>(*other.text_) : nullptr) {}
  CompactOptionalString(CompactOptionalString&&) noexcept = default;
  CompactOptionalString& operator=(const CompactOptionalString& other) {
    if (this != &other) text_ = other.text_ ? std::make_unique<std::string>(*other.text_) : nullptr;
    return *this;
  }
  CompactOptionalString& operator=(CompactOptionalString&&) noexcept = default;
  CompactOptionalString& operator=(std::nullopt_t) {
    text_.reset();
    return *this;
  }

  bool has_value() const { return text_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  /// REQUIRES: has_value().
  const std::string& operator*() const { return *text_; }
  std::string& operator*() { return *text_; }
  const std::string* operator->() const { return text_.get(); }
  const std::string& value() const {
    if (!text_) throw std::bad_optional_access();
    return *text_;
  }
  std::string value_or(std::string_view otherwise) const { return text_ ? *text_ : std::string(otherwise); }
  void reset() { text_.reset(); }
  /// As a std::optional (a copy).
  std::optional<std::string> optional() const { return text_ ? std::optional<std::string>(*text_) : std::nullopt; }

  friend bool operator==(const CompactOptionalString& a, const CompactOptionalString& b) {
    return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
  }
  friend bool operator==(const CompactOptionalString& a, std::string_view b) { return a.has_value() && *a == b; }
  friend bool operator==(const CompactOptionalString& a, const char* b) { return a == std::string_view(b); }
  friend bool operator==(const CompactOptionalString& a, const std::string& b) { return a == std::string_view(b); }
  friend bool operator==(const CompactOptionalString& a, const std::optional<std::string>& b) {
    return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
  }

private:
  std::unique_ptr<std::string> text_;
};

/// A string in one pointer: null while it is empty (an empty string is never kept). Reads as a
/// `const std::string&`; assigned from strings.
class CompactString {
public:
  CompactString() = default;
  CompactString(std::string text) { *this = std::move(text); }
  CompactString(const char* text) : CompactString(std::string(text)) {}
  CompactString(const CompactString& other) = default;
  CompactString(CompactString&&) noexcept = default;
  CompactString& operator=(const CompactString& other) = default;
  CompactString& operator=(CompactString&&) noexcept = default;
  CompactString& operator=(std::string text) {
    if (text.empty()) {
      text_.reset();
    } else {
      text_ = std::move(text);
    }
    return *this;
  }

  CompactString& operator=(const char* text) { return *this = std::string(text); }

  const std::string& str() const { return text_ ? *text_ : no_text(); }
  operator const std::string&() const { return str(); }
  operator std::string_view() const { return str(); }
  bool empty() const { return !text_.has_value(); }
  std::size_t size() const { return str().size(); }
  void clear() { text_.reset(); }

  friend bool operator==(const CompactString& a, const CompactString& b) { return a.str() == b.str(); }
  friend bool operator==(const CompactString& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const CompactString& a, const char* b) { return a.str() == b; }
  friend bool operator==(const CompactString& a, const std::string& b) { return a.str() == b; }
  friend std::string operator+(std::string_view a, const CompactString& b) { return std::string(a) + b.str(); }
  friend std::string operator+(const CompactString& a, std::string_view b) { return a.str() + std::string(b); }

private:
  static const std::string& no_text() {
    static const std::string nothing;
    return nothing;
  }
  CompactOptionalString text_;
};

}  // namespace canon
