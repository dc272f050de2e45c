/// @file test_warc_http_responses.cpp
/// @brief warc/http_message.h: HTTP responses as archives record them (status lines, headers,
/// chunked and gzip bodies, what is not a response) and the charset of a Content-Type, as tables;
/// and, when wget and python3 are installed, the archives wget writes of a small site served on
/// loopback, a 200 response record per page.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/temp_dir.h"
#include "support/warc_archives.h"
#include "warc/http_message.h"
#include "warc/warc_reader.h"

using canon::warc::content_type_charset;
using canon::warc::parse_http_response;
using canon::warc::WarcReader;
using canon::warc::WarcRecord;
using canon::warc::WarcType;

using canon::testing::contains;
using canon::testing::gzip;
using canon::testing::read_all;
using canon::testing::ReadAll;

namespace {

/// `bytes` as a zlib stream (compress()), for Content-Encoding: deflate.
std::string zlib_compress(std::string_view bytes) {
  uLongf size = compressBound(bytes.size());
  std::string out(size, '\0');
  REQUIRE(compress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(bytes.data()),
                   bytes.size()) == Z_OK);
  out.resize(size);
  return out;
}

}  // namespace

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
