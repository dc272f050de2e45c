/// @file record_holders.cpp
/// @brief The processes' parts of the records, and questions to the holders of records.
#include "indexer/partitioned/record_holders.h"

#include <algorithm>
#include <cassert>

#include "common/byte_codec.h"
#include "indexer/stages/parse_stage.h"

namespace canon::indexer::detail {

RecordParts::RecordParts(const ChunkLayout& chunks, std::uint32_t records) {
  if (chunks.process_first.empty()) {
    starts_ = {0, records};
    return;
  }
  // process_first ends with the chunks' count: the end of the last process's chunks, where the
  // skipped paths' records start, which it holds too.
  for (std::size_t p = 0; p + 1 < chunks.process_first.size(); ++p) {
    starts_.push_back(static_cast<std::uint32_t>(std::min(chunks.files, chunks.first(chunks.process_first[p]))));
  }
  starts_.push_back(records);
}

unsigned RecordParts::holder(std::uint32_t record) const {
  assert(record < records());
  const auto after = std::upper_bound(starts_.begin(), starts_.end() - 1, record);
  return static_cast<unsigned>(after - starts_.begin() - 1);
}

ProcessCounts count_of_processes(std::uint64_t mine, const Collective& processes) {
  if (processes.size() == 1) return {0, mine};
  std::string bytes;
  codec::put_varint(bytes, mine);
  ProcessCounts counts;
  const std::vector<std::string> all = processes.all_gather_bytes(bytes);
  for (unsigned p = 0; p < all.size(); ++p) {
    const std::uint64_t count = codec::Reader(all[p]).varint();
    if (p < processes.rank()) counts.before += count;
    counts.total += count;
  }
  return counts;
}

RecordAnswer url_answer(const HeldRecords& records) {
  return [&records](std::uint32_t record, std::string& out) { out = records[record].url; };
}

Result<std::vector<std::string>> ask_record_holders(std::span<const std::uint32_t> wanted, const RecordParts& parts,
                                             const RecordAnswer& answer, const Collective& processes) {
  std::vector<std::string> answers(wanted.size());
  const unsigned me = processes.rank();
  if (processes.size() == 1) {
    for (std::size_t i = 0; i < wanted.size(); ++i) answer(wanted[i], answers[i]);
    return answers;
  }
  // The questions, by holder (its own answered here, and sent as an empty list).
  std::vector<std::string> questions(processes.size());
  std::vector<std::vector<std::size_t>> asked(processes.size());  // indexes into `wanted`, by holder
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    const unsigned holder = parts.holder(wanted[i]);
    if (holder == me) {
      answer(wanted[i], answers[i]);
      continue;
    }
    codec::put_varint(questions[holder], wanted[i]);
    asked[holder].push_back(i);
  }
  const std::vector<std::string> received = processes.all_to_all_bytes(questions);
  questions.assign(processes.size(), std::string());
  // The answers to each asker, in the order asked.
  std::vector<std::string> replies(processes.size());
  bool bad_question = false;
  std::string one;
  for (unsigned p = 0; p < processes.size(); ++p) {
    codec::Reader in(received[p]);
    while (!in.at_end() && in.ok()) {
      const std::uint64_t record = in.varint();
      if (!in.ok() || record < parts.first(me) || record >= parts.end(me)) {
        bad_question = true;
        break;
      }
      one.clear();
      answer(static_cast<std::uint32_t>(record), one);
      codec::put_string(replies[p], one);
    }
  }
  // Every process answers, even one that received a bad question: the others are waiting.
  const std::vector<std::string> replied = processes.all_to_all_bytes(replies);
  if (bad_question) return Status::corruption("a process asked for a record this process does not hold");
  for (unsigned p = 0; p < processes.size(); ++p) {
    codec::Reader in(replied[p]);
    for (const std::size_t i : asked[p]) answers[i] = in.string();
    if (!in.ok() || !in.at_end()) {
      return Status::corruption("the answers of process " + std::to_string(p) + " about its records do not decode");
    }
  }
  return answers;
}

Result<std::vector<RecordMessage>> tell_holders(std::vector<RecordMessage> messages, const RecordParts& parts,
                                                const Collective& processes) {
  if (processes.size() == 1) return messages;
  const unsigned me = processes.rank();
  std::vector<std::string> to_each(processes.size());
  std::vector<RecordMessage> kept;
  for (RecordMessage& message : messages) {
    const unsigned holder = parts.holder(message.record);
    if (holder == me) {
      kept.push_back(std::move(message));
      continue;
    }
    codec::put_varint(to_each[holder], message.record);
    codec::put_string(to_each[holder], message.bytes);
  }
  messages = {};
  const std::vector<std::string> received = processes.all_to_all_bytes(to_each);
  to_each = {};
  std::vector<RecordMessage> out;
  for (unsigned p = 0; p < processes.size(); ++p) {
    if (p == me) {
      for (RecordMessage& message : kept) out.push_back(std::move(message));
      continue;
    }
    codec::Reader in(received[p]);
    while (!in.at_end()) {
      const std::uint64_t record = in.varint();
      std::string bytes = in.string();
      if (!in.ok() || record < parts.first(me) || record >= parts.end(me)) {
        return Status::corruption("a message from process " + std::to_string(p) +
                                  " does not decode or is about a record this process does not hold");
      }
      out.push_back({static_cast<std::uint32_t>(record), std::move(bytes)});
    }
  }
  return out;
}

}  // namespace canon::indexer::detail
