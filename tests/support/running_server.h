/// @file running_server.h
/// @brief What the `canon serve` tests share (test_web_server*.cpp): an index of a small site
/// written here, built once; the real server on a free port of 127.0.0.1 in a thread, asked with
/// httplib's client; and the security headers every answer carries.
#pragma once

#include <doctest/doctest.h>

#include <httplib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "common/status.h"
#include "indexer/pipeline.h"
#include "support/temp_dir.h"
#include "web/web_server.h"

namespace canon::testing {

/// A page of the site: `title`, `body` in <main>, `head_extra` in <head>.
inline std::string page(const std::string& title, const std::string& body, const std::string& head_extra = "") {
  return "<!DOCTYPE html><html><head><title>" + title + "</title>" + head_extra +
         "</head><body><main>" + body + "</main></body></html>";
}

/// Text no other page shares three words of, so that pages are not near-duplicates.
inline std::string unique_text(int page_number) {
  std::string text;
  for (int word = 0; word < 40; ++word)
    text += "w" + std::to_string(page_number * 100 + word) + " ";
  return text;
}

/// The site: 13 "kestrel" pages (two result pages), an installation guide with a printer
/// copy collapsed into it, and a page whose title and text carry markup.
inline void write_site(const TempDir& site) {
  std::string links;
  for (int i = 0; i < 13; ++i) {
    const std::string name = "birds/kestrel" + std::to_string(i) + ".html";
    site.write(name, page("Kestrel note " + std::to_string(i),
                          "<p>The kestrel hovers. " + unique_text(i) + "</p>"));
    links += "<a href=\"" + name + "\">k</a> ";
  }
  const std::string guide =
      "<h1>Installing Larder</h1><p>Larder installs from Debian packages: run apt install larder "
      "and answer the questions of the installer. The configuration lives in /etc/larder and the "
      "service starts at boot. Shell completions for bash, zsh and fish are installed with it, "
      "and the manual pages describe every subcommand with examples.</p>";
  site.write("docs/install.html", page("Installing Larder", guide));
  site.write("print/install.html",
             page("Installing Larder (print)", guide,
                  "<link rel=\"canonical\" href=\"http://localhost/docs/install.html\">"));
  site.write("payload.html", page("&lt;script&gt;window.pwned=1&lt;/script&gt; Payload page",
                                  "<p>The falconry &lt;img src=x onerror=alert(1)&gt; guide.</p>"));
  site.write("index.html", page("Home", links + "<a href=\"docs/install.html\">install</a> "
                                                "<a href=\"payload.html\">payload</a>"));
}

/// One index shared by the test cases (they only read it).
inline const std::filesystem::path& test_index() {
  static TempDir dir;
  static const std::filesystem::path index = [] {
    TempDir site;
    write_site(site);
    canon::indexer::IndexOptions options;
    options.site_dir = site.path();
    options.out_dir = dir.path() / "index";
    options.show_progress = false;
    auto summary = canon::indexer::index_site(options);
    REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.status().message()));
    return options.out_dir;
  }();
  return index;
}

/// The server on a free port of 127.0.0.1, run in a thread; stopped and joined at the end.
class RunningServer {
public:
  explicit RunningServer(const std::filesystem::path& index_dir, canon::web::WebServerOptions options = {}) {
    options.index_dir = index_dir;
    options.port = 0;
    auto created = canon::web::WebServer::create(options);
    REQUIRE_MESSAGE(created.ok(), (created.ok() ? "" : created.status().message()));
    server_ = std::move(created).value();
    thread_ = std::thread([this] { status_ = server_->run(); });
  }
  ~RunningServer() {
    server_->stop();
    thread_.join();
  }

  int port() const { return server_->port(); }
  canon::web::WebServer& server() { return *server_; }

  /// A client that sends paths exactly as written (already percent-encoded).
  httplib::Client client() const {
    httplib::Client client("127.0.0.1", server_->port());
    client.set_url_encode(false);
    client.set_connection_timeout(5);
    client.set_read_timeout(20);
    return client;
  }

  /// GET `path`; the test fails when there is no response.
  httplib::Response get(const std::string& path) const {
    auto client = this->client();
    auto result = client.Get(path.c_str());
    REQUIRE_MESSAGE(result,
                    "no response to " << path << ": " << httplib::to_string(result.error()));
    return result.value();
  }

private:
  std::unique_ptr<canon::web::WebServer> server_;
  std::thread thread_;
  canon::Status status_ = canon::Status::ok_status();
};

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

/// The headers every answer of the server carries: no script, no sniffing, no referrer.
inline void check_security_headers(const httplib::Response& response) {
  CHECK(response.get_header_value("Content-Security-Policy") ==
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
  CHECK(response.get_header_value("X-Content-Type-Options") == "nosniff");
  CHECK(response.get_header_value("Referrer-Policy") == "no-referrer");
}

}  // namespace canon::testing
