/// @file page_names.h
/// @brief The name rule: what a page is called (its title, or its main heading where the title
/// says nothing of its own), less the words the site puts in many names, and the similarity two
/// pages need for how their names relate (docs/dedup.md, "The name rule").
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <string_view>
#include <vector>

#include "dedup/boilerplate.h"
#include "dedup/detector.h"

namespace canon::dedup {

/// What the name rule keeps of a page until the whole site is known: a hash of its title and
/// of its first heading as text (lowercased, runs of white space as one space; 0 when empty),
/// the words (tokenize(), hashed to 32 bits, in order) of each (words of digits only, release
/// and section numbers, have the top bit set, all others have it clear), and hashes of
/// its URL: the path (with the query) less the directories that name a release
/// (release_in_segment(): "/0.50.1/user/jit.html" is "/user/jit.html"), each proper suffix of
/// that path that starts after a '/' (sorted), the page_stem(), and the path's first directory
/// (0 for a page at the root).
struct PageName {
  std::uint64_t title_text = 0;
  std::uint64_t heading_text = 0;
  std::vector<std::uint32_t> title;
  std::vector<std::uint32_t> heading;
  std::uint64_t path = 0;
  std::vector<std::uint64_t> path_suffixes;
  std::uint64_t stem = 0;
  /// The heading fields hold the opening words of the text: the page has no heading.
  bool heading_is_opening = false;
  std::uint64_t section = 0;
};

/// Words of a page's text that stand in for a heading when it has none.
inline constexpr std::size_t kOpeningWords = 24;

/// The PageName of a document: its url, title and first heading (or, when it has none, the
/// first sentence of its text, at most kOpeningWords words).
PageName page_name(const DedupDocument& doc);

/// How the names of two pages relate.
enum class NameRelation {
  kSame,       ///< the same name, character for character (case and spacing aside)
  kRenamed,    ///< the names differ only in the site's common words, punctuation and numbers
               ///< (the subject words are the same, in the same order):
               ///< the same subject in another release or place ("Foo — 1.2" / "Foo — 1.3",
               ///< "Buffer in lib::io" / "Buffer in core::io")
  kRelated,    ///< otherwise, one name's words are all in the other's, which adds subject
               ///< words of its own ("Install" / "Install (printable version)")
  kDifferent,  ///< a word of one name's own is missing from the other's: different subjects
  kUnknown,    ///< either page has no name (no title or heading words)
};

/// What two pages' URLs say of them.
enum class UrlEvidence {
  kNone,
  kSameStem,  ///< the same page_stem(): the same file name in another directory
  kMirrored,  ///< the same path, or one path is the other's below a prefix (`mirror/docs/a.html`,
              ///< `docs/a.html`), releases in the paths aside (`docs/v1/a.html`, `docs/a.html`,
              ///< `0.49/a.html`)
};

/// The similarity two pages need under DedupOptions::title_rule (the name rule):
/// - the same name: copy_threshold at mirrored paths, else parallel_threshold;
/// - an unknown name (no title or heading words, or a title many pages share and no heading):
///   `threshold` at mirrored paths, else parallel_threshold (nothing but the text to go by);
/// - related names: related_title_threshold at mirrored paths, parallel_threshold with the same
///   stem, else never;
/// - renamed: renamed_threshold; different subjects: more than 1 (never).
/// None is below min(threshold, copy_threshold). Without title_rule, `threshold`.
double required_similarity(const DedupOptions& options, NameRelation relation, UrlEvidence url);

/// Every page's name, decided once the whole site is known. A page's name is its title; where
/// the site gives the same title to many pages (at least kMinSitePages: "libstdc++: Member
/// List"), the title and the first heading together, and no name when the page has no heading.
/// A word in the names of at least
/// max(kMinSitePages, kCommonPercent % of the named pages) pages is one of the site's common
/// words (its template: the site's name, "Uses of Class", "Member List", the top namespace);
/// so is a word in the names of kSectionPercent % of the named pages of a top-level directory
/// (at least kMinSitePages), for that directory's pages: the release or language a site puts at
/// the top of its paths, which its titles carry too ("Numba 0.37.0dev1+32.gbe5fb1f.dirty
/// documentation"). The name's other words, numbers aside, are its subject.
class SiteNames {
public:
  /// A title on this many pages says nothing of its own; a word in this many names (and in
  /// 1 % of them) is common.
  static constexpr std::size_t kMinSitePages = 8;
  /// A word in this share of the names is the site's template. Far above a type or class name
  /// that many member pages carry ("long" in libstdc++'s specializations, "basic_string" in
  /// cppreference: 1-2 %), which names different items (docs/dedup.md, "The name rule").
  static constexpr std::size_t kCommonPercent = 20;
  /// A word in this share of the names of a top-level directory is that directory's template.
  /// Only the top level: deeper, a directory is often one item (a class and its members), whose
  /// name its pages share and which tells them from another item's pages.
  static constexpr std::size_t kSectionPercent = 50;

  SiteNames() = default;
  /// `pages[d]` for each document d.
  explicit SiteNames(std::span<const PageName> pages);

  /// How the names of documents a and b relate. REQUIRES: a, b < the number of pages.
  NameRelation relation(std::uint32_t a, std::uint32_t b) const;
  /// What the URLs of documents a and b say. REQUIRES: a, b < the number of pages.
  UrlEvidence url_evidence(std::uint32_t a, std::uint32_t b) const;
  /// The pairs (a < b) of documents with the same name (not unknown) at mirrored paths, sorted:
  /// the pairs that need only copy_threshold, below what LSH is tuned to find, so detectors
  /// take them as candidates whatever their sketches say. Each document is paired with at most
  /// `neighbours` of the next documents of its name (in document order) that mirror it, so a
  /// name shared by g documents costs at most g · neighbours pairs (the default: every pair;
  /// names are nearly unique on real sites, the largest group on six was 57). The time is still
  /// the square of the largest group of one name.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> same_name_pairs(
      std::size_t neighbours = static_cast<std::size_t>(-1)) const;
  /// required_similarity() of documents a and b.
  double required(const DedupOptions& options, std::uint32_t a, std::uint32_t b) const {
    return required_similarity(options, relation(a, b), url_evidence(a, b));
  }

private:
  struct Name {
    std::uint64_t text = 0;
    std::size_t words = 0;      // words_[words, words_end) are its distinct words, sorted
    std::size_t words_end = 0;
    std::size_t subject = 0;    // words_[subject, end) its subject words, in order
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
  struct Url {
    std::uint64_t path = 0, stem = 0;
    std::size_t suffixes = 0, end = 0;  // suffixes_[suffixes, end)
  };
  std::vector<Url> urls_;
  std::vector<std::uint64_t> suffixes_;
};



}  // namespace canon::dedup
