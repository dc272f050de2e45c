/// @file keyword_detector.cpp
/// @brief Stop words, keyword_terms (Xapian's English stemmer) and KeywordDetector.
///
/// The detector is assembled by hand from Xapian's stemmer and stopper and canon's own exact
/// join (ppjoin): no Debian package offers keyword-set near-duplicate detection.
#include "dedup/keyword_detector.h"

#include <algorithm>
#include <cassert>
#include <iterator>

#include <xapian.h>
#include <xxhash.h>

#include "dedup/tokenizer.h"

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

Clusters KeywordDetector::find_clusters(std::span<const DedupDocument> docs) {
  const auto n = static_cast<std::uint32_t>(docs.size());
  std::vector<std::vector<std::uint64_t>> sets(n);
  parallel_for(n, threads_, [&](std::size_t i, std::size_t) {
    for (const std::string& term : keyword_terms(docs[i].text)) sets[i].push_back(hash_term(term));
    std::sort(sets[i].begin(), sets[i].end());
    sets[i].erase(std::unique(sets[i].begin(), sets[i].end()), sets[i].end());
  });
  records_ = order_by_frequency(sets);
  JoinResult join = ppjoin(records_, SetMeasure::MaxContainment, threshold_, threads_);
  return clusters_from_pairs(n, std::move(join.pairs), join.candidates);
}

double KeywordDetector::similarity(std::uint32_t a, std::uint32_t b) const {
  assert(a < records_.size() && b < records_.size());
  const TokenRecord &x = records_[a], &y = records_[b];
  return set_similarity(SetMeasure::MaxContainment, intersection_size(x, y), x.size(), y.size());
}

}  // namespace canon::dedup
