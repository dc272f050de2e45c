/// @file page_names.h
/// @brief The name rule: what a page is called (its title, or its main heading where the title
/// says nothing of its own), less the words the site puts in many names, and the similarity two
/// pages need for how their names relate (docs/dedup.md, "The name rule").
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "dedup/detector.h"

namespace canon::dedup {

/// What the name rule keeps of a page until the whole site is known: a hash of its title and
/// of its first heading as text (lowercased, runs of white space as one space; 0 when empty),
/// and the distinct words (tokenize(), hashed to 32 bits, sorted) of each. Words of digits
/// only (release numbers, section numbers) have the top bit set, all others have it clear.
struct NameWords {
  std::uint64_t title_text = 0;
  std::uint64_t heading_text = 0;
  std::vector<std::uint32_t> title;
  std::vector<std::uint32_t> heading;
};

/// NameWords of a page; `heading` is its first heading (empty when it has none).
NameWords name_words(std::string_view title, std::string_view heading);

/// How the names of two pages relate.
enum class NameRelation {
  kSame,       ///< the same name, character for character (case and spacing aside)
  kRenamed,    ///< the names differ only in the site's common words, punctuation and numbers:
               ///< the same subject in another release or place ("Foo — 1.2" / "Foo — 1.3",
               ///< "Buffer in lib::io" / "Buffer in core::io")
  kRelated,    ///< otherwise, one name's words are all in the other's, which adds subject
               ///< words of its own ("Install" / "Install (printable version)")
  kDifferent,  ///< a word of one name's own is missing from the other's: different subjects
  kUnknown,    ///< either page has no name (no title or heading words)
};

/// Every page's name, decided once the whole site is known. A page's name is its title; where
/// the site gives the same title to many pages (at least kMinSitePages: "libstdc++: Member
/// List"), the title and the first heading together. A word in the names of at least
/// max(kMinSitePages, 1 % of the named pages) pages is one of the site's common words (the
/// site's name, a namespace, "Uses of Class"); the name's other words, numbers aside, are its
/// subject.
class SiteNames {
public:
  /// A title on this many pages says nothing of its own; a word in this many names (and in
  /// 1 % of them) is common.
  static constexpr std::size_t kMinSitePages = 8;

  SiteNames() = default;
  /// `pages[d]` for each document d.
  explicit SiteNames(std::span<const NameWords> pages);

  /// How the names of documents a and b relate. REQUIRES: a, b < the number of pages.
  NameRelation relation(std::uint32_t a, std::uint32_t b) const;

private:
  struct Name {
    std::uint64_t text = 0;
    std::size_t words = 0;      // words_[words, words_end) are all its words, sorted
    std::size_t words_end = 0;
    std::size_t subject = 0;    // words_[subject, end) its subject words, sorted
    std::size_t end = 0;
  };
  std::span<const std::uint32_t> words(const Name& n) const {
    return std::span(words_).subspan(n.words, n.words_end - n.words);
  }
  std::span<const std::uint32_t> subject(const Name& n) const {
    return std::span(words_).subspan(n.subject, n.end - n.subject);
  }
  std::vector<Name> names_;
  std::vector<std::uint32_t> words_;
};

/// The similarity two pages need under DedupOptions::title_rule (the name rule) for names
/// that relate as `relation`: `threshold` for the same or an unknown name,
/// related_title_threshold for a related one, renamed_threshold for a renamed one (none below
/// `threshold`), and
/// more than 1 (never) for different subjects. Without title_rule, `threshold`.
double required_similarity(const DedupOptions& options, NameRelation relation);

}  // namespace canon::dedup
