/// @file test_detector_state.cpp
/// @brief Detector::encode_added / add_encoded and minhash's parts: processes that hold their
/// own documents' state only cluster and compare as one detector; a part names another
/// process's documents, never the receiver's own; bytes that do not check out are refused.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dedup/detectors/registry.h"
#include "dedup/sketches/boilerplate.h"
#include "dedup/detectors/detector.h"
#include "dedup/detectors/minhash_detector.h"
#include "dedup/names/page_names.h"
#include "support/detector_fixtures.h"
#include "support/thread_collective.h"

using namespace canon::dedup;

namespace {

/// A site with what the minhash detector keeps per page in play: moved pages (names, paths of
/// parallel trees), copies below a prefix with their names, near-duplicates by text alone, a
/// page without words, pages citing a definition.
struct Site {
  canon::testing::MovedSite pages;
  std::vector<DedupDocument> docs;
};

Site make_site(std::uint64_t seed) {
  Site site;
  site.pages = canon::testing::moved_site(30, 5, SiteNames::kMinPlaceTreePaths);
  std::mt19937_64 rng(seed);
  auto& p = site.pages;
  const std::size_t originals = p.texts.size();
  for (int copy = 0; copy < 40; ++copy) {
    const std::size_t of = rng() % originals;
    std::string text = p.texts[of];
    for (int edit = 0; edit < 3; ++edit) text += " edit" + std::to_string(rng() % 1000);
    p.texts.push_back(text);
    p.titles.push_back(copy % 2 == 0 ? p.titles[of] : "");
    const std::string url = p.urls[of];
    p.urls.push_back("http://h/mirror" + std::to_string(copy) + url.substr(url.find('/', 7)));
  }
  // Word for word copies (one of them three times), which LSH leaves to the identical texts.
  for (int copy = 0; copy < 6; ++copy) {
    const std::size_t of = copy < 3 ? 0 : rng() % originals;
    p.texts.push_back(p.texts[of]);
    p.titles.push_back(p.titles[of]);
    p.urls.push_back("http://h/same" + std::to_string(copy) + ".html");
  }
  p.texts.push_back("");  // no words: a singleton
  p.titles.push_back("Empty");
  p.urls.push_back("http://h/empty.html");
  p.cited.assign(p.texts.size(), "");
  p.cited[0] = p.cited[1] = "http://h/src/core/cmp.rs.html#10-20";
  site.docs = p.documents();
  return site;
}

void learn(Detector& detector, const std::vector<DedupDocument>& docs) {
  detector.reset(static_cast<std::uint32_t>(docs.size()));
  std::vector<DedupDocument> sample;
  for (const std::uint32_t d : site_sample(static_cast<std::uint32_t>(docs.size()))) sample.push_back(docs[d]);
  detector.learn_site(sample);
}

void check_same(const Clusters& got, const Clusters& want) {
  CHECK(got.cluster_of == want.cluster_of);
  REQUIRE(got.pairs.size() == want.pairs.size());
  for (std::size_t i = 0; i < want.pairs.size(); ++i) {
    CHECK(got.pairs[i].a == want.pairs[i].a);
    CHECK(got.pairs[i].b == want.pairs[i].b);
    CHECK(got.pairs[i].similarity == want.pairs[i].similarity);
  }
}

/// Every process's clusters and comparisons are those of the one detector.
void check_every_process(const std::vector<Clusters>& got, const std::vector<std::vector<Comparison>>& compared,
                         const Clusters& want, const std::vector<Comparison>& want_compared) {
  for (std::size_t p = 0; p < got.size(); ++p) {
    CAPTURE(p);
    check_same(got[p], want);
    CHECK(got[p].candidates_examined == want.candidates_examined);
    REQUIRE(compared[p].size() == want_compared.size());
    for (std::size_t i = 0; i < want_compared.size(); ++i) {
      CHECK(compared[p][i].similarity == want_compared[i].similarity);
      CHECK(compared[p][i].near_duplicate == want_compared[i].near_duplicate);
    }
  }
}

}  // namespace

TEST_CASE("minhash: processes holding their own documents' sketches only each cluster as one detector") {
  for (const std::uint64_t seed : {7u, 8u, 9u}) {
    const Site site = make_site(seed);
    const std::vector<DedupDocument>& docs = site.docs;
    const auto n = static_cast<std::uint32_t>(docs.size());
    MinhashDetector whole(DedupOptions{});
    const Clusters want = find_clusters(whole, docs);
    REQUIRE(want.pairs.size() > 20);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> asked;
    for (const SimilarPair& p : want.pairs) asked.emplace_back(p.a, p.b);
    for (std::uint32_t d = 0; d + 3 < n; d += 5) asked.emplace_back(d, d + 3);
    const std::vector<Comparison> want_compared = whole.compare(asked, memory_loader(docs));
    for (const unsigned processes : {1u, 2u, 3u, 5u}) {
      CAPTURE(seed);
      CAPTURE(processes);
      // Uneven ranges in process order, as chunks fall; with 5 processes the second holds none.
      const auto bound = [&](unsigned k) { return n * (processes == 5 && k == 2 ? 1 : k) / processes; };
      const auto range_of = [&](unsigned p) { return std::pair(bound(p), bound(p + 1)); };
      std::vector<Clusters> got(processes);
      std::vector<std::vector<Comparison>> compared(processes);
      std::vector<std::size_t> sent(processes);
      canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
        const auto [first, end] = range_of(collective.rank());
        MinhashDetector mine(DedupOptions{});
        mine.place({&collective, first, end});
        learn(mine, docs);
        for (std::uint32_t d = first; d < end; ++d) mine.add(d, docs[d]);
        // The parse exchange: each process's range of documents, without their state, to all.
        const std::string own = mine.encode_added(first, end).value();
        sent[collective.rank()] = own.size();
        const std::vector<std::string> all = collective.all_gather_bytes(own);
        for (unsigned p = 0; p < all.size(); ++p) {
          if (p != collective.rank()) REQUIRE(mine.add_encoded(all[p]).ok());
        }
        got[collective.rank()] = mine.find_clusters(memory_loader(docs));
        compared[collective.rank()] = mine.compare(asked, memory_loader(docs));
      });
      check_every_process(got, compared, want, want_compared);
      // The documents' state stays with their process: the parse exchange names the range only.
      for (unsigned p = 0; p < processes; ++p) CHECK(sent[p] < 40);
    }
  }
}

TEST_CASE("minhash: another process's documents are taken by a detector holding others, never its own") {
  const Site site = make_site(7);
  const std::vector<DedupDocument>& docs = site.docs;
  const auto n = static_cast<std::uint32_t>(docs.size());
  MinhashDetector holder(DedupOptions{});
  holder.place({nullptr, 0, n / 2});
  learn(holder, docs);
  for (std::uint32_t d = 0; d < n / 2; ++d) holder.add(d, docs[d]);
  const std::string part = holder.encode_added(0, n / 2).value();
  MinhashDetector whole(DedupOptions{});  // holds every document: none is another's
  learn(whole, docs);
  CHECK_FALSE(whole.add_encoded(part).ok());
  MinhashDetector overlapping(DedupOptions{});  // holds some of these documents
  overlapping.place({nullptr, 10, n});
  learn(overlapping, docs);
  CHECK_FALSE(overlapping.add_encoded(part).ok());
  MinhashDetector other_range(DedupOptions{});
  other_range.place({nullptr, n / 2, n});
  learn(other_range, docs);
  CHECK(other_range.add_encoded(part).ok());
}

TEST_CASE("minhash: encoded documents that do not check out are refused") {
  const Site site = make_site(11);
  const std::vector<DedupDocument>& docs = site.docs;
  const auto n = static_cast<std::uint32_t>(docs.size());
  MinhashDetector source(DedupOptions{});
  source.place({nullptr, 0, n / 2});
  learn(source, docs);
  for (std::uint32_t d = 0; d < n / 2; ++d) source.add(d, docs[d]);
  const std::string bytes = source.encode_added(0, n / 2).value();
  const auto other_half = [&] {
    auto target = std::make_unique<MinhashDetector>(DedupOptions{});
    target->place({nullptr, n / 2, n});
    learn(*target, docs);
    return target;
  };
  CHECK(other_half()->add_encoded(bytes).ok());
  // Cut short anywhere, a byte more, or a byte changed in the header: refused.
  std::vector<std::string> bad;
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) bad.push_back(bytes.substr(0, cut));
  bad.push_back(bytes + "x");
  std::string other_tag = bytes;
  other_tag[3] ^= 1;
  bad.push_back(other_tag);
  for (const std::string& b : bad) {
    CAPTURE(b.size());
    const canon::Status taken = other_half()->add_encoded(b);
    CHECK_FALSE(taken.ok());
    CHECK(taken.code() == canon::StatusCode::kCorruption);
  }
  // A run of fewer documents: refused.
  MinhashDetector smaller(DedupOptions{});
  smaller.place({nullptr, n / 2, n / 2 + 1});
  smaller.reset(n / 2 - 1);
  CHECK_FALSE(smaller.add_encoded(bytes).ok());
}

TEST_CASE("detectors that keep no encodable state say so; they take no encoded documents") {
  const Site site = make_site(3);
  for (const std::string& name : detector_names()) {
    CAPTURE(name);
    auto detector = make_detector(name, DedupOptions{});
    REQUIRE(detector.ok());
    learn(*detector.value(), site.docs);
    const std::optional<std::string> bytes = detector.value()->encode_added(0, 3);
    if (name == "minhash") {
      CHECK(bytes.has_value());
      continue;
    }
    CHECK_FALSE(bytes.has_value());
    CHECK_FALSE(detector.value()->add_encoded("anything").ok());
  }
}

TEST_CASE("encode_page_name / decode_page_name: a round trip of every field; bad bytes marked") {
  const Site site = make_site(5);
  std::string bytes;
  std::vector<PageName> names;
  for (const DedupDocument& doc : site.docs) {
    names.push_back(page_name(doc));
    encode_page_name(names.back(), bytes);
  }
  canon::codec::Reader in(bytes);
  for (const PageName& want : names) {
    const PageName got = decode_page_name(in);
    CHECK(got.title_text == want.title_text);
    CHECK(got.heading_text == want.heading_text);
    CHECK(got.title == want.title);
    CHECK(got.heading == want.heading);
    CHECK(got.path == want.path);
    CHECK(got.path_suffixes == want.path_suffixes);
    CHECK(got.stem == want.stem);
    CHECK(got.heading_is_opening == want.heading_is_opening);
    CHECK(got.section == want.section);
    CHECK(got.segments == want.segments);
    CHECK(got.segment_words == want.segment_words);
    CHECK(got.segment_word_end == want.segment_word_end);
    CHECK(got.cited == want.cited);
  }
  CHECK(in.ok());
  CHECK(in.at_end());
  // Segment ends beyond the segment words: marked bad.
  PageName broken = names[0];
  REQUIRE_FALSE(broken.segment_word_end.empty());
  broken.segment_word_end.back() = static_cast<std::uint32_t>(broken.segment_words.size() + 1);
  std::string broken_bytes;
  encode_page_name(broken, broken_bytes);
  canon::codec::Reader bad(broken_bytes);
  (void)decode_page_name(bad);
  CHECK_FALSE(bad.ok());
}
