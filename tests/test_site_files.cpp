/// @file test_site_files.cpp
/// @brief The site's files beside the search (web/site_files.h): what each request path is
/// answered with, escapes refused (a table), and which site `canon serve` finds for an index.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/temp_dir.h"
#include "web/site_files.h"
#include "web/web_routes.h"

namespace fs = std::filesystem;
using canon::web::find_served_site;
using canon::web::SiteFiles;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("site files: what each request path is answered with (table)") {
  canon::testing::TempDir temp;
  const fs::path site = temp.path() / "site";
  write(site / "index.html", "<title>Home</title>");
  write(site / "docs/install.html", "<title>Install</title>");
  write(site / "docs/a b.html", "<title>Spaced</title>");
  write(site / "css/site.css", "body{}");
  write(site / "empty/readme.txt", "no index page here");
  write(temp.path() / "secret.html", "<title>Secret</title>");
  write(temp.path() / "outside/page.html", "<title>Outside</title>");
  fs::create_symlink(temp.path() / "secret.html", site / "link-out.html");
  fs::create_symlink(temp.path() / "outside", site / "dir-out");
  fs::create_symlink(site / "docs/install.html", site / "link-in.html");
  const SiteFiles files(fs::canonical(site));

  struct Row {
    const char* comment;
    const char* path;
    int status;
    const char* body_or_location;  // the body of a 200, the Location of a 301
  };
  const Row rows[] = {
      {"a page", "/docs/install.html", 200, "<title>Install</title>"},
      {"the site's root: its index page", "/", 200, "<title>Home</title>"},
      {"a directory whose index page is missing", "/docs/", 404, ""},
      {"a directory without its slash: redirected, so relative links resolve", "/docs", 301, "/docs/"},
      {"an encoded space", "/docs/a%20b.html", 200, "<title>Spaced</title>"},
      {"an asset", "/css/site.css", 200, "body{}"},
      {"a missing file", "/docs/missing.html", 404, ""},
      {"a directory without an index page", "/empty/", 404, ""},
      {"a symbolic link inside the site", "/link-in.html", 200, "<title>Install</title>"},
      // Escapes: every one a 404 that says nothing of the disk.
      {"dot-dot", "/../secret.html", 404, ""},
      {"dot-dot below a directory", "/docs/../../secret.html", 404, ""},
      {"encoded dot-dot", "/%2e%2e/secret.html", 404, ""},
      {"encoded slash", "/docs%2f..%2f..%2fsecret.html", 404, ""},
      {"encoded backslash", "/..%5csecret.html", 404, ""},
      {"a backslash", "/..\\secret.html", 404, ""},
      {"an encoded NUL", "/docs/install.html%00.css", 404, ""},
      {"a symbolic link to a file outside", "/link-out.html", 404, ""},
      {"a symbolic link to a directory outside", "/dir-out/page.html", 404, ""},
      {"an absolute path after the slash", "//etc/passwd", 404, ""},
      {"a path not starting with a slash", "docs/install.html", 404, ""},
      {"a single dot", "/./docs/install.html", 404, ""},
  };
  for (const Row& row : rows) {
    INFO(row.comment << ": " << row.path);
    const canon::web::HttpAnswer answer = files.answer(row.path);
    CHECK(answer.status == row.status);
    if (row.status == 200) {
      CHECK(answer.body == row.body_or_location);
      CHECK(answer.site_page);
    }
    if (row.status == 301) CHECK(answer.location == row.body_or_location);
  }
  CHECK(files.answer("/docs/install.html").content_type == "text/html");
  CHECK(files.answer("/css/site.css").content_type == "text/css");
}

TEST_CASE("served site: where the index was built from, --site, or none with a base URL") {
  canon::testing::TempDir temp;
  const fs::path site = temp.path() / "site";
  write(site / "index.html", "<title>Home</title>");
  const auto index_with = [&](const std::string& parameters) {
    const fs::path index = temp.path() / ("index-" + std::to_string(std::hash<std::string>{}(parameters)));
    write(index / "summary.json", "{\"parameters\": " + parameters + "}");
    return index;
  };
  std::string note;

  const fs::path built_here = index_with(R"({"base_url": "http://localhost/", "site_dir": ")" + site.string() + "\"}");
  auto found = find_served_site(built_here, std::nullopt, note);
  REQUIRE(found.ok());
  CHECK(found->dir == fs::canonical(site));
  CHECK(found->base_url == "http://localhost/");

  // An index built with --base-url links to the real site.
  const fs::path real_site = index_with(R"({"base_url": "https://docs.example.org/", "site_dir": ")" + site.string() + "\"}");
  found = find_served_site(real_site, std::nullopt, note);
  REQUIRE(found.ok());
  CHECK(found->dir.empty());
  CHECK(note.find("https://docs.example.org/") != std::string::npos);

  // The site moved: not served, and the note says to give --site; --site serves it.
  const fs::path moved = index_with(R"({"base_url": "http://localhost/", "site_dir": ")" + (temp.path() / "gone").string() + "\"}");
  found = find_served_site(moved, std::nullopt, note);
  REQUIRE(found.ok());
  CHECK(found->dir.empty());
  CHECK(note.find("--site") != std::string::npos);
  found = find_served_site(moved, site, note);
  REQUIRE(found.ok());
  CHECK(found->dir == fs::canonical(site));

  // --site that is not a directory is an error.
  CHECK_FALSE(find_served_site(moved, temp.path() / "nothing", note).ok());
}
