/// @file test_warc_reader.cpp
/// @brief warc/warc_reader.h and warc/http_message.h: archives built here (plain, a gzip member
/// per record, one gzip stream) read back record by record with their fields; cut and malformed
/// archives give the records before the damage, then an error naming the byte offset; HTTP
/// responses (status lines, headers, chunked and gzip bodies, charsets) as tables; and, when
/// wget and python3 are installed, the archives wget writes of a small site served on loopback.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/temp_dir.h"
#include "warc/http_message.h"
#include "warc/warc_reader.h"

using canon::warc::content_type_charset;
using canon::warc::HttpResponse;
using canon::warc::parse_http_response;
using canon::warc::WarcReader;
using canon::warc::WarcReaderOptions;
using canon::warc::WarcRecord;
using canon::warc::WarcType;

namespace {

/// One record of a test archive.
struct Spec {
  std::string type;
  std::string uri;           // WARC-Target-URI; empty: none
  std::string content_type;  // of the block
  std::string block;
  std::string extra_headers;  // more header lines, each ending in CRLF
};

/// The bytes of a WARC/1.1 record for `spec`, header lines ending with `eol`.
std::string warc_record(const Spec& spec, std::string_view eol = "\r\n") {
  static int serial = 0;
  std::string out = "WARC/1.1";
  out += eol;
  out += "WARC-Type: " + spec.type + std::string(eol);
  out += "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-" + std::to_string(100000000000 + ++serial) + ">";
  out += eol;
  out += "WARC-Date: 2024-05-01T12:00:00Z" + std::string(eol);
  if (!spec.uri.empty()) out += "WARC-Target-URI: " + spec.uri + std::string(eol);
  out += spec.extra_headers;
  out += "Content-Type: " + spec.content_type + std::string(eol);
  out += "Content-Length: " + std::to_string(spec.block.size()) + std::string(eol) + std::string(eol);
  out += spec.block;
  out += "\r\n\r\n";
  return out;
}

/// `bytes` as one gzip member (zlib's deflate with a gzip wrapper).
std::string gzip(std::string_view bytes) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, bytes.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

/// `bytes` as a zlib stream (compress()), for Content-Encoding: deflate.
std::string zlib_compress(std::string_view bytes) {
  uLongf size = compressBound(bytes.size());
  std::string out(size, '\0');
  REQUIRE(compress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(bytes.data()),
                   bytes.size()) == Z_OK);
  out.resize(size);
  return out;
}

const std::string kPage = "<html><head><title>Home</title></head><body><p>Hello, archive.</p></body></html>";
const std::string kHttpResponse =
    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " + std::to_string(kPage.size()) +
    "\r\n\r\n" + kPage;

/// A record of each type, as a crawler writes them one after the other.
std::vector<Spec> crawl_records() {
  return {
      {"warcinfo", "", "application/warc-fields", "software: canon-test\r\nformat: WARC File Format 1.1\r\n", ""},
      {"request", "http://example.com/", "application/http; msgtype=request",
       "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n", ""},
      {"response", "http://example.com/", "application/http; msgtype=response", kHttpResponse,
       "WARC-Payload-Digest: sha1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH\r\n"},
      {"resource", "urn:canon-test:notes.txt", "text/plain", "plain notes\n", ""},
      {"metadata", "http://example.com/", "application/warc-fields", "outlink: http://example.com/a.html\r\n", ""},
      {"revisit", "http://example.com/", "application/http; msgtype=response",
       "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
       "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\n"
       "WARC-Refers-To-Target-URI: http://example.com/\r\nWARC-Refers-To-Date: 2024-04-01T08:00:00Z\r\n"
       "WARC-Payload-Digest: sha1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH\r\n"},
  };
}

/// How a test archive is stored.
enum class Storage { kPlain, kGzipPerRecord, kGzipWhole };

/// An archive of `records` stored as `storage`; `offsets` gets where each record starts in the
/// file (a gzip member per record: where its member starts; one stream: 0) and `stream_offsets`
/// where it starts in the decoded bytes.
struct Archive {
  std::string bytes;
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint64_t> stream_offsets;
};
Archive build(const std::vector<std::string>& records, Storage storage) {
  Archive archive;
  std::string plain;
  for (const auto& record : records) {
    archive.stream_offsets.push_back(plain.size());
    archive.offsets.push_back(storage == Storage::kPlain           ? plain.size()
                              : storage == Storage::kGzipPerRecord ? archive.bytes.size()
                                                                   : 0);
    plain += record;
    if (storage == Storage::kGzipPerRecord) archive.bytes += gzip(record);
  }
  if (storage == Storage::kPlain) archive.bytes = plain;
  if (storage == Storage::kGzipWhole) archive.bytes = gzip(plain);
  return archive;
}

/// What reading a whole archive gave: its records, and the error that ended it (if one did).
struct ReadAll {
  std::vector<WarcRecord> records;
  std::optional<canon::Status> error;
};
ReadAll read_all(WarcReader& reader) {
  ReadAll all;
  for (int guard = 0; guard < 1000; ++guard) {
    auto next = reader.next();
    if (!next.ok()) {
      all.error = next.status();
      return all;
    }
    if (!next.value()) return all;
    all.records.push_back(std::move(*next.value()));
  }
  FAIL("more than 1000 records");
  return all;
}

/// Reads `bytes` written to a file of a fresh directory.
ReadAll read_file_bytes(const std::string& bytes, const WarcReaderOptions& options = {}) {
  canon::testing::TempDir dir;
  auto reader = WarcReader::open(dir.write("archive.warc", bytes), options);
  REQUIRE(reader.ok());
  return read_all(*reader.value());
}

std::vector<std::string> to_bytes(const std::vector<Spec>& specs) {
  std::vector<std::string> out;
  for (const auto& spec : specs) out.push_back(warc_record(spec));
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// A resource record whose Content-Length says `length` and whose block is "abc".
std::string record_of_length(const std::string& length) {
  return "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: " + length + "\r\n\r\nabc\r\n\r\n";
}

}  // namespace

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

TEST_CASE("parse_http_response: status lines, headers, bodies") {
  const std::string html = "<p>caf\xC3\xA9</p>";
  struct Row {
    const char* what;
    std::string block;
    std::string version;
    int status;
    std::string reason;
    std::string body;
    bool note;  // a note is expected
  };
  const Row rows[] = {
      {"HTTP/1.1", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + html, "HTTP/1.1", 200, "OK", html, false},
      {"HTTP/1.0, a reason of several words", "HTTP/1.0 404 Not Found\r\n\r\ngone", "HTTP/1.0", 404, "Not Found",
       "gone", false},
      {"HTTP/2 without a reason", "HTTP/2 200\r\ncontent-type: text/html\r\n\r\n" + html, "HTTP/2", 200, "", html,
       false},
      {"bare LF line ends", "HTTP/1.1 200 OK\nContent-Type: text/html\n\n" + html, "HTTP/1.1", 200, "OK", html, false},
      {"no body", "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n", "HTTP/1.1", 304, "Not Modified", "", false},
      {"headers cut before the blank line", "HTTP/1.1 200 OK\r\nContent-Type: text/ht", "HTTP/1.1", 200, "OK", "",
       true},
      {"chunked",
       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<p>c\r\n8;ext=1\r\naf\xC3\xA9</p>\r\n0\r\nX-Trailer: "
       "y\r\n\r\n",
       "HTTP/1.1", 200, "OK", html, false},
      {"chunked with LF line ends, a size in lower case",
       "HTTP/1.1 200 OK\nTransfer-Encoding: Chunked\n\nc\n<p>caf\xC3\xA9</p>\n0\n\n", "HTTP/1.1", 200, "OK", html,
       false},
      {"said chunked, already de-chunked (as wget may record it)",
       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + html, "HTTP/1.1", 200, "OK", html, true},
      {"chunked, cut before the last chunk",
       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<p>c\r\nA\r\naf", "HTTP/1.1", 200, "OK", "<p>caf",
       true},
      {"gzip", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzip(html), "HTTP/1.1", 200, "OK", html, false},
      {"x-gzip, two members",
       "HTTP/1.1 200 OK\r\nContent-Encoding: x-gzip\r\n\r\n" + gzip("<p>caf") + gzip("\xC3\xA9</p>"), "HTTP/1.1", 200,
       "OK", html, false},
      {"deflate as zlib", "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n" + zlib_compress(html), "HTTP/1.1", 200,
       "OK", html, false},
      {"deflate raw (as some servers send it)",
       "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n" + zlib_compress(html).substr(2), "HTTP/1.1", 200, "OK",
       html, false},
      {"chunked and gzip",
       [&] {
         const std::string z = gzip(html);
         std::ostringstream chunk;
         chunk << std::hex << z.size();
         return "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n" + chunk.str() +
                "\r\n" + z + "\r\n0\r\n\r\n";
       }(),
       "HTTP/1.1", 200, "OK", html, false},
      {"gzip that does not inflate: kept as recorded", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + html,
       "HTTP/1.1", 200, "OK", html, true},
      {"br is not decoded: kept as recorded", "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n\x0b\x02", "HTTP/1.1",
       200, "OK", "\x0b\x02", true},
  };
  for (const Row& row : rows) {
    INFO(std::string(row.what));
    const auto response = parse_http_response(row.block);
    REQUIRE(response.ok());
    CAPTURE(response->note);
    CHECK(response->version == row.version);
    CHECK(response->status == row.status);
    CHECK(response->reason == row.reason);
    CHECK(response->body == row.body);
    CHECK(response->note.empty() == !row.note);
  }
}

TEST_CASE("parse_http_response: headers, a redirect, what is not a response") {
  const auto redirect = parse_http_response(
      "HTTP/1.1 301 Moved Permanently\r\nlocation: https://example.com/new\r\nX-Folded: one\r\n two\r\n"
      "Set-Cookie: a=1\r\nSet-Cookie: b=2\r\nno colon line\r\n: no name\r\n"
      // fuzz_warc, crash-463a779a: a name of a carriage return alone was kept as an empty name.
      "\r: carriage return\r\n\r\n");
  REQUIRE(redirect.ok());
  CHECK(redirect->status == 301);
  CHECK(redirect->header("Location") == "https://example.com/new");
  CHECK(redirect->header("LOCATION") == "https://example.com/new");
  CHECK(redirect->header("x-folded") == "one two");
  CHECK(redirect->header("set-cookie") == "a=1");
  CHECK(redirect->headers.size() == 4);  // lines without a name are left out
  CHECK(redirect->headers[0].first == "location");
  CHECK_FALSE(redirect->header("Content-Type"));

  const auto bomb =
      parse_http_response("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzip(std::string(200000, 'a')), 1000);
  REQUIRE(bomb.ok());
  CHECK(contains(bomb->note, "inflates to more than 1000 bytes"));

  for (const std::string block : {"", "GET / HTTP/1.1\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n",
                                  "HTTP/ 200 OK\r\n\r\n", "HTTP/1.1\r\n\r\n", "<html>"}) {
    CAPTURE(block);
    const auto response = parse_http_response(block);
    REQUIRE_FALSE(response.ok());
    CHECK(contains(response.status().message(), "not an HTTP response"));
  }
}

TEST_CASE("content_type_charset") {
  struct Row {
    const char* content_type;
    const char* charset;
  };
  const Row rows[] = {
      {"text/html; charset=\"ISO-8859-1\"", "ISO-8859-1"},
      {"text/html;charset=utf-8", "utf-8"},
      {"text/html", ""},
      {"", ""},
      {"text/html; CharSet=Shift_JIS ", "Shift_JIS"},
      {"text/html; format=flowed; charset=windows-1252; q=1", "windows-1252"},
      {"text/html; name=\"a;charset=x\"; charset=koi8-r", "koi8-r"},
      {"text/html; charset=\"we\\\"ird\"", "we\"ird"},
      {"text/html; charset='utf-8'", "utf-8"},
      {"text/html; charset", ""},
      {"text/html; charset=", ""},
      {"text/html; ; charset=utf-8", "utf-8"},
      {"text/html; xcharset=utf-8", ""},
  };
  for (const Row& row : rows) {
    CAPTURE(row.content_type);
    CHECK(content_type_charset(row.content_type) == row.charset);
  }
}

namespace {

/// `python3 -m http.server` serving `root` on 127.0.0.1, on the port the system gives it
/// (port 0: no other server can take it first); stopped when this goes.
class LoopbackServer {
public:
  explicit LoopbackServer(const std::filesystem::path& root) {
    int out[2];
    if (::pipe(out) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(out[1], 1);
      ::dup2(null, 2);
      ::close(out[0]);
      ::execlp("python3", "python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root.c_str(),
               static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(out[1]);
    if (pid_ > 0) port_ = read_port(out[0]);
    ::close(out[0]);
  }
  ~LoopbackServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;
  /// The port it listens on; 0 when it did not start within 10 seconds.
  int port() const { return port_; }

private:
  /// The port of the server's first line, "Serving HTTP on 127.0.0.1 port N (...) ...".
  static int read_port(int fd) {
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd ready{fd, POLLIN, 0};
      if (::poll(&ready, 1, 100) <= 0) continue;
      char buffer[256];
      const ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n <= 0) break;
      line.append(buffer, static_cast<std::size_t>(n));
    }
    const std::size_t at = line.find(" port ");
    return at == std::string::npos ? 0 : std::atoi(line.c_str() + at + 6);
  }
  pid_t pid_ = -1;
  int port_ = 0;
};

bool have_program(const char* name) {
  return std::system(("command -v " + std::string(name) + " >/dev/null 2>&1").c_str()) == 0;
}

}  // namespace

TEST_CASE("the archives wget writes of a small site: a 200 response record per page, plain and gzipped") {
  if (!have_program("wget") || !have_program("python3")) {
    MESSAGE("skipped: wget or python3 is not installed");
    return;
  }
  canon::testing::TempDir dir;
  const std::vector<std::pair<std::string, std::string>> pages = {
      {"index.html",
       "<html><head><title>Home</title></head><body><a href=\"a.html\">A</a> <a href=\"b.html\">B</a></body></html>"},
      {"a.html", "<html><head><title>A</title></head><body><p>Page A</p><a href=\"b.html\">B</a></body></html>"},
      {"b.html", "<html><head><title>B</title></head><body><p>Page B</p></body></html>"},
  };
  for (const auto& [name, html] : pages) dir.write("site/" + name, html);
  LoopbackServer server(dir.path() / "site");
  REQUIRE(server.port() > 0);
  const std::string base = "http://127.0.0.1:" + std::to_string(server.port()) + "/";

  for (const bool compressed : {false, true}) {
    CAPTURE(compressed);
    const std::string name = compressed ? "gz" : "plain";
    const auto out = dir.path() / name;
    // --no-http-keep-alive: python's server closes the connection after each response
    // (HTTP/1.0); wget, finding it not closed yet, may send its next request down it and get
    // "No data received".
    const std::string command =
        "cd '" + dir.path().string() +
        "' && timeout 20 wget --mirror --no-verbose --tries=1 --timeout=5 --no-http-keep-alive " +
        std::string(compressed ? "" : "--no-warc-compression ") + "--warc-file=" + name + " -P '" + out.string() +
        "' " + base + " >wget-" + name + ".log 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream log_file(dir.path() / ("wget-" + name + ".log"));
    const std::string log((std::istreambuf_iterator<char>(log_file)), std::istreambuf_iterator<char>());
    CAPTURE(status);
    CAPTURE(log);
    const auto archive = dir.path() / (name + (compressed ? ".warc.gz" : ".warc"));
    REQUIRE(std::filesystem::exists(archive));

    auto reader = WarcReader::open(archive);
    REQUIRE(reader.ok());
    const ReadAll all = read_all(*reader.value());
    REQUIRE_FALSE(all.error);
    REQUIRE_FALSE(all.records.empty());
    CHECK(all.records.front().type == WarcType::kWarcinfo);
    std::uint64_t previous_offset = 0;
    std::vector<std::string> found;
    for (std::size_t i = 0; i < all.records.size(); ++i) {
      const WarcRecord& record = all.records[i];
      if (i > 0) CHECK(record.offset > previous_offset);  // each record is a member of its own in .warc.gz
      previous_offset = record.offset;
      if (record.type != WarcType::kResponse) continue;
      const auto response = parse_http_response(record.block);
      REQUIRE(response.ok());
      for (const auto& [page, html] : pages) {
        const std::string url = page == "index.html" ? base : base + page;
        if (record.target_uri != url) continue;
        CHECK(response->status == 200);
        CHECK(response->body == html);
        CHECK(content_type_charset(response->header("Content-Type").value_or("")).empty());
        found.push_back(page);
      }
    }
    CHECK(found.size() == pages.size());
  }
}
