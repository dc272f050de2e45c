/// @file minhash_detector.h
/// @brief The "minhash" detector: word shingles, MinHash + LSH candidates, exact verification
/// of the candidates from shingle sets rebuilt on demand.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/byte_codec.h"
#include "common/collective.h"
#include "dedup/sketches/boilerplate.h"
#include "dedup/sketches/document_holders.h"
#include "dedup/detectors/detector.h"
#include "dedup/detectors/detector_support.h"
#include "dedup/sketches/minhash.h"
#include "dedup/names/page_names.h"
#include "dedup/sketches/shingles.h"

namespace canon::dedup {

/// Near-duplicates by the similarity of word-shingle sets (docs/dedup-minhash.md, "The minhash
/// detector"). Uses shingle_size, num_hashes, threshold, the name rule's options, seed and
/// threads of DedupOptions; reads each document's text, title and first heading.
///
/// learn_site() learns the site's boilerplate shingles (dedup/sketches/boilerplate.h) from a sample;
/// every page is then compared on its own shingles, the boilerplate left out. State kept per
/// document between add() and find_clusters(): the one-permutation MinHash sketch
/// (MinHasher::sketch32) of its own shingles as num_hashes 32-bit values, their count, a 64-bit
/// hash of the whole word sequence (boilerplate included: identical pages) and its PageName.
/// find_clusters(): pages with identical word sequences are merged directly (similarity 1) and
/// only the first of each takes part in LSH; LSH banding (choose_banding) over the sketches
/// gives candidate pairs; each candidate needs required_similarity() for how the pages' names
/// relate (SiteNames); one whose sketch estimate is far below that is dropped; the rest are
/// verified exactly: the candidate graph is cut into connected components, and each
/// component's documents are loaded once (components in parallel), their own shingle sets
/// rebuilt, its pairs measured, and the sets dropped. Verified pairs are merged with
/// union-find. compare() is the same measure and rule, 0 when either document has no own
/// shingles (1 when their word sequences are identical); it reuses the similarity of a pair
/// find_clusters() measured and loads the documents of the others.
///
/// One implementation for any number of processes (docs/partitioned-build.md,
/// "Near-duplicates"): each process keeps the state of the documents it holds, and each step
/// routes what it needs to the process that owns it; one process is the case P = 1.
class MinhashDetector final : public Detector {
public:
  /// REQUIRES: options.shingle_size >= 1, options.num_hashes >= 1.
  explicit MinhashDetector(const DedupOptions& options);
  std::string_view name() const override { return "minhash"; }
  void reset(std::uint32_t n) override;
  void learn_site(std::span<const DedupDocument> sample) override;
  void add(std::uint32_t i, const DedupDocument& doc) override;
  Clusters find_clusters(const DocumentLoader& load) override;
  /// One process holding every document (the default) is the case P = 1 of a partitioned run.
  void place(const DocumentPlacement& placement) override { placement_ = placement; }
  /// Each process judges its own pairs, the names, facts and pages it does not hold taken from
  /// their holders.
  std::vector<Comparison> compare(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                  const DocumentLoader& load) override;
  std::size_t state_bytes_per_document() const override;
  /// A header naming the detector and the range: a document's state stays with the process that
  /// added it, so another process taking these documents over only checks that they are not its
  /// own and within its run.
  std::optional<std::string> encode_added(std::uint32_t begin, std::uint32_t end) const override;
  Status add_encoded(std::string_view bytes) override;

  /// The measure candidates are verified with, from the overlap `common` of two non-empty
  /// shingle sets of sizes a and b (docs/dedup-minhash.md, "Verification").
  static double measure(std::size_t common, std::size_t a, std::size_t b);

private:
  using Pair = std::pair<std::uint32_t, std::uint32_t>;
  /// The similarity documents a and b need (the name rule). REQUIRES: find_clusters() ran.
  double required(std::uint32_t a, std::uint32_t b) const {
    return names_.required(options_, a, b);
  }
  /// Whether documents a and b are the same item at a parallel path (SiteNames::moved()),
  /// measured by masked containment instead of Jaccard. REQUIRES: find_clusters() ran.
  bool moved(std::uint32_t a, std::uint32_t b) const { return options_.title_rule && names_.moved(a, b); }
  /// What the name rule says of a pair: the similarity it needs (required()), whether its pages
  /// are moved (moved()) and then the place masked in both (SiteNames::moved_place()).
  struct PairRule {
    double required = 0.0;
    bool moved = false;
    MovedPlace place;
  };
  /// The PairRule of each of `pairs`, judged here. REQUIRES: find_clusters() made names_, and
  /// this process has both names of every pair (all, or taken: pair_rules_here()).
  std::vector<PairRule> pair_rules(std::span<const Pair> pairs) const;
  /// A PairRule in bytes (the exchanges of rules), and back from a reader at it.
  static void put_rule(std::string& out, const PairRule& rule);
  static void read_rule(codec::Reader& in, PairRule& rule);
  /// The PairRule of each of this process's own `pairs`, judged here, the names it does not
  /// hold taken from their holders. Collective.
  std::vector<PairRule> pair_rules_here(std::span<const Pair> pairs);
  /// The processes the documents are held by: place()'s, or this one alone.
  const Collective& collective() const { return placement_.processes != nullptr ? *placement_.processes : alone_; }
  /// What the detector knows of one document besides its sketch and name: its own shingle
  /// count (0: none), the XXH3 of its whole word sequence (0: no words, or never added), and
  /// whether it has shingles but every one is the site's repeated text.
  struct PageFacts {
    std::uint32_t size = 0;
    std::uint64_t text_hash = 0;
    bool repeated_only = false;
  };
  /// Document d's facts. REQUIRES: holds(d), or d's taken (take_facts()).
  PageFacts facts(std::uint32_t d) const;
  /// Takes the facts of those of `pages` held elsewhere from their holders, kept until
  /// forget_facts(). Collective (every process calls it at the same point).
  void take_facts(std::span<const std::uint32_t> pages);
  void forget_facts() { taken_facts_ = {}; }
  /// Whether document d is compared with others: it has own shingles, or all its shingles are
  /// the site's repeated text. REQUIRES: as facts().
  bool takes_part(std::uint32_t d) const {
    const PageFacts f = facts(d);
    return f.size != 0 || f.repeated_only;
  }
  /// Whether pair (a, b) is measured on all their shingles: one of them has none but the site's
  /// repeated text. REQUIRES: as facts().
  bool takes_whole(std::uint32_t a, std::uint32_t b) const { return facts(a).repeated_only || facts(b).repeated_only; }
  /// Whether documents a and b have the same word sequence (so the same shingles).
  bool identical(std::uint32_t a, std::uint32_t b) const {
    const std::uint64_t hash = facts(a).text_hash;
    return hash != 0 && hash == facts(b).text_hash;
  }
  /// What a pair (a, b) measured: `forward` of a against b, `backward` of b against a. Both the
  /// Jaccard of their own shingles, or for moved pages the share of a's (b's) masked shingles
  /// found in the other's (moved_shingle_set()). find_clusters() verifies the larger of the two;
  /// compare() judges its first page against its second.
  struct Measured {
    double forward = 0.0;
    double backward = 0.0;
    double larger() const { return std::max(forward, backward); }
  };
  /// The Measured of each of `pairs` (a < b) whose `needed` flag is set, into out[index],
  /// measured by this process: the pages told to `load` (DocumentLoader::locate) and their facts
  /// taken (take_facts()), each connected component of those pairs measured once
  /// (measure_component(), components in parallel). Collective.
  void measure_here(std::span<const Pair> pairs, const std::vector<bool>& needed, std::span<const PairRule> rules,
                    const DocumentLoader& load, std::vector<Measured>& out);
  /// What compare() returns for `pairs` (as given), from the `rules` and `measured` of their
  /// ordered (a < b) forms.
  std::vector<Comparison> comparisons(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                                      std::span<const PairRule> rules, std::span<const Measured> measured) const;
  /// compare()'s first step: each pair ordered (a < b), its measure where it is known already
  /// (identical, or in measured_), and whether it still needs measuring.
  void known_measures(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs, std::vector<Pair>& ordered,
                      std::vector<Measured>& measured, std::vector<bool>& needed) const;
  /// Pairs of documents with the same word sequence (similarity 1), each with the first of its
  /// group: each process's documents by word-sequence hash to the hash's owner (hash mod P),
  /// which pairs its groups and tells the holders of the later pages. Returns the pairs of the
  /// groups this process owns; marks in `skip` (one per document it holds, d - held_first_)
  /// those later ones of its own documents and its documents without own shingles, which take
  /// no part in LSH. Collective.
  std::vector<SimilarPair> owned_identical_pairs(std::span<bool> skip) const;
  /// The candidate pairs whose handling page this process holds: LSH's among the documents
  /// `skip` leaves in (owned_lsh_candidates), with the pairs the name rule makes candidates
  /// whatever their sketches (SiteNames::name_pairs); sorted, unique. REQUIRES: names_ made
  /// (find_clusters()). Collective.
  std::vector<Pair> owned_candidate_pairs(std::span<const bool> skip);
  /// Adds the name rule's forced pairs (sorted; those whose pages both take part) to the sorted,
  /// unique `candidates`.
  void add_forced_pairs(std::vector<Pair>& candidates, std::span<const Pair> same_name,
                        std::span<const Pair> moved_pages) const;
  /// Whether each of this process's `owned` candidates may be similar enough to be measured: the
  /// pair needs masked containment or all shingles, or its sketch estimate could reach its
  /// rule's required similarity (worth_measuring()), the other pages' facts and sketches asked
  /// of their holders. Collective.
  std::vector<bool> owned_worth_measuring(std::span<const Pair> owned, std::span<const PairRule> rules);
  /// Measures this process's `needed` pairs (with their rules) with the rest of their connected
  /// components: each pair sent to the holder of its component's smallest page
  /// (pair_component_labels), which loads the component's pages once and measures it. Returns
  /// this process's measures as SharedMeasure records (a, b, forward, backward, verified).
  /// Collective.
  std::string measure_owned_components(std::span<const Pair> needed, std::span<const PairRule> rules,
                                       const DocumentLoader& load);
  /// The Measured of the pairs whose indices are `component` (one connected component), into
  /// out[index]: its documents loaded once, or block against block beyond the budget.
  void measure_component(std::span<const Pair> pairs, std::span<const std::size_t> component,
                         std::span<const PairRule> rules,
                         const DocumentLoader& load, std::vector<Measured>& out) const;
  /// Whether pair (a, b) may reach `required`: its sketch estimate, kEstimateSlackSigmas
  /// standard deviations above, could. REQUIRES: as facts() for a and b.
  bool worth_measuring(std::uint32_t a, std::uint32_t b, double required, std::span<const std::uint32_t> sketch_a,
                       std::span<const std::uint32_t> sketch_b) const;
  /// Whether this detector holds document d's state (place()).
  bool holds(std::uint32_t d) const { return d >= held_first_ && d < held_end_; }
  /// REQUIRES: holds(d).
  std::span<const std::uint32_t> sketch_of(std::uint32_t d) const {
    return std::span(sketches_).subspan(std::size_t{d - held_first_} * width_, width_);
  }

  DedupOptions options_;
  MinHasher hasher_;
  std::size_t width_;
  /// The run's documents.
  std::uint32_t documents_ = 0;
  /// Per document held, d - held_first_ (every document in a one-process run): sketch32 of
  /// its own shingles (row-major, width_ values each) and its PageFacts, in three arrays (13
  /// bytes a document, not 16). A document whose shingles are all the site's repeated text (an
  /// include rendered as a page of its own) takes no part in LSH, and is measured on all its
  /// shingles against the pages the name rule makes its candidates (same_name_pairs).
  std::vector<std::uint32_t> sketches_;
  std::vector<std::uint32_t> sizes_;
  std::vector<std::uint64_t> text_hashes_;
  std::vector<char> repeated_only_;
  /// The facts of documents held elsewhere that take_facts() took, sorted by document.
  std::vector<std::pair<std::uint32_t, PageFacts>> taken_facts_;
  /// Every process's range, told when find_clusters() starts.
  std::optional<DocumentHolders> holders_;
  /// The site's boilerplate shingles (learn_site()), left out of every page's set.
  Boilerplate boilerplate_;
  /// page_name() of each document until find_clusters() makes names_ from them.
  EncodedPageNames page_names_;
  SiteNames names_;
  /// The candidate pairs find_clusters() measured, (a << 32 | b) for a < b, sorted, with their
  /// Measured: compare() asks mostly for these (a duplicate against its cluster's indexed page)
  /// and need not load them again. 24 bytes per measured candidate.
  std::vector<std::pair<std::uint64_t, Measured>> measured_;
  /// The key of pair (a, b), a < b, in measured_.
  static std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) { return std::uint64_t{a} << 32 | b; }
  /// Where the documents are (place()); with no processes, this one alone (alone_).
  DocumentPlacement placement_;
  LocalCollective alone_;
  /// The documents whose state this run holds: the placement's, within the run's documents.
  std::uint32_t held_first_ = 0;
  std::uint32_t held_end_ = 0;
};

}  // namespace canon::dedup
