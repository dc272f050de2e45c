/// @file command_serve.cpp
/// @brief `canon serve INDEX_DIR`: the search page and JSON API (web/web_server.h) until
/// SIGINT or SIGTERM.
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/commands.h"
#include "cli/option_groups.h"
#include "common/file_io.h"
#include "web/web_server.h"

namespace canon::cli {
namespace {

/// Blocks SIGINT and SIGTERM in the calling thread (and so in every thread it starts) and
/// returns the set. A watcher thread takes them with sigtimedwait(): the server is stopped
/// from an ordinary thread, never from a signal handler.
sigset_t block_stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

/// Checks an --allow-origin value: "*", or an origin as browsers send it (http or https, a
/// host, an optional port; no path).
CLI::Validator origin_check() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        if (value == "*") return "";
        const std::size_t scheme = value.find("://");
        const std::string_view name = scheme == std::string::npos ? "" : std::string_view(value).substr(0, scheme);
        const bool ok = (name == "http" || name == "https") && value.size() > scheme + 3 &&
                        value.find('/', scheme + 3) == std::string::npos;
        return ok ? "" : "an origin is scheme://host[:port] (http or https, no path), or *: not '" + value + "'";
      },
      "ORIGIN");
}

/// The page template in `path`; exits with a message when it cannot be read or is not one.
std::shared_ptr<const web::PageTemplate> read_template(const std::string& path) {
  auto text = read_file(path);
  if (!text.ok()) fail(Status::io_error("cannot read the template " + path + ": " + text.status().message()));
  auto parsed = web::PageTemplate::parse(text.value());
  if (!parsed.ok()) fail(Status::error(path + ": " + parsed.status().message()));
  return std::make_shared<const web::PageTemplate>(std::move(parsed).value());
}

/// --allow-origin (into front_end) and --template (the file's name into template_file).
void add_front_end_options(CLI::App& serve, web::FrontEnd& front_end, std::string& template_file) {
  serve
      .add_option("--allow-origin", front_end.allowed_origins,
                  "A site (scheme://host[:port]) whose pages may use the search from a browser: the "
                  "embeddable box of /embed/canon-search.js; repeat for several, * for any")
      ->check(origin_check());
  serve.add_option("--template", template_file,
                   "HTML file laying out the search page, with slots {{title}} {{query}} {{style}} {{form}} "
                   "{{results}} (default: canon's own page)");
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto options = std::make_shared<web::WebServerOptions>();
  CLI::App* serve = app.add_subcommand("serve", "Serve a search page and a JSON API over HTTP");
  serve->add_option("INDEX_DIR", options->index_dir,
                    "Index directory written by `canon index` or `canon shard`, or a stub file listing shards")
      ->required();
  serve->add_option("--host", options->host, "Address to listen on (the default serves this machine only)")
      ->capture_default_str();
  serve->add_option("--port", options->port, "Port to listen on (0: any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  serve->add_option("--max-connections", options->max_connections,
                    "Connections open at once; past it a connection is answered 503")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  serve->add_option("--max-connections-per-client", options->max_connections_per_client,
                    "Connections open at once from one address; past it 503")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  serve->add_option_function<double>(
            "--request-timeout",
            [options](double seconds) {
              options->request_timeout = std::chrono::milliseconds(static_cast<long>(seconds * 1000));
            },
            "Seconds a client has to send a request (or read an answer) before it is disconnected")
      ->default_str("10")
      ->check(CLI::Range(0.1, 3600.0));
  serve->add_option("--search-threads", options->search_threads,
                    "Searches run at once (0: one per core; four per core when the index lists remote shards)")
      ->capture_default_str()
      ->check(CLI::Range(0u, 1024u));
  auto site_dir = std::make_shared<std::optional<std::filesystem::path>>();
  serve->add_option_function<std::filesystem::path>(
      "--site", [site_dir](const std::filesystem::path& dir) { *site_dir = dir; },
      "The site's directory, whose pages are served beside the search (default: where the index was built "
      "from, when it used the default base URL)");
  auto template_file = std::make_shared<std::string>();
  add_front_end_options(*serve, options->front_end, *template_file);
  add_shard_options(*serve, options->shards);
  serve->add_flag("--verbose,-v", options->verbose, "Log one line per request to stderr");

  serve->callback([options, site_dir, template_file] {
    if (!template_file->empty()) options->front_end.page_template = read_template(*template_file);
    std::string site_note;
    auto site = web::find_served_site(options->index_dir, *site_dir, site_note);
    if (!site.ok()) fail(site.status());
    options->site = std::move(site).value();
    const sigset_t signals = block_stop_signals();
    auto server = web::WebServer::create(*options);
    if (!server.ok()) fail(server.status());
    web::WebServer& web = *server.value();
    // One write, so that a script reading stderr never sees half the line.
    const bool loopback = options->host == "127.0.0.1" || options->host == "::1" || options->host == "localhost";
    const std::string serving = "canon: serving " + options->index_dir.string() + " at " + web.url() + "\n" +
                                "canon: " + site_note + "\n" +
                                (options->site.dir.empty() ? "" : "canon: the search page is " + web.url() + "search\n") +
                                (loopback ? "canon: only this machine can connect (--host 0.0.0.0 serves others)\n" : "");
    std::cerr << serving << std::flush;

    std::jthread watcher([&web, signals](std::stop_token stop) {
      const timespec tick{0, 200'000'000};
      while (!stop.stop_requested()) {
        if (sigtimedwait(&signals, nullptr, &tick) > 0) {
          web.stop();
          return;
        }
      }
    });
    const Status status = web.run();
    watcher.request_stop();
    watcher.join();
    if (!status.ok()) fail(status);
  });
}

}  // namespace canon::cli
