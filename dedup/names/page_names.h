/// @file page_names.h
/// @brief The name rule: what a page is called (its title, or its main heading where the title
/// says nothing of its own), less the words the site puts in many names, and the similarity two
/// pages need for how their names relate (docs/dedup.md, "The name rule").
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/byte_codec.h"
#include "dedup/sketches/boilerplate.h"
#include "dedup/detectors/detector.h"
#include "dedup/sketches/tokenizer.h"

namespace canon {
class Collective;
}

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
  /// Each segment of the path (the release directories left out, the query dropped): its
  /// XXH3, and its words (name_word_hash(), in segment_words[segment_word_end[i-1],
  /// segment_word_end[i])).
  std::vector<std::uint64_t> segments;
  std::vector<std::uint32_t> segment_words;
  std::vector<std::uint32_t> segment_word_end;
  /// XXH3 of the place the page cites first (DedupDocument::cited_place; a fragment that is a
  /// range of numbers, lines `110-139`, cut to where it starts), its low bit set, and bit 1 set
  /// (kCitedLine) when it is a line (the fragment a number or a range of them) of a page of the
  /// page's own host; 0: none.
  std::uint64_t cited = 0;
  static constexpr std::uint64_t kCitedLine = 2;
  /// XXH3 of the path's directories that name a release, in order, its low bit set; 0: none.
  std::uint64_t release = 0;
};

/// Appends `name`'s bytes (common/byte_codec.h) to `out`: how a detector's kept state travels
/// between the processes of a partitioned build (Detector::encode_added).
void encode_page_name(const PageName& name, std::string& out);
/// The PageName encode_page_name() wrote at `in`'s front, read past; marks `in` bad (and gives a
/// default PageName) when the bytes do not check out.
PageName decode_page_name(codec::Reader& in);
/// The same, into `name` (its vectors' room re-used: no allocation once they are large enough).
void decode_page_name(codec::Reader& in, PageName& name);

/// The names of a run's documents, each held as encode_page_name() wrote it: what a detector
/// keeps of every page from the parse until it builds the site's names (SiteNames), about half
/// the memory of the PageNames themselves (a ~200-byte struct and six vectors each). A document
/// never set has the empty name, PageName{}. Setting distinct documents from several threads at
/// once is safe.
class EncodedPageNames {
public:
  /// `count` documents, each with the empty name.
  void reset(std::size_t count) {
    names_.assign(count, std::string());
    names_.shrink_to_fit();
  }
  std::size_t size() const { return names_.size(); }
  void set(std::size_t document, const PageName& name) {
    std::string bytes;
    encode_page_name(name, bytes);
    names_[document] = std::move(bytes);
  }
  /// `bytes`: what encode_page_name() wrote. REQUIRES: they decode (decode_page_name).
  void set_encoded(std::size_t document, std::string_view bytes) { names_[document] = std::string(bytes); }
  /// Appends the document's name as encode_page_name() writes it.
  void append_encoded(std::size_t document, std::string& out) const;
  /// Every document's name in order, decoded into one PageName in turn (passed to `each`).
  void for_each(const std::function<void(const PageName&)>& each) const;
  /// The bytes held for the names, their strings included.
  std::size_t held_bytes() const;

private:
  std::vector<std::string> names_;  // empty: PageName{}
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
  kOtherRelease,  ///< not mirrored, and both paths name a release, not the same one
                  ///< (`3.3/a00085.html`, `3.4/a00089.html`: a generator that numbers its files
                  ///< anew in every release)
};

/// The hash a word of a name has in PageName and SiteNames: the low 32 bits of XXH3 of the word
/// as tokenize() gives it, the top bit set for words of digits only (numbers).
std::uint32_t name_word_hash(std::string_view word);

/// The words of the place in which two moved pages' paths differ (SiteNames::moved_place()),
/// as name_word_hash() gives them, sorted, and how their texts mask them: a directory
/// substituted ("std::cmp" / "core::cmp") becomes one placeholder in both; an inserted one
/// ("arm::dsp::f" / "arm::f") is left out, the other text having nothing in its stead.
struct MovedPlace {
  std::vector<std::uint32_t> words;
  bool inserted = false;
  bool operator==(const MovedPlace&) const = default;
};

/// The own shingles (k words, `boilerplate` left out, judged on the words as written) of the
/// tokenized text `words` with every word of `place` masked (MovedPlace): how moved pages
/// (SiteNames::moved()) are compared, so that the place their names and texts repeat does not
/// count against them. REQUIRES: k >= 1. Into `out` (sorted, unique; its buffer reused).
void moved_shingle_set(const JoinedWords& words, const MovedPlace& place, unsigned k, const Boilerplate& boilerplate,
                       std::vector<std::uint64_t>& out);

/// How moved pages are measured: the share of one page's (masked) shingles found in the other's,
/// from the overlap `common` of the two sets and the size `own` of the first (0 when empty). The
/// same item in another place may list more (std's page of a trait lists the implementors of the
/// whole standard library, core's those of core alone): the pages are near-duplicates when
/// either is covered by the other (the larger share), and a page may stand for another only
/// when it covers it (Detector::compare() judges its first page against its second), so the
/// fuller page represents them (docs/dedup.md, "Moved pages").
double moved_coverage(std::size_t common, std::size_t own);

/// The moved_coverage() of a in b and of b in a, of tokenized texts `a_words` and `b_words`,
/// with `place` masked in both (moved_shingle_set() with `k` and `boilerplate`): how moved
/// pages are measured (SiteNames::moved_coverages()).
std::pair<double, double> masked_coverages(const MovedPlace& place, const JoinedWords& a_words,
                                           const JoinedWords& b_words, unsigned k, const Boilerplate& boilerplate);

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
  /// A file name shared by more sibling directories than this says nothing of which two are
  /// parallel trees (`*/index.html` under every module): not counted.
  static constexpr std::size_t kMaxParallelGroup = 64;
  /// Two directories hold parallel trees, places of the site such as a crate that re-exports
  /// another's items or a platform module that repeats another's, when at least this many paths
  /// below them are the same; two classes whose member pages are named alike share fewer, and so
  /// do two Javadoc modules (docs/dedup.md, "Moved pages": at most 58 on cppreference and 20 on
  /// Javadoc, against 116 to 4,935 between rust-doc's crates and platforms).
  static constexpr std::size_t kMinPlaceTreePaths = 100;
  /// Fewer same paths whose names say their place cannot be most of a parallel tree's: not
  /// counted (ParallelPaths::named_by_place()), so that a partitioned run gathers only these.
  static constexpr std::size_t kMinNamedPlacePaths = kMinPlaceTreePaths / 2;

  SiteNames() = default;
  /// `pages[d]` for each document d.
  explicit SiteNames(std::span<const PageName> pages);
  /// The same from names held encoded, each decoded as it is read (a few times over).
  explicit SiteNames(const EncodedPageNames& pages);
  /// A process's part of a partitioned run (docs/partitioned-build.md): the site's statistics
  /// (the titles many pages share, the common words, the parallel trees) counted over every
  /// process's names by their owners, and the names of this process's own documents [first,
  /// first + pages.size()) only, `pages[k]` being document first + k's. What it answers of the
  /// documents it has (has()) is what the SiteNames of the whole site answers. Collective: every
  /// process calls it at the same point of its run; their parts tile the run's documents in rank
  /// order. One process builds the whole site's as the constructor does.
  static SiteNames of_part(const EncodedPageNames& pages, std::uint32_t first, const Collective& processes);

  /// Whether the names of document d are here: the whole site's, or a process's own and those
  /// taken (take_names()).
  bool has(std::uint32_t d) const {
    return d - first_ < held_ || (!slot_of_taken_.empty() && slot_of_taken_.contains(d));
  }
  /// In a partitioned run (of_part()): the names of `documents` (any, in any order, repeated or
  /// here already) taken from the processes that hold them, until forget_taken(). `pages`: this
  /// process's own, as of_part() was given them. Collective.
  void take_names(std::span<const std::uint32_t> documents, const EncodedPageNames& pages, const Collective& processes);
  /// Lets the names take_names() took go.
  void forget_taken();
  /// In a partitioned run (of_part()): same_name_pairs() and moved_pairs() of the whole site.
  /// Each named page is told to the process that owns its name (and the ones that own its file
  /// name and depth, its path and its path without each directory), which takes the names of the groups of two or more from their holders and
  /// pairs them. `pages`: this process's own. Collective; each pair goes to the process holding
  /// its handling_page (dedup/sketches/minhash.h), so the processes' results together are the
  /// whole site's. One process returns same_name_pairs() and moved_pairs().
  std::pair<std::vector<std::pair<std::uint32_t, std::uint32_t>>, std::vector<std::pair<std::uint32_t, std::uint32_t>>>
  name_pairs(std::size_t neighbours, const EncodedPageNames& pages, const Collective& processes) const;

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
  /// Whether documents a and b are the same item at a parallel path: their names are known,
  /// their paths are the same but for one directory (`std/cmp/trait.Eq.html`,
  /// `core/cmp/trait.Eq.html`; `core/arch/x86/fn.f.html`, `core/arch/x86_64/fn.f.html`), the two
  /// directories hold parallel trees (at least kMinPlaceTreePaths paths below them are the
  /// same) or the pages cite one source line first (same_definition() of a line: `riscv32`,
  /// `riscv64`); or, citing one line first, one path is the other with a directory inserted
  /// (a module that re-exports its submodule's items: `core/arch/arm/dsp/fn.f.html`,
  /// `core/arch/arm/fn.f.html`), the deeper page's name saying that directory and the other
  /// name adding nothing; and
  /// either each page's directory is named in its
  /// own name ("Eq in std::cmp", "Eq in core::cmp"), and every word one name has and the other
  /// lacks is a word of its own directory: the site writes the item's place into its name, and
  /// the names differ in the place alone; or the names are the same in trees whose pages the
  /// site names by their place (ParallelPaths::named_by_place: "f32 - Rust" in std and core,
  /// where most pages say "in std::" and "in core::"). A re-export, a crate or platform module
  /// that repeats another's items. Such pages are measured by masked containment
  /// (moved_shingle_set(), moved_coverage()) and need moved_threshold.
  /// Not moved: the same name in parallel directories whose pages' names do not say their
  /// place (`c/…/atof.html`, `cpp/…/atof.html` on a site whose names never say "c" or "cpp"), a
  /// qualifier one name adds while the other name does not say
  /// its own place (`experimental/any.html` "std::experimental::any", `utility/any.html`
  /// "std::any"), paths of other depths but for one inserted directory.
  /// REQUIRES: a, b < the number of pages.
  bool moved(std::uint32_t a, std::uint32_t b) const;
  /// The words of the directories in which the paths of moved pages a and b differ, both
  /// sides: what moved_shingle_set() masks in both texts. REQUIRES: moved(a, b).
  MovedPlace moved_place(std::uint32_t a, std::uint32_t b) const;
  /// How moved pages a and b, of tokenized texts `a_words` and `b_words`, are measured: the
  /// moved_coverage() of a in b and of b in a, their moved_place() masked in both
  /// (moved_shingle_set() with `k` and `boilerplate`). REQUIRES: moved(a, b), k >= 1.
  std::pair<double, double> moved_coverages(std::uint32_t a, std::uint32_t b, const JoinedWords& a_words,
                                            const JoinedWords& b_words, unsigned k,
                                            const Boilerplate& boilerplate) const;
  /// The pairs (a < b) with moved(a, b), sorted: their Jaccard may be far below what LSH is
  /// tuned to (a longer list of implementors), so detectors take them as candidates whatever
  /// their sketches say. Pages are grouped by page_stem() and path depth; each is paired with at
  /// most `neighbours` of the next pages of its group, so a group of g costs at most
  /// g · neighbours checks of moved(). Pages one directory deeper are found by their path
  /// without each of their directories (nested_moved_pairs()), every one.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> moved_pairs(
      std::size_t neighbours = static_cast<std::size_t>(-1)) const;
  /// Whether documents a and b cite the same place first (PageName::cited): moved pages that do
  /// say they document one definition (rustdoc's source link of a re-exported item is the
  /// original's), which two items of one name on two platforms do not (stdarch defines some arm
  /// and aarch64 intrinsics twice: two source links). REQUIRES: a, b < the number of pages.
  bool same_definition(std::uint32_t a, std::uint32_t b) const {
    return url_of(a).cited != 0 && url_of(a).cited == url_of(b).cited;
  }
  /// required_similarity() of documents a and b.
  /// Moved pages (moved()) need moved_threshold of moved_coverage(), or only `threshold` when
  /// they cite the same definition (same_definition()): then paths, names and the definition
  /// all say "the same item", and the text need only rule out a different page altogether; what
  /// one lists and the other lacks is for containment to judge (authoritative_pages.h).
  double required(const DedupOptions& options, std::uint32_t a, std::uint32_t b) const {
    if (options.title_rule && moved(a, b)) {
      return same_definition(a, b) ? options.threshold : std::max(options.threshold, options.moved_threshold);
    }
    return required_similarity(options, relation(a, b), url_evidence(a, b));
  }

private:
  /// What the site says of every name: counted over all pages, then kept only where it decides
  /// something (a word common on the site or in a top-level directory, two directories with
  /// parallel trees), so that it is small whatever the site's size.
  struct ParallelPaths {
    std::uint32_t paths = 0;
    std::uint32_t named = 0;
    /// The site names the two trees' pages by their place (most of the same paths have names
    /// that say their directory): a page of one name in both is one item whose name does not
    /// say its place (rustdoc's primitives, "f32 - Rust", in std and core).
    bool named_by_place() const { return paths > 0 && 2 * std::uint64_t{named} > paths; }
  };
  struct Statistics {
    std::unordered_set<std::uint32_t> common_words;
    /// section_word() of each word common in a top-level directory.
    std::unordered_set<std::uint64_t> common_section_words;
    /// For two directories (directory_pair_key), how many paths below them are the same, and of
    /// those, at how many both pages' names carry a word of their own directory; only pairs with
    /// at least kMinPlaceTreePaths paths.
    std::unordered_map<std::uint64_t, ParallelPaths> parallel_paths;
    bool common(std::uint64_t section, std::uint32_t w) const {
      return common_words.contains(w) || (section != 0 && common_section_words.contains(section_word(section, w)));
    }
  };
  static std::uint64_t section_word(std::uint64_t section, std::uint32_t w) {
    return section ^ (std::uint64_t{w} * 0x9e3779b97f4a7c15ull);
  }
  /// What the statistics are counted from, page by page (count_page()): the local counts of one
  /// process, or of the whole site.
  struct Counts {
    std::unordered_map<std::uint32_t, std::uint64_t> word_pages;
    std::uint64_t named = 0;
    std::unordered_map<std::uint64_t, std::uint64_t> section_named;
    /// (section_word, section) -> pages
    std::unordered_map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> section_word_pages;
    /// (key of the path with one directory blanked, the path through that directory)
    std::vector<std::pair<std::uint64_t, std::uint64_t>> blanked;
    /// The same, for a page whose name carries a word of the blanked directory only.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> named_blanked;
  };
  /// The words of a page's name in order and the hash of the name's text, given whether its
  /// title is one many pages share.
  static std::vector<std::uint32_t> name_sequence(const PageName& page, bool generic_title, std::uint64_t& text);
  static void count_page(const PageName& page, bool generic_title, Counts& counts);
  /// The directory pairs' counts of parallel paths from the blanked paths (sorted by key): each
  /// key's distinct directories, two to kMaxParallelGroup of them, pair with each other.
  static void count_parallel_pairs(std::span<const std::pair<std::uint64_t, std::uint64_t>> blanked,
                                   std::unordered_map<std::uint64_t, std::uint64_t>& pairs);
  /// In a partitioned run: the directory pairs' counts over every process's `blanked` records
  /// (emptied), those of at least `least`, on every process: each record goes to its key's
  /// owner, which pairs the key's directories (count_parallel_pairs()), and each pair's count is
  /// summed by the pair's owner. Collective.
  static std::vector<std::pair<std::uint64_t, std::uint64_t>> parallel_pair_counts(
      std::vector<std::pair<std::uint64_t, std::uint64_t>>& blanked, std::uint64_t least, const Collective& processes);
  /// In a partitioned run: the number of pages of each title of `pages` over every process's
  /// (each title's pages summed by its owner). Collective.
  static std::unordered_map<std::uint64_t, std::uint64_t> site_title_pages(const EncodedPageNames& pages,
                                                                           const Collective& processes);
  /// In a partitioned run: the site's statistics from every process's `counts` (their lists of
  /// blanked paths emptied), each key summed by its owner and the keys chosen kept by every
  /// process. Collective.
  static Statistics site_statistics(Counts& counts, const Collective& processes);
  /// Adds document d's names (a title many pages share or not), with the statistics.
  void add(std::uint32_t d, const PageName& page, bool generic_title);
  /// The whole site's statistics and names from `pages` (each call visits every page in order).
  using PageVisit = std::function<void(const std::function<void(const PageName&)>& each)>;
  void build(const PageVisit& pages);

  struct Name {
    std::uint64_t text = 0;
    std::uint32_t words = 0;  // words_[words, words_end) are its distinct words, sorted
    std::uint32_t words_end = 0;
    std::uint32_t subject = 0;  // words_[subject, end) its subject words, in order
    std::uint32_t end = 0;
  };
  std::span<const std::uint32_t> words(const Name& n) const {
    return std::span(words_).subspan(n.words, n.words_end - n.words);
  }
  std::span<const std::uint32_t> subject(const Name& n) const {
    return std::span(words_).subspan(n.subject, n.end - n.subject);
  }
  struct Url {
    std::uint64_t path = 0, stem = 0;
    std::uint32_t suffixes = 0, end = 0;  // suffixes_[suffixes, end)
    std::uint32_t segments = 0, segments_end = 0;  // segments_[segments, segments_end)
    std::uint64_t cited = 0;  // PageName::cited
    std::uint64_t release = 0;  // PageName::release
  };
  /// A segment of a path: its hash and its words (segment_words_[words, words_end)).
  struct Segment {
    std::uint64_t hash = 0;
    std::uint32_t words = 0, words_end = 0;
  };
  /// How the paths of two pages differ by one directory: each has its own in the same place
  /// (a substitution: `std/cmp/f.html`, `core/cmp/f.html`), or one path has a directory the
  /// other lacks (an insertion: `core/arch/arm/dsp/f.html`, `core/arch/arm/f.html`). Each side's
  /// directory is the index of its segment, kNoDirectory for the shorter path of an insertion.
  static constexpr std::size_t kNoDirectory = static_cast<std::size_t>(-1);
  struct PlaceChange {
    std::size_t a_directory = kNoDirectory, b_directory = kNoDirectory;
    bool substituted() const { return a_directory != kNoDirectory && b_directory != kNoDirectory; }
  };
  /// The one directory substituted or inserted between the paths of a and b (their file names
  /// the same; an inserted directory below the shorter path's first), or nothing.
  std::optional<PlaceChange> changed_place(const Url& a, const Url& b) const;
  /// The index of the directory of `deeper` that `shallower`'s path lacks, when the two paths
  /// are the same without it and share at least their first segment. REQUIRES: `deeper` has one
  /// segment more.
  std::optional<std::size_t> inserted_directory(const Url& deeper, const Url& shallower) const;
  /// The hash of the page's path without its segment `skip` (kNoDirectory: the whole path):
  /// a page one directory deeper than another is found by the other's whole path.
  std::uint64_t path_hash_without(const Url& url, std::size_t skip) const;
  /// The words of the directory `i` of `url`'s path; none for kNoDirectory.
  std::span<const std::uint32_t> place_words(const Url& url, std::size_t i) const {
    return i == kNoDirectory ? std::span<const std::uint32_t>() : segment_words(url, i);
  }
  /// The pairs of moved() pages one directory apart in depth (inserted_directory()), sorted.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> nested_moved_pairs() const;
  /// The pairs of moved() pages of one depth, as moved_pairs() says.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> parallel_moved_pairs(std::size_t neighbours) const;
  /// The words of segment `i` of `url`'s path.
  std::span<const std::uint32_t> segment_words(const Url& url, std::size_t i) const {
    const Segment& segment = segments_[url.segments + i];
    return std::span(segment_words_).subspan(segment.words, segment.words_end - segment.words);
  }
  static std::uint64_t directory_pair_key(std::uint64_t x, std::uint64_t y);
  /// The hash of the path of the page at `url` through its segment `i`.
  std::uint64_t prefix_hash(const Url& url, std::size_t i) const;
  /// The slot of document d's names. REQUIRES: has(d).
  std::uint32_t slot(std::uint32_t d) const { return d - first_ < held_ ? d - first_ : slot_of_taken_.at(d); }
  const Name& name_of(std::uint32_t d) const { return names_[slot(d)]; }
  const Url& url_of(std::uint32_t d) const { return urls_[slot(d)]; }

  Statistics statistics_;
  /// Per slot: the document, its name and URL, and whether its title is one many pages share.
  /// Slots [0, held_) are documents [first_, first_ + held_); the rest were taken.
  std::vector<std::uint32_t> document_;
  std::vector<Name> names_;
  std::vector<Url> urls_;
  std::vector<char> generic_title_;
  std::vector<std::uint32_t> words_;
  std::vector<std::uint64_t> suffixes_;
  std::vector<Segment> segments_;
  std::vector<std::uint32_t> segment_words_;
  std::uint32_t first_ = 0;
  std::uint32_t held_ = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> slot_of_taken_;
  /// The sizes of words_, suffixes_, segments_ and segment_words_ at the held slots' end
  /// (forget_taken()).
  std::array<std::size_t, 4> held_sizes_{};
  void mark_held_end() {
    held_sizes_ = {words_.size(), suffixes_.size(), segments_.size(), segment_words_.size()};
  }
  /// In a partitioned run: the processes that hold documents, [first, end) each, by first.
  struct Holder {
    std::uint32_t first = 0, end = 0;
    unsigned process = 0;
    bool operator<(const Holder& other) const { return first < other.first; }
  };
  std::vector<Holder> holders_;
  /// In a partitioned run: every process's [first, end) of documents, the empty ones left out.
  /// Collective.
  static std::vector<Holder> holders_of_parts(std::uint32_t first, std::uint32_t end, const Collective& processes);
  /// The process holding document d. REQUIRES: of_part(); d is a document of the run.
  unsigned holder(std::uint32_t d) const;
  /// The names of `wanted` (sorted, unique; its own answered by this process too) from their holders,
  /// each given to `use` with whether its title is one many pages share. Collective: this
  /// process answers what the others want of its own (`pages`).
  using NameUse = std::function<void(std::uint32_t d, const PageName& name, bool generic_title)>;
  void names_from_holders(std::span<const std::uint32_t> wanted, const EncodedPageNames& pages,
                          const Collective& processes, const NameUse& use) const;
  /// add() of a document another process holds, found by has() until forget_taken().
  void add_taken(std::uint32_t d, const PageName& page, bool generic_title);
};



}  // namespace canon::dedup
