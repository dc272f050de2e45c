/// @file record_holders.h
/// @brief Which process of a partitioned build holds each page record, and asking the holders
/// for what they know of the records another process needs (docs/partitioned-build.md,
/// "Records by parts").
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/collective.h"
#include "common/status.h"
#include "indexer/records/page_record.h"
namespace canon::indexer::detail {

struct ChunkLayout;  // indexer/chunk_layout.h

/// The processes' parts of the run's records: process p holds records [first(p), end(p)), the
/// records of the files it parses (ChunkLayout::process_first); the last process also holds the
/// records of the paths the walk skipped, which follow the files. The parts tile the records in
/// rank order; any may be empty. One process holds them all.
class RecordParts {
public:
  /// One process holding `records` records.
  explicit RecordParts(std::uint32_t records = 0) : starts_{0, records} {}
  /// The parts of `records` records (the site's files, then its skipped paths) among the
  /// processes `chunks` was shared among (share_chunks; one when it was not).
  RecordParts(const ChunkLayout& chunks, std::uint32_t records);
  /// Parts of any run of ids: process p holds [starts[p], starts[p + 1]). REQUIRES: starts
  /// ascends from 0, one more than the processes.
  explicit RecordParts(std::vector<std::uint32_t> starts) : starts_(std::move(starts)) {}

  unsigned processes() const { return static_cast<unsigned>(starts_.size() - 1); }
  std::uint32_t records() const { return starts_.back(); }
  std::uint32_t first(unsigned process) const { return starts_[process]; }
  std::uint32_t end(unsigned process) const { return starts_[process + 1]; }
  /// The process holding `record`. REQUIRES: record < records().
  unsigned holder(std::uint32_t record) const;

private:
  std::vector<std::uint32_t> starts_;  ///< first(p) for each p, then records()
};

/// A count summed over the processes (count_of_processes).
struct ProcessCounts {
  std::uint64_t before = 0;  ///< of the processes before this one
  std::uint64_t total = 0;   ///< of every process
};

/// Every process gives a count (`mine`: its documents, its clusters); each gets the sums of the
/// processes' before it and of all. One all_gather_bytes (none in one process). Collective.
ProcessCounts count_of_processes(std::uint64_t mine, const Collective& processes);

/// Writes into `out` what this process knows of one of its records (an answer of ask_record_holders).
using RecordAnswer = std::function<void(std::uint32_t record, std::string& out)>;

/// Answers with a record's URL (`records`, this process's, must outlive the answer).
RecordAnswer url_answer(const HeldRecords& records);

/// Each process asks the holders of `wanted` records (any order, repeats allowed) for them, and
/// answers the others' questions about its own records with `answer`; returns the answers in the
/// order of `wanted`. Two all_to_all_bytes: the questions, then the answers. Collective call
/// (every process calls it, with its own `wanted`); fails (kCorruption) when a question or an
/// answer does not decode, or names a record its receiver does not hold.
Result<std::vector<std::string>> ask_record_holders(std::span<const std::uint32_t> wanted, const RecordParts& parts,
                                             const RecordAnswer& answer, const Collective& processes);

/// Bytes about one record, for the process holding it (tell_holders).
struct RecordMessage {
  std::uint32_t record = 0;
  std::string bytes;
};

/// Each process sends `messages` to the holders of their records (its own keeps the messages
/// about its records); returns the messages about this process's records from every process,
/// by sender in rank order, each sender's in the order it gave them. One all_to_all_bytes.
/// Collective call; fails (kCorruption) when a message received does not decode or is about a
/// record this process does not hold.
Result<std::vector<RecordMessage>> tell_holders(std::vector<RecordMessage> messages, const RecordParts& parts,
                                                const Collective& processes);

}  // namespace canon::indexer::detail
