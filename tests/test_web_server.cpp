/// @file test_web_server.cpp
/// @brief `canon serve` over real HTTP: the real server on 127.0.0.1 (a free port) in a thread,
/// against an index of a small site written here, asked with httplib's client. The search page
/// (results, paging, bad input, HEAD, the operator's template) and the server's life (create,
/// stop, searches at once). The JSON API: test_web_server_api.cpp; hostile and slow clients and
/// connection limits: test_web_server_hostile_clients.cpp.
#include <doctest/doctest.h>

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "support/running_server.h"
#include "support/temp_dir.h"
#include "web/web_routes.h"
#include "web/web_server.h"

using canon::web::WebServer;
using canon::web::WebServerOptions;

using canon::testing::check_security_headers;
using canon::testing::contains;
using canon::testing::RunningServer;
using canon::testing::test_index;

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
