/// @file fuzz_web.cpp
/// @brief libFuzzer target: `canon serve` over a real loopback socket: each input is sent as
/// the bytes of an HTTP request (request line, headers, query string) to a server on an index
/// of sample_site, and the answer is read to the end. The server must answer or close, never
/// crash; the sanitizers see both sides, as they run in this process.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "web/web_server.h"
#include "tests/fuzz/sample_index.h"

namespace {

struct Served {
  std::unique_ptr<canon::web::WebServer> server;
  std::thread thread;
  int port = 0;
  std::filesystem::path index;  // removed at exit
  Served() = default;
  Served(Served&&) = default;
  ~Served() {  // at exit, after the last input
    if (server) server->stop();
    if (thread.joinable()) thread.join();
    std::error_code ec;
    if (!index.empty()) std::filesystem::remove_all(index, ec);
  }
};

Served& serve_sample_index() {
  static Served served = [] {
    const std::filesystem::path index = canon::fuzz::index_sample_site("web");
    canon::web::WebServerOptions web;
    web.index_dir = index;
    web.port = 0;
    auto server = canon::web::WebServer::create(web);
    if (!server.ok()) std::abort();
    Served s;
    s.server = std::move(server.value());
    s.port = s.server->port();
    s.index = index;
    s.thread = std::thread([server = s.server.get()] { (void)server->run(); });
    return s;
  }();
  return served;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Served& served = serve_sample_index();
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  // The request ends with the input (shutdown below), so the server answers or closes at once;
  // its own request timeout (10 s) only ever applies to a client that keeps the line open.
  timeval timeout{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(served.port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
    std::size_t sent = 0;
    while (sent < size) {
      const ssize_t n = ::send(fd, data + sent, size - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    ::shutdown(fd, SHUT_WR);  // end of request: the server sees EOF, not a slow client
    char buffer[65536];
    while (true) {
      const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) __builtin_trap();  // no answer in 10 s
        break;
      }
    }
  }
  ::close(fd);
  return 0;
}
