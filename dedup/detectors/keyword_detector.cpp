/// @file keyword_detector.cpp
/// @brief Stop words, keyword_terms (Xapian's English stemmer) and KeywordDetector.
///
/// The detector is assembled by hand from Xapian's stemmer and stopper and canon's own exact
/// join (ppjoin): no Debian package offers keyword-set near-duplicate detection.
#include "dedup/detectors/keyword_detector.h"

#include <algorithm>
#include <cassert>
#include <iterator>

#include <xapian.h>
#include <xxhash.h>

#include "dedup/sketches/sorted_sets.h"
#include "dedup/sketches/tokenizer.h"

namespace canon::dedup {

namespace {

// The English stop word list of the Snowball project (snowball.tartarus.org, algorithms/english/
// stop.txt, BSD licence; the list Lucene and Bleve ship as "english"), without its contracted
// forms: tokenize() splits "don't" into "don" and "t", so the fragments of those contractions
// that are not ordinary words follow the list. Like Snowball, "will", "can", "may", "might" and
// "must" are kept (homonyms: a will, a can, the month), and so are "won", "haven" and "let".
constexpr std::string_view kStopWords[] = {
    // Snowball English
    "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours",
    "yourself", "yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself",
    "it", "its", "itself", "they", "them", "their", "theirs", "themselves", "what", "which",
    "who", "whom", "this", "that", "these", "those", "am", "is", "are", "was", "were", "be",
    "been", "being", "have", "has", "had", "having", "do", "does", "did", "doing", "would",
    "should", "could", "ought", "cannot", "a", "an", "the", "and", "but", "if", "or",
    "because", "as", "until", "while", "of", "at", "by", "for", "with", "about", "against",
    "between", "into", "through", "during", "before", "after", "above", "below", "to", "from",
    "up", "down", "in", "out", "on", "off", "over", "under", "again", "further", "then",
    "once", "here", "there", "when", "where", "why", "how", "all", "any", "both", "each",
    "few", "more", "most", "other", "some", "such", "no", "nor", "not", "only", "own", "same",
    "so", "than", "too", "very",
    // fragments of Snowball's contracted forms (i'm, you're, he's, i've, i'd, i'll, isn't, ...)
    "m", "re", "s", "ve", "d", "ll", "t", "isn", "aren", "wasn", "weren", "hasn", "hadn",
    "doesn", "don", "didn", "wouldn", "shan", "shouldn", "couldn", "mustn",
};

const Xapian::SimpleStopper& stopper() {
  static const Xapian::SimpleStopper instance = [] {
    const std::vector<std::string> words(std::begin(kStopWords), std::end(kStopWords));
    return Xapian::SimpleStopper(words.begin(), words.end());
  }();
  return instance;
}

std::uint64_t hash_term(const std::string& term) { return XXH3_64bits(term.data(), term.size()); }

}  // namespace

std::span<const std::string_view> english_stop_words() { return kStopWords; }

bool is_stop_word(std::string_view word) { return stopper()(std::string(word)); }

std::vector<std::string> keyword_terms(std::string_view text) {
  // A Xapian::Stem keeps state while stemming: one per thread.
  thread_local Xapian::Stem stemmer("english");
  std::vector<std::string> terms;
  for (const std::string& word : tokenize(text)) {
    if (stopper()(word)) continue;
    std::string stem = stemmer(word);
    if (!stem.empty()) terms.push_back(std::move(stem));
  }
  return terms;
}

KeywordDetector::KeywordDetector(const DedupOptions& options)
    : threshold_(options.threshold_explicit ? options.threshold : options.keyword_threshold),
      threads_(options.threads) {
  assert(threshold_ > 0.0 && threshold_ <= 1.0);
}

void KeywordDetector::reset(std::uint32_t n) {
  sets_.assign(n, {});
  sets_.shrink_to_fit();
}

void KeywordDetector::add(std::uint32_t i, const DedupDocument& doc) {
  assert(i < sets_.size());
  std::vector<std::uint64_t>& set = sets_[i];
  set.clear();
  for (const std::string& term : keyword_terms(doc.text)) set.push_back(hash_term(term));
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  set.shrink_to_fit();
}

Clusters KeywordDetector::find_clusters(const DocumentLoader&) {
  const auto n = static_cast<std::uint32_t>(sets_.size());
  const std::vector<TokenRecord> records = order_by_frequency(sets_);
  JoinResult join = ppjoin(records, SetMeasure::MaxContainment, threshold_, threads_);
  return clusters_from_pairs(n, std::move(join.pairs), join.candidates);
}

std::vector<Comparison> KeywordDetector::compare(
    std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs, const DocumentLoader&) {
  std::vector<Comparison> result;
  for (const auto& [a, b] : pairs) {
    assert(a < sets_.size() && b < sets_.size());
    const auto &x = sets_[a], &y = sets_[b];
    // The frequency ranks are a bijection of the hashes, so the overlap is the same.
    const std::size_t common = intersection_size<std::uint64_t>(x, y);
    if (x.empty() || y.empty()) {
      result.push_back({});
      continue;
    }
    const double similarity = set_similarity(SetMeasure::MaxContainment, common, x.size(), y.size());
    result.push_back({similarity, similarity >= threshold_});
  }
  return result;
}

std::size_t KeywordDetector::state_bytes_per_document() const {
  return average_state_bytes(sets_, [](const std::vector<std::uint64_t>& s) {
    return s.capacity() * sizeof(std::uint64_t);
  });
}

}  // namespace canon::dedup
