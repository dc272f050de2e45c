/// @file web_routes.cpp
/// @brief SearchRoutes: the routes and their parameter checks, and a pool of Searchers.
#include "web/web_routes.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "common/percent_encoding.h"
#include "common/utf8.h"
#include "query/render.h"
#include "query/searcher.h"
#include "web/embed_assets.h"
#include "web/web_page.h"

namespace canon::web {

using query::FacetFilter;
using query::SearchHit;
using query::SearchRequest;
using query::SearchResults;
using query::Searcher;
using query::to_json;
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

/// A request's query parameters.
class Parameters {
public:
  explicit Parameters(std::string_view query_string) : pairs_(parse_query_string(query_string)) {}

  /// The first value of parameter `name`, or null when it is absent.
  const std::string* find(std::string_view name) const {
    const auto it = std::find_if(pairs_.begin(), pairs_.end(),
                                 [name](const QueryParameter& pair) { return pair.name == name; });
    return it == pairs_.end() ? nullptr : &it->value;
  }

  /// Parameter `name` as a whole number in [min, max]; `fallback` when absent.
  Result<std::size_t> count(const std::string& name, std::size_t fallback, std::size_t min,
                            std::size_t max) const {
    const std::string* text = find(name);
    if (text == nullptr) return fallback;
    const Status bad = Status::error(name + " must be a whole number from " +
                                     std::to_string(min) + " to " + std::to_string(max));
    if (text->empty() || text->size() > 9) return bad;  // 9 digits cannot overflow
    std::size_t value = 0;
    for (const char c : *text) {
      if (c < '0' || c > '9') return bad;
      value = value * 10 + static_cast<std::size_t>(c - '0');
    }
    if (value < min || value > max) return bad;
    return value;
  }

private:
  std::vector<QueryParameter> pairs_;
};

/// Idle Searchers: a search takes one (opening a new one when none is idle) and gives it back,
/// so there are at most as many as searches that ran at once. Searchers of a replaced index are
/// dropped.
class SearcherPool {
public:
  SearcherPool(std::filesystem::path index_dir, ShardOptions shards)
      : index_dir_(std::move(index_dir)), shards_(shards) {}

  struct Lease {
    std::unique_ptr<Searcher> searcher;
    FileIdentity identity;
  };

  Result<Lease> acquire() {
    const FileIdentity current = file_identity(index_dir_);
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
    auto opened = Searcher::open(index_dir_, shards_);
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
  const ShardOptions shards_;
  std::mutex mutex_;
  FileIdentity identity_;
  std::vector<std::unique_ptr<Searcher>> idle_;
};

/// A search's result or the HTTP status and message to answer with.
struct Outcome {
  int status = 200;
  std::string error;
  SearchResults results;
  std::size_t document_count = 0;
};

/// Runs `request` (or, with an empty query, only counts the documents) on a pooled Searcher.
Outcome run_search(SearcherPool& pool, const SearchRequest& request) {
  Outcome outcome;
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

HttpAnswer html_answer(int status, std::string html) {
  return {status, "text/html; charset=utf-8", std::move(html)};
}

HttpAnswer json_answer(int status, const nlohmann::json& json) {
  // Crawled text is UTF-8-checked at index time; should anything slip through, replace it
  // rather than throw.
  return {status, "application/json; charset=utf-8",
          json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
}

HttpAnswer json_error(int status, const std::string& message) {
  return json_answer(status, nlohmann::json{{"error", message}});
}

/// The facet filters the request names: `section=`, `release=`, `language=` (the first of each;
/// an empty value is none).
std::vector<FacetFilter> facet_filters(const Parameters& parameters) {
  std::vector<FacetFilter> filters;
  for (index_format::Facet facet : index_format::kFacets) {
    const std::string* value = parameters.find(index_format::facet_name(facet));
    if (value != nullptr && !value->empty()) filters.push_back({facet, *value});
  }
  return filters;
}

/// The search page, laid out by `layout`; results under `local_base` link to this server's copy of the site.
HttpAnswer search_page(SearcherPool& pool, const Parameters& parameters, const std::string& local_base,
                       const PageTemplate& layout) {
  SearchPage page;
  page.local_base_url = local_base;
  if (const std::string* query = parameters.find("q"); query != nullptr) {
    if (Status ok = check_query(*query); !ok.ok()) {
      page.error = ok.message();
      return html_answer(400, render_search_page(page, layout));
    }
    if (!is_blank(*query)) page.query = *query;
  }
  const auto offset = parameters.count("offset", 0, 0, kMaxOffset);
  const auto correct = parameters.count("correct", 1, 0, 1);
  if (!offset.ok() || !correct.ok()) {
    page.error = (offset.ok() ? correct : offset).status().message();
    return html_answer(400, render_search_page(page, layout));
  }
  page.as_typed = correct.value() == 0;
  page.filters = facet_filters(parameters);

  SearchRequest search;
  search.filters = page.filters;
  search.count_facets = true;
  search.query = page.query;
  search.correct_spelling = !page.as_typed;
  search.offset = offset.value();
  search.limit = kPageSize + 1;  // one more tells whether there is a next page
  search.highlight_start = std::string(kHighlightStart);
  search.highlight_end = std::string(kHighlightEnd);
  Outcome outcome = run_search(pool, search);
  if (outcome.status != 200) {
    page.error = outcome.error;
    return html_answer(outcome.status, render_search_page(page, layout));
  }
  page.document_count = outcome.document_count;
  if (!page.query.empty()) {
    SearchResults& results = outcome.results;
    page.has_next = results.hits.size() > kPageSize && search.offset + kPageSize <= kMaxOffset;
    if (results.hits.size() > kPageSize) results.hits.resize(kPageSize);
    page.results = &results;
  }
  return html_answer(200, render_search_page(page, layout));
}

HttpAnswer search_api(SearcherPool& pool, const Parameters& parameters) {
  const std::string* query = parameters.find("q");
  if (query == nullptr || query->empty()) {
    return json_error(400, "missing query: give one as q=WORDS");
  }
  if (Status ok = check_query(*query); !ok.ok()) return json_error(400, ok.message());
  const auto limit = parameters.count("limit", 10, 1, kMaxApiLimit);
  if (!limit.ok()) return json_error(400, limit.status().message());
  const auto offset = parameters.count("offset", 0, 0, kMaxOffset);
  if (!offset.ok()) return json_error(400, offset.status().message());
  const auto correct = parameters.count("correct", 1, 0, 1);
  if (!correct.ok()) return json_error(400, correct.status().message());
  const auto facets = parameters.count("facets", 0, 0, 1);
  if (!facets.ok()) return json_error(400, facets.status().message());

  SearchRequest search;
  search.correct_spelling = correct.value() == 1;
  search.filters = facet_filters(parameters);
  search.count_facets = facets.value() == 1;
  search.query = *query;
  search.limit = limit.value();
  search.offset = offset.value();
  const Outcome outcome = run_search(pool, search);
  if (outcome.status != 200) return json_error(outcome.status, outcome.error);
  return json_answer(200, to_json(outcome.results));
}

}  // namespace

HttpAnswer plain_answer(int status, std::string_view message) {
  return {status, "text/plain; charset=utf-8", std::string(message) + "\n"};
}

struct SearchRoutes::Rep {
  Rep(std::filesystem::path index_dir, ShardOptions shards, ServedSite served, FrontEnd front)
      : pool(std::move(index_dir), shards), site(std::move(served)), files(site.dir), front_end(std::move(front)) {}
  SearcherPool pool;
  const ServedSite site;
  const SiteFiles files;
  const FrontEnd front_end;

  const PageTemplate& layout() const {
    return front_end.page_template ? *front_end.page_template : PageTemplate::standard();
  }
};

SearchRoutes::SearchRoutes(std::filesystem::path index_dir, ShardOptions shards, ServedSite site, FrontEnd front_end)
    : rep_(std::make_unique<Rep>(std::move(index_dir), shards, std::move(site), std::move(front_end))) {}

SearchRoutes::~SearchRoutes() = default;

Status SearchRoutes::check_index() {
  auto lease = rep_->pool.acquire();
  if (!lease.ok()) return lease.status();
  rep_->pool.release(std::move(lease).value(), true);
  return Status::ok_status();
}

/// The API's answer to a browser page at `origin` (the request's Origin header; "" when it
/// sent none, as a same-origin GET and a non-browser client do), on a server reached as `host`:
/// searched, with Access-Control-Allow-Origin when `origin` is listed; refused (403) when it
/// is another site's that is not.
HttpAnswer api_answer(SearcherPool& pool, const Parameters& parameters, const FrontEnd& front_end,
                      std::string_view origin, std::string_view host) {
  const bool same_origin = origin.empty() || origin == "http://" + std::string(host);
  const bool listed = std::any_of(front_end.allowed_origins.begin(), front_end.allowed_origins.end(),
                                  [&](const std::string& allowed) { return allowed == "*" || allowed == origin; });
  if (!same_origin && !listed) {
    return json_error(403, "pages at " + std::string(origin) +
                               " may not use this search (canon serve --allow-origin lists the sites that may)");
  }
  HttpAnswer answer = search_api(pool, parameters);
  if (!same_origin) answer.allow_origin = std::string(origin);
  return answer;
}

HttpAnswer SearchRoutes::answer(std::string_view target, std::string_view origin, std::string_view host) {
  try {
    const std::size_t question = target.find('?');
    const std::string_view path = target.substr(0, question);
    const Parameters parameters(question == std::string_view::npos ? std::string_view()
                                                                   : target.substr(question + 1));
    const bool site_served = !rep_->site.dir.empty();
    const std::string local_base = site_served ? rep_->site.base_url : std::string();
    if (path == "/search" || (path == "/" && !site_served)) {
      return search_page(rep_->pool, parameters, local_base, rep_->layout());
    }
    if (path == "/api/search") return api_answer(rep_->pool, parameters, rep_->front_end, origin, host);
    if (path == "/embed/canon-search.js") return {200, "text/javascript; charset=utf-8", std::string(embed_script())};
    if (path == "/embed/canon-search.css") return {200, "text/css; charset=utf-8", std::string(embed_stylesheet())};
    if (!site_served) return plain_answer(404, "Not found.");
    // The site's root is its home page; the search is at /search.
    HttpAnswer file = rep_->files.answer(path);
    if (path == "/" && file.status == 404) return search_page(rep_->pool, parameters, local_base, rep_->layout());
    return file;
  } catch (const std::exception&) {  // e.g. out of memory rendering a page
    return plain_answer(500, "Internal error.");
  }
}

}  // namespace canon::web
