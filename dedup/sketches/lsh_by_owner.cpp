/// @file lsh_by_owner.cpp
/// @brief LSH candidates computed by the processes of a partitioned build together: each band
/// key sent to the process that owns it, each candidate pair to the process that owns it.
#include <algorithm>
#include <cassert>
#include <cstring>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "common/collective.h"
#include "common/parallel.h"
#include "dedup/sketches/document_holders.h"
#include "dedup/sketches/lsh_bands.h"
#include "dedup/sketches/minhash.h"

namespace canon::dedup {

using lsh_bands::band_key;
using lsh_bands::exact_band_keys;
using lsh_bands::Keyed;
using lsh_bands::Pair;
using lsh_bands::pair_runs;
using lsh_bands::sort_unique;

namespace {

/// A band key on its way to the process that owns it: the band, the document, the key; the
/// document's rows follow it when the keys are not exact.
struct SentKey {
  std::uint32_t band;
  std::uint32_t document;
  std::uint64_t key;
};
static_assert(sizeof(SentKey) == 16);

/// A key an owner received, with where its rows are in the band's rows.
struct ReceivedKey {
  std::uint64_t key;
  std::uint32_t document;
  std::size_t rows_at;
  bool operator<(const ReceivedKey& other) const {
    return key != other.key ? key < other.key : document < other.document;
  }
};

/// Appends the pairs of each band list to `bytes`: a count, then the pairs.
void append_pair_lists(std::string& bytes, const std::vector<std::vector<Pair>>& lists) {
  for (const std::vector<Pair>& list : lists) {
    const std::uint64_t count = list.size();
    bytes.append(reinterpret_cast<const char*>(&count), sizeof count);
    for (const Pair& p : list) {
      const std::uint32_t both[2] = {p.first, p.second};
      bytes.append(reinterpret_cast<const char*>(both), sizeof both);
    }
  }
}

/// Reads `lists` band lists written by append_pair_lists from `bytes`, appending list i's
/// pairs to out[i].
void read_pair_lists(std::string_view bytes, std::vector<std::vector<Pair>>& out) {
  std::size_t at = 0;
  for (std::vector<Pair>& list : out) {
    std::uint64_t count = 0;
    std::memcpy(&count, bytes.data() + at, sizeof count);
    at += sizeof count;
    for (std::uint64_t k = 0; k < count; ++k) {
      std::uint32_t both[2];
      std::memcpy(both, bytes.data() + at, sizeof both);
      at += sizeof both;
      list.emplace_back(both[0], both[1]);
    }
  }
}

/// How a partitioned run keys its documents' bands: `rows` values a band; `row_bytes` of them
/// sent with each key (0 when the key is the band itself, exact_band_keys).
struct BandKeying {
  std::size_t width = 0;
  std::size_t rows = 0;
  bool exact_keys = false;
  std::size_t row_bytes = 0;
};

/// Step 1 of a round of bands [round, round + in_round): this process's documents (`held_rows`,
/// documents [own_first, own_end)) keyed, each key for the process that owns it (key mod P).
std::vector<std::string> band_keys_for_owners(std::span<const std::uint32_t> held_rows, std::size_t own_first,
                                              std::size_t own_end, const BandKeying& keying, std::size_t round,
                                              std::size_t in_round, std::span<const bool> skip, unsigned threads,
                                              unsigned count) {
  std::vector<std::vector<std::string>> outbox(in_round, std::vector<std::string>(count));
  parallel_for(in_round, threads, [&](std::size_t i, std::size_t) {
    const auto band = static_cast<std::uint32_t>(round + i);
    for (std::size_t d = own_first; d < own_end; ++d) {
      if (!skip.empty() && skip[d - own_first]) continue;
      const auto band_rows = held_rows.subspan((d - own_first) * keying.width + std::size_t{band} * keying.rows, keying.rows);
      const SentKey sent{band, static_cast<std::uint32_t>(d), band_key(band_rows)};
      std::string& message = outbox[i][sent.key % count];
      message.append(reinterpret_cast<const char*>(&sent), sizeof sent);
      if (keying.row_bytes > 0) message.append(reinterpret_cast<const char*>(band_rows.data()), keying.row_bytes);
    }
  });
  std::vector<std::string> to_each(count);
  for (unsigned p = 0; p < count; ++p) {
    for (std::size_t i = 0; i < in_round; ++i) to_each[p] += outbox[i][p];
  }
  return to_each;
}

/// Step 2 of a round: the keys this process owns (`from_each`, band_keys_for_owners' messages),
/// by band; the pairs of their runs, each band's sorted and unique.
std::vector<std::vector<Pair>> owned_band_pairs(const std::vector<std::string>& from_each, const BandKeying& keying,
                                                std::size_t round, std::size_t in_round, unsigned threads) {
  std::vector<std::vector<ReceivedKey>> received(in_round);
  std::vector<std::vector<std::uint32_t>> received_rows(in_round);
  for (const std::string& message : from_each) {
    for (std::size_t at = 0; at < message.size(); at += sizeof(SentKey) + keying.row_bytes) {
      SentKey sent{};
      std::memcpy(&sent, message.data() + at, sizeof sent);
      const std::size_t i = sent.band - round;
      std::vector<std::uint32_t>& band_rows = received_rows[i];
      received[i].push_back({sent.key, sent.document, band_rows.size()});
      if (keying.row_bytes == 0) continue;  // exact keys: no rows sent
      band_rows.resize(band_rows.size() + keying.row_bytes / sizeof(std::uint32_t));
      std::memcpy(band_rows.data() + received[i].back().rows_at, message.data() + at + sizeof sent, keying.row_bytes);
    }
  }
  std::vector<std::vector<Pair>> owned_pairs(in_round);
  parallel_for(in_round, threads, [&](std::size_t i, std::size_t) {
    std::vector<ReceivedKey>& keys = received[i];
    std::sort(keys.begin(), keys.end());
    std::vector<Keyed> keyed;
    keyed.reserve(keys.size());
    for (const ReceivedKey& k : keys) keyed.emplace_back(k.key, k.document);
    pair_runs(keyed, keying.exact_keys, [&](std::size_t at) {
      return std::span<const std::uint32_t>(received_rows[i]).subspan(keys[at].rows_at, keying.rows);
    }, owned_pairs[i]);
    sort_unique(owned_pairs[i]);
  });
  return owned_pairs;
}

/// Step 3 of a round: each band's pairs (owned_band_pairs') as messages for all_to_all_bytes,
/// each pair to its owner.
std::vector<std::string> pairs_for_owners(const std::vector<std::vector<Pair>>& band_lists,
                                          const DocumentHolders& holders, unsigned count) {
  std::vector<std::vector<std::vector<Pair>>> split(count, std::vector<std::vector<Pair>>(band_lists.size()));
  for (std::size_t i = 0; i < band_lists.size(); ++i) {
    for (const Pair& p : band_lists[i]) split[holders.of(handling_page(p.first, p.second))][i].push_back(p);
  }
  std::vector<std::string> to_each(count);
  for (unsigned q = 0; q < count; ++q) append_pair_lists(to_each[q], split[q]);
  return to_each;
}

/// The candidate pairs a process owns, each with the first band that proposed it, sorted by pair.
struct FirstProposals {
  std::vector<Pair> pairs;
  std::vector<std::uint32_t> bands;  ///< bands[k]: the band that first proposed pairs[k]

  /// Adds the sorted, unique pairs of `band` (bands come in order): the new ones, with it.
  void add_band(const std::vector<Pair>& band_list, std::uint32_t band) {
    std::vector<Pair> merged_pairs;
    std::vector<std::uint32_t> merged_bands;
    merged_pairs.reserve(pairs.size() + band_list.size());
    merged_bands.reserve(pairs.size() + band_list.size());
    std::size_t old = 0;
    for (const Pair& p : band_list) {
      for (; old < pairs.size() && pairs[old] < p; ++old) {
        merged_pairs.push_back(pairs[old]);
        merged_bands.push_back(bands[old]);
      }
      if (old < pairs.size() && pairs[old] == p) continue;  // proposed by an earlier band
      merged_pairs.push_back(p);
      merged_bands.push_back(band);
    }
    merged_pairs.insert(merged_pairs.end(), pairs.begin() + static_cast<std::ptrdiff_t>(old), pairs.end());
    merged_bands.insert(merged_bands.end(), bands.begin() + static_cast<std::ptrdiff_t>(old), bands.end());
    pairs.swap(merged_pairs);
    bands.swap(merged_bands);
  }
};

/// The documents of `owned`'s pairs that the whole site's candidates propose more than
/// kLshCandidatesPerDocument times, sorted: each process counts its pairs' documents and sends
/// the counts to the documents' owners, who add them up and answer each sender with the
/// crowded ones it asked about.
std::vector<std::uint32_t> crowded_documents(const FirstProposals& owned, const DocumentHolders& holders,
                                             const Collective& processes) {
  const unsigned count = processes.size();
  std::vector<std::uint32_t> ends;
  ends.reserve(2 * owned.pairs.size());
  for (const Pair& p : owned.pairs) ends.insert(ends.end(), {p.first, p.second});
  std::sort(ends.begin(), ends.end());
  std::vector<std::string> to_each(count);
  for (std::size_t i = 0, j = 0; i < ends.size(); i = j) {
    while (j < ends.size() && ends[j] == ends[i]) ++j;
    const std::uint32_t run[2] = {ends[i], static_cast<std::uint32_t>(j - i)};
    to_each[holders.of(ends[i])].append(reinterpret_cast<const char*>(run), sizeof run);
  }
  const std::vector<std::string> counts = processes.all_to_all_bytes(to_each);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> totals;  // (document, proposals)
  for (const std::string& message : counts) {
    for (std::size_t at = 0; at + 8 <= message.size(); at += 8) {
      std::uint32_t run[2];
      std::memcpy(run, message.data() + at, sizeof run);
      totals.emplace_back(run[0], run[1]);
    }
  }
  std::sort(totals.begin(), totals.end());
  std::vector<std::uint32_t> crowded;
  for (std::size_t i = 0, j = 0; i < totals.size(); i = j) {
    std::uint64_t sum = 0;
    for (; j < totals.size() && totals[j].first == totals[i].first; ++j) sum += totals[j].second;
    if (sum > kLshCandidatesPerDocument) crowded.push_back(totals[i].first);
  }
  std::vector<std::string> answers(count);
  for (unsigned q = 0; q < count; ++q) {
    for (std::size_t at = 0; at + 8 <= counts[q].size(); at += 8) {
      std::uint32_t d = 0;
      std::memcpy(&d, counts[q].data() + at, sizeof d);
      if (std::binary_search(crowded.begin(), crowded.end(), d)) answers[q].append(reinterpret_cast<const char*>(&d), sizeof d);
    }
  }
  std::vector<std::uint32_t> asked;
  for (const std::string& message : processes.all_to_all_bytes(answers)) {
    for (std::size_t at = 0; at + 4 <= message.size(); at += 4) {
      std::uint32_t d = 0;
      std::memcpy(&d, message.data() + at, sizeof d);
      asked.push_back(d);
    }
  }
  std::sort(asked.begin(), asked.end());
  return asked;
}

/// A candidate pair that the cap could refuse (one of its documents is crowded), with its band.
struct ContestedPair {
  std::uint32_t band;
  std::uint32_t first;
  std::uint32_t second;
  bool operator<(const ContestedPair& other) const {
    return std::tie(band, first, second) < std::tie(other.band, other.first, other.second);
  }
};
static_assert(sizeof(ContestedPair) == 12);

/// Step 4: the candidates this process owns. The band-order merge (merge_band) takes a pair at
/// its first band unless a document of it already has kLshCandidatesPerDocument candidates; a
/// document proposed at most that many times never refuses one. So the pairs of documents that
/// are not crowded are all taken, and only the contested pairs need the merge's order: they are
/// gathered with their bands and taken in (band, pair) order by every process, which keeps its own.
std::vector<Pair> settle_candidates(const FirstProposals& owned, const DocumentHolders& holders,
                                    const Collective& processes) {
  const std::vector<std::uint32_t> crowded = crowded_documents(owned, holders, processes);
  const auto is_crowded = [&](std::uint32_t d) { return std::binary_search(crowded.begin(), crowded.end(), d); };
  std::vector<Pair> taken;
  std::vector<ContestedPair> contested;
  for (std::size_t k = 0; k < owned.pairs.size(); ++k) {
    const auto [a, b] = owned.pairs[k];
    if (is_crowded(a) || is_crowded(b)) {
      contested.push_back({owned.bands[k], a, b});
    } else {
      taken.push_back(owned.pairs[k]);
    }
  }
  const std::string mine(reinterpret_cast<const char*>(contested.data()), contested.size() * sizeof(ContestedPair));
  contested.clear();
  for (const std::string& theirs : processes.all_gather_bytes(mine)) {
    const std::size_t held = contested.size(), more = theirs.size() / sizeof(ContestedPair);
    if (more == 0) continue;  // (memcpy wants a non-null pointer even for no bytes)
    contested.resize(held + more);
    std::memcpy(contested.data() + held, theirs.data(), more * sizeof(ContestedPair));
  }
  std::sort(contested.begin(), contested.end());
  std::unordered_map<std::uint32_t, std::uint32_t> degree;
  for (const ContestedPair& c : contested) {
    std::uint32_t &first = degree[c.first], &second = degree[c.second];
    if (first >= kLshCandidatesPerDocument || second >= kLshCandidatesPerDocument) continue;
    ++first;
    ++second;
    if (holders.of(handling_page(c.first, c.second)) == processes.rank()) taken.emplace_back(c.first, c.second);
  }
  std::sort(taken.begin(), taken.end());
  return taken;
}

}  // namespace

std::vector<Pair> owned_lsh_candidates(std::span<const std::uint32_t> held_rows, std::size_t first,
                                       [[maybe_unused]] std::size_t documents, std::size_t width, LshBanding banding,
                                       std::span<const bool> skip, unsigned threads, const Collective& processes) {
  assert(width > 0 && std::size_t{banding.bands} * banding.rows <= width);
  assert(skip.empty() || skip.size() == held_rows.size() / width);
  const unsigned count = processes.size();
  const std::size_t own_first = first, own_end = first + held_rows.size() / width;
  assert(own_end <= documents);
  if (count == 1) {
    assert(own_first == 0 && own_end == documents);
    return lsh_candidates(held_rows, width, banding, skip, threads);
  }
  const DocumentHolders holders(static_cast<std::uint32_t>(own_first), static_cast<std::uint32_t>(own_end), processes);
  BandKeying keying{width, banding.rows};
  keying.exact_keys = exact_band_keys(keying.rows * sizeof(std::uint32_t));
  keying.row_bytes = keying.exact_keys ? 0 : keying.rows * sizeof(std::uint32_t);
  // Bands in rounds of one per worker, as in the one-process version; a round is one exchange of
  // keys and one of pairs (all-to-all both), each pair to its owner, who keeps its first band.
  const std::size_t workers = worker_count(banding.bands, threads);
  FirstProposals owned;
  for (std::size_t round = 0; round < banding.bands; round += workers) {
    const std::size_t in_round = std::min<std::size_t>(workers, banding.bands - round);
    // 1-2. The keys to their owners (row d - own_first of held_rows is document d's); the pairs
    // of the keys this process owns.
    std::vector<std::vector<Pair>> key_pairs = owned_band_pairs(
        processes.all_to_all_bytes(
            band_keys_for_owners(held_rows, own_first, own_end, keying, round, in_round, skip, threads, count)),
        keying, round, in_round, threads);
    // 3. Each pair to the process that owns it, added there in band order.
    const std::vector<std::string> from_each = processes.all_to_all_bytes(pairs_for_owners(key_pairs, holders, count));
    key_pairs.assign(in_round, {});
    std::vector<std::vector<Pair>> band_lists(in_round);
    for (const std::string& message : from_each) read_pair_lists(message, band_lists);
    for (std::size_t i = 0; i < in_round; ++i) {
      sort_unique(band_lists[i]);
      owned.add_band(band_lists[i], static_cast<std::uint32_t>(round + i));
    }
  }
  // 4. The cap on candidates per document, where it can bind.
  return settle_candidates(owned, holders, processes);
}

}  // namespace canon::dedup
