/// @file test_warc_reader.cpp
/// @brief warc/warc_reader.h on archives built here (plain, a gzip member per record, one gzip
/// stream): every record type read back with its fields, the variants writers produce (WARC 1.0,
/// LF line ends, folded headers), records across the reader's reads, the size limit, and empty and
/// missing archives. Cut and malformed archives: test_warc_damaged.cpp; HTTP responses and wget's
/// archives: test_warc_http_responses.cpp.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support/temp_dir.h"
#include "support/warc_archives.h"
#include "warc/warc_reader.h"

using canon::warc::WarcReader;
using canon::warc::WarcReaderOptions;
using canon::warc::WarcRecord;
using canon::warc::WarcType;

using canon::testing::Archive;
using canon::testing::build;
using canon::testing::contains;
using canon::testing::crawl_records;
using canon::testing::gzip;
using canon::testing::read_all;
using canon::testing::read_file_bytes;
using canon::testing::ReadAll;
using canon::testing::Spec;
using canon::testing::Storage;
using canon::testing::to_bytes;

TEST_CASE("every record type comes back with its fields, plain and gzipped per record or as one stream") {
  const auto specs = crawl_records();
  const WarcType expected_types[] = {WarcType::kWarcinfo, WarcType::kRequest,  WarcType::kResponse,
                                     WarcType::kResource, WarcType::kMetadata, WarcType::kRevisit};
  for (const Storage storage : {Storage::kPlain, Storage::kGzipPerRecord, Storage::kGzipWhole}) {
    CAPTURE(static_cast<int>(storage));
    const Archive archive = build(to_bytes(specs), storage);
    const ReadAll all = read_file_bytes(archive.bytes);
    REQUIRE_FALSE(all.error);
    REQUIRE(all.records.size() == specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
      CAPTURE(i);
      const WarcRecord& record = all.records[i];
      CHECK(record.version == "1.1");
      CHECK(record.type == expected_types[i]);
      CHECK(record.type_name == specs[i].type);
      CHECK(canon::warc::warc_type_name(record.type) == specs[i].type);
      CHECK(record.target_uri == specs[i].uri);
      CHECK(record.content_type == specs[i].content_type);
      CHECK(record.block == specs[i].block);
      CHECK(record.content_length == specs[i].block.size());
      CHECK(record.date == "2024-05-01T12:00:00Z");
      CHECK(record.record_id.starts_with("<urn:uuid:"));
      CHECK(record.skipped_reason.empty());
      CHECK(record.offset == archive.offsets[i]);
      CHECK(record.stream_offset == archive.stream_offsets[i]);
      CHECK(record.headers.front().first == "WARC-Type");
      CHECK(record.headers.back().first == "Content-Length");
      CHECK(record.header("content-length") == std::to_string(specs[i].block.size()));
    }
    CHECK(all.records[2].payload_digest == "sha1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH");
    const WarcRecord& revisit = all.records[5];
    CHECK(revisit.profile == "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest");
    CHECK(revisit.refers_to_target_uri == "http://example.com/");
    CHECK(revisit.refers_to_date == "2024-04-01T08:00:00Z");
    CHECK(revisit.payload_digest == all.records[2].payload_digest);

    // The same bytes from memory give the same records.
    auto memory = WarcReader::from_memory(archive.bytes);
    const ReadAll again = read_all(*memory);
    REQUIRE(again.records.size() == all.records.size());
    CHECK(again.records.back().block == all.records.back().block);
  }
}

TEST_CASE("WARC 1.0 angle brackets, LF line ends, folded and lower-case headers, blank lines between records") {
  struct Row {
    const char* what;
    std::string bytes;
    std::string version;
    WarcType type;
    std::string type_name;
    std::string target_uri;
    std::string block;
    std::string extra_name;   // a header looked up by name ...
    std::string extra_value;  // ... and its value
  };
  const std::string block = "hello";
  const Row rows[] = {
      {"WARC 1.0, target URI in angle brackets (as 1.0-era writers put it)",
       "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <http://example.com/a>\r\n"
       "WARC-Refers-To-Target-URI: <http://example.com/b>\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n",
       "1.0", WarcType::kResponse, "response", "http://example.com/a", block, "WARC-Refers-To-Target-URI",
       "<http://example.com/b>"},
      {"bare LF line ends throughout",
       "WARC/1.1\nWARC-Type: resource\nWARC-Target-URI: http://x/\nContent-Length: 5\n\nhello\n\n", "1.1",
       WarcType::kResource, "resource", "http://x/", block, "WARC-Target-URI", "http://x/"},
      {"LF headers, CRLF CRLF after the block", "WARC/1.1\nWARC-Type: resource\nContent-Length: 5\n\nhello\r\n\r\n",
       "1.1", WarcType::kResource, "resource", "", block, "Content-Length", "5"},
      {"a folded header value is joined with a space",
       "WARC/1.1\r\nWARC-Type: metadata\r\nX-Note: one\r\n  two\r\n\tthree\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n",
       "1.1", WarcType::kMetadata, "metadata", "", block, "x-note", "one two three"},
      {"header names in any case, a type in capitals",
       "WARC/1.1\r\nwarc-type: REVISIT\r\ncontent-length: 5\r\n\r\nhello\r\n\r\n", "1.1", WarcType::kRevisit, "REVISIT",
       "", block, "Content-Length", "5"},
      {"a type the standard does not define", "WARC/1.1\r\nWARC-Type: special\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
       "1.1", WarcType::kUnknown, "special", "", "", "WARC-Type", "special"},
      {"blank lines before the record and spaces around values",
       "\r\n\n\r\nWARC/1.1  \r\nWARC-Type:resource   \r\nContent-Length:   5 \r\n\r\nhello\r\n\r\n", "1.1",
       WarcType::kResource, "resource", "", block, "WARC-Type", "resource"},
      {"a block with CRLFs and NULs of its own",
       "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 6\r\n\r\n" + std::string("\r\n\0\r\n\r", 6) + "\r\n\r\n",
       "1.1", WarcType::kResource, "resource", "", std::string("\r\n\0\r\n\r", 6), "Content-Length", "6"},
  };
  for (const Row& row : rows) {
    INFO(std::string(row.what));
    // Twice over: the second copy after the first, as the next record.
    const ReadAll all = read_file_bytes(row.bytes + row.bytes);
    REQUIRE_FALSE(all.error);
    REQUIRE(all.records.size() == 2);
    for (const WarcRecord& record : all.records) {
      CHECK(record.version == row.version);
      CHECK(record.type == row.type);
      CHECK(record.type_name == row.type_name);
      CHECK(record.target_uri == row.target_uri);
      CHECK(record.block == row.block);
      CHECK(record.header(row.extra_name) == row.extra_value);
    }
    CHECK(all.records[1].offset == row.bytes.size() + all.records[0].offset);
  }
}

TEST_CASE("records across the reader's 64 KiB reads: headers and blocks cut anywhere by a read") {
  std::mt19937 random(20240501);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<Spec> specs;
  std::size_t total = 0;
  while (total < 1200 * 1024) {
    const std::size_t length = random() % 4 == 0 ? 0 : random() % (150 * 1024);
    std::string block(length, '\0');
    for (char& c : block) c = static_cast<char>(byte(random));
    const std::string pad(random() % (20 * 1024), 'p');
    specs.push_back({"resource", "http://example.com/" + std::to_string(specs.size()), "application/octet-stream",
                     std::move(block), "X-Pad: " + pad + "\r\n"});
    total += length + pad.size();
  }
  const auto records = to_bytes(specs);
  for (const Storage storage : {Storage::kPlain, Storage::kGzipPerRecord, Storage::kGzipWhole}) {
    CAPTURE(static_cast<int>(storage));
    const Archive archive = build(records, storage);
    const ReadAll all = read_file_bytes(archive.bytes);
    REQUIRE_FALSE(all.error);
    REQUIRE(all.records.size() == specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
      CAPTURE(i);
      CHECK(all.records[i].target_uri == specs[i].uri);
      CHECK(all.records[i].block == specs[i].block);
      CHECK(all.records[i].offset == archive.offsets[i]);
      CHECK(all.records[i].stream_offset == archive.stream_offsets[i]);
    }
  }
}

TEST_CASE("a record over the size limit is skipped with its headers; the next one is read") {
  const std::string big(5000, 'b');
  const auto records = to_bytes({{"response", "http://example.com/big", "text/plain", big, ""},
                                 {"resource", "http://example.com/small", "text/plain", "small", ""}});
  WarcReaderOptions options;
  options.max_record_bytes = 1000;
  for (const Storage storage : {Storage::kPlain, Storage::kGzipPerRecord, Storage::kGzipWhole}) {
    CAPTURE(static_cast<int>(storage));
    const ReadAll all = read_file_bytes(build(records, storage).bytes, options);
    REQUIRE_FALSE(all.error);
    REQUIRE(all.records.size() == 2);
    CHECK(all.records[0].target_uri == "http://example.com/big");
    CHECK(all.records[0].content_length == 5000);
    CHECK(all.records[0].block.empty());
    CHECK(all.records[0].skipped_reason == "its block of 5000 bytes is larger than the limit of 1000 bytes: not read");
    CHECK(all.records[1].block == "small");
    CHECK(all.records[1].skipped_reason.empty());
  }
}

TEST_CASE("empty and missing archives") {
  CHECK(read_file_bytes("").records.empty());
  CHECK_FALSE(read_file_bytes("").error);
  CHECK_FALSE(read_file_bytes("\r\n\r\n").error);
  CHECK_FALSE(read_file_bytes(gzip("")).error);
  CHECK(read_file_bytes(gzip("")).records.empty());
  canon::testing::TempDir dir;
  const auto missing = WarcReader::open(dir.path() / "missing.warc.gz");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().code() == canon::StatusCode::kNotFound);
  CHECK(contains(missing.status().message(), "missing.warc.gz"));
}
