/// @file web_server.cpp
/// @brief `canon serve`'s network side: accepting, per-client limits, deadlines, HTTP/1.1
/// (Boost.Beast), and handing each request to SearchRoutes on the search pool.
///
/// Why Beast rather than cpp-httplib (which served until issue 16): httplib gives each
/// connection a thread until it closes and has no per-connection deadline, so clients sending
/// a byte a second held every thread. An event loop holds no thread per connection; Beast puts a
/// deadline on each read and write (tcp_stream::expires_after).
#include "web/web_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <array>
#include <iostream>
#include <optional>
#include <thread>
#include <unordered_map>

#include "format/index_format.h"
#include "format/shards.h"

namespace canon::web {
namespace {

namespace fs = std::filesystem;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;

/// What a connection past the limits is told before it is closed: the whole answer.
const std::string& too_many_connections() {
  static const std::string answer = [] {
    const std::string body = "Too many connections; try again shortly.\n";
    return "HTTP/1.1 503 Service Unavailable\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n"
           "Content-Length: " + std::to_string(body.size()) + "\r\n"
           "Retry-After: 1\r\n"
           "Connection: close\r\n"
           "\r\n" + body;
  }();
  return answer;
}

/// After an answer that ends the connection, the longest the server reads (and drops) what the
/// client still sends, so that closing with unread bytes does not reset the connection before
/// the client has read the answer (nginx's "lingering close").
constexpr std::chrono::milliseconds kLingerTime{2'000};

/// `text` with control characters replaced by '?', for a log line on a terminal.
std::string printable(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) c = '?';
  }
  return out;
}

/// Whether the index's database is a stub listing a remote shard (false when it cannot be read:
/// opening the index reports that).
bool lists_remote_shard(const fs::path& index_dir) {
  const auto database = index_format::canon_database_path(index_dir);
  if (!database.ok()) return false;
  const std::optional<fs::path> stub = index_format::stub_file_at(database.value());
  if (!stub) return false;
  const auto shards = index_format::read_stub(*stub);
  if (!shards.ok()) return false;
  return std::ranges::any_of(shards.value(), [](const index_format::ShardAddress& shard) {
    return shard.kind == index_format::ShardAddress::Kind::kTcp;
  });
}

/// Raises the soft limit on open files towards `wanted` (at most the hard limit).
void raise_open_file_limit(std::size_t wanted) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  const auto target = std::min<rlim_t>(static_cast<rlim_t>(wanted), limit.rlim_max);
  if (limit.rlim_cur >= target) return;
  limit.rlim_cur = target;
  ::setrlimit(RLIMIT_NOFILE, &limit);
}

/// The server's state: the limits and counts, the routes, the event loop and the search pool.
struct ServerCore {
  explicit ServerCore(const WebServerOptions& opts)
      : options(opts), routes(opts.index_dir, opts.shards, opts.site, opts.front_end), searches(search_threads(opts)) {}
  ~ServerCore() {
    // Searches not started are dropped, the running ones finish; their answers are then
    // dropped with the event loop's queue.
    searches.stop();
    searches.join();
  }

  /// Takes the connection, or answers 503 and closes it when its client or the server is at
  /// its limit. Event-loop thread only (as are the counts).
  void admit(tcp::socket socket);
  /// A connection of `client` closed.
  void forget(const std::string& client);
  void accept_next();
  /// A line on stderr with --verbose. Event-loop thread only.
  void log(std::string line) {
    if (!options.verbose) return;
    line += '\n';
    std::cerr << line << std::flush;
  }

  WebServerOptions options;
  SearchRoutes routes;
  std::size_t open_connections = 0;
  std::unordered_map<std::string, std::size_t> connections_per_client;
  int port = 0;
  // The event loop's objects after what the connections refer to: the loop is destroyed
  // first, and with it the connections (they live in its queued handlers).
  asio::io_context loop{1};
  tcp::acceptor acceptor{loop};
  asio::steady_timer accept_pause{loop};
  asio::thread_pool searches;
};

/// One connection: read a request, search on the pool, write the answer, again while the
/// client keeps the connection alive. Lives in the handlers it has queued.
class Connection : public std::enable_shared_from_this<Connection> {
public:
  Connection(ServerCore& server, tcp::socket socket, std::string client)
      : server_(server), stream_(std::move(socket)), client_(std::move(client)) {}
  ~Connection() { server_.forget(client_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void start() { read_request(); }

private:
  void read_request() {
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    parser_->body_limit(kMaxBodyBytes);
    stream_.expires_after(server_.options.request_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code error, std::size_t) {
                       self->on_request(error);
                     });
  }

  void on_request(beast::error_code error) {
    if (error == http::error::header_limit) {
      // Nothing of the header is consumed until it is whole: the buffer starts with the line.
      const std::string_view received(static_cast<const char*>(buffer_.data().data()),
                                      buffer_.size());
      const bool line_too_long = received.find("\r\n") == std::string_view::npos;
      return answer(line_too_long ? plain_answer(414, "The request line is too long.")
                                  : plain_answer(431, "The request's headers are too long."),
                    "", false, /*keep_alive=*/false);
    }
    if (error == http::error::body_limit) {
      return answer(plain_answer(413, "The request's body is too long."), "", false, false);
    }
    if (error && error.category() == http::make_error_code(http::error::bad_target).category() &&
        error != http::error::end_of_stream && error != http::error::partial_message) {
      return answer(plain_answer(400, "The request could not be read."), "", false, false);
    }
    if (error) return;  // closed, reset, or past its deadline: the socket is closed with us

    const http::request<http::string_body>& request = parser_->get();
    const bool head = request.method() == http::verb::head;
    if (request.method() != http::verb::get && !head) {
      return answer(plain_answer(405, "Only GET and HEAD are served."),
                    std::string(request.method_string()) + " " + std::string(request.target()),
                    false, false);
    }
    const bool keep_alive = request.keep_alive();
    std::string target(request.target());
    std::string origin(request[http::field::origin]);
    std::string host(request[http::field::host]);
    version_ = request.version();
    // Searches are CPU work: on the pool, one per core in arrival order, so that the event
    // loop keeps reading and writing meanwhile.
    asio::post(server_.searches, [self = shared_from_this(), target = std::move(target), origin = std::move(origin),
                                  host = std::move(host), head, keep_alive]() mutable {
      HttpAnswer result = self->server_.routes.answer(target, origin, host);
      asio::post(self->stream_.get_executor(),
                 [self, result = std::move(result), target = std::move(target), head,
                  keep_alive]() mutable {
                   self->answer(std::move(result), (head ? "HEAD " : "GET ") + target, head,
                                keep_alive);
                 });
    });
  }

  /// Writes `result` (headers only for HEAD), then reads the next request or closes.
  /// `request` is the request's method and target, for the log ("" when unreadable).
  void answer(HttpAnswer result, std::string_view request, bool head, bool keep_alive) {
    server_.log(client_ + " " + printable(request) + " " + std::to_string(result.status));
    response_ = {};
    response_.version(version_);
    response_.result(static_cast<unsigned>(result.status));
    response_.set(http::field::content_type, result.content_type);
    if (!result.site_page) response_.set("Content-Security-Policy", kContentSecurityPolicy);
    if (!result.location.empty()) response_.set(http::field::location, result.location);
    if (!result.allow_origin.empty()) {
      response_.set(http::field::access_control_allow_origin, result.allow_origin);
      response_.set(http::field::vary, "Origin");
    }
    response_.set("X-Content-Type-Options", "nosniff");
    response_.set("Referrer-Policy", "no-referrer");
    if (result.status == 405) response_.set(http::field::allow, "GET, HEAD");
    response_.body() = std::move(result.body);
    response_.keep_alive(keep_alive);
    response_.prepare_payload();
    if (head) response_.body().clear();  // Content-Length stays that of the GET
    stream_.expires_after(server_.options.request_timeout);
    http::async_write(stream_, response_,
                      [self = shared_from_this(), keep_alive](beast::error_code error, std::size_t) {
                        if (error) return;
                        if (keep_alive) return self->read_request();
                        self->linger();
                      });
  }

  /// Ends the connection: no more writes, then what the client still sends is dropped until
  /// it closes too or kLingerTime passes.
  void linger() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kLingerTime);
    drain();
  }

  void drain() {
    stream_.async_read_some(asio::buffer(drained_),
                            [self = shared_from_this()](beast::error_code error, std::size_t) {
                              if (!error) self->drain();
                            });
  }

  ServerCore& server_;
  beast::tcp_stream stream_;
  const std::string client_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  unsigned version_ = 11;
  http::response<http::string_body> response_;
  std::array<char, 4096> drained_{};
};

}  // namespace

// A search over remote shards waits on the network for most of its time (three exchanges with
// every shard; docs/serving.md, "What it costs"), so one thread per core would leave the cores
// idle under load.
unsigned search_threads(const WebServerOptions& options) {
  if (options.search_threads > 0) return options.search_threads;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (lists_remote_shard(options.index_dir)) return kSearchesPerCoreOverNetwork * cores;
  return std::max(2u, cores);
}


struct WebServer::Rep : ServerCore {
  using ServerCore::ServerCore;
};

void ServerCore::admit(tcp::socket socket) {
  beast::error_code error;
  const tcp::endpoint peer = socket.remote_endpoint(error);
  if (error) return;  // already gone
  std::string client = peer.address().to_string();
  std::size_t& from_client = connections_per_client[client];
  if (open_connections >= options.max_connections ||
      from_client >= options.max_connections_per_client) {
    if (from_client == 0) connections_per_client.erase(client);
    log("refused a connection of " + client + ": too many connections");
    // No waiting on this client: what it sent so far is read (closing a socket with unread
    // bytes would reset the connection, and the answer with it), the answer fits the socket's
    // send buffer, and the connection is closed.
    socket.non_blocking(true, error);
    std::array<char, 4096> unread;
    for (int reads = 0; reads < 16 && socket.receive(asio::buffer(unread), 0, error) > 0; ++reads) {
    }
    socket.send(asio::buffer(too_many_connections()), 0, error);
    socket.shutdown(tcp::socket::shutdown_send, error);
    socket.close(error);
    return;
  }
  ++from_client;
  ++open_connections;
  socket.set_option(tcp::no_delay(true), error);  // answers are written whole
  std::make_shared<Connection>(*this, std::move(socket), std::move(client))->start();
}

void ServerCore::forget(const std::string& client) {
  --open_connections;
  const auto it = connections_per_client.find(client);
  if (it != connections_per_client.end() && --it->second == 0) connections_per_client.erase(it);
}

void ServerCore::accept_next() {
  acceptor.async_accept([this](beast::error_code error, tcp::socket socket) {
    if (error == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (error) {
      // Out of file descriptors, or the like: wait for connections to close, then go on.
      log("accepting a connection failed: " + error.message());
      accept_pause.expires_after(std::chrono::milliseconds(100));
      accept_pause.async_wait([this](beast::error_code) { accept_next(); });
      return;
    }
    admit(std::move(socket));
    accept_next();
  });
}

WebServer::WebServer(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

WebServer::~WebServer() {
  if (rep_) stop();
}

namespace {

/// Opens, binds and listens on the first address of `host` that takes `port`; the error of the
/// last one tried when none does.
beast::error_code listen(tcp::acceptor& acceptor, asio::io_context& loop, const std::string& host,
                         int port) {
  tcp::resolver resolver(loop);
  beast::error_code error;
  const auto addresses = resolver.resolve(host, std::to_string(port),
                                          tcp::resolver::passive | tcp::resolver::numeric_service,
                                          error);
  if (error) return error;
  for (const auto& address : addresses) {
    beast::error_code ignored;
    acceptor.close(ignored);
    if (acceptor.open(address.endpoint().protocol(), error)) continue;
    // Lets a restarted server bind while old connections linger in TIME_WAIT (never shares a
    // port that a live server holds: that would be SO_REUSEPORT).
    acceptor.set_option(tcp::acceptor::reuse_address(true), ignored);
    if (acceptor.bind(address.endpoint(), error)) continue;
    // A connection is taken only once it has sent something: clients that connect and say
    // nothing stay with the kernel, and count against no limit.
    const int seconds = 5;
    ::setsockopt(acceptor.native_handle(), IPPROTO_TCP, TCP_DEFER_ACCEPT, &seconds, sizeof seconds);
    if (acceptor.listen(SOMAXCONN, error)) continue;
    return {};
  }
  if (!error) error = asio::error::host_not_found;
  return error;
}

}  // namespace

Result<std::unique_ptr<WebServer>> WebServer::create(const WebServerOptions& options) {
  if (options.port < 0 || options.port > 65535) {
    return Status::error("port " + std::to_string(options.port) + " is not in 0..65535");
  }
  if (options.max_connections == 0 || options.max_connections_per_client == 0) {
    return Status::error("the connection limits must be at least 1");
  }
  auto rep = std::make_unique<Rep>(options);
  // Fail now, with the Searcher's message, when the index cannot be read.
  if (Status ok = rep->routes.check_index(); !ok.ok()) return ok;
  // A socket per connection, and the index's files for each search thread.
  raise_open_file_limit(options.max_connections + 64 + 16 * search_threads(options));

  if (const beast::error_code error = listen(rep->acceptor, rep->loop, options.host, options.port)) {
    return Status::error("cannot listen on " + options.host + ":" + std::to_string(options.port) +
                         ": " + error.message());
  }
  rep->port = rep->acceptor.local_endpoint().port();
  return std::unique_ptr<WebServer>(new WebServer(std::move(rep)));
}

int WebServer::port() const { return rep_->port; }

std::string WebServer::url() const {
  const std::string& host = rep_->options.host;
  const bool ipv6 = host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(rep_->port) + "/";
}

Status WebServer::run() {
  rep_->accept_next();
  try {
    rep_->loop.run();  // until stop()
  } catch (const std::exception& error) {
    return Status::internal(std::string("the server stopped: ") + error.what());
  }
  return Status::ok_status();
}

void WebServer::stop() { rep_->loop.stop(); }

}  // namespace canon::web
