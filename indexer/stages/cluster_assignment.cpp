/// @file cluster_assignment.cpp
/// @brief From page records to authority candidates, and from the chosen authoritative pages back.
#include "indexer/stages/cluster_assignment.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "common/byte_codec.h"

namespace canon::indexer {

namespace {

/// Whether each document is in a cluster of two or more (`cluster_of`, dedup::Clusters').
std::vector<char> in_cluster_of_several(std::span<const std::uint32_t> cluster_of) {
  std::vector<std::uint32_t> size(cluster_of.size(), 0);
  for (const std::uint32_t c : cluster_of) ++size[c];
  std::vector<char> several(cluster_of.size(), 0);
  for (std::size_t d = 0; d < cluster_of.size(); ++d) several[d] = size[cluster_of[d]] > 1 ? 1 : 0;
  return several;
}

}  // namespace

std::optional<std::uint32_t> ClusterShare::index_of(std::uint32_t document) const {
  const auto at = std::lower_bound(documents.begin(), documents.end(), document);
  if (at == documents.end() || *at != document) return std::nullopt;
  return static_cast<std::uint32_t>(at - documents.begin());
}

namespace {

/// Who owns a document's cluster, and whether the document is in a cluster of two or more.
struct ClusterOwners {
  std::span<const std::uint32_t> cluster_of;  ///< dedup::Clusters'
  std::vector<char> several;                  ///< in_cluster_of_several(cluster_of)
  unsigned processes = 1;
  unsigned owner(std::uint32_t d) const { return cluster_owner(cluster_of[d], processes); }
  std::uint32_t documents() const { return static_cast<std::uint32_t>(cluster_of.size()); }
};

/// To each cluster owner: the candidates of its clusters' members this process holds, whole, and
/// the votes of other pages into its clusters (the document, the page its rel=canonical names + 1
/// or 0, whether whole).
std::vector<std::string> candidates_for_owners(const HeldRecords& records, const ClusterOwners& owners,
                                               const detail::RecordParts& parts, unsigned me) {
  const std::uint32_t documents = owners.documents();
  std::vector<std::string> to_each(owners.processes);
  for (std::uint32_t d = std::min(parts.first(me), documents); d < std::min(parts.end(me), documents); ++d) {
    const PageRecord& r = records[d];
    const std::uint32_t named = r.canonical_page;
    const bool votes = named < documents && owners.several[named] != 0;
    if (owners.several[d] != 0) {
      std::string& out = to_each[owners.owner(d)];
      codec::put_varint(out, d);
      codec::put_varint(out, votes && owners.owner(named) == owners.owner(d) ? std::uint64_t{named} + 1 : 0);
      codec::put_varint(out, 1);
      codec::put_string(out, r.url);
      codec::put_string(out, !r.heading.empty() ? std::string_view(r.heading) : std::string_view(r.title));
      codec::put_fixed(out, std::bit_cast<std::uint64_t>(r.pagerank), 8);
      codec::put_varint(out, r.redirects_in);
      codec::put_varint(out, r.click_depth);
      codec::put_list(out, r.defined);
      codec::put_varint(out, r.listed.size());
      for (const std::uint32_t entry : r.listed) codec::put_varint(out, entry);
    }
    if (votes && (owners.several[d] == 0 || owners.owner(named) != owners.owner(d))) {
      std::string& out = to_each[owners.owner(named)];
      codec::put_varint(out, d);
      codec::put_varint(out, std::uint64_t{named} + 1);
      codec::put_varint(out, 0);
    }
  }
  return to_each;
}

/// Decodes share.bytes (candidates_for_owners' messages, by sender in rank order, each in record
/// order: in document order, each document once) into share's documents, members and candidates;
/// `named`, per share index, the document its rel=canonical names + 1, or 0.
Status read_share(ClusterShare& share, std::vector<std::uint32_t>& named, const ClusterOwners& owners, unsigned me) {
  const std::uint32_t documents = owners.documents();
  for (unsigned p = 0; p < share.bytes.size(); ++p) {
    codec::Reader in(share.bytes[p]);
    while (in.ok() && !in.at_end()) {
      const std::uint64_t d = in.varint(), canonical = in.varint(), whole = in.varint();
      const bool in_order = share.documents.empty() || d > share.documents.back();
      const bool owned = d < documents && canonical <= documents &&
                         (whole != 0 ? owners.several[d] != 0 && owners.owner(static_cast<std::uint32_t>(d)) == me
                                     : canonical != 0 && owners.several[canonical - 1] != 0 &&
                                           owners.owner(static_cast<std::uint32_t>(canonical - 1)) == me);
      if (!in.ok() || !in_order || !owned) {
        in.mark_bad();
        break;
      }
      share.documents.push_back(static_cast<std::uint32_t>(d));
      share.member.push_back(whole != 0 ? 1 : 0);
      named.push_back(static_cast<std::uint32_t>(canonical));
      dedup::AuthorityCandidate& c = share.candidates.emplace_back();
      if (whole == 0) continue;
      c.url = in.view();
      c.name = in.view();
      c.pagerank = std::bit_cast<double>(in.fixed(8));
      c.redirects_in = static_cast<std::uint32_t>(in.varint());
      c.click_depth = static_cast<std::uint32_t>(in.varint());
      c.defined = in.list();
      for (std::uint64_t n = in.count(); n > 0 && in.ok(); --n) c.listed.push_back(static_cast<std::uint32_t>(in.varint()));
    }
    if (!in.ok()) {
      return Status::corruption("the authority's candidates process " + std::to_string(p) +
                                " sent do not decode or are not of this process's clusters");
    }
  }
  return Status::ok_status();
}

/// In share indexes: the pages votes name (each a member, its owner's), the clusters (each named
/// by a member), the verified pairs within them.
Status index_share(ClusterShare& share, const std::vector<std::uint32_t>& named, const dedup::Clusters& clusters,
                   const ClusterOwners& owners, unsigned me) {
  const auto share_size = static_cast<std::uint32_t>(share.documents.size());
  share.cluster_of.resize(share_size);
  for (std::uint32_t i = 0; i < share_size; ++i) {
    if (named[i] != 0) share.candidates[i].canonical = share.index_of(named[i] - 1);
    if (share.member[i] == 0) {
      share.cluster_of[i] = i;
      continue;
    }
    const auto cluster = share.index_of(owners.cluster_of[share.documents[i]]);
    if (!cluster || share.member[*cluster] == 0) {
      return Status::corruption("a member of a cluster this process owns is missing from its share");
    }
    share.cluster_of[i] = *cluster;
  }
  for (const dedup::SimilarPair& pair : clusters.pairs) {
    if (pair.a >= owners.documents() || owners.several[pair.a] == 0 || owners.owner(pair.a) != me) continue;
    const auto a = share.index_of(pair.a), b = share.index_of(pair.b);
    if (!a || !b) return Status::corruption("a verified pair of a cluster this process owns is missing from its share");
    share.pairs.push_back({*a, *b, pair.similarity});
  }
  return Status::ok_status();
}

}  // namespace

Result<ClusterShare> gather_cluster_share(const HeldRecords& records, const dedup::Clusters& clusters,
                                          const detail::RecordParts& parts, const Collective& processes) {
  const ClusterOwners owners{clusters.cluster_of, in_cluster_of_several(clusters.cluster_of), processes.size()};
  std::vector<std::string> to_each = candidates_for_owners(records, owners, parts, processes.rank());
  ClusterShare share;
  share.bytes = processes.size() == 1 ? std::move(to_each) : processes.all_to_all_bytes(to_each);
  to_each = {};
  std::vector<std::uint32_t> named;
  if (Status read = read_share(share, named, owners, processes.rank()); !read.ok()) return read;
  if (Status indexed = index_share(share, named, clusters, owners, processes.rank()); !indexed.ok()) return indexed;
  return share;
}

namespace {

/// The judge of a share's pairs: each process gives the detector its own share's pairs, as
/// detector documents (Detector::compare, collective in a partitioned build).
class ShareJudge final : public dedup::PairJudge {
public:
  ShareJudge(dedup::Detector& detector, const dedup::DocumentLoader& load, std::span<const std::uint32_t> documents,
             const Collective& processes)
      : detector_(detector), load_(load), documents_(documents), processes_(processes) {}

  std::vector<dedup::Comparison> compare(std::span<const std::pair<std::uint32_t, std::uint32_t>> pairs) override {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> own;
    own.reserve(pairs.size());
    for (const auto& [a, b] : pairs) own.emplace_back(documents_[a], documents_[b]);
    return detector_.compare(own, load_);
  }

  bool any(bool mine) override {
    std::uint32_t none = mine ? 0 : 1;  // the smallest over the processes is 0 when any says yes
    processes_.all_reduce_min(std::span(&none, 1));
    return none == 0;
  }

private:
  dedup::Detector& detector_;
  const dedup::DocumentLoader& load_;
  std::span<const std::uint32_t> documents_;
  const Collective& processes_;
};

}  // namespace

const AuthorityDecision* ChosenAuthorities::find(std::uint32_t record) const {
  const auto at = std::lower_bound(decisions.begin(), decisions.end(), record,
                                   [](const AuthorityDecision& x, std::uint32_t r) { return x.record < r; });
  return at != decisions.end() && at->record == record ? &*at : nullptr;
}

namespace {

/// The place preferences of the whole site (dedup/authority/places.h): each process tallies its share's
/// clusters, and each adds up every process's tally. Collective; kCorruption when a tally does
/// not decode.
Result<dedup::PlacePreferences> learn_place_preferences(const ClusterShare& share, const Collective& processes) {
  dedup::PlaceTally tally;
  dedup::tally_places(share.cluster_of, dedup::AuthorityCandidateTable(share.candidates), share.member, tally);
  if (processes.size() == 1) return dedup::PlacePreferences(tally);
  dedup::PlaceTally site;
  for (const std::string& bytes : processes.all_gather_bytes(dedup::encode_place_tally(tally))) {
    if (!dedup::add_encoded_place_tally(bytes, site)) return Status::corruption("a tally of places does not decode");
  }
  return dedup::PlacePreferences(site);
}

}  // namespace

Result<ChosenAuthorities> choose_authorities_by_owner(const HeldRecords& records, const dedup::Clusters& clusters,
                                                      dedup::Detector& detector, const dedup::DocumentLoader& load,
                                                      bool honour_canonical, dedup::ChainPolicy policy,
                                                      const detail::RecordParts& parts, const Collective& processes) {
  std::vector<detail::RecordMessage> decisions;
  ChosenAuthorities out;
  {
    auto gathered = gather_cluster_share(records, clusters, parts, processes);
    if (!gathered.ok()) return gathered.status();
    const ClusterShare& share = gathered.value();
    auto places = learn_place_preferences(share, processes);
    if (!places.ok()) return places.status();
    out.place_preferences = places->learnt();
    ShareJudge judge(detector, load, share.documents, processes);
    const dedup::AuthoritativePages chosen =
        dedup::choose_authoritative_pages(judge, share.cluster_of, share.pairs, dedup::AuthorityCandidateTable(share.candidates),
                                          honour_canonical, policy, &places.value());
    out.split_off = detail::count_of_processes(chosen.split_off, processes).total;
    out.split_for_definitions = detail::count_of_processes(chosen.split_for_definitions, processes).total;
    for (std::uint32_t i = 0; i < share.documents.size(); ++i) {
      if (share.member[i] == 0) continue;
      std::string bytes;
      codec::put_varint(bytes, share.documents[chosen.cluster_of[i]]);
      codec::put_varint(bytes, share.documents[chosen.authority[i].authoritative]);
      codec::put_varint(bytes, static_cast<std::uint64_t>(chosen.authority[i].reason));
      codec::put_fixed(bytes, std::bit_cast<std::uint64_t>(chosen.to_authoritative[i].similarity), 8);
      decisions.push_back({share.documents[i], std::move(bytes)});
    }
  }
  auto received = detail::tell_holders(std::move(decisions), parts, processes);
  if (!received.ok()) return received.status();
  for (const detail::RecordMessage& message : received.value()) {
    codec::Reader in(message.bytes);
    AuthorityDecision& decision = out.decisions.emplace_back();
    decision.record = message.record;
    decision.cluster = static_cast<std::uint32_t>(in.varint());
    decision.authority.authoritative = static_cast<std::uint32_t>(in.varint());
    const std::uint64_t reason = in.varint();
    decision.similarity = std::bit_cast<double>(in.fixed(8));
    if (!in.ok() || !in.at_end() || reason > static_cast<std::uint64_t>(dedup::kLastAuthorityReason)) {
      return Status::corruption("a cluster's decision does not decode");
    }
    decision.authority.reason = static_cast<dedup::AuthorityReason>(reason);
  }
  std::sort(out.decisions.begin(), out.decisions.end(),
            [](const AuthorityDecision& x, const AuthorityDecision& y) { return x.record < y.record; });
  return out;
}

namespace {

using detail::ask_record_holders;
using detail::count_of_processes;
using detail::RecordMessage;
using detail::RecordParts;
using detail::tell_holders;

std::string double_bytes(double value) {
  std::string out;
  codec::put_fixed(out, std::bit_cast<std::uint64_t>(value), 8);
  return out;
}

}  // namespace

namespace {

/// A record's cluster, named by its smallest record (its own when it is alone).
std::uint32_t cluster_of_record(const ChosenAuthorities& chosen, std::uint32_t d) {
  const AuthorityDecision* decision = chosen.find(d);
  return decision != nullptr ? decision->cluster : d;
}

/// The clusters that start among this process's records (their smallest member is one of them).
struct OwnClusters {
  std::unordered_map<std::uint32_t, std::uint32_t> ids;  ///< by smallest member: its number among this process's
  std::uint32_t before = 0;                              ///< the clusters of the processes before
  std::unordered_map<std::uint32_t, double> pagerank;    ///< by smallest member: its members' sum
};

/// A cluster's id is the number of clusters before its smallest member, which is the cluster's
/// first record: each process numbers the clusters that start among its records, after the other
/// processes' before it. A cluster's PageRank, the sum of its members' in record order, by the
/// holder of its first record: every member's PageRank goes there (messages come by sender in
/// rank order, each sender's in record order: record order). Collective.
Result<OwnClusters> number_own_clusters(const HeldRecords& records, const ChosenAuthorities& chosen,
                                        const RecordParts& parts, const Collective& processes) {
  const std::uint32_t first = parts.first(processes.rank()), end = parts.end(processes.rank());
  OwnClusters own;
  for (std::uint32_t d = first; d < end; ++d) {
    if (records[d].in_dedup && cluster_of_record(chosen, d) == d) {
      own.ids.emplace(d, static_cast<std::uint32_t>(own.ids.size()));
    }
  }
  own.before = static_cast<std::uint32_t>(count_of_processes(own.ids.size(), processes).before);
  std::vector<RecordMessage> pageranks;
  for (std::uint32_t d = first; d < end; ++d) {
    if (records[d].in_dedup) pageranks.push_back({cluster_of_record(chosen, d), double_bytes(records[d].pagerank)});
  }
  auto summed = tell_holders(std::move(pageranks), parts, processes);
  if (!summed.ok()) return summed.status();
  for (const RecordMessage& message : summed.value()) {
    codec::Reader in(message.bytes);
    own.pagerank[message.record] += std::bit_cast<double>(in.fixed(8));
    if (!in.ok() || !own.ids.contains(message.record)) {
      return Status::corruption("a cluster's PageRank was sent to a process that does not start it");
    }
  }
  return own;
}

/// Marks this process's records in dedup with their cluster (`answers`, a cluster's id and
/// PageRank per record in order), authoritative page and status; returns each duplicate's
/// alternate, addressed to its authoritative page's holder.
Result<std::vector<RecordMessage>> mark_records(HeldRecords& records, const ChosenAuthorities& chosen,
                                                const std::vector<std::string>& answers, std::uint32_t first,
                                                std::uint32_t end) {
  std::vector<RecordMessage> alternates;
  std::size_t next_answer = 0;
  for (std::uint32_t d = first; d < end; ++d) {
    PageRecord& r = records[d];
    if (!r.in_dedup) continue;
    codec::Reader in(answers[next_answer++]);
    r.cluster = static_cast<std::uint32_t>(in.varint());
    r.cluster_pagerank = std::bit_cast<double>(in.fixed(8));
    if (!in.ok()) return Status::corruption("a cluster's id and PageRank do not decode");
    const AuthorityDecision* decision = chosen.find(d);
    const dedup::Authority authority =
        decision != nullptr ? decision->authority : dedup::Authority{d, dedup::AuthorityReason::Singleton};
    r.authoritative = authority.authoritative;
    r.authority_reason = std::string(dedup::to_string(authority.reason));
    r.status = r.authoritative == d ? PageStatus::kIndexed : PageStatus::kDuplicate;
    if (r.authoritative != d) {
      r.similarity = decision->similarity;
      std::string bytes;
      codec::put_string(bytes, r.url);
      codec::put_string(bytes, r.title);
      bytes += double_bytes(*r.similarity);
      alternates.push_back({r.authoritative, std::move(bytes)});
    }
  }
  return alternates;
}

}  // namespace

Result<ClusterAssignment> assign_clusters(HeldRecords& records, const ChosenAuthorities& chosen,
                                          const RecordParts& parts, const Collective& processes) {
  ClusterAssignment out;
  const std::uint32_t first = parts.first(processes.rank()), end = parts.end(processes.rank());
  auto own = number_own_clusters(records, chosen, parts, processes);
  if (!own.ok()) return own.status();
  // Each member asks its cluster's first record's holder for the cluster's id and PageRank.
  std::vector<std::uint32_t> firsts;
  for (std::uint32_t d = first; d < end; ++d) {
    if (records[d].in_dedup) firsts.push_back(cluster_of_record(chosen, d));
  }
  auto answers = ask_record_holders(
      firsts, parts,
      [&](std::uint32_t record, std::string& bytes) {
        const auto id = own->ids.find(record);
        codec::put_varint(bytes, id == own->ids.end() ? 0 : own->before + id->second);
        codec::put_fixed(bytes, std::bit_cast<std::uint64_t>(own->pagerank[record]), 8);
      },
      processes);
  if (!answers.ok()) return answers.status();
  // Each duplicate's alternate goes to its authoritative page's holder (by sender in rank order,
  // each in record order: in record order, as one process lists them).
  auto alternates = mark_records(records, chosen, answers.value(), first, end);
  if (!alternates.ok()) return alternates.status();
  auto received = tell_holders(std::move(alternates).value(), parts, processes);
  if (!received.ok()) return received.status();
  for (const RecordMessage& message : received.value()) {
    codec::Reader in(message.bytes);
    index_format::Alternate alternate;
    alternate.url = in.string();
    alternate.title = in.string();
    alternate.similarity = std::bit_cast<double>(in.fixed(8));
    if (!in.ok()) return Status::corruption("an alternate does not decode");
    out.alternates[message.record].push_back(std::move(alternate));
  }
  auto duplicate_clusters = count_duplicate_clusters(records, parts, processes);
  if (!duplicate_clusters.ok()) return duplicate_clusters.status();
  out.duplicate_clusters = duplicate_clusters.value();
  return out;
}

Result<std::size_t> count_duplicate_clusters(const HeldRecords& records, const RecordParts& parts,
                                             const Collective& processes) {
  const unsigned me = processes.rank();
  std::vector<RecordMessage> duplicates;
  for (std::uint32_t d = parts.first(me); d < parts.end(me); ++d) {
    if (records[d].status == PageStatus::kDuplicate && records[d].cluster) duplicates.push_back({records[d].authoritative, {}});
  }
  auto received = tell_holders(std::move(duplicates), parts, processes);
  if (!received.ok()) return received.status();
  std::vector<std::uint32_t> authoritative;
  for (const RecordMessage& message : received.value()) authoritative.push_back(message.record);
  std::sort(authoritative.begin(), authoritative.end());
  const auto count = static_cast<std::size_t>(std::unique(authoritative.begin(), authoritative.end()) - authoritative.begin());
  return count_of_processes(count, processes).total;
}

}  // namespace canon::indexer
