/// @file authoritative_pages.h
/// @brief From a detector's clusters to each cluster's authoritative page (the page indexed for its
/// cluster), optionally splitting chained clusters until every member is a near-duplicate of
/// its authoritative page.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dedup/authority/authority.h"
#include "dedup/authority/page_entries.h"
#include "dedup/detectors/detector.h"

namespace canon::dedup {

/// What to do with a cluster that union-find chained together (A~B, B~C, A≁C).
enum class ChainPolicy {
  /// Keep the detector's clusters (connected components of its verified pairs, single linkage).
  kKeep,
  /// Check every member against its cluster's authoritative page; the members that are not its
  /// near-duplicates, or that define an item it lacks (definitions_covered), or, as the same
  /// item at a parallel path (Comparison::moved), list one (entries_covered), leave the cluster
  /// and regroup among themselves (docs/dedup.md, "Chains").
  kSplit,
};

/// How choose_authoritative_pages() asks for the detector's judgements of pairs of its documents
/// (Detector::compare), and, when several processes share the work (each choosing the
/// authoritative pages of its own clusters), agrees with the others on whether to go on. Every
/// process of such a run calls compare() and any() the same number of times, in the same order.
class PairJudge {
public:
  virtual ~PairJudge() = default;
  /// The detector's judgement of each pair (a, b) of documents.
  virtual std::vector<Comparison> compare(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs) = 0;
  /// Whether `mine` or any other process's is true (one process: `mine`).
  virtual bool any(bool mine) { return mine; }
};

/// One process's judge over a detector's run: Detector::compare(pairs, load).
class DetectorJudge final : public PairJudge {
public:
  /// Both must outlive the judge.
  DetectorJudge(Detector& detector, const DocumentLoader& load) : detector_(detector), load_(load) {}
  std::vector<Comparison> compare(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs) override {
    return detector_.compare(pairs, load_);
  }

private:
  Detector& detector_;
  const DocumentLoader& load_;
};

/// Per document: whether a page it is a verified near-duplicate of (`pairs`), as the same
/// item at a parallel path (Comparison::moved: minhash and exact), is fuller: the detector
/// judges it covered by that page (compare(it, other).near_duplicate) and the other page lists
/// everything it lists and more (AuthorityCandidate::listed and ::defined: kCoveredByListing),
/// or, when neither lists more, the detector judges the other page covered by it less (a
/// smaller similarity the other way: kCoveredByText); 0 when neither. One judge.compare() call.
/// REQUIRES: the pairs' documents < candidates.size().
std::vector<char> fuller_pages(PairJudge& judge, std::span<const SimilarPair> pairs,
                               const AuthorityCandidateTable& candidates);

/// The same with a detector's run: its clusters' pairs, Detector::compare.
std::vector<char> fuller_pages(Detector& detector, const Clusters& clusters,
                               const AuthorityCandidateTable& candidates, const DocumentLoader& load);

/// A member the detector calls a near-duplicate of its authoritative page at this similarity or
/// more is the page's near twin: the same document under another name, but for a line.
/// DedupOptions::parallel_threshold's default, what a page saved under two names keeps of its
/// text (parallel pages about parallel items share up to 0.91, docs/dedup.md, "The name rule").
inline constexpr double kNearTwinSimilarity = 0.95;

/// For each (member, authoritative page) of `pairs` that `verdicts` (the detector's comparisons of
/// those pairs) does not call near-duplicates: the member's comparison with each twin of the
/// authoritative page (a member of `pairs` with the same authoritative page, compared with it at
/// similarity 1: the same own text, the same document under another name), which replaces its
/// verdict when the detector calls it near-duplicates. A copy of one of a page's names is a copy
/// of the page: `mirror/en/Main_Page.html` is a copy of `en/index.html` when `en/Main_Page.html`
/// and `en/index.html` are one page saved twice, though the names' rule needs 0.95 between paths
/// that do not mirror each other. A near twin (kNearTwinSimilarity) stands for the page only to
/// the same item at a parallel path of it (Comparison::moved): `alloc/collections/binary_heap/
/// struct.BinaryHeap.html` stays with `std/collections/struct.BinaryHeap.html` through
/// `std/collections/binary_heap/struct.BinaryHeap.html`, the item re-exported one module up
/// (0.998). Not to another release of it: a chain of releases, each within a line of the next,
/// would drift from the page a step per twin.
/// One judge.compare() call, empty when no pair has a twin.
void judge_against_twins(PairJudge& judge, std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs,
                         std::vector<Comparison>& verdicts);

/// Each page's final cluster and authoritative page.
struct AuthoritativePages {
  /// Per document: its cluster id, the smallest document index in its cluster.
  std::vector<std::uint32_t> cluster_of;
  /// Per document: its cluster's authoritative page and why it won (choose_authorities).
  std::vector<Authority> authority;
  /// Per document that is not its cluster's authoritative page: the detector's comparison with the
  /// authoritative page (kKeep: its similarity may be below the detector's threshold; kSplit:
  /// near_duplicate always holds). A default Comparison for the authoritative pages themselves.
  std::vector<Comparison> to_authoritative;
  /// kSplit: documents that had to leave the cluster the detector put them in (counted each
  /// time they leave one).
  std::size_t split_off = 0;
  /// Of split_off, those the detector called near-duplicates of their authoritative page, which
  /// left because they define an item the authoritative page lacks.
  std::size_t split_for_definitions = 0;
  /// Rounds of Detector::compare calls (kSplit may need several: a group that leaves a cluster
  /// has an authoritative page of its own to check against).
  unsigned rounds = 0;
};

/// The authoritative pages of the clusters `cluster_of` gives (each document's cluster, named by
/// its smallest document; `pairs`, the detector's verified pairs that made them) under
/// choose_authorities(candidates, honour_canonical, fuller_pages(), places), with `policy` applied
/// to chains; the detector's judgements through `judge`.
/// kSplit repeats, until nothing changes: choose each cluster's authoritative page; compare each
/// member not yet checked against it (and, failing that, against its twins: judge_against_twins);
/// members that fail, or whose candidates[].defined are not covered by the authoritative page's,
/// leave, and regroup by the detector's verified pairs among them (components within the old
/// cluster). Every round that splits makes more clusters, so it ends after at most n rounds (in
/// practice two or three). A cluster's result depends on its own members, candidates and pairs
/// alone: the clusters can be chosen in shares (several processes, each its own clusters, the
/// documents numbered in the same order), each share giving what the whole does for its
/// clusters. REQUIRES: cluster_of.size() == candidates.size(); the pairs' documents in one cluster.
AuthoritativePages choose_authoritative_pages(PairJudge& judge, std::span<const std::uint32_t> cluster_of,
                                              std::span<const SimilarPair> pairs,
                                              const AuthorityCandidateTable& candidates, bool honour_canonical,
                                              ChainPolicy policy, const PlacePreferences* places = nullptr);

/// The same over a detector's run: `clusters`, a find_clusters() result of `detector`'s current
/// run, judged by Detector::compare with `load`.
/// REQUIRES: clusters.cluster_of.size() == candidates.size().
AuthoritativePages choose_authoritative_pages(Detector& detector, const Clusters& clusters,
                                       const AuthorityCandidateTable& candidates,
                                       bool honour_canonical, ChainPolicy policy,
                                       const DocumentLoader& load, const PlacePreferences* places = nullptr);

}  // namespace canon::dedup
