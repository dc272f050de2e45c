/// @file cluster_assignment.cpp
/// @brief From page records to authority candidates, and from the chosen authoritative pages back.
#include "indexer/cluster_assignment.h"

#include <algorithm>
#include <bit>
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

Result<AuthorityCandidates> authority_candidates(const HeldRecords& records,
                                                 std::span<const std::uint32_t> cluster_of,
                                                 const detail::RecordParts& parts, const Collective& processes) {
  const auto documents = static_cast<std::uint32_t>(cluster_of.size());
  const std::vector<char> several = in_cluster_of_several(cluster_of);
  // This process's candidates that matter: the members of clusters of several (whole), and the
  // rel=canonical of other pages into such a cluster (a vote from outside it).
  std::string mine;
  const unsigned me = processes.rank();
  for (std::uint32_t d = std::min(parts.first(me), documents); d < std::min(parts.end(me), documents); ++d) {
    const PageRecord& r = records[d];
    const bool canonical = r.canonical_page < documents && several[r.canonical_page] != 0;
    if (several[d] == 0 && !canonical) continue;
    codec::put_varint(mine, d);
    codec::put_varint(mine, canonical ? std::uint64_t{r.canonical_page} + 1 : 0);
    codec::put_varint(mine, several[d]);
    if (several[d] == 0) continue;
    codec::put_string(mine, r.url);
    codec::put_string(mine, !r.heading.empty() ? std::string_view(r.heading) : std::string_view(r.title));
    codec::put_fixed(mine, std::bit_cast<std::uint64_t>(r.pagerank), 8);
    codec::put_varint(mine, r.redirects_in);
    codec::put_list(mine, r.defined);
    codec::put_varint(mine, r.listed.size());
    for (const std::uint32_t entry : r.listed) codec::put_varint(mine, entry);
  }
  AuthorityCandidates out;
  out.bytes = processes.size() == 1 ? std::vector<std::string>{std::move(mine)} : processes.all_gather_bytes(mine);
  // Only the candidates the rule reads (a sparse table): in rank order, each process's in
  // record order, so sorted.
  std::vector<std::uint32_t> listed;
  std::vector<dedup::AuthorityCandidate> candidates;
  for (const std::string& bytes : out.bytes) {
    codec::Reader in(bytes);
    while (in.ok() && !in.at_end()) {
      const std::uint64_t d = in.varint(), canonical = in.varint(), whole = in.varint();
      if (!in.ok() || d >= documents || canonical > documents || (!listed.empty() && d <= listed.back())) {
        in.mark_bad();
        break;
      }
      listed.push_back(static_cast<std::uint32_t>(d));
      dedup::AuthorityCandidate& c = candidates.emplace_back();
      if (canonical != 0) c.canonical = static_cast<std::uint32_t>(canonical - 1);
      if (whole == 0) continue;
      c.url = in.view();
      c.name = in.view();
      c.pagerank = std::bit_cast<double>(in.fixed(8));
      c.redirects_in = static_cast<std::uint32_t>(in.varint());
      c.defined = in.list();
      for (std::uint64_t n = in.count(); n > 0 && in.ok(); --n) c.listed.push_back(static_cast<std::uint32_t>(in.varint()));
    }
    if (!in.ok()) return Status::corruption("the authority's candidates another process sent do not decode");
  }
  out.candidates = dedup::AuthorityCandidateTable(documents, std::move(listed), std::move(candidates));
  return out;
}

namespace {

using detail::ask_holders;
using detail::count_of_processes;
using detail::RecordMessage;
using detail::RecordParts;
using detail::tell_holders;

/// The records this process holds, of those `chosen` covers: [first, end).
std::pair<std::uint32_t, std::uint32_t> own_documents(const RecordParts& parts, const dedup::AuthoritativePages& chosen,
                                                      unsigned rank) {
  const auto documents = static_cast<std::uint32_t>(chosen.cluster_of.size());
  return {std::min(parts.first(rank), documents), std::min(parts.end(rank), documents)};
}

std::string double_bytes(double value) {
  std::string out;
  codec::put_fixed(out, std::bit_cast<std::uint64_t>(value), 8);
  return out;
}

}  // namespace

Result<ClusterAssignment> assign_clusters(HeldRecords& records, const dedup::AuthoritativePages& chosen,
                                          const RecordParts& parts, const Collective& processes) {
  ClusterAssignment out;
  const unsigned me = processes.rank();
  const auto [first, end] = own_documents(parts, chosen, me);
  // A cluster's id is the number of clusters before its smallest member (cluster_of), which is
  // the cluster's first record: each process numbers the clusters that start among its records,
  // after the other processes' before it.
  std::unordered_map<std::uint32_t, std::uint32_t> own_cluster_ids;  // by smallest member
  for (std::uint32_t d = first; d < end; ++d) {
    if (records[d].in_dedup && chosen.cluster_of[d] == d) {
      own_cluster_ids.emplace(d, static_cast<std::uint32_t>(own_cluster_ids.size()));
    }
  }
  const auto clusters_before = static_cast<std::uint32_t>(count_of_processes(own_cluster_ids.size(), processes).before);
  // A cluster's PageRank, the sum of its members' in record order, by the holder of its first
  // record: every member's PageRank goes there (messages come by sender in rank order, each
  // sender's in record order: record order).
  std::vector<RecordMessage> pageranks;
  for (std::uint32_t d = first; d < end; ++d) {
    if (records[d].in_dedup) pageranks.push_back({chosen.cluster_of[d], double_bytes(records[d].pagerank)});
  }
  auto summed = tell_holders(std::move(pageranks), parts, processes);
  if (!summed.ok()) return summed.status();
  std::unordered_map<std::uint32_t, double> cluster_pagerank;  // by smallest member
  for (const RecordMessage& message : summed.value()) {
    codec::Reader in(message.bytes);
    cluster_pagerank[message.record] += std::bit_cast<double>(in.fixed(8));
    if (!in.ok() || !own_cluster_ids.contains(message.record)) {
      return Status::corruption("a cluster's PageRank was sent to a process that does not start it");
    }
  }
  summed.value().clear();
  // Each member asks its cluster's first record's holder for the cluster's id and PageRank.
  std::vector<std::uint32_t> firsts;
  for (std::uint32_t d = first; d < end; ++d) {
    if (records[d].in_dedup) firsts.push_back(chosen.cluster_of[d]);
  }
  auto answers = ask_holders(
      firsts, parts,
      [&](std::uint32_t record, std::string& bytes) {
        const auto id = own_cluster_ids.find(record);
        codec::put_varint(bytes, id == own_cluster_ids.end() ? 0 : clusters_before + id->second);
        codec::put_fixed(bytes, std::bit_cast<std::uint64_t>(cluster_pagerank[record]), 8);
      },
      processes);
  if (!answers.ok()) return answers.status();
  // Each duplicate's alternate goes to its authoritative page's holder (by sender in rank order,
  // each in record order: in record order, as one process lists them).
  std::vector<RecordMessage> alternates;
  std::size_t next_answer = 0;
  for (std::uint32_t d = first; d < end; ++d) {
    PageRecord& r = records[d];
    if (!r.in_dedup) continue;
    codec::Reader in(answers.value()[next_answer++]);
    r.cluster = static_cast<std::uint32_t>(in.varint());
    r.cluster_pagerank = std::bit_cast<double>(in.fixed(8));
    if (!in.ok()) return Status::corruption("a cluster's id and PageRank do not decode");
    r.authoritative = chosen.authority[d].authoritative;
    r.authority_reason = std::string(dedup::to_string(chosen.authority[d].reason));
    r.status = r.authoritative == d ? PageStatus::kIndexed : PageStatus::kDuplicate;
    if (r.authoritative != d) {
      r.similarity = chosen.to_authoritative[d].similarity;
      std::string bytes;
      codec::put_string(bytes, r.url);
      codec::put_string(bytes, r.title);
      bytes += double_bytes(*r.similarity);
      alternates.push_back({r.authoritative, std::move(bytes)});
    }
  }
  auto received = tell_holders(std::move(alternates), parts, processes);
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
