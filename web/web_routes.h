/// @file web_routes.h
/// @brief What `canon serve` answers to a GET, apart from the network: the routes, their
/// parameter checks and a pool of Searchers. Testable without a socket (web_server.h carries
/// the answers over HTTP).
///
/// Routes (docs/design.md, "Web front end"):
///   GET /search?q=&offset=          the HTML search page (web_page.h), 10 results a page; also
///                                   GET / unless the site is served and has an index page
///   GET /api/search?q=&limit=&offset=   query::to_json(results); {"error": "..."} with 400
///   (both searches take correct=0: the query as typed, without a spelling correction)
///   anything else                   a file of the site (site_files.h) when it is served; else 404
/// Bad input is answered with 400 and a message: a missing or empty q (API), a q that is not
/// valid UTF-8, holds control characters or is longer than kMaxQueryBytes, a limit outside
/// 1..100 or an offset outside 0..10000 (digits only), a malformed query. The first of
/// repeated parameters counts.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "query/shard_set.h"
#include "web/page_template.h"
#include "web/site_files.h"

namespace canon::web {

using query::ShardOptions;

/// Longest query accepted, in bytes.
inline constexpr std::size_t kMaxQueryBytes = 1024;
/// Largest `limit` of /api/search.
inline constexpr std::size_t kMaxApiLimit = 100;
/// Largest `offset` of /api/search and /search.
inline constexpr std::size_t kMaxOffset = 10000;

/// An answer before it is sent: the server adds the other headers.
struct HttpAnswer {
  HttpAnswer() = default;
  HttpAnswer(int code, std::string type, std::string text)
      : status(code), content_type(std::move(type)), body(std::move(text)) {}

  int status = 200;
  /// The Content-Type header.
  std::string content_type;
  std::string body;
  /// The Location header of a redirect ("" for none).
  std::string location;
  /// A file of the site (site_files.h), sent as a static file server sends it: without the
  /// search page's Content-Security-Policy, which allows no script.
  bool site_page = false;
  /// The Access-Control-Allow-Origin header (with Vary: Origin): the other site's origin whose
  /// page may read this answer ("" for none).
  std::string allow_origin;
};

/// How the routes present the search to readers and to other sites.
struct FrontEnd {
  /// Origins (scheme://host[:port], as browsers send them in Origin) whose pages may call
  /// /api/search from a browser (the embeddable box, web/embed/); "*" for any. Others get 403.
  std::vector<std::string> allowed_origins;
  /// The search page's layout; null for canon's own (PageTemplate::standard()).
  std::shared_ptr<const PageTemplate> page_template;
};

/// A short text/plain answer (`message` and a newline): errors of the server itself.
HttpAnswer plain_answer(int status, std::string_view message);

/// The routes over one index. Thread-safe: answer() runs on many threads at once, each search on
/// a Searcher of its own from a pool (Searchers are not thread-safe; the pool holds at most as
/// many as searches ever ran at once). When the index is rebuilt in place (`canon index` swaps
/// INDEX_DIR), later searches use the new one.
class SearchRoutes {
public:
  /// Searches `index_dir`; serves `site`'s files at every other path when site.dir is set, and
  /// links results under site.base_url to them.
  explicit SearchRoutes(std::filesystem::path index_dir, ShardOptions shards = {}, ServedSite site = {},
                        FrontEnd front_end = {});
  ~SearchRoutes();
  SearchRoutes(const SearchRoutes&) = delete;
  SearchRoutes& operator=(const SearchRoutes&) = delete;

  /// Opens a Searcher: fails with its message when the index cannot be read.
  Status check_index();

  /// The answer to a GET of `target`, the request line's path and query string as sent
  /// ("/search?q=kestrel"), from a page at `origin` (the Origin header, "" when none was sent)
  /// to the server named `host` (the Host header). Never throws; a failed search is a 500 or
  /// 503 answer.
  HttpAnswer answer(std::string_view target, std::string_view origin = {}, std::string_view host = {});

private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace canon::web
