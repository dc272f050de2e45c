/// @file test_authority_by_owner.cpp
/// @brief The authority stage by the clusters' owners (choose_authorities_by_owner) among 1 to 4
/// simulated processes, each holding a random part of the records, against the oracle: the
/// authority rule over every page at once (dedup::choose_authoritative_pages with every page's
/// candidate), on random sites of drifting families (chains that split), copies below other
/// folders and releases, places nearer the entry pages, rel=canonical votes inside and across clusters, and defined and listed
/// entries that keep pages apart.
#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "dedup/detectors/exact_detector.h"
#include "dedup/authority/places.h"
#include "indexer/stages/cluster_assignment.h"
#include "indexer/stages/parse_stage.h"
#include "support/thread_collective.h"

using namespace canon::indexer;
using canon::dedup::AuthorityReason;

namespace {

/// A random site: its pages' records (all handed to the detector) and documents.
struct RandomSite {
  std::vector<PageRecord> records;
  std::vector<std::string> texts;
  std::vector<canon::dedup::DedupDocument> documents() const {
    std::vector<canon::dedup::DedupDocument> docs;
    for (std::size_t d = 0; d < records.size(); ++d) docs.push_back({records[d].url, records[d].title, texts[d]});
    return docs;
  }
};

RandomSite random_site(std::mt19937_64& rng) {
  const auto below = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  const std::vector<std::string> folders = {"std/", "core/", "v1.2/", "v1.10/", "mirror/std/", "stable/", ""};
  RandomSite site;
  const std::size_t families = 3 + below(8);
  for (std::size_t f = 0; f < families; ++f) {
    // Members are windows of one word sequence: neighbours alike, far members not (chains).
    const std::size_t members = 1 + below(6);
    const std::string prefix = "f" + std::to_string(f) + "w";
    std::size_t start = 0;
    for (std::size_t m = 0; m < members; ++m) {
      std::string text;
      for (std::size_t w = start; w < start + 80; ++w) {
        text += (below(40) == 0 ? "edit" + std::to_string(below(1000)) : prefix + std::to_string(w)) + " ";
      }
      site.texts.push_back(text);
      start += below(3) == 0 ? 0 : 2 + below(30);
      PageRecord r;
      r.url = "http://h/" + folders[below(folders.size())] + "f" + std::to_string(f) + "/page" +
              std::to_string(below(2) == 0 ? 0 : m) + ".html";
      r.title = "Page " + std::to_string(f);
      if (below(3) == 0) r.heading = "Heading " + std::to_string(f);
      r.in_dedup = true;
      r.pagerank = below(4) == 0 ? 0.5 : 0.1 + static_cast<double>(below(100)) / 1000.0;
      r.redirects_in = below(5) == 0 ? static_cast<std::uint32_t>(1 + below(2)) : 0;
      // std/ mostly nearer the entry pages than core/: a preference of places to learn.
      r.click_depth = static_cast<std::uint32_t>(r.url.starts_with("http://h/std/") ? 1 + below(2) : 2 + below(3));
      for (const char* term : {"alpha", "beta"}) {
        if (below(4) == 0) r.defined.push_back(term);
      }
      for (std::uint32_t entry = 0; entry < 12; ++entry) {
        if (below(5) != 0) r.listed.push_back(entry * 1000 + static_cast<std::uint32_t>(f));
      }
      site.records.push_back(std::move(r));
    }
  }
  // Now and then parallel trees: documents copied at std/ and core/, std/'s copy mostly nearer
  // the entry pages (a preference of places to learn), core/'s often of higher PageRank.
  for (std::size_t doc = 0, docs = below(2) == 0 ? 4 + below(8) : 0; doc < docs; ++doc) {
    std::string text;
    for (std::size_t w = 0; w < 80; ++w) text += "tree" + std::to_string(doc) + "w" + std::to_string(w) + " ";
    for (const std::string folder : {"std/", "core/"}) {
      PageRecord r;
      r.url = "http://h/" + folder + "tree/item" + std::to_string(doc) + ".html";
      r.title = "Item " + std::to_string(doc);
      r.in_dedup = true;
      r.pagerank = 0.1 + static_cast<double>(below(100)) / 1000.0;
      r.click_depth = static_cast<std::uint32_t>(folder == "std/" && below(8) != 0 ? 1 : 2 + below(2));
      site.texts.push_back(text);
      site.records.push_back(std::move(r));
    }
  }
  // URLs are unique; rel=canonical to any page, often within the family.
  for (std::size_t d = 0; d < site.records.size(); ++d) site.records[d].url += "?d=" + std::to_string(d);
  const auto n = static_cast<std::uint32_t>(site.records.size());
  for (std::uint32_t d = 0; d < n; ++d) {
    if (below(4) == 0) site.records[d].canonical_page = below(2) == 0 ? static_cast<std::uint32_t>(below(n)) : (d + 1) % n;
  }
  // Now and then a page its neighbour names, and random pages too, mostly from outside its
  // cluster (a site-wide canonical, which outside votes overrule).
  for (std::uint32_t d = 0; d + 1 < n; ++d) {
    if (below(8) != 0) continue;
    site.records[d + 1].canonical_page = d;
    for (std::size_t v = below(4); v > 0; --v) site.records[below(n)].canonical_page = d;
  }
  return site;
}

/// Every page's candidate, as the rule reads them (the oracle's table).
std::vector<canon::dedup::AuthorityCandidate> every_candidate(const std::vector<PageRecord>& records) {
  std::vector<canon::dedup::AuthorityCandidate> candidates;
  for (const PageRecord& r : records) {
    canon::dedup::AuthorityCandidate& c = candidates.emplace_back();
    c.url = r.url;
    c.name = !r.heading.empty() ? r.heading : r.title;
    c.pagerank = r.pagerank;
    if (r.canonical_page < records.size()) c.canonical = r.canonical_page;
    c.redirects_in = r.redirects_in;
    c.defined = r.defined;
    c.listed = r.listed;
    c.click_depth = r.click_depth;
  }
  return candidates;
}

/// The detector's options: the name rule on (pages under other names need more alike texts,
/// the same item at parallel paths is compared one way), or the threshold alone.
canon::dedup::DedupOptions detector_options(bool name_rule) {
  canon::dedup::DedupOptions options;
  options.title_rule = name_rule;
  return options;
}

/// What a process got for one of its records.
struct Got {
  std::uint32_t cluster;
  canon::dedup::Authority authority;
  double similarity;
};

}  // namespace

TEST_CASE("authority by the clusters' owners: every process's decisions are the whole rule's, for 1 to 4 processes") {
  std::mt19937_64 rng(33);
  std::size_t split = 0, votes = 0;
  std::vector<std::size_t> reasons(static_cast<std::size_t>(canon::dedup::kLastAuthorityReason) + 1, 0);
  for (int trial = 0; trial < 40; ++trial) {
    CAPTURE(trial);
    const RandomSite site = random_site(rng);
    const std::vector<canon::dedup::DedupDocument> docs = site.documents();
    const auto n = static_cast<std::uint32_t>(site.records.size());
    const canon::dedup::DocumentLoader load = [&](std::uint32_t d, const auto& use) { use(docs[d]); };
    const bool honour_canonical = trial % 5 != 4;
    const auto policy = trial % 7 == 6 ? canon::dedup::ChainPolicy::kKeep : canon::dedup::ChainPolicy::kSplit;
    // The oracle: one detector, every page's candidate.
    canon::dedup::ExactDetector oracle_detector{detector_options(trial % 2 == 0)};
    const canon::dedup::Clusters clusters = canon::dedup::find_clusters(oracle_detector, docs);
    const std::vector<canon::dedup::AuthorityCandidate> candidates = every_candidate(site.records);
    // The places the whole site prefers, from every cluster at once.
    canon::dedup::PlaceTally tally;
    canon::dedup::tally_places(clusters.cluster_of, canon::dedup::AuthorityCandidateTable(candidates), {}, tally);
    const canon::dedup::PlacePreferences places(tally);
    const canon::dedup::AuthoritativePages expected = canon::dedup::choose_authoritative_pages(
        oracle_detector, clusters, canon::dedup::AuthorityCandidateTable(candidates), honour_canonical, policy, load,
        &places);
    split += expected.split_off;
    for (const canon::dedup::Authority& authority : expected.authority) ++reasons[static_cast<std::size_t>(authority.reason)];
    for (std::uint32_t d = 0; d < n; ++d) {
      const std::uint32_t named = site.records[d].canonical_page;
      if (named < n && clusters.cluster_of[named] != clusters.cluster_of[d]) ++votes;
    }
    for (unsigned processes = 1; processes <= 4; ++processes) {
      CAPTURE(processes);
      // Random parts, some empty.
      detail::ChunkLayout chunks;
      chunks.files = n;
      chunks.files_per_chunk = 1 + static_cast<std::size_t>(rng() % 3);
      chunks.process_first.assign(processes, 0);
      for (unsigned p = 1; p < processes; ++p) {
        chunks.process_first[p] = std::min(chunks.count(), chunks.process_first[p - 1] + static_cast<std::size_t>(rng() % 4));
      }
      chunks.process_first.push_back(chunks.count());
      const detail::RecordParts parts(chunks, n);
      std::mutex mutex;
      std::vector<Got> got(n, Got{~0u, {~0u, AuthorityReason::Tie}, -1.0});
      std::vector<std::size_t> split_off(processes), failed(processes);
      canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
        const unsigned me = collective.rank();
        // Each process has its own detector over the same documents, and holds its part.
        canon::dedup::ExactDetector detector{detector_options(trial % 2 == 0)};
        const canon::dedup::Clusters own_clusters = canon::dedup::find_clusters(detector, docs);
        const HeldRecords held(parts.first(me), n,
                               std::vector<PageRecord>(site.records.begin() + parts.first(me),
                                                       site.records.begin() + parts.end(me)));
        const auto chosen = choose_authorities_by_owner(held, own_clusters, detector, load, honour_canonical, policy,
                                                        parts, collective);
        const std::lock_guard lock(mutex);
        if (!chosen.ok()) {
          ++failed[me];
          return;
        }
        split_off[me] = chosen->split_off;
        for (std::uint32_t d = parts.first(me); d < parts.end(me); ++d) {
          const AuthorityDecision* decision = chosen->find(d);
          got[d] = decision != nullptr ? Got{decision->cluster, decision->authority, decision->similarity}
                                       : Got{d, {d, AuthorityReason::Singleton}, 0.0};
        }
      });
      for (unsigned p = 0; p < processes; ++p) {
        CHECK(failed[p] == 0);
        CHECK(split_off[p] == expected.split_off);
      }
      for (std::uint32_t d = 0; d < n; ++d) {
        CAPTURE(d);
        CHECK(got[d].cluster == expected.cluster_of[d]);
        CHECK(got[d].authority.authoritative == expected.authority[d].authoritative);
        CHECK(got[d].authority.reason == expected.authority[d].reason);
        if (expected.authority[d].authoritative != d) CHECK(got[d].similarity == expected.to_authoritative[d].similarity);
      }
    }
  }
  // The sites exercise what the test is for: chains that split, votes from outside a cluster.
  CHECK(split > 0);
  CHECK(votes > 0);
  for (const AuthorityReason reason : {AuthorityReason::Canonical, AuthorityReason::Redirect, AuthorityReason::Original,
                                       AuthorityReason::Release, AuthorityReason::PageRank, AuthorityReason::Tie,
                                       AuthorityReason::Place}) {
    CAPTURE(canon::dedup::to_string(reason));
    CHECK(reasons[static_cast<std::size_t>(reason)] > 0);
  }
}
