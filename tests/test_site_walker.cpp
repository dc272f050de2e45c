/// @file test_site_walker.cpp
/// @brief walk_site on temporary directory trees: page names, order, links, unreadable paths.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "indexer/input/site_walker.h"

using canon::indexer::is_page_file_name;
using canon::indexer::SiteListing;
using canon::indexer::walk_site;
namespace fs = std::filesystem;

namespace {

/// A fresh directory under the system temp dir, removed (permissions restored) on destruction.
class TempDir {
public:
  TempDir() {
    std::random_device random;
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("canon-test-site-walker-" + std::to_string(::getpid()) + "-" +
             std::to_string(counter++) + "-" + std::to_string(random()));
    fs::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    restore_permissions(path_);  // a test may have made a directory unreadable
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

private:
  /// Gives the owner full access to `dir` and every real directory below it, top-down.
  static void restore_permissions(const fs::path& dir) {
    std::error_code ec;
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, ec);
    for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      if (it->is_directory(ec) && !it->is_symlink(ec)) restore_permissions(it->path());
    }
  }
  fs::path path_;
};

void write_file(const fs::path& path, const std::string& contents = "<p>x</p>") {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << contents;
}

std::vector<std::string> file_paths(const SiteListing& listing) {
  std::vector<std::string> out;
  for (const auto& file : listing.files) out.push_back(file.relative_path);
  return out;
}

/// The reason `relative_path` was skipped, if it was.
std::optional<std::string> skip_reason(const SiteListing& listing, const std::string& path) {
  for (const auto& skipped : listing.skipped) {
    if (skipped.relative_path == path) return skipped.reason;
  }
  return std::nullopt;
}

std::string show_skipped(const SiteListing& listing) {
  std::string out;
  for (const auto& s : listing.skipped) out += "[" + s.relative_path + ": " + s.reason + "] ";
  return out;
}

/// walk_site that must succeed.
SiteListing walk_ok(const fs::path& dir) {
  auto result = walk_site(dir);
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? std::string() : result.status().message()));
  return std::move(result).value();
}

}  // namespace

TEST_CASE("is_page_file_name: .html and .htm, any letter case") {
  struct Case {
    std::string name;
    bool page;
  };
  const Case cases[] = {
      {"a.html", true},      {"a.htm", true},         {"A.HTML", true},      {"b.HtM", true},
      {"index.html", true},  {"x.y.html", true},      {"a.html5", false},    {"a.xhtml", false},
      {"a.shtml", false},    {"a.html.bak", false},   {"a.txt", false},      {"html", false},
      {".html", false},      {".htm", false},         {"a.", false},         {"", false},
  };
  for (const Case& c : cases) {
    INFO("name: '" << c.name << "'");
    CHECK(is_page_file_name(c.name) == c.page);
  }
}

TEST_CASE("walk_site finds page files, sorted, with '/'-separated relative paths") {
  TempDir site;
  const fs::path root = site.path();
  for (const char* name : {"index.html", "b.htm", "C.HTML", "upper.Htm", "a-b.html", "a.html",
                           "sub/a.html", "sub/dir/deep.html", "folder.html/inner.html",
                           "z/y/x/w.htm"}) {
    write_file(root / name, std::string("<p>") + name + "</p>");  // sizes differ
  }
  for (const char* name : {"notes.txt", "image.png", "html", "page.html.bak", "sub/style.css",
                           "sub/dir/README"}) {
    write_file(root / name, "not a page");
  }
  fs::create_directories(root / "empty" / "dir");

  const SiteListing listing = walk_ok(root);
  // Plain byte order: '-' < '.' < '/' < 'A'-'Z' < 'a'-'z'.
  const std::vector<std::string> expected = {
      "C.HTML", "a-b.html", "a.html", "b.htm", "folder.html/inner.html", "index.html",
      "sub/a.html", "sub/dir/deep.html", "upper.Htm", "z/y/x/w.htm"};
  CHECK(file_paths(listing) == expected);
  const std::vector<std::string> paths = file_paths(listing);
  CHECK(std::is_sorted(paths.begin(), paths.end()));
  CHECK_MESSAGE(listing.skipped.empty(), show_skipped(listing));
  for (const auto& file : listing.files) {
    INFO(file.relative_path);
    CHECK(file.relative_path.find('\\') == std::string::npos);
    CHECK_FALSE(file.relative_path.starts_with('/'));
    CHECK(fs::is_regular_file(file.absolute_path));
    CHECK(fs::equivalent(file.absolute_path, root / file.relative_path));
    CHECK(file.size == fs::file_size(file.absolute_path));  // what the parse schedules by
  }
}

TEST_CASE("walk_site on an empty site: no files, nothing skipped") {
  TempDir site;
  const SiteListing listing = walk_ok(site.path());
  CHECK(listing.files.empty());
  CHECK(listing.skipped.empty());
}

TEST_CASE("walk_site: symbolic link loops terminate") {
  TempDir site;
  const fs::path root = site.path();
  write_file(root / "a.html");
  write_file(root / "sub" / "b.html");
  fs::create_directory_symlink("..", root / "sub" / "up");      // the site root again
  fs::create_directory_symlink(".", root / "sub" / "self");     // its own directory
  fs::create_directory_symlink("../sub", root / "sub" / "again");
  fs::create_symlink("loop2.html", root / "loop1.html");        // file links chasing each other
  fs::create_symlink("loop1.html", root / "loop2.html");

  const SiteListing listing = walk_ok(root);
  CHECK(file_paths(listing) == std::vector<std::string>{"a.html", "sub/b.html"});
  // A link loop between names cannot be opened: recorded, not followed.
  CHECK(skip_reason(listing, "loop1.html").has_value());
  CHECK(skip_reason(listing, "loop2.html").has_value());
  CHECK_FALSE(skip_reason(listing, "sub/up").has_value());  // inside the site: walked once, fine
}

TEST_CASE("walk_site: links leading outside the site are skipped with a reason") {
  TempDir site;
  TempDir outside;
  const fs::path root = site.path();
  write_file(root / "in.html");
  write_file(outside.path() / "out.html");
  write_file(outside.path() / "deep" / "x.html");
  fs::create_directory_symlink(outside.path(), root / "ext");
  fs::create_symlink(outside.path() / "out.html", root / "ext.html");
  // Relative link that leaves the site and comes back in: inside, so taken.
  fs::create_symlink("../" + root.filename().string() + "/in.html", root / "back.html");
  // Not a page: ignored, not even recorded.
  write_file(outside.path() / "notes.txt", "t");
  fs::create_symlink(outside.path() / "notes.txt", root / "notes.txt");

  const SiteListing listing = walk_ok(root);
  CHECK(file_paths(listing) == std::vector<std::string>{"back.html", "in.html"});
  const auto dir_reason = skip_reason(listing, "ext");
  const auto file_reason = skip_reason(listing, "ext.html");
  REQUIRE_MESSAGE(dir_reason.has_value(), show_skipped(listing));
  REQUIRE_MESSAGE(file_reason.has_value(), show_skipped(listing));
  CHECK(dir_reason->find("outside") != std::string::npos);
  CHECK(file_reason->find("outside") != std::string::npos);
  CHECK_FALSE(skip_reason(listing, "notes.txt").has_value());
  CHECK(listing.skipped.size() == 2);
}

TEST_CASE("walk_site: a broken link named like a page is skipped") {
  TempDir site;
  const fs::path root = site.path();
  write_file(root / "ok.html");
  fs::create_symlink(root / "missing.html", root / "x.html");
  fs::create_symlink(root / "missing.txt", root / "x.txt");  // not a page: ignored
  fs::create_directory_symlink(root / "no-such-dir", root / "gone");

  const SiteListing listing = walk_ok(root);
  CHECK(file_paths(listing) == std::vector<std::string>{"ok.html"});
  const auto reason = skip_reason(listing, "x.html");
  REQUIRE_MESSAGE(reason.has_value(), show_skipped(listing));
  CHECK(reason->find("broken") != std::string::npos);
  CHECK_FALSE(skip_reason(listing, "x.txt").has_value());
}

TEST_CASE("walk_site: a linked directory inside the site doesn't duplicate its files") {
  TempDir site;
  const fs::path root = site.path();
  write_file(root / "zzz-real" / "p.html");
  write_file(root / "zzz-real" / "nested" / "q.html");
  // Sorted before the real directory, so a naive walk would reach the files through it first.
  fs::create_directory_symlink("zzz-real", root / "aaa-alias");
  fs::create_directory_symlink(root / "zzz-real" / "nested", root / "zzz-real" / "n-link");

  const SiteListing listing = walk_ok(root);
  CHECK(file_paths(listing) ==
        std::vector<std::string>{"zzz-real/nested/q.html", "zzz-real/p.html"});
  CHECK_MESSAGE(listing.skipped.empty(), show_skipped(listing));
}

TEST_CASE("walk_site: a site directory given through a link is walked") {
  TempDir site;
  TempDir holder;
  write_file(site.path() / "a" / "b.html");
  const fs::path link = holder.path() / "site-link";
  fs::create_directory_symlink(site.path(), link);
  const SiteListing listing = walk_ok(link);
  CHECK(file_paths(listing) == std::vector<std::string>{"a/b.html"});
  CHECK(listing.skipped.empty());
}

TEST_CASE("walk_site fails when the site is not a readable directory") {
  TempDir temp;
  const fs::path missing = temp.path() / "no-such-site";
  const fs::path regular = temp.path() / "file.html";
  write_file(regular);
  struct Case {
    std::string comment;
    fs::path dir;
  };
  const Case cases[] = {{"missing directory", missing}, {"regular file", regular}};
  for (const Case& c : cases) {
    INFO(c.comment);
    const auto result = walk_site(c.dir);
    REQUIRE_FALSE(result.ok());
    const std::string& message = result.status().message();
    INFO(message);
    CHECK(message.find(c.dir.string()) != std::string::npos);  // names the path
    CHECK(message.find("not a directory") != std::string::npos);
  }
  const fs::path dangling = temp.path() / "dangling";  // a broken link as the site
  fs::create_directory_symlink(missing, dangling);
  CHECK_FALSE(walk_site(dangling).ok());
}

TEST_CASE("walk_site records an unreadable subdirectory as skipped") {
  if (::geteuid() == 0) {
    MESSAGE("running as root: permissions don't deny reads, unreadable-directory check skipped");
    return;
  }
  TempDir site;
  const fs::path root = site.path();
  write_file(root / "a.html");
  write_file(root / "locked" / "secret.html");
  write_file(root / "z.html");
  fs::permissions(root / "locked", fs::perms::none);

  const SiteListing listing = walk_ok(root);
  CHECK(file_paths(listing) == std::vector<std::string>{"a.html", "z.html"});
  const auto reason = skip_reason(listing, "locked");
  REQUIRE_MESSAGE(reason.has_value(), show_skipped(listing));
  CHECK(reason->find("cannot read") != std::string::npos);
}

TEST_CASE("walk_site: 1,000 nested directories are walked (no recursion per level)") {
  TempDir dir;
  std::string relative;
  for (int level = 0; level < 1000; ++level) relative += "d/";  // within PATH_MAX
  fs::create_directories(dir.path() / relative);
  write_file(dir.path() / relative / "deep.html");
  write_file(dir.path() / "top.html");
  const auto listing = walk_ok(dir.path());
  REQUIRE(listing.files.size() == 2);
  CHECK(listing.files[0].relative_path == relative + "deep.html");
  CHECK(listing.files[1].relative_path == "top.html");
}

// The walk finds the files in path order without sorting them again: names around '/' in byte
// order ('-', '.', ' ', '!' before it; '0', 'a', '~' after), a directory and a file of one stem.
// The oracle: every page file std::filesystem finds, sorted.
TEST_CASE("walk_site lists random trees in path order") {
  const std::vector<std::string> stems = {"a", "a-b", "a.b", "a b", "a!", "a0", "ab", "a~", "b", "-", "x"};
  std::mt19937 random(7);
  for (int tree = 0; tree < 20; ++tree) {
    TempDir dir;
    for (int k = 0; k < 60; ++k) {
      fs::path path;
      const int depth = 1 + static_cast<int>(random() % 4);
      for (int level = 0; level + 1 < depth; ++level) path /= stems[random() % stems.size()];
      path /= stems[random() % stems.size()] + (random() % 2 ? ".html" : ".htm");
      if (fs::is_directory(dir.path() / path)) continue;
      bool blocked = false;  // a file where a directory of the path would go
      for (fs::path up = path.parent_path(); !up.empty(); up = up.parent_path()) {
        blocked = blocked || fs::is_regular_file(dir.path() / up);
      }
      if (!blocked) write_file(dir.path() / path);
    }
    std::vector<std::string> expected;
    for (const auto& entry : fs::recursive_directory_iterator(dir.path())) {
      if (entry.is_regular_file() && is_page_file_name(entry.path().filename().string())) {
        expected.push_back(fs::relative(entry.path(), dir.path()).generic_string());
      }
    }
    std::sort(expected.begin(), expected.end());
    CHECK(file_paths(walk_ok(dir.path())) == expected);
  }
}

// FileList against a vector of SiteFile (the obvious form it replaces): what goes in comes back,
// through sort_by_path and keep_range, for files under a root and a crawl's captures alike.
TEST_CASE("FileList gives back the SiteFile put in: sorted, cut to a range") {
  using canon::indexer::FileList;
  using canon::indexer::SiteFile;
  std::mt19937 random(29);
  for (const std::string root : {"/site", "/site/", ""}) {
    INFO("root '" << root << "'");
    FileList list(root);
    std::vector<SiteFile> oracle;
    const std::string dir = root.empty() ? "" : (root.ends_with('/') ? root : root + "/");
    for (int k = 0; k < 200; ++k) {
      SiteFile file;
      file.relative_path = "d" + std::to_string(random() % 7) + "/p" + std::to_string(random() % 1000) + ".html";
      file.size = random() % 100000;
      switch (random() % 4) {
        case 0:  // a capture: its own body's file, a type and a record
          file.absolute_path = "/work/bodies/" + std::to_string(k);
          file.content_type = "text/html; charset=latin1";
          file.record = "crawl.warc@" + std::to_string(k * 100);
          break;
        case 1:  // a capture of a redirect: no body
          file.redirect = "http://example.org/" + std::to_string(k);
          file.record = "crawl.warc@" + std::to_string(k * 100);
          break;
        default:  // a file of the directory (or, without a root, at a path of its own)
          file.absolute_path = root.empty() ? "/elsewhere/" + file.relative_path : dir + file.relative_path;
      }
      if (root.empty() || random() % 2 == 0) list.push_back(file);
      else if (file.content_type.empty() && !file.redirect) list.add(file.relative_path, file.size);
      else list.push_back(file);
      oracle.push_back(file);
    }
    const auto same = [](const SiteFile& a, const SiteFile& b) {
      return a.relative_path == b.relative_path && a.absolute_path == b.absolute_path && a.size == b.size &&
             a.content_type == b.content_type && a.redirect == b.redirect && a.record == b.record;
    };
    const auto check_same = [&](const FileList& got, const std::vector<SiteFile>& want) {
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        CHECK(same(got[i], want[i]));
        CHECK(got.relative_path(i) == want[i].relative_path);
        CHECK(got.file_size(i) == want[i].size);
        CHECK(got.is_redirect(i) == want[i].redirect.has_value());
      }
    };
    check_same(list, oracle);
    list.sort_by_path();
    CHECK(list.is_sorted_by_path());
    std::stable_sort(oracle.begin(), oracle.end(),
                     [](const SiteFile& a, const SiteFile& b) { return a.relative_path < b.relative_path; });
    check_same(list, oracle);
    FileList part = list;
    part.keep_range(50, 120);
    check_same(part, std::vector<SiteFile>(oracle.begin() + 50, oracle.begin() + 120));
    FileList none = list;
    none.keep_range(200, 200);
    CHECK(none.empty());
  }
}
