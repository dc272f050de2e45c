/// @file test_record_holders.cpp
/// @brief RecordParts (which process holds each record) from chunk layouts, and ask_record_holders and
/// tell_holders against one process holding every record (the oracle), among 1 to 5 simulated
/// processes with random parts (empty ones among them) and random questions and messages.
#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "indexer/stages/parse_stage.h"
#include "indexer/partitioned/record_holders.h"
#include "support/thread_collective.h"

using namespace canon::indexer::detail;

namespace {

/// What the holder of `record` answers about it: the same whoever holds it, of any length.
std::string answer_of(std::uint32_t record) { return std::string(record % 7, 'x') + std::to_string(record); }

/// The parts of a random site of at least `min_files` files in chunks of 1 to 4, among
/// `processes` processes each given a random run of chunks (some empty), as share_chunks cuts
/// them; a few skipped paths after the files.
RecordParts random_parts(unsigned processes, std::size_t min_files, std::mt19937_64& rng) {
  const auto below = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  ChunkLayout chunks;
  chunks.files = min_files + below(60);
  chunks.files_per_chunk = 1 + below(4);
  chunks.process_first.assign(processes, 0);
  for (unsigned p = 1; p < processes; ++p) chunks.process_first[p] = chunks.process_first[p - 1] + below(3);
  for (auto& first : chunks.process_first) first = std::min(first, chunks.count());
  chunks.process_first.push_back(chunks.count());  // as share_chunks ends it
  const RecordParts parts(chunks, static_cast<std::uint32_t>(chunks.files + below(5)));
  REQUIRE(parts.processes() == processes);
  REQUIRE(parts.end(processes - 1) == parts.records());
  return parts;
}

}  // namespace

TEST_CASE("RecordParts: the processes' files, the skipped paths with the last") {
  ChunkLayout chunks;
  chunks.files = 10;
  chunks.files_per_chunk = 3;  // chunks 0..3: [0,3) [3,6) [6,9) [9,10)
  chunks.process_first = {0, 1, 4, 4};  // process 0: chunk 0; process 1: chunks 1-3; process 2: none
  const RecordParts parts(chunks, 13);
  REQUIRE(parts.processes() == 3);
  CHECK(parts.first(0) == 0);
  CHECK(parts.end(0) == 3);
  CHECK(parts.first(1) == 3);
  CHECK(parts.end(1) == 10);
  CHECK(parts.first(2) == 10);  // no files: the 3 skipped paths alone
  CHECK(parts.end(2) == 13);
  CHECK(parts.holder(0) == 0);
  CHECK(parts.holder(2) == 0);
  CHECK(parts.holder(3) == 1);
  CHECK(parts.holder(9) == 1);
  CHECK(parts.holder(10) == 2);
  CHECK(parts.holder(12) == 2);

  const RecordParts alone(ChunkLayout{{}, 10, 3, {}}, 13);
  CHECK(alone.processes() == 1);
  CHECK(alone.end(0) == 13);
  CHECK(alone.holder(12) == 0);
}

TEST_CASE("ask_record_holders: each process gets the holders' answers in the order it asked") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    std::mt19937_64 rng(seed);
    const auto below = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    const unsigned processes = 1 + static_cast<unsigned>(below(5));
    const RecordParts parts = random_parts(processes, 0, rng);
    const std::uint32_t records = parts.records();
    CAPTURE(seed);
    CAPTURE(processes);
    // Each process's questions: random records, repeats allowed, its own among them.
    std::vector<std::vector<std::uint32_t>> wanted(processes);
    for (auto& questions : wanted) {
      const std::size_t count = records == 0 ? 0 : below(40);
      for (std::size_t i = 0; i < count; ++i) questions.push_back(static_cast<std::uint32_t>(below(records)));
    }
    std::mutex mutex;
    std::vector<std::string> failures;
    canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
      const unsigned me = collective.rank();
      std::vector<std::string> wrong;
      const RecordAnswer answer = [&](std::uint32_t record, std::string& out) {
        if (parts.holder(record) != me) wrong.push_back("asked about record " + std::to_string(record) + " it does not hold");
        out = answer_of(record);
      };
      auto answers = ask_record_holders(wanted[me], parts, answer, collective);
      const std::lock_guard lock(mutex);
      for (const std::string& w : wrong) failures.push_back("process " + std::to_string(me) + " " + w);
      if (!answers.ok()) {
        failures.push_back(answers.status().message());
        return;
      }
      if (answers->size() != wanted[me].size()) {
        failures.push_back("process " + std::to_string(me) + ": not one answer a question");
        return;
      }
      for (std::size_t i = 0; i < wanted[me].size(); ++i) {
        if (answers.value()[i] != answer_of(wanted[me][i])) {
          failures.push_back("process " + std::to_string(me) + ": a wrong answer about record " +
                             std::to_string(wanted[me][i]));
        }
      }
    });
    for (const std::string& failure : failures) FAIL(failure);
  }
}

TEST_CASE("tell_holders: each holder gets the messages about its records, by sender, in the order sent") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    std::mt19937_64 rng(seed);
    const auto below = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    const unsigned processes = 1 + static_cast<unsigned>(below(5));
    const RecordParts parts = random_parts(processes, 1, rng);
    const std::uint32_t records = parts.records();
    CAPTURE(seed);
    CAPTURE(processes);
    // Each process's messages: about random records, each naming its sender and its place.
    std::vector<std::vector<RecordMessage>> sent(processes);
    for (unsigned p = 0; p < processes; ++p) {
      const std::size_t count = below(40);
      for (std::size_t i = 0; i < count; ++i) {
        sent[p].push_back({static_cast<std::uint32_t>(below(records)), std::to_string(p) + ":" + std::to_string(i)});
      }
    }
    // The oracle: every message about a holder's records, senders in rank order, each in order.
    std::vector<std::vector<RecordMessage>> expected(processes);
    for (unsigned p = 0; p < processes; ++p) {
      for (const RecordMessage& message : sent[p]) expected[parts.holder(message.record)].push_back(message);
    }
    std::mutex mutex;
    std::vector<std::string> failures;
    canon::testing::run_processes(processes, [&](const canon::Collective& collective) {
      const unsigned me = collective.rank();
      auto received = tell_holders(sent[me], parts, collective);
      const std::lock_guard lock(mutex);
      if (!received.ok()) {
        failures.push_back(received.status().message());
        return;
      }
      bool same = received->size() == expected[me].size();
      for (std::size_t i = 0; same && i < expected[me].size(); ++i) {
        same = received.value()[i].record == expected[me][i].record && received.value()[i].bytes == expected[me][i].bytes;
      }
      if (!same) failures.push_back("process " + std::to_string(me) + " got other messages, or in another order");
    });
    for (const std::string& failure : failures) FAIL(failure);
  }
}
