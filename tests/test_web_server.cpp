/// @file test_web_server.cpp
/// @brief `canon serve` over real HTTP: the real server on 127.0.0.1 (a free port) in a thread,
/// against an index of a small site written here, asked with httplib's client.
#include <doctest/doctest.h>

#include <httplib.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "indexer/pipeline.h"
#include "web/web_page.h"
#include "web/web_routes.h"
#include "web/web_server.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using canon::web::WebServer;
using canon::web::WebServerOptions;
using nlohmann::json;

namespace {

std::string page(const std::string& title, const std::string& body,
                 const std::string& head_extra = "") {
  return "<!DOCTYPE html><html><head><title>" + title + "</title>" + head_extra +
         "</head><body><main>" + body + "</main></body></html>";
}

/// Text no other page shares three words of, so that pages are not near-duplicates.
std::string unique_text(int page_number) {
  std::string text;
  for (int word = 0; word < 40; ++word)
    text += "w" + std::to_string(page_number * 100 + word) + " ";
  return text;
}

/// The site: 13 "kestrel" pages (two result pages), an installation guide with a printer
/// copy collapsed into it, and a page whose title and text carry markup.
void write_site(const canon::testing::TempDir& site) {
  std::string links;
  for (int i = 0; i < 13; ++i) {
    const std::string name = "birds/kestrel" + std::to_string(i) + ".html";
    site.write(name, page("Kestrel note " + std::to_string(i),
                          "<p>The kestrel hovers. " + unique_text(i) + "</p>"));
    links += "<a href=\"" + name + "\">k</a> ";
  }
  const std::string guide =
      "<h1>Installing Larder</h1><p>Larder installs from Debian packages: run apt install larder "
      "and answer the questions of the installer. The configuration lives in /etc/larder and the "
      "service starts at boot. Shell completions for bash, zsh and fish are installed with it, "
      "and the manual pages describe every subcommand with examples.</p>";
  site.write("docs/install.html", page("Installing Larder", guide));
  site.write("print/install.html",
             page("Installing Larder (print)", guide,
                  "<link rel=\"canonical\" href=\"http://localhost/docs/install.html\">"));
  site.write("payload.html", page("&lt;script&gt;window.pwned=1&lt;/script&gt; Payload page",
                                  "<p>The falconry &lt;img src=x onerror=alert(1)&gt; guide.</p>"));
  site.write("index.html", page("Home", links + "<a href=\"docs/install.html\">install</a> "
                                                "<a href=\"payload.html\">payload</a>"));
}

/// One index shared by the test cases (they only read it).
const fs::path& test_index() {
  static canon::testing::TempDir dir;
  static const fs::path index = [] {
    canon::testing::TempDir site;
    write_site(site);
    canon::indexer::IndexOptions options;
    options.site_dir = site.path();
    options.out_dir = dir.path() / "index";
    options.show_progress = false;
    auto summary = canon::indexer::index_site(options);
    REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));
    return options.out_dir;
  }();
  return index;
}

/// The server on a free port of 127.0.0.1, run in a thread; stopped and joined at the end.
class RunningServer {
public:
  explicit RunningServer(const fs::path& index_dir, WebServerOptions options = {}) {
    options.index_dir = index_dir;
    options.port = 0;
    auto created = WebServer::create(options);
    REQUIRE_MESSAGE(created.ok(), (created.ok() ? "" : created.status().message()));
    server_ = std::move(created).value();
    thread_ = std::thread([this] { status_ = server_->run(); });
  }
  ~RunningServer() {
    server_->stop();
    thread_.join();
  }

  int port() const { return server_->port(); }
  WebServer& server() { return *server_; }

  /// A client that sends paths exactly as written (already percent-encoded).
  httplib::Client client() const {
    httplib::Client client("127.0.0.1", server_->port());
    client.set_url_encode(false);
    client.set_connection_timeout(5);
    client.set_read_timeout(20);
    return client;
  }

  /// GET `path`; the test fails when there is no response.
  httplib::Response get(const std::string& path) const {
    auto client = this->client();
    auto result = client.Get(path.c_str());
    REQUIRE_MESSAGE(result,
                    "no response to " << path << ": " << httplib::to_string(result.error()));
    return result.value();
  }

private:
  std::unique_ptr<WebServer> server_;
  std::thread thread_;
  canon::Status status_ = canon::Status::ok_status();
};

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

void check_security_headers(const httplib::Response& response) {
  CHECK(response.get_header_value("Content-Security-Policy") ==
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
  CHECK(response.get_header_value("X-Content-Type-Options") == "nosniff");
  CHECK(response.get_header_value("Referrer-Policy") == "no-referrer");
}

/// A TCP connection to 127.0.0.1:port from `source` (any 127.x.y.z address is this machine):
/// sends what it is told when it is told, reads the answer. Closed with the object.
class RawConnection {
public:
  explicit RawConnection(int port, const char* source = "127.0.0.1") : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in from{};
    from.sin_family = AF_INET;
    ::inet_pton(AF_INET, source, &from.sin_addr);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<std::uint16_t>(port));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = fd_ >= 0 && ::bind(fd_, reinterpret_cast<const sockaddr*>(&from), sizeof from) == 0 &&
                 ::connect(fd_, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0;
  }
  ~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  bool connected() const { return connected_; }

  /// False when the server has closed the connection (or reset it).
  bool send(std::string_view bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }
  /// What the server sends until it closes the connection or `wait` passes without a byte;
  /// closed() then tells which.
  std::string read_all(std::chrono::milliseconds wait) {
    timeval timeout{static_cast<time_t>(wait.count() / 1000), static_cast<suseconds_t>(wait.count() % 1000 * 1000)};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    std::string received;
    char buffer[4096];
    while (true) {
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n > 0) {
        received.append(buffer, static_cast<std::size_t>(n));
        continue;
      }
      closed_ = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);  // its end, or a reset
      return received;
    }
  }
  /// The last read_all() ended because the server closed the connection.
  bool closed() const { return closed_; }

private:
  int fd_;
  bool connected_ = false;
  bool closed_ = false;
};

}  // namespace

TEST_CASE("GET / is the start page; /search shows results with alternates and paging") {
  RunningServer server(test_index());

  const auto start = server.get("/");
  CHECK(start.status == 200);
  CHECK(start.get_header_value("Content-Type") == "text/html; charset=utf-8");
  check_security_headers(start);
  CHECK(contains(start.body, "action=\"/search\""));
  CHECK(contains(start.body, "Search 16 pages."));  // 13 kestrels, guide, payload, home

  const auto first = server.get("/search?q=kestrel");
  CHECK(first.status == 200);
  check_security_headers(first);
  CHECK(contains(first.body, "<p class=\"count\">13 results · showing 1–10</p>"));
  CHECK(contains(first.body, "<mark>kestrel</mark>"));
  CHECK(contains(first.body, "<a rel=\"next\" href=\"/search?q=kestrel&amp;offset=10\">"));
  CHECK_FALSE(contains(first.body, "rel=\"prev\""));
  CHECK(contains(first.body, "value=\"kestrel\""));

  const auto second = server.get("/search?q=kestrel&offset=10");
  CHECK(second.status == 200);
  CHECK(contains(second.body, "showing 11–13"));
  CHECK(contains(second.body, "<ol class=\"results\" start=\"11\">"));
  CHECK(contains(second.body, "<a rel=\"prev\" href=\"/search?q=kestrel\">"));
  CHECK_FALSE(contains(second.body, "rel=\"next\""));

  const auto guide = server.get("/search?q=debian+packages");
  CHECK(guide.status == 200);
  CHECK(
      contains(guide.body, "<a href=\"http://localhost/docs/install.html\">Installing Larder</a>"));
  CHECK(contains(guide.body, "<summary>1 other version</summary>"));
  CHECK(contains(guide.body, "http://localhost/print/install.html"));

  const auto payload = server.get("/search?q=falconry");
  CHECK(payload.status == 200);
  CHECK_FALSE(contains(payload.body, "<script"));
  CHECK_FALSE(contains(payload.body, "<img"));
  CHECK(contains(payload.body, "&lt;script&gt;window.pwned=1&lt;/script&gt; Payload page"));

  const auto none = server.get("/search?q=zebra");
  CHECK(none.status == 200);
  CHECK(contains(none.body, "No results for <strong>zebra</strong>."));

  const auto blank = server.get("/search?q=%20%20");
  CHECK(blank.status == 200);
  CHECK(contains(blank.body, "Search 16 pages."));
}

TEST_CASE("the search page answers bad input with 400 and the message in the page") {
  RunningServer server(test_index());
  struct Case {
    std::string path;
    std::string message;
  };
  const Case cases[] = {
      {"/search?q=%22unclosed+phrase", "malformed query"},
      {"/search?q=(open", "malformed query"},
      {"/search?q=%FF%FE", "not valid UTF-8"},
      {"/search?q=a%01b", "control characters"},
      {"/search?q=kestrel&offset=-1", "offset must be a whole number from 0 to 10000"},
      {"/search?q=kestrel&offset=ten", "offset must be a whole number"},
      {"/search?q=kestrel&offset=10001", "offset must be a whole number"},
      {"/search?q=" + std::string(2000, 'a'), "too long"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.path);
    const auto response = server.get(c.path);
    CHECK(response.status == 400);
    CHECK(response.get_header_value("Content-Type") == "text/html; charset=utf-8");
    check_security_headers(response);
    CHECK(contains(response.body, "<p class=\"error\" role=\"alert\">"));
    CHECK(contains(response.body, c.message));
  }
}

TEST_CASE("GET /api/search: query::to_json over HTTP") {
  RunningServer server(test_index());
  const auto response = server.get("/api/search?q=kestrel&limit=5&offset=2");
  CHECK(response.status == 200);
  CHECK(response.get_header_value("Content-Type") == "application/json; charset=utf-8");
  check_security_headers(response);
  const json body = json::parse(response.body);
  CHECK(body["query"] == "kestrel");
  CHECK(body["offset"] == 2);
  CHECK(body["estimated_matches"] == 13);
  REQUIRE(body["results"].size() == 5);
  const json& hit = body["results"][0];
  CHECK(hit["rank"] == 3);
  CHECK(hit["url"].get<std::string>().starts_with("http://localhost/birds/kestrel"));
  CHECK(hit["title"].get<std::string>().starts_with("Kestrel note "));
  CHECK(contains(hit["snippet"].get<std::string>(), "kestrel"));  // plain text: no markers
  CHECK_FALSE(
      contains(hit["snippet"].get<std::string>(), std::string(canon::web::kHighlightStart)));
  CHECK(hit["alternates"].is_array());

  const json guide = json::parse(server.get("/api/search?q=configuration").body);
  REQUIRE(guide["results"].size() == 1);
  CHECK(guide["results"][0]["url"] == "http://localhost/docs/install.html");
  REQUIRE(guide["results"][0]["alternates"].size() == 1);
  CHECK(guide["results"][0]["alternates"][0]["url"] == "http://localhost/print/install.html");

  const json defaults = json::parse(server.get("/api/search?q=kestrel").body);
  CHECK(defaults["results"].size() == 10);
  CHECK(defaults["offset"] == 0);

  const json none = json::parse(server.get("/api/search?q=zebra").body);
  CHECK(none["results"].empty());
}

TEST_CASE("GET /api/search: 400 with {\"error\": ...} for bad parameters and queries") {
  RunningServer server(test_index());
  struct Case {
    std::string path;
    std::string message;
  };
  const Case cases[] = {
      {"/api/search", "missing query"},
      {"/api/search?q=", "missing query"},
      {"/api/search?limit=5", "missing query"},
      {"/api/search?q=kestrel&limit=0", "limit must be a whole number from 1 to 100"},
      {"/api/search?q=kestrel&limit=101", "limit must be"},
      {"/api/search?q=kestrel&limit=abc", "limit must be"},
      {"/api/search?q=kestrel&limit=", "limit must be"},
      {"/api/search?q=kestrel&limit=-1", "limit must be"},
      {"/api/search?q=kestrel&limit=+5", "limit must be"},
      {"/api/search?q=kestrel&limit=5.0", "limit must be"},
      {"/api/search?q=kestrel&limit=1e2", "limit must be"},
      {"/api/search?q=kestrel&limit=99999999999999999999999999", "limit must be"},
      {"/api/search?q=kestrel&offset=10001", "offset must be a whole number from 0 to 10000"},
      {"/api/search?q=kestrel&offset=-5", "offset must be"},
      {"/api/search?q=kestrel&offset=0x10", "offset must be"},
      {"/api/search?q=%22unclosed", "malformed query"},
      {"/api/search?q=a)b", "malformed query"},
      {"/api/search?q=%FF", "not valid UTF-8"},
      {"/api/search?q=%C0%AF", "not valid UTF-8"},        // overlong '/'
      {"/api/search?q=%ED%A0%80", "not valid UTF-8"},     // a surrogate
      {"/api/search?q=%F4%90%80%80", "not valid UTF-8"},  // above U+10FFFF
      {"/api/search?q=%E2%82", "not valid UTF-8"},        // cut short
      {"/api/search?q=a%00b", "control characters"},
      {"/api/search?q=a%0Ab", "control characters"},
      {"/api/search?q=" + std::string(1025, 'x'), "too long"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.path);
    const auto response = server.get(c.path);
    CHECK(response.status == 400);
    CHECK(response.get_header_value("Content-Type") == "application/json; charset=utf-8");
    const json body = json::parse(response.body, nullptr, /*allow_exceptions=*/false);
    REQUIRE(body.is_object());
    REQUIRE(body.contains("error"));
    CHECK(contains(body["error"].get<std::string>(), c.message));
  }
  // Bounds are accepted.
  CHECK(server.get("/api/search?q=kestrel&limit=100&offset=10000").status == 200);
  CHECK(server.get("/api/search?q=kestrel&limit=1&offset=0").status == 200);
  CHECK(server.get("/api/search?q=" + std::string(1024, 'x')).status == 200);
  CHECK(server.get("/api/search?q=caf%C3%A9%20%E2%9C%93").status == 200);
}

TEST_CASE(
    "hostile requests: huge URIs, unknown paths, other methods, random bytes; the server lives "
    "on") {
  RunningServer server(test_index());

  const auto huge = server.get("/api/search?q=" + std::string(20000, 'a'));
  CHECK(huge.status >= 400);
  const auto unknown = server.get("/admin");
  CHECK(unknown.status == 404);
  check_security_headers(unknown);
  {
    auto client = server.client();
    auto posted = client.Post("/api/search?q=kestrel", "x", "text/plain");
    REQUIRE(posted);
    CHECK(posted->status >= 400);
  }

  // Every byte value in q, in random strings: only 200 or 400, always a JSON body.
  std::mt19937 random(20240601);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> length(1, 24);
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (int i = 0; i < 300; ++i) {
    std::string q;
    for (int n = length(random); n > 0; --n) {
      const int b = byte(random);
      q += '%';
      q += kHex[b >> 4];
      q += kHex[b & 0xf];
    }
    const std::string path = (i % 2 == 0 ? "/api/search?q=" : "/search?q=") + q;
    CAPTURE(path);
    const auto response = server.get(path);
    CHECK((response.status == 200 || response.status == 400));
    if (i % 2 == 0) CHECK_FALSE(json::parse(response.body, nullptr, false).is_discarded());
  }
  CHECK(server.get("/api/search?q=kestrel").status == 200);
}

TEST_CASE("oversized requests get 4xx: a long request line, a long header, a body") {
  RunningServer server(test_index());
  auto client = server.client();
  const std::string long_query(10'000, 'a');
  auto uri = client.Get(("/search?q=" + long_query).c_str());
  REQUIRE(uri);
  CHECK(uri->status == 414);  // the request line is past 8 KiB
  auto header = client.Get("/search?q=kestrel", {{"X-Padding", long_query}});
  REQUIRE(header);
  CHECK(header->status == 431);  // headers past 8 KiB
  auto query = client.Get(("/search?q=" + std::string(2'000, 'a')).c_str());
  REQUIRE(query);
  CHECK(query->status == 400);  // canon's own limit: 1,024 bytes of query
  auto body = client.Post("/api/search", std::string(100'000, 'x'), "text/plain");
  REQUIRE(body);
  CHECK(body->status >= 400);
  CHECK(body->status < 500);
}

TEST_CASE("64 connections that send nothing do not keep another client waiting") {
  RunningServer server(test_index());
  std::vector<std::unique_ptr<RawConnection>> idle;
  for (int i = 0; i < 64; ++i) {
    idle.push_back(std::make_unique<RawConnection>(server.port()));
    REQUIRE(idle.back()->connected());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the server has taken them all
  auto client = server.client();
  client.set_read_timeout(3);  // a thousand times a search's time here
  const auto result = client.Get("/api/search?q=kestrel&limit=3");
  REQUIRE_MESSAGE(result, httplib::to_string(result.error()));
  CHECK(result->status == 200);
}

TEST_CASE("clients sending a byte at a time neither starve others nor stay past the timeout") {
  // 300 connections from 127.0.0.2 each send a request a byte every 100 ms; 127.0.0.1 searches
  // meanwhile. The slow ones hold no thread (one event loop serves all), their address may
  // hold 256 connections (the rest are answered 503), and each is closed when it has not sent
  // a whole request within request_timeout.
  WebServerOptions options;
  options.request_timeout = std::chrono::milliseconds(1500);
  RunningServer server(test_index(), options);
  const std::string request = "GET /search?q=kestrel HTTP/1.1\r\nHost: x\r\n\r\n";
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 300; ++i) {
    slow.push_back(std::make_unique<RawConnection>(server.port(), "127.0.0.2"));
    REQUIRE(slow.back()->connected());
  }
  std::atomic<bool> done{false};
  std::thread trickle([&] {
    std::vector<bool> open(slow.size(), true);
    for (std::size_t byte = 0; byte < request.size() && !done; ++byte) {
      for (std::size_t i = 0; i < slow.size(); ++i) {
        if (open[i]) open[i] = slow[i]->send(request.substr(byte, 1));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // all are connected and slow

  auto client = server.client();
  client.set_read_timeout(2);
  std::chrono::steady_clock::duration slowest{};
  for (int i = 0; i < 20; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const auto result = client.Get("/api/search?q=kestrel&limit=3");
    slowest = std::max(slowest, std::chrono::steady_clock::now() - start);
    REQUIRE_MESSAGE(result, httplib::to_string(result.error()));
    CHECK(result->status == 200);
  }
  CHECK(slowest < std::chrono::milliseconds(1000));

  // Past the timeout (1.5 s after the server took them, the request still unfinished at a
  // byte per 100 ms), the server has closed every slow connection, or refused it at once.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  std::size_t refused = 0;
  std::size_t closed = 0;
  for (auto& connection : slow) {
    const std::string answer = connection->read_all(std::chrono::milliseconds(100));
    if (connection->closed()) ++closed;
    if (answer.rfind("HTTP/1.1 503", 0) == 0) ++refused;
  }
  done = true;
  trickle.join();
  CHECK(closed == slow.size());
  CHECK(refused == 300 - WebServerOptions{}.max_connections_per_client);
}

TEST_CASE("connection limits: per client address and in all; past them 503, others still served") {
  WebServerOptions options;
  options.max_connections = 6;
  options.max_connections_per_client = 4;
  RunningServer server(test_index(), options);
  // Connections count once the server has taken them: after their first bytes.
  const auto open_partial = [&](const char* source) {
    auto connection = std::make_unique<RawConnection>(server.port(), source);
    REQUIRE(connection->connected());
    REQUIRE(connection->send("GET /"));
    return connection;
  };
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 4; ++i) held.push_back(open_partial("127.0.0.2"));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  {
    RawConnection fifth(server.port(), "127.0.0.2");
    REQUIRE(fifth.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    const std::string answer = fifth.read_all(std::chrono::milliseconds(2000));
    CHECK(answer.rfind("HTTP/1.1 503 Service Unavailable\r\n", 0) == 0);
    CHECK(contains(answer, "Retry-After: 1"));
  }
  CHECK(server.get("/api/search?q=kestrel").status == 200);  // another address: served
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the server saw it close

  held.push_back(open_partial("127.0.0.3"));
  held.push_back(open_partial("127.0.0.3"));  // 6 open: the server is full
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  {
    RawConnection seventh(server.port(), "127.0.0.4");
    REQUIRE(seventh.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    const std::string answer = seventh.read_all(std::chrono::milliseconds(2000));
    CAPTURE(seventh.closed());
    CHECK(answer.rfind("HTTP/1.1 503", 0) == 0);
  }
  held.clear();  // their connections close: room again
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(server.get("/api/search?q=kestrel").status == 200);
}

TEST_CASE("HEAD gets GET's headers without the body; other methods 405 with Allow") {
  RunningServer server(test_index());
  auto client = server.client();
  const auto get = client.Get("/search?q=kestrel");
  const auto head = client.Head("/search?q=kestrel");
  REQUIRE(get);
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->body.empty());
  CHECK(head->get_header_value("Content-Length") == std::to_string(get->body.size()));
  check_security_headers(*head);
  const auto put = client.Put("/search", "x", "text/plain");
  REQUIRE(put);
  CHECK(put->status == 405);
  CHECK(put->get_header_value("Allow") == "GET, HEAD");
  check_security_headers(*put);
}

TEST_CASE("concurrent requests get their own answers") {
  RunningServer server(test_index());
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&server, &wrong, t] {
      auto client = server.client();
      for (int i = 0; i < 20; ++i) {
        const bool guide = (t + i) % 2 == 0;
        auto result =
            client.Get(guide ? "/api/search?q=configuration" : "/api/search?q=kestrel&limit=3");
        if (!result || result->status != 200) {
          ++wrong;
          continue;
        }
        const json body = json::parse(result->body, nullptr, false);
        if (body.is_discarded() || body["results"].size() != (guide ? 1u : 3u)) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(wrong == 0);
}

TEST_CASE("create() fails clearly: missing index, port in use; stop() before run() returns") {
  canon::testing::TempDir empty;
  WebServerOptions options;
  options.index_dir = empty.path() / "nope";
  options.port = 0;
  auto missing = WebServer::create(options);
  REQUIRE_FALSE(missing.ok());
  CHECK(contains(missing.status().message(), "does not exist"));

  RunningServer running(test_index());
  options.index_dir = test_index();
  options.port = running.port();
  auto taken = WebServer::create(options);
  REQUIRE_FALSE(taken.ok());
  CHECK(contains(taken.status().message(),
                 "cannot listen on 127.0.0.1:" + std::to_string(running.port())));

  options.port = 0;
  auto idle = WebServer::create(options);
  REQUIRE(idle.ok());
  CHECK(idle.value()->port() > 0);
  CHECK(idle.value()->url() == "http://127.0.0.1:" + std::to_string(idle.value()->port()) + "/");
  idle.value()->stop();
  const auto before = std::chrono::steady_clock::now();
  CHECK(idle.value()->run().ok());  // returns at once
  CHECK(std::chrono::steady_clock::now() - before < std::chrono::seconds(2));
}

TEST_CASE("stop() right after run() starts, repeatedly, never hangs") {
  WebServerOptions options;
  options.index_dir = test_index();
  options.port = 0;
  for (int i = 0; i < 20; ++i) {
    auto created = WebServer::create(options);
    REQUIRE(created.ok());
    WebServer& server = *created.value();
    std::thread runner([&server] { CHECK(server.run().ok()); });
    if (i % 2 == 1) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    server.stop();
    runner.join();
  }
}

TEST_CASE("SearchRoutes without a socket: paths, repeated and encoded parameters, a NUL in q") {
  canon::web::SearchRoutes routes(test_index());
  REQUIRE(routes.check_index().ok());
  struct Row {
    std::string target;
    int status;
    std::string content_type_start;
    std::string body_part;
  };
  const Row rows[] = {
      {"/", 200, "text/html", "Search 16 pages."},
      {"/search", 200, "text/html", "Search 16 pages."},
      {"/search/", 404, "text/plain", "Not found."},
      {"/api/search", 400, "application/json", "missing query"},
      {"/api/search?q=kestrel&limit=2", 200, "application/json", "\"estimated_matches\":13"},
      {"/api/search?q=kestrel&q=zebra&limit=2", 200, "application/json", "\"query\":\"kestrel\""},  // the first q
      {"/api/search?q=debian+packages", 200, "application/json", "\"query\":\"debian packages\""},
      {"/api/search?q=kes%00trel", 400, "application/json", "control characters"},  // not cut at the NUL
      {"/api/search?q=kestrel&limit=", 400, "application/json", "limit must be a whole number"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.target);
    const canon::web::HttpAnswer answer = routes.answer(row.target);
    CHECK(answer.status == row.status);
    CHECK(answer.content_type.rfind(row.content_type_start, 0) == 0);
    CHECK_MESSAGE(contains(answer.body, row.body_part), answer.body.substr(0, 300));
  }
}

TEST_CASE("searches at once: one per core, more when the index lists remote shards, or as told") {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  canon::testing::TempDir dir;
  WebServerOptions options;
  options.index_dir = test_index();
  CHECK(canon::web::search_threads(options) == std::max(2u, cores));
  options.index_dir = dir.write("local.stub", "auto " + (test_index() / "xapian").string() + "\n");
  CHECK(canon::web::search_threads(options) == std::max(2u, cores));
  // Whether a shard answers does not matter: the sizing reads the stub only.
  options.index_dir =
      dir.write("remote.stub", "auto " + (test_index() / "xapian").string() + "\nremote 127.0.0.1:1\n");
  CHECK(canon::web::search_threads(options) == canon::web::kSearchesPerCoreOverNetwork * cores);
  options.search_threads = 3;
  CHECK(canon::web::search_threads(options) == 3);
}

TEST_CASE("SearchRoutes: the API answers pages of listed origins, refuses other sites', serves the box") {
  canon::web::FrontEnd front_end;
  front_end.allowed_origins = {"http://docs.example:8000"};
  canon::web::SearchRoutes routes(test_index(), {}, {}, front_end);
  struct Row {
    const char* comment;
    std::string origin;
    int status;
    std::string allow_origin;
  };
  const Row rows[] = {
      {"no Origin (a same-origin GET, curl): answered, no CORS header", "", 200, ""},
      {"the server's own origin: answered as same-origin", "http://search.example:8080", 200, ""},
      {"a listed origin: answered, and told it may read", "http://docs.example:8000", 200, "http://docs.example:8000"},
      {"another port of the listed host is another origin", "http://docs.example:8001", 403, ""},
      {"an origin not listed: refused", "https://evil.example", 403, ""},
  };
  for (const Row& row : rows) {
    INFO(row.comment);
    const canon::web::HttpAnswer answer = routes.answer("/api/search?q=kestrel", row.origin, "search.example:8080");
    CHECK(answer.status == row.status);
    CHECK(answer.allow_origin == row.allow_origin);
    if (row.status == 403) CHECK(contains(answer.body, "--allow-origin"));
  }
  canon::web::FrontEnd any;
  any.allowed_origins = {"*"};
  canon::web::SearchRoutes open_routes(test_index(), {}, {}, any);
  CHECK(open_routes.answer("/api/search?q=kestrel", "https://anyone.example", "h").allow_origin == "https://anyone.example");

  const canon::web::HttpAnswer script = routes.answer("/embed/canon-search.js");
  CHECK(script.status == 200);
  CHECK(script.content_type.starts_with("text/javascript"));
  CHECK(contains(script.body, "data-canon-search"));
  const canon::web::HttpAnswer style = routes.answer("/embed/canon-search.css");
  CHECK(style.status == 200);
  CHECK(style.content_type.starts_with("text/css"));
}

TEST_CASE("SearchRoutes: the search page laid out by the operator's template") {
  auto layout = canon::web::PageTemplate::parse(
      "<html><head><title>{{title}}</title></head><body><div class=\"site\">{{form}}<h1>Docs: {{query}}</h1>"
      "{{results}}</div></body></html>");
  REQUIRE(layout.ok());
  canon::web::FrontEnd front_end;
  front_end.page_template = std::make_shared<const canon::web::PageTemplate>(std::move(layout).value());
  canon::web::SearchRoutes routes(test_index(), {}, {}, front_end);
  const canon::web::HttpAnswer answer = routes.answer("/search?q=kestrel+%3Cb%3E");
  CHECK(answer.status == 200);
  CHECK(answer.body.starts_with("<html><head><title>kestrel &lt;b&gt; — canon search</title>"));
  CHECK(contains(answer.body, "<h1>Docs: kestrel &lt;b&gt;</h1>"));  // the query escaped
  CHECK(contains(routes.answer("/search?q=kestrel").body, "class=\"results\""));
  CHECK(contains(answer.body, "<form class=\"search\""));
}
