/// @file test_web_server_hostile_clients.cpp
/// @brief `canon serve` against clients that misbehave, over real HTTP and raw TCP from several
/// 127.x.y.z addresses: hostile and oversized requests, connections that send nothing or a byte
/// at a time, and the connection limits per client address and in all; the server lives on and
/// serves the others.
#include <doctest/doctest.h>

#include <httplib.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/running_server.h"
#include "web/web_server.h"

using canon::web::WebServerOptions;
using nlohmann::json;

using canon::testing::check_security_headers;
using canon::testing::contains;
using canon::testing::RunningServer;
using canon::testing::test_index;

namespace {

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
