/// @file web_server.cpp
/// @brief `canon serve`: routes, parameter checks, a pool of per-thread Searchers, httplib.
#include "query/web_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <cstring>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/utf8.h"
#include "query/render.h"
#include "query/searcher.h"
#include "query/web_page.h"

namespace canon::query {
namespace {

/// Why `query` cannot be searched, or ok.
Status check_query(const std::string& query) {
  if (query.size() > kMaxQueryBytes) {
    return Status::error("the query is too long (at most " + std::to_string(kMaxQueryBytes) +
                         " bytes)");
  }
  if (!is_valid_utf8(query)) return Status::error("the query is not valid UTF-8");
  const bool has_control = std::any_of(query.begin(), query.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  });
  if (has_control) return Status::error("the query contains control characters");
  return Status::ok_status();
}

bool is_blank(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t'; });
}

/// The first value of query parameter `name`, or null when it is absent.
const std::string* find_param(const httplib::Request& request, const std::string& name) {
  const auto it = request.params.find(name);
  return it == request.params.end() ? nullptr : &it->second;
}

/// Parameter `name` as a whole number in [min, max]; `fallback` when absent.
Result<std::size_t> parse_count(const httplib::Request& request, const std::string& name,
                                std::size_t fallback, std::size_t min, std::size_t max) {
  const std::string* text = find_param(request, name);
  if (text == nullptr) return fallback;
  const Status bad = Status::error(name + " must be a whole number from " + std::to_string(min) +
                                   " to " + std::to_string(max));
  if (text->empty() || text->size() > 9) return bad;  // 9 digits cannot overflow
  std::size_t value = 0;
  for (const char c : *text) {
    if (c < '0' || c > '9') return bad;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  if (value < min || value > max) return bad;
  return value;
}

/// Identifies the directory at a path, so that a rebuilt index (a new directory swapped in
/// under the same name) is noticed.
struct DirIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const DirIdentity&) const = default;
};

DirIdentity identify(const std::filesystem::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return {};
  return {st.st_dev, st.st_ino};
}

/// Idle Searchers for httplib's worker threads: a request takes one (opening a new one when
/// none is idle) and gives it back, so there are at most as many as workers. Searchers of a
/// replaced index are dropped.
class SearcherPool {
public:
  explicit SearcherPool(std::filesystem::path index_dir) : index_dir_(std::move(index_dir)) {}

  struct Lease {
    std::unique_ptr<Searcher> searcher;
    DirIdentity identity;
  };

  Result<Lease> acquire() {
    const DirIdentity current = identify(index_dir_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!(current == identity_)) {
        idle_.clear();
        identity_ = current;
      }
      if (!idle_.empty()) {
        Lease lease{std::move(idle_.back()), current};
        idle_.pop_back();
        return lease;
      }
    }
    auto opened = Searcher::open(index_dir_);
    if (!opened.ok()) return opened.status();
    return Lease{std::move(opened).value(), current};
  }

  /// Gives a searcher back; `healthy` false drops it (it failed in a way a new one may not).
  void release(Lease lease, bool healthy) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (healthy && lease.identity == identity_) idle_.push_back(std::move(lease.searcher));
  }

private:
  const std::filesystem::path index_dir_;
  std::mutex mutex_;
  DirIdentity identity_;
  std::vector<std::unique_ptr<Searcher>> idle_;
};

/// Lets at most `limit` searches run at once, the others wait their turn in arrival order.
/// Searches are CPU work: with one running per thread of a connection, a few hundred of them
/// shared the cores, each took hundreds of times longer and the unluckiest timed out; in
/// arrival order each waits for those before it only (docs/benchmarks.md, "canon serve under
/// load"). It also bounds the Searchers open at once.
class SearchQueue {
public:
  explicit SearchQueue(std::size_t limit) : limit_(std::max<std::size_t>(1, limit)) {}

  /// Holds a place among the running searches for its lifetime.
  class Turn {
  public:
    explicit Turn(SearchQueue& queue) : queue_(queue) {
      std::unique_lock<std::mutex> lock(queue_.mutex_);
      if (queue_.running_ < queue_.limit_ && queue_.waiting_.empty()) {
        ++queue_.running_;
        return;
      }
      Waiter me;
      queue_.waiting_.push_back(&me);
      me.woken.wait(lock, [&] { return me.granted; });  // the place was handed over
    }
    ~Turn() {
      std::lock_guard<std::mutex> lock(queue_.mutex_);
      if (queue_.waiting_.empty()) {
        --queue_.running_;
        return;
      }
      Waiter* next = queue_.waiting_.front();  // only the next in line is woken
      queue_.waiting_.pop_front();
      next->granted = true;
      next->woken.notify_one();
    }
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;

  private:
    SearchQueue& queue_;
  };

private:
  struct Waiter {
    std::condition_variable woken;
    bool granted = false;
  };
  const std::size_t limit_;
  std::mutex mutex_;
  std::size_t running_ = 0;
  std::deque<Waiter*> waiting_;
};

/// A search's result or the HTTP status and message to answer with.
struct Outcome {
  int status = 200;
  std::string error;
  SearchResults results;
  std::size_t document_count = 0;
};

/// Runs `request` (or, with an empty query, only counts the documents) on a pooled Searcher.
Outcome run_search(SearcherPool& pool, SearchQueue& queue, const SearchRequest& request) {
  Outcome outcome;
  const SearchQueue::Turn turn(queue);
  auto lease = pool.acquire();
  if (!lease.ok()) {
    outcome.status = 503;
    outcome.error = "the index is not available: " + lease.status().message();
    return outcome;
  }
  outcome.document_count = lease->searcher->document_count();
  bool healthy = true;
  if (!request.query.empty()) {
    auto results = lease->searcher->search(request);
    if (results.ok()) {
      outcome.results = std::move(results).value();
    } else {
      // A bad query is the user's (400); a Xapian error (a damaged or replaced database) is
      // the server's.
      const std::string& message = results.status().message();
      healthy = results.status().code() == StatusCode::kInvalidArgument;
      outcome.status = healthy ? 400 : 500;
      outcome.error = message;
    }
  }
  pool.release(std::move(lease).value(), healthy);
  return outcome;
}

void send_html(httplib::Response& response, int status, const std::string& html) {
  response.status = status;
  response.set_content(html, "text/html; charset=utf-8");
}

void send_json(httplib::Response& response, int status, const nlohmann::json& json) {
  response.status = status;
  // Crawled text is UTF-8-checked at index time; should anything slip through, replace it
  // rather than throw.
  response.set_content(json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                       "application/json; charset=utf-8");
}

void send_json_error(httplib::Response& response, int status, const std::string& message) {
  send_json(response, status, nlohmann::json{{"error", message}});
}

/// `text` with control characters replaced by '?', for a log line on a terminal.
std::string printable(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) c = '?';
  }
  return out;
}

}  // namespace

struct WebServer::Rep {
  explicit Rep(const WebServerOptions& opts)
      : options(opts), pool(opts.index_dir), queue(std::max(2u, std::thread::hardware_concurrency())) {}

  void handle_page(const httplib::Request& request, httplib::Response& response);
  void handle_api(const httplib::Request& request, httplib::Response& response);

  WebServerOptions options;
  SearcherPool pool;
  SearchQueue queue;
  httplib::Server server;
  int port = 0;
  int listening_fd = -1;
  std::atomic<bool> stop_requested{false};
  std::atomic<bool> run_active{false};
  std::mutex log_mutex;
};

void WebServer::Rep::handle_page(const httplib::Request& request, httplib::Response& response) {
  SearchPage page;
  const std::string* query = find_param(request, "q");
  if (query != nullptr) {
    if (Status ok = check_query(*query); !ok.ok()) {
      page.error = ok.message();
      return send_html(response, 400, render_search_page(page));
    }
    if (!is_blank(*query)) page.query = *query;
  }
  const auto offset = parse_count(request, "offset", 0, 0, kMaxOffset);
  if (!offset.ok()) {
    page.error = offset.status().message();
    return send_html(response, 400, render_search_page(page));
  }

  SearchRequest search;
  search.query = page.query;
  search.offset = offset.value();
  search.limit = kPageSize + 1;  // one more tells whether there is a next page
  search.highlight_start = std::string(kHighlightStart);
  search.highlight_end = std::string(kHighlightEnd);
  Outcome outcome = run_search(pool, queue, search);
  if (outcome.status != 200) {
    page.error = outcome.error;
    return send_html(response, outcome.status, render_search_page(page));
  }
  page.document_count = outcome.document_count;
  if (!page.query.empty()) {
    SearchResults& results = outcome.results;
    page.has_next = results.hits.size() > kPageSize && search.offset + kPageSize <= kMaxOffset;
    if (results.hits.size() > kPageSize) results.hits.resize(kPageSize);
    page.results = &results;
  }
  send_html(response, 200, render_search_page(page));
}

void WebServer::Rep::handle_api(const httplib::Request& request, httplib::Response& response) {
  const std::string* query = find_param(request, "q");
  if (query == nullptr || query->empty()) {
    return send_json_error(response, 400, "missing query: give one as q=WORDS");
  }
  if (Status ok = check_query(*query); !ok.ok())
    return send_json_error(response, 400, ok.message());
  const auto limit = parse_count(request, "limit", 10, 1, kMaxApiLimit);
  if (!limit.ok()) return send_json_error(response, 400, limit.status().message());
  const auto offset = parse_count(request, "offset", 0, 0, kMaxOffset);
  if (!offset.ok()) return send_json_error(response, 400, offset.status().message());

  SearchRequest search;
  search.query = *query;
  search.limit = limit.value();
  search.offset = offset.value();
  const Outcome outcome = run_search(pool, queue, search);
  if (outcome.status != 200) return send_json_error(response, outcome.status, outcome.error);
  send_json(response, 200, to_json(outcome.results));
}

WebServer::WebServer(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

WebServer::~WebServer() {
  if (rep_) stop();
}

Result<std::unique_ptr<WebServer>> WebServer::create(const WebServerOptions& options) {
  if (options.port < 0 || options.port > 65535) {
    return Status::error("port " + std::to_string(options.port) + " is not in 0..65535");
  }
  auto rep = std::make_unique<Rep>(options);
  // Fail now, with the Searcher's message, when the index cannot be read.
  {
    auto lease = rep->pool.acquire();
    if (!lease.ok()) return lease.status();
    rep->pool.release(std::move(lease).value(), true);
  }

  Rep* r = rep.get();
  httplib::Server& server = rep->server;
  server.set_default_headers({{"Content-Security-Policy", kContentSecurityPolicy},
                              {"X-Content-Type-Options", "nosniff"},
                              {"Referrer-Policy", "no-referrer"}});
  // One thread per connection served (httplib's default is the number of cores, at least 8,
  // and 64 keep-alive clients held them all: the others timed out).
  server.new_task_queue = [n = options.max_connections] { return new httplib::ThreadPool(n); };
  server.set_read_timeout(5);
  server.set_write_timeout(5);
  // Idle keep-alive connections hold a worker and delay stop() by up to this long.
  server.set_keep_alive_timeout(2);
  server.set_payload_max_length(64 * 1024);  // no route takes a body
  // httplib's default sets SO_REUSEPORT, which would let a second server share the port.
  server.set_socket_options([r](socket_t sock) {  // the listening socket only
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    // A connection is handed to a thread only once it has sent something: clients that
    // connect and say nothing stay with the kernel (dropped after a few seconds) instead of
    // holding a thread each.
    int seconds = 5;
    ::setsockopt(sock, IPPROTO_TCP, TCP_DEFER_ACCEPT, &seconds, sizeof seconds);
    r->listening_fd = sock;
  });
  using httplib::Request;
  using httplib::Response;
  const auto page = [r](const Request& req, Response& res) { r->handle_page(req, res); };
  const auto api = [r](const Request& req, Response& res) { r->handle_api(req, res); };
  server.Get("/", page).Get("/search", page).Get("/api/search", api);
  // Called for every status >= 400: only fill in the bodies httplib leaves empty.
  server.set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        res.set_content(res.status == 404 ? "Not found.\n" : "The request could not be served.\n",
                        "text/plain; charset=utf-8");
        return httplib::Server::HandlerResponse::Handled;
      }));
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        res.status = 500;
        res.set_content("Internal error.\n", "text/plain; charset=utf-8");
      });
  if (options.verbose) {
    server.set_logger([r](const httplib::Request& req, const httplib::Response& res) {
      const std::string line =
          printable(req.method + " " + req.target) + " " + std::to_string(res.status) + "\n";
      std::lock_guard<std::mutex> lock(r->log_mutex);
      std::cerr << line << std::flush;
    });
  }

  errno = 0;
  rep->port = options.port == 0
                  ? server.bind_to_any_port(options.host)
                  : (server.bind_to_port(options.host, options.port) ? options.port : -1);
  if (rep->port >= 0 && rep->listening_fd >= 0) {
    // httplib listens with a backlog of 5: a burst of connections (a load test, a page of
    // users) overflowed it, and each dropped connection waited a second for its SYN to be sent
    // again. Listening again on the socket raises the backlog.
    ::listen(rep->listening_fd, SOMAXCONN);
  }
  if (rep->port < 0) {
    const int error = errno;
    std::string message = "cannot listen on " + options.host + ":" + std::to_string(options.port);
    if (error == EADDRINUSE || error == EACCES || error == EADDRNOTAVAIL) {
      message += ": " + std::string(std::strerror(error));
    } else {
      message += " (is the port in use, or the host not an address of this machine?)";
    }
    return Status::error(message);
  }
  return std::unique_ptr<WebServer>(new WebServer(std::move(rep)));
}

int WebServer::port() const { return rep_->port; }

std::string WebServer::url() const {
  const std::string& host = rep_->options.host;
  const bool ipv6 = host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(rep_->port) + "/";
}

Status WebServer::run() {
  rep_->run_active = true;
  // stop() sets stop_requested before it looks at run_active, and this looks at
  // stop_requested after setting run_active: one of the two sees the other.
  if (rep_->stop_requested) {
    rep_->run_active = false;
    return Status::ok_status();
  }
  const bool ok = rep_->server.listen_after_bind();
  const bool stopped = rep_->stop_requested;
  rep_->run_active = false;
  if (!ok && !stopped) return Status::error("the server stopped: accepting connections failed");
  return Status::ok_status();
}

void WebServer::stop() {
  rep_->stop_requested = true;
  // httplib's stop() only acts once it is listening: wait for run() to get there (or leave).
  while (rep_->run_active && !rep_->server.is_running()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  rep_->server.stop();
}

}  // namespace canon::query
