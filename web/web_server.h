/// @file web_server.h
/// @brief `canon serve`: the search page and the JSON API (web_routes.h) over HTTP/1.1
/// (Boost.Beast on Boost.Asio).
///
/// One network thread serves every connection, waiting on none of them: a connection that is
/// open and sends nothing, or a byte a second, costs a socket and a buffer, not a thread.
/// Searches run on a pool of one thread per core, in arrival order (more over remote shards,
/// whose searches mostly wait: WebServerOptions::search_threads). What a client may hold:
///   - max_connections open at once, max_connections_per_client from one address; a
///     connection past either is answered 503 and closed at once;
///   - request_timeout to send a whole request, from when the server starts reading it (for a
///     kept-alive connection, from the end of the previous answer): past it the connection is
///     closed; the same to read an answer;
///   - a request line and headers of at most kMaxHeaderBytes (414 when the request line alone
///     is longer, else 431) and a body of at most kMaxBodyBytes (413; no route takes one);
///   - GET and HEAD only (405).
/// Every answer carries a Content-Security-Policy that allows no script,
/// `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer` (a result's site does
/// not learn the query). docs/reliability.md, "canon serve".
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

#include "common/status.h"
#include "query/shard_set.h"
#include "web/web_routes.h"

namespace canon::web {

/// Largest request line and headers, in bytes.
inline constexpr std::size_t kMaxHeaderBytes = 8 * 1024;
/// Largest request body, in bytes.
inline constexpr std::size_t kMaxBodyBytes = 64 * 1024;

/// The value of the Content-Security-Policy header.
inline constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'";

/// What `canon serve` is told.
struct WebServerOptions {
  /// INDEX_DIR, written by `canon index` or `canon shard`, or a stub file listing shards.
  std::filesystem::path index_dir;
  /// How a sharded index is searched (the deadline for remote shards).
  ShardOptions shards;
  /// Address to listen on (an IPv4 or IPv6 address or a host name).
  std::string host = "127.0.0.1";
  /// Port to listen on; 0 picks a free one (see WebServer::port()).
  int port = 8080;
  /// One line per request on stderr.
  bool verbose = false;
  /// Connections open at once.
  std::size_t max_connections = 1024;
  /// Connections open at once from one client address.
  std::size_t max_connections_per_client = 256;
  /// Time to send a request, or to read an answer.
  std::chrono::milliseconds request_timeout{10'000};
  /// Searches run at once; 0: one per core (at least 2), or kSearchesPerCoreOverNetwork per core
  /// when the index lists a remote shard.
  unsigned search_threads = 0;
  /// The site's own pages, served beside the search (find_served_site); none by default.
  ServedSite site;
  /// The origins the embeddable box may be used from, and the page's template.
  FrontEnd front_end;
};

/// Searches at once per core on an index with remote shards (WebServerOptions::search_threads).
inline constexpr unsigned kSearchesPerCoreOverNetwork = 4;

/// The searches `canon serve` runs at once with `options`: options.search_threads, else one per
/// core (at least 2), or kSearchesPerCoreOverNetwork per core when options.index_dir's database
/// is a stub listing a remote shard.
unsigned search_threads(const WebServerOptions& options);

/// An HTTP server bound to its port, serving one index.
class WebServer {
public:
  /// Opens the index (failing with the Searcher's message when it cannot be read) and binds
  /// the listening socket (failing when the address cannot be used, e.g. the port is taken).
  /// Raises the process's open-file limit towards what max_connections needs. Connections are
  /// queued from here on; run() serves them.
  static Result<std::unique_ptr<WebServer>> create(const WebServerOptions& options);
  /// Closes every connection. REQUIRES: run() is not running (stop() it and join its thread).
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  /// The bound port (the one picked when options.port was 0).
  int port() const;
  /// `http://HOST:PORT/` (IPv6 hosts in brackets).
  std::string url() const;

  /// Serves requests on the calling thread until stop(). Call once.
  Status run();
  /// Makes run() return (or return at once if it has not started). Thread-safe; not
  /// async-signal-safe (call it from a thread that waits for signals, not a signal handler).
  void stop();

private:
  struct Rep;
  explicit WebServer(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace canon::web
