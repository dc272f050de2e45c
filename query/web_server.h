/// @file web_server.h
/// @brief `canon serve`: the search page and the JSON API over HTTP (cpp-httplib).
///
/// Routes (docs/design.md, "Web front end"):
///   GET /, GET /search?q=&offset=   the HTML search page (web_page.h), 10 results a page
///   GET /api/search?q=&limit=&offset=   query::to_json(results); {"error": "..."} with 400
/// Bad input is answered with 400 and a message: a missing or empty q (API), a q that is not
/// valid UTF-8, holds control characters or is longer than kMaxQueryBytes, a limit outside
/// 1..100 or an offset outside 0..10000 (digits only), a malformed query. Every response
/// carries a Content-Security-Policy that allows no script and `X-Content-Type-Options:
/// nosniff` and `Referrer-Policy: no-referrer` (a result's site does not learn the query).
/// Up to max_connections connections are served at once, one thread each; more wait.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

#include "common/status.h"

namespace canon::query {

/// Longest query accepted, in bytes.
inline constexpr std::size_t kMaxQueryBytes = 1024;
/// Largest `limit` of /api/search.
inline constexpr std::size_t kMaxApiLimit = 100;
/// Largest `offset` of /api/search and /search.
inline constexpr std::size_t kMaxOffset = 10000;

/// The value of the Content-Security-Policy header.
inline constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";

/// What `canon serve` is told.
struct WebServerOptions {
  /// INDEX_DIR, written by `canon index`.
  std::filesystem::path index_dir;
  /// Address to listen on (an IPv4 or IPv6 address or a host name).
  std::string host = "127.0.0.1";
  /// Port to listen on; 0 picks a free one (see WebServer::port()).
  int port = 8080;
  /// One line per request on stderr.
  bool verbose = false;
  /// Connections served at once (one thread each; a keep-alive connection holds its thread
  /// until it closes: after 5 requests or 2 s idle); later ones wait to be served.
  std::size_t max_connections = 512;
};

/// An HTTP server bound to its port, serving one index. Searches run on httplib's worker
/// threads, each with a Searcher of its own (Searchers are not thread-safe); when the index is
/// rebuilt in place (`canon index` swaps INDEX_DIR), later requests use the new one.
class WebServer {
public:
  /// Opens the index (failing with the Searcher's message when it cannot be read) and binds
  /// the listening socket (failing when the address cannot be used, e.g. the port is taken).
  /// Connections are queued from here on; run() serves them.
  static Result<std::unique_ptr<WebServer>> create(const WebServerOptions& options);
  /// REQUIRES: run() is not running (stop() it and join its thread first).
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  /// The bound port (the one picked when options.port was 0).
  int port() const;
  /// `http://HOST:PORT/` (IPv6 hosts in brackets).
  std::string url() const;

  /// Serves requests until stop(). Fails when the server stops for another reason. Call once.
  Status run();
  /// Makes run() return (or return at once if it has not started). Thread-safe; not
  /// async-signal-safe (call it from a thread that waits for signals, not a signal handler).
  void stop();

private:
  struct Rep;
  explicit WebServer(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace canon::query
