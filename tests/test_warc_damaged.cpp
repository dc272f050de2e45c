/// @file test_warc_damaged.cpp
/// @brief warc/warc_reader.h on damaged archives: cut anywhere (plain, a gzip member per record,
/// one gzip stream) or malformed, an archive gives the records before the damage, then an error
/// naming the byte offset; a Content-Length of 10^18 is never allocated, and an error repeats.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "support/warc_archives.h"
#include "warc/warc_reader.h"

using canon::warc::WarcReader;
using canon::warc::WarcReaderOptions;

using canon::testing::Archive;
using canon::testing::build;
using canon::testing::contains;
using canon::testing::crawl_records;
using canon::testing::read_file_bytes;
using canon::testing::ReadAll;
using canon::testing::Storage;
using canon::testing::to_bytes;
using canon::testing::warc_record;

namespace {

/// A resource record whose Content-Length says `length` and whose block is "abc".
std::string record_of_length(const std::string& length) {
  return "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: " + length + "\r\n\r\nabc\r\n\r\n";
}

}  // namespace

TEST_CASE("a cut archive: the records before the cut, then an error naming where it is cut") {
  const auto records = to_bytes(crawl_records());
  struct Row {
    const char* what;
    Storage storage;
    std::size_t cut_at;  // the archive's first cut_at bytes are kept
    std::size_t records_before;
    std::vector<std::string> message;  // each is in the error's message
  };
  const Archive plain = build(records, Storage::kPlain);
  const Archive per_record = build(records, Storage::kGzipPerRecord);
  const std::size_t third = plain.offsets[2];
  const std::size_t third_block = third + records[2].find("\r\n\r\n") + 4;
  const std::size_t third_member = per_record.offsets[2];
  const std::size_t third_member_end = per_record.offsets[3];
  const std::string at_third = "the record at byte " + std::to_string(third);
  const std::string third_length = std::to_string(crawl_records()[2].block.size());
  const Row rows[] = {
      {"inside the version line", Storage::kPlain, third + 3, 2, {at_third, "ends inside its version line"}},
      {"inside the headers", Storage::kPlain, third + 30, 2, {at_third, "ends inside its WARC headers"}},
      {"between the headers and the block",
       Storage::kPlain,
       third_block,
       2,
       {at_third, "declares a block of " + third_length + " bytes (Content-Length), only 0 are there"}},
      {"inside the block",
       Storage::kPlain,
       third_block + 10,
       2,
       {at_third, "declares a block of " + third_length + " bytes (Content-Length), only 10 are there"}},
      {"inside the CRLF CRLF after the block: the record is whole and comes back",
       Storage::kPlain,
       plain.offsets[3] - 1,
       3,
       {at_third, "lacks the CRLF CRLF"}},
      {"right after the block", Storage::kPlain, plain.offsets[3] - 4, 3, {at_third, "lacks the CRLF CRLF"}},
      {"inside a gzip member's header",
       Storage::kGzipPerRecord,
       third_member + 5,
       2,
       {"inside the gzip member that starts at byte " + std::to_string(third_member)}},
      {"inside a gzip member's data",
       Storage::kGzipPerRecord,
       (third_member + third_member_end) / 2,
       2,
       {"inside the gzip member that starts at byte " + std::to_string(third_member),
        "the record at byte " + std::to_string(third_member)}},
      {"inside a gzip member's CRC and size: its record is whole",
       Storage::kGzipPerRecord,
       third_member_end - 3,
       3,
       {"inside the gzip member that starts at byte " + std::to_string(third_member)}},
  };
  for (const Row& row : rows) {
    INFO(std::string(row.what));
    const std::string& bytes = row.storage == Storage::kPlain ? plain.bytes : per_record.bytes;
    REQUIRE(row.cut_at < bytes.size());
    const ReadAll all = read_file_bytes(bytes.substr(0, row.cut_at));
    CHECK(all.records.size() == row.records_before);
    for (std::size_t i = 0; i < all.records.size() && i < records.size(); ++i) {
      CHECK(all.records[i].block == crawl_records()[i].block);
    }
    REQUIRE(all.error);
    CHECK(all.error->code() == canon::StatusCode::kCorruption);
    const std::string& message = all.error->message();
    CAPTURE(message);
    CHECK(contains(message, "the archive is cut at byte " + std::to_string(row.cut_at)));
    for (const auto& part : row.message) CHECK(contains(message, part));
  }
}

TEST_CASE("an archive cut between records reads as a shorter one; one gzip stream cut anywhere") {
  const auto records = to_bytes(crawl_records());
  const Archive plain = build(records, Storage::kPlain);
  const Archive per_record = build(records, Storage::kGzipPerRecord);
  SUBCASE("cut between records: a shorter archive, no error") {
    const ReadAll all = read_file_bytes(plain.bytes.substr(0, plain.offsets[3]));
    CHECK_FALSE(all.error);
    CHECK(all.records.size() == 3);
    const ReadAll gz = read_file_bytes(per_record.bytes.substr(0, per_record.offsets[3]));
    CHECK_FALSE(gz.error);
    CHECK(gz.records.size() == 3);
  }
  SUBCASE("one gzip stream cut anywhere: whole records before the cut, then the cut") {
    const Archive whole = build(records, Storage::kGzipWhole);
    for (const std::size_t cut_at :
         {std::size_t{5}, whole.bytes.size() / 3, whole.bytes.size() / 2, whole.bytes.size() - 1}) {
      CAPTURE(cut_at);
      const ReadAll all = read_file_bytes(whole.bytes.substr(0, cut_at));
      CHECK(all.records.size() <= records.size());
      for (std::size_t i = 0; i < all.records.size(); ++i) CHECK(all.records[i].block == crawl_records()[i].block);
      REQUIRE(all.error);
      CHECK(contains(all.error->message(), "the archive is cut at byte " + std::to_string(cut_at)));
      CHECK(contains(all.error->message(), "inside the gzip member that starts at byte 0"));
    }
  }
}

TEST_CASE("malformed archives: the records before, then an error naming the offset") {
  const std::string good = warc_record({"resource", "http://example.com/", "text/plain", "fine", ""});
  const std::string at_good_end = "the record at byte " + std::to_string(good.size());
  struct Row {
    const char* what;
    std::string bytes;
    std::size_t records_before;
    std::vector<std::string> message;
  };
  const Row rows[] = {
      {"garbage at the start",
       "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
       0,
       {"the record at byte 0", "expected a WARC/1.0 or WARC/1.1 version line, found \"GET / HTTP/1.1"}},
      {"binary garbage",
       std::string("\x89PNG\r\n\x1a\n\0\0\0", 11),
       0,
       {"the record at byte 0", "found \"\\x89PNG\\x0D\\x0A"}},
      {"a version the reader does not know",
       "WARC/2.0\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
       0,
       {"WARC/1.0 or WARC/1.1"}},
      {"a version line with letters after it", "WARC/1.x\r\nContent-Length: 0\r\n\r\n\r\n\r\n", 0, {"not WARC/1.x"}},
      {"garbage after a good record", good + "garbage\r\n", 1, {at_good_end, "found \"garbage"}},
      {"no Content-Length",
       good + "WARC/1.1\r\nWARC-Type: resource\r\n\r\nabc\r\n\r\n",
       1,
       {at_good_end, "has no Content-Length"}},
      {"a Content-Length that is not a number",
       good + record_of_length("12x"),
       1,
       {at_good_end, "Content-Length is not a number: \"12x\""}},
      {"a negative Content-Length", record_of_length("-3"), 0, {"the record at byte 0", "is not a number"}},
      {"an empty Content-Length", record_of_length(""), 0, {"is not a number"}},
      {"a Content-Length past 2^64", record_of_length("99999999999999999999999"), 0, {"is not a number"}},
      {"a Content-Length of 10^18: skipped, then cut (nothing allocated)",
       good + record_of_length("1000000000000000000"),
       1,
       {"the archive is cut at byte",
        at_good_end + " declares a block of 1000000000000000000 bytes (Content-Length), only 7 are there"}},
      {"a Content-Length too short: the block is not followed by CRLF CRLF",
       record_of_length("2"),
       0,
       {"the record at byte 0", "is not followed by CRLF CRLF but by \"c\\x0D\\x0A", "is its Content-Length right?"}},
      {"a header line without a colon",
       "WARC/1.1\r\nWARC-Type: resource\r\nno colon here\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
       0,
       {"WARC header line 2 is not \"Name: value\": \"no colon here\""}},
      {"a folded line before any header",
       "WARC/1.1\r\n  folded\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
       0,
       {"its first WARC header line starts with a space"}},
      {"a header line longer than 64 KiB",
       "WARC/1.1\r\nX-Long: " + std::string(70000, 'x') + "\r\n",
       0,
       {"longer than 65536 bytes"}},
      {"gzip data that is not deflate",
       std::string("\x1f\x8b\x08\0\0\0\0\0\0\x03garbage!garbage!", 26),
       0,
       {"corrupt gzip data", "in the gzip member that starts at byte 0"}},
  };
  for (const Row& row : rows) {
    INFO(std::string(row.what));
    const ReadAll all = read_file_bytes(row.bytes);
    CHECK(all.records.size() == row.records_before);
    REQUIRE(all.error);
    CHECK(all.error->code() == canon::StatusCode::kCorruption);
    CAPTURE(all.error->message());
    CHECK(contains(all.error->message(), "archive.warc: "));
    for (const auto& part : row.message) CHECK(contains(all.error->message(), part));
  }
}

TEST_CASE("a Content-Length of 10^18 without a limit; an error repeats") {
  SUBCASE("no limit: a Content-Length of 10^18 is read as far as it goes, never allocated at once") {
    WarcReaderOptions options;
    options.max_record_bytes = ~std::uint64_t{0};
    const ReadAll all = read_file_bytes(record_of_length("1000000000000000000"), options);
    REQUIRE(all.error);
    CHECK(contains(all.error->message(), "only 7 are there"));
  }
  SUBCASE("after an error, every call gives it again") {
    auto reader = WarcReader::from_memory("garbage", "memory");
    const auto first = reader->next();
    const auto second = reader->next();
    REQUIRE_FALSE(first.ok());
    REQUIRE_FALSE(second.ok());
    CHECK(first.status().message() == second.status().message());
    CHECK(first.status().message().starts_with("memory: "));
  }
}
