/// @file test_web_server_api.cpp
/// @brief `canon serve`'s JSON API (GET /api/search) over real HTTP against an index of a small
/// site written here: results, 400 with {"error": ...} for bad parameters, concurrent requests;
/// and SearchRoutes without a socket: its paths and parameters, the origins it answers, the box.
#include <doctest/doctest.h>

#include <httplib.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/running_server.h"
#include "web/web_page.h"
#include "web/web_routes.h"

using nlohmann::json;

using canon::testing::check_security_headers;
using canon::testing::contains;
using canon::testing::RunningServer;
using canon::testing::test_index;

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
