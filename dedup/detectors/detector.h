/// @file detector.h
/// @brief The one interface every near-duplicate detector implements (docs/dedup.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/status.h"
#include "dedup/dedup_document.h"

namespace canon {
class Collective;
}

namespace canon::dedup {

/// Two documents judged near-duplicates, with the detector's similarity in [0, 1].
struct SimilarPair {
  std::uint32_t a;
  std::uint32_t b;
  double similarity;
};

/// The order of pairs in Clusters::pairs: by (a, b).
inline bool in_document_order(const SimilarPair& x, const SimilarPair& y) {
  return x.a != y.a ? x.a < y.a : x.b < y.b;
}

/// A detector's judgement of one pair of documents (Detector::compare).
struct Comparison {
  /// The detector's similarity in [0, 1]; 0 when either document has no words.
  double similarity = 0.0;
  /// Whether the detector calls the pair near-duplicates: the rule find_clusters applies to its
  /// candidates (threshold, title rule, Hamming distance...), applied to this pair directly.
  bool near_duplicate = false;
  /// minhash and exact: the pages are the same item at a parallel path (SiteNames::moved(),
  /// dedup/names/page_names.h), measured directionally (similarity is the share of the first page's
  /// masked shingles found in the second's). What each lists is then comparable entry by entry
  /// (choose_authoritative_pages). False for every other pair and detector.
  bool moved = false;
};

/// A detector's verdict over a set of documents.
struct Clusters {
  /// For each document, its cluster id: the smallest document index in its cluster.
  std::vector<std::uint32_t> cluster_of;
  /// The verified near-duplicate pairs (a < b) that built the clusters, before union-find.
  std::vector<SimilarPair> pairs;
  /// Candidate pairs examined (after LSH or filtering), for the summary.
  std::size_t candidates_examined = 0;
};

/// Parameters shared by detectors; each detector documents which it uses.
struct DedupOptions {
  /// Words per shingle (minhash, exact, simhash).
  unsigned shingle_size = 3;
  /// MinHash sketch size.
  unsigned num_hashes = 128;
  /// Similarity at or above which two documents are near-duplicates (minhash and exact: shingle
  /// Jaccard; keyword and mwo when threshold_explicit). 0.3 keeps copies with a 1-3-word
  /// segment inserted after 15 % of words (Jaccard ≈ 0.46, 1st percentile ≈ 0.31 on the
  /// documentation sites); title_rule keeps templated siblings apart (docs/dedup.md).
  double threshold = 0.3;
  /// minhash and exact: the name rule (dedup/names/page_names.h, docs/dedup.md). Pages need the
  /// threshold above only where their paths mirror each other (one is the other below a
  /// prefix) and their names agree or one is missing; a name that adds words to the other's,
  /// related_title_threshold at mirrored paths; any other pair whose names do not name different
  /// subjects, renamed_threshold; names with different subject words are never near-duplicates.
  /// False: the threshold alone.
  bool title_rule = true;
  /// minhash and exact: the Jaccard needed at mirrored paths when one name's words are all in
  /// the other's ("Install" / "Install (printable version)"; title_rule).
  double related_title_threshold = 0.5;
  /// minhash and exact: the Jaccard needed when the names differ only in the site's common
  /// words and numbers: the same item in another release or place ("Foo — 1.2" / "Foo — 1.3",
  /// "Buffer in lib::io" / "Buffer in core::io"), whose text may have grown or lost a
  /// paragraph; a release's module page rewritten by half is not (docs/dedup.md, "The name rule").
  double renamed_threshold = 0.85;
  /// minhash and exact: the share of one page's own words (shingles) that must be found in the
  /// other's for moved pages, the same item at a parallel path (SiteNames::moved: parallel
  /// trees, the same path but for one directory, names that differ in the place alone), their
  /// place masked. The paths and names already say "the same item"; the text rules out a
  /// different one (docs/dedup.md, "Moved pages").
  double moved_threshold = 0.85;
  /// minhash and exact: the Jaccard needed by pages of one name at mirrored paths (a copy below
  /// a prefix or in another release that keeps its name), below `threshold`: the name rules
  /// out template siblings, and the own text a copy keeps is smaller than the whole text
  /// `threshold` was chosen on (inserted words are all the copy's own). Every such pair is a
  /// candidate, whatever LSH proposes (SiteNames::same_name_pairs). docs/dedup.md, "The name rule".
  double copy_threshold = 0.15;
  /// minhash and exact: the Jaccard needed where the paths do not mirror each other and the
  /// names agree (or are missing), or one adds words to the other at the same file name: a page
  /// saved under two names is near-identical, while parallel pages about parallel items (a C
  /// and a C++ page, std:: and std::experimental::filesystem) share up to 0.91 of their text
  /// (docs/dedup.md, "The name rule").
  double parallel_threshold = 0.95;
  /// minhash and exact: leave out the shingles the site repeats across many different pages
  /// (dedup/sketches/boilerplate.h), learnt from Detector::learn_site's sample.
  bool discount_boilerplate = true;
  /// Seed for the hash functions (results are reproducible for a seed).
  std::uint64_t seed = 0x63616e6f6e;  // "canon"
  /// Worker threads; 0 means all hardware threads.
  unsigned threads = 0;
  /// minhash: shingles one worker holds at most while measuring candidates exactly (8 bytes
  /// each: 64 MiB by default). A connected group of candidates holding more is measured block
  /// against block, its documents loaded once per block they meet; results do not depend on it.
  std::size_t measure_budget_shingles = std::size_t{8} << 20;

  /// True when `threshold` was chosen by the user (`canon index --threshold`): then `keyword`
  /// and `mwo` use `threshold` instead of their own defaults below.
  bool threshold_explicit = false;
  /// simhash: the largest Hamming distance (of 64 bits) of near-duplicate fingerprints (k).
  unsigned simhash_max_distance = 3;
  /// keyword: |A ∩ B| / max(|A|, |B|) of stemmed keyword sets at or above which documents are
  /// near-duplicates (Narayana et al.: 80 %).
  double keyword_threshold = 0.8;
  /// mwo: minimum weight overlap at or above which documents are near-duplicates.
  double mwo_threshold = 0.8;
  /// multik: the weighted dissimilarity (in [0, 1]) at or below which documents are
  /// near-duplicates (Khan et al.: 0.2).
  double multik_max_dissimilarity = 0.2;
};

/// Where a detector's documents are (Detector::place): the processes of the run and the documents
/// this process adds itself.
struct DocumentPlacement {
  /// The processes of a partitioned build, which must outlive find_clusters() and compare();
  /// none: this process alone.
  const Collective* processes = nullptr;
  /// This process add()s the documents [first, end) itself and takes every other document over
  /// from the encode_added() of the process that added it; the processes' ranges cover every
  /// document once. The default: every document.
  std::uint32_t first = 0;
  std::uint32_t end = std::numeric_limits<std::uint32_t>::max();
};

/// Gives documents again, for detectors that need more than they kept: load(doc, use) gives
/// document `doc` to `use` (its views live until `use` returns). In a partitioned build the
/// pages are found where they are stored by asking the processes that hold them: a detector
/// says which documents it is about to load with locate() (a collective call, made by every
/// process at the same point, with its own documents, possibly none), then loads only those.
/// load() is thread-safe: a detector may call it from several threads at once.
class DocumentLoader {
public:
  using Load = std::function<void(std::uint32_t doc, const std::function<void(const DedupDocument&)>& use)>;
  using Locate = std::function<void(std::span<const std::uint32_t> docs)>;

  DocumentLoader() = default;
  /// A loader that can load any document without being told first (`locate` does nothing).
  template <typename F>
    requires std::is_constructible_v<Load, F> && (!std::is_same_v<std::decay_t<F>, DocumentLoader>)
  DocumentLoader(F&& load) : load_(std::forward<F>(load)) {}  // NOLINT: a lambda converts
  DocumentLoader(Load load, Locate locate) : load_(std::move(load)), locate_(std::move(locate)) {}

  /// Gives document `doc` to `use`. REQUIRES: a document of the last locate() (or any, for a
  /// loader without one).
  void operator()(std::uint32_t doc, const std::function<void(const DedupDocument&)>& use) const { load_(doc, use); }
  /// The documents (sorted or not, repeats allowed) this process loads next; forgets those told
  /// before. Collective in a partitioned build. Not while load() is called.
  void locate(std::span<const std::uint32_t> docs) const {
    if (locate_) locate_(docs);
  }

private:
  Load load_;
  Locate locate_;
};

/// A near-duplicate detector, fed one document at a time (docs/dedup.md, "The detector
/// interface"). A run is reset(n), add() of each document (concurrently for distinct
/// documents), find_clusters(), then any number of compare(). Each detector keeps its own
/// per-document state between add() and find_clusters() (state_bytes_per_document()); what it
/// did not keep it asks back through the DocumentLoader. Not thread-safe apart from add().
class Detector {
public:
  virtual ~Detector() = default;
  /// The name used by `canon index --detector`.
  virtual std::string_view name() const = 0;
  /// Starts a run over documents 0..n-1, forgetting any earlier run.
  virtual void reset(std::uint32_t n) = 0;
  /// After reset(), before add(): learns what the site repeats on many pages from a sample of
  /// its pages (site_sample() of dedup/sketches/boilerplate.h). Detectors that compare pages without
  /// regard to the site ignore it (the default).
  virtual void learn_site(std::span<const DedupDocument> sample) { (void)sample; }
  /// Records what the detector keeps of document i. Thread-safe for distinct i (the pipeline
  /// calls it concurrently from its parse threads); each i at most once; views need live only
  /// during the call. A document never added counts as empty (a singleton).
  /// REQUIRES: i < n of the last reset().
  virtual void add(std::uint32_t i, const DedupDocument& doc) = 0;
  /// Clusters the added documents; may call `load` for documents whose kept state is not
  /// enough. Documents with no words are singletons.
  virtual Clusters find_clusters(const DocumentLoader& load) = 0;
  /// Where the run's documents are, from the next reset() on (DocumentPlacement). With several
  /// processes, each calls find_clusters() and compare() at the same points of its run, and
  /// each still gets the one-process result. The default keeps every document's state and does
  /// all the work on every process; minhash keeps its own documents' state only (encode_added()
  /// names the range), sends its LSH band keys to their owners (owned_lsh_candidates,
  /// dedup/sketches/minhash.h), a sketch where a candidate's estimate needs it and a name where
  /// a pair's rule does (SiteNames::of_part(), dedup/names/page_names.h).
  virtual void place(const DocumentPlacement& placement) { (void)placement; }
  /// The detector's judgement of each pair (a, b) of this run, candidate or not (the pipeline
  /// asks for each duplicate against its cluster's chosen page); may call `load`. A pair that
  /// find_clusters() returned compares as near-duplicate with the same similarity, and a pair's
  /// judgement does not depend on the other pairs asked with it. In a partitioned build
  /// (place()) a collective call: every process calls it at the same point with its
  /// own pairs (any number, possibly none) and gets their judgements.
  /// REQUIRES: find_clusters() of this run was called; a, b < n.
  virtual std::vector<Comparison> compare(
      std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
      const DocumentLoader& load) = 0;
  /// Average bytes of per-document state kept between add() and find_clusters(), for
  /// docs/bench.
  virtual std::size_t state_bytes_per_document() const = 0;
  /// What add() kept of documents [begin, end), as bytes that add_encoded() of another detector
  /// of this kind takes: how the processes of a partitioned build share what each added of its
  /// own part, instead of each reading every page. The other detector must have the same
  /// options and have learnt the same sample (learn_site()). nullopt when this detector cannot
  /// (the default): its documents are added where they are needed.
  /// REQUIRES: begin <= end <= n of the last reset(); find_clusters() not yet called.
  virtual std::optional<std::string> encode_added(std::uint32_t begin, std::uint32_t end) const {
    (void)begin;
    (void)end;
    return std::nullopt;
  }
  /// Takes what encode_added() encoded, as if add() had been called for each of its documents
  /// (those already added are replaced). Fails with kCorruption when the bytes do not check out
  /// (cut short, another kind of detector or sketch size, documents beyond n) and changes
  /// nothing then. Not thread-safe; before find_clusters(). The default fails: nothing to take.
  virtual Status add_encoded(std::string_view bytes) {
    (void)bytes;
    return Status::corruption("the '" + std::string(name()) + "' detector takes no encoded documents");
  }
};

/// Convenience for callers holding every document in memory (tests, eval): reset +
/// learn_site(site_sample() of docs) + add all (in parallel) + find_clusters with a loader over
/// `docs`: the same steps `canon index` takes.
Clusters find_clusters(Detector& detector, std::span<const DedupDocument> docs);

/// Same for compare over in-memory docs: the run must be the one find_clusters(detector, docs)
/// started (this does not reset it).
std::vector<Comparison> compare(Detector& detector, std::span<const DedupDocument> docs,
                                std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs);

/// A DocumentLoader over documents held in memory.
DocumentLoader memory_loader(std::span<const DedupDocument> docs);

}  // namespace canon::dedup
