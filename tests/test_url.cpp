/// @file test_url.cpp
/// @brief resolve_url, normalize_url, strip_index_page, file_url, url_host, url_path,
/// url_directories: tables.
#include <doctest/doctest.h>

#include <string>

#include "urls/url.h"

using canon::urls::file_url;
using canon::urls::normalize_url;
using canon::urls::resolve_url;
using canon::urls::strip_index_page;
using canon::urls::url_host;
using canon::urls::url_directories;
using canon::urls::url_path;

namespace {

/// Expected value meaning "must fail".
constexpr const char* kError = nullptr;

/// One row: `expected == kError` means the call must return a failed Result.
struct ResolveCase {
  const char* base;
  const char* reference;
  const char* expected;
  const char* comment;
};

/// Checks a Result<std::string> against a row's expectation, with the message on failure.
void check_result(const canon::Result<std::string>& got, const char* expected) {
  if (expected == kError) {
    CHECK_MESSAGE(!got.ok(), "unexpected value: " << (got.ok() ? got.value() : ""));
    if (!got.ok()) CHECK_FALSE(got.status().message().empty());
  } else {
    CHECK_MESSAGE(got.ok(), "error: " << (got.ok() ? "" : got.status().message()));
    if (got.ok()) CHECK(got.value() == std::string(expected));
  }
}

/// doctest prints a `const char*` as a pointer: logged text goes through std::string.
std::string str(const char* text) { return text != nullptr ? text : "(error)"; }

constexpr const char* kBase = "http://example.com/a/b/page.html";

}  // namespace

TEST_CASE("resolve_url resolves and normalises like a browser") {
  const ResolveCase cases[] = {
      // Relative references.
      {kBase, "other.html", "http://example.com/a/b/other.html", "sibling"},
      {kBase, "sub/x.html", "http://example.com/a/b/sub/x.html", "child path"},
      {kBase, "/root.html", "http://example.com/root.html", "root-relative"},
      {kBase, "../up.html", "http://example.com/a/up.html", "parent"},
      {kBase, "../../../../x.html", "http://example.com/x.html", "'..' above the root clamps"},
      {kBase, "./here.html", "http://example.com/a/b/here.html", "dot segment"},
      {kBase, ".", "http://example.com/a/b/", "'.' is the directory"},
      {kBase, "..", "http://example.com/a/", "'..' is the parent directory"},
      {kBase, "a/./b/../c.html", "http://example.com/a/b/a/c.html", "inner dot segments"},
      {"http://example.com/dir/", "x.html", "http://example.com/dir/x.html", "directory base"},
      {"http://example.com", "x.html", "http://example.com/x.html", "base with empty path"},
      {"http://example.com", "?q=1", "http://example.com/?q=1", "empty-path base, query"},
      {kBase, "http://example.com?q=1", "http://example.com/?q=1", "absolute, empty path, query"},
      // Query and fragment.
      {kBase, "?q=1", "http://example.com/a/b/page.html?q=1", "query-only reference"},
      {kBase, "x.html?b=2&a=1", "http://example.com/a/b/x.html?b=2&a=1", "query kept as is"},
      {kBase, "x.html#frag", "http://example.com/a/b/x.html", "fragment dropped"},
      {kBase, "x.html?q=1#frag", "http://example.com/a/b/x.html?q=1", "query kept, no fragment"},
      {kBase, "#top", "http://example.com/a/b/page.html", "fragment-only = the page"},
      {"http://example.com/p.html#sec", "", "http://example.com/p.html", "base fragment dropped"},
      // Scheme-relative and absolute.
      {kBase, "//other.org/p.html", "http://other.org/p.html", "scheme-relative keeps http"},
      {"https://example.com/", "//other.org/p", "https://other.org/p", "scheme-relative https"},
      {kBase, "//other.org", "http://other.org/", "scheme-relative, empty path"},
      {kBase, "https://secure.example.com/x", "https://secure.example.com/x", "absolute"},
      // Case, ports, percent-encoding.
      {kBase, "HTTP://EXAMPLE.COM/Path/File.HTML", "http://example.com/Path/File.HTML",
       "scheme and host lowered, path case kept"},
      {"HTTP://Example.COM/a/", "x.html", "http://example.com/a/x.html", "upper-case base"},
      {kBase, "http://example.com:80/x", "http://example.com/x", "default http port dropped"},
      {kBase, "https://example.com:443/x", "https://example.com/x", "default https port dropped"},
      {kBase, "http://example.com:80", "http://example.com/", "default port, empty path"},
      {kBase, "http://example.com:8080/x", "http://example.com:8080/x", "other port kept"},
      {kBase, "https://example.com:80/x", "https://example.com:80/x", "80 is not https's default"},
      {kBase, "a%2fb%c3%a9.html", "http://example.com/a/b/a%2Fb%C3%A9.html",
       "percent-encodings upper-cased"},
      {kBase, "%7euser/", "http://example.com/a/b/~user/", "encoded unreserved char decoded"},
      {kBase, "x.html?q=%3d", "http://example.com/a/b/x.html?q=%3D", "query encodings too"},
      // White space, as browsers treat it.
      {kBase, "my page.html", "http://example.com/a/b/my%20page.html", "inner space encoded"},
      {kBase, "  spaced.html \n", "http://example.com/a/b/spaced.html", "surrounding ws trimmed"},
      {kBase, "li\nne.html", "http://example.com/a/b/line.html", "inner newline removed"},
      {kBase, "x.html?q=a b", "http://example.com/a/b/x.html?q=a%20b", "space in query"},
      // Empty reference.
      {kBase, "", kBase, "empty reference = the base"},
      {kBase, "   ", kBase, "blank reference = the base"},
      // Not http(s).
      {kBase, "mailto:someone@example.com", kError, "mailto rejected"},
      {kBase, "javascript:void(0)", kError, "javascript rejected"},
      {kBase, "JavaScript:alert(1)", kError, "javascript, any case, rejected"},
      {kBase, "ftp://example.com/file.txt", kError, "ftp rejected"},
      {kBase, "tel:+123456", kError, "tel rejected"},
      {kBase, "data:text/html,hi", kError, "data rejected"},
      // Garbage.
      {kBase, "http://[::1", kError, "unclosed IPv6 literal"},
      {kBase, "http://exa<mple.com/", kError, "'<' in host"},
      {kBase, "x.html#a#b", kError, "two fragments"},
      {"not a url", "x.html", kError, "garbage base"},
      {"/relative/base/", "x.html", kError, "relative base"},
      {"mailto:a@example.com", "", kError, "non-http base, empty reference"},
  };
  for (const ResolveCase& c : cases) {
    INFO(str(c.comment) << ": base [" << str(c.base) << "], reference [" << str(c.reference)
                        << "]");
    check_result(resolve_url(c.base, c.reference), c.expected);
  }
}

TEST_CASE("normalize_url is resolve_url of a URL against itself") {
  struct Case {
    const char* url;
    const char* expected;
    const char* comment;
  };
  const Case cases[] = {
      {"http://example.com/a.html", "http://example.com/a.html", "already normal"},
      {"HTTP://Example.COM/a/./b/../c.html", "http://example.com/a/c.html", "case, dots"},
      {"http://example.com", "http://example.com/", "empty path becomes '/'"},
      {"http://example.com?a=1", "http://example.com/?a=1", "empty path with a query"},
      {"http://example.com:80", "http://example.com/", "default port, empty path"},
      {"https://example.com:443/", "https://example.com/", "default https port"},
      {"http://example.com/x#frag", "http://example.com/x", "fragment dropped"},
      {"http://example.com/%7e%c3%a9", "http://example.com/~%C3%A9", "percent-encodings"},
      {"http://example.com/a//b", "http://example.com/a//b", "empty segments kept"},
      {"http://example.com/a%2fb%3F", "http://example.com/a%2Fb%3F", "reserved characters stay encoded"},
      {"http://example.com/%41%5a%2d", "http://example.com/AZ-", "unreserved characters decoded"},
      {"http://example.com/?q=%7e&r=%2b", "http://example.com/?q=~&r=%2B", "the query's encodings too"},
      // uriparser writes an IPv6 address in full: one form per address, if not RFC 5952's.
      {"http://[::1]:80/a", "http://[0000:0000:0000:0000:0000:0000:0000:0001]/a", "IPv6 host, default port"},
      {"http://Example.COM:8080/A", "http://example.com:8080/A", "other port kept, path case kept"},
      {"http://example.com/a/../../b", "http://example.com/b", "dots above the root"},
      {"http://user@Example.com/", "http://user@example.com/", "userinfo kept"},
      {"/relative.html", kError, "relative URL"},
      {"relative.html", kError, "relative path"},
      {"", kError, "empty"},
      {"mailto:a@example.com", kError, "not http(s)"},
      {"ftp://example.com/", kError, "ftp"},
      {"http://exa<mple.com/", kError, "garbage"},
      // Found by fuzz_url (crash-823d326e): an http URL without a host was "normalised" by
      // adding '/' to its query, and again on every pass ("http:?a" -> "http:?a/" -> ...).
      {"HTTP:?a", kError, "fuzz_url crash-823d326e: http without a host, query only"},
      {"http:x", kError, "http without a host, path only"},
      {"http:///a.html", kError, "http with an empty host"},
  };
  // Found by fuzz_url: a NUL ended the URL where uriparser read it, so what followed it was
  // silently dropped ("http://a/b\0c" came back as "http://a/b").
  CHECK_FALSE(normalize_url(std::string("http://a.example/b\0c", 20)).ok());
  CHECK_FALSE(resolve_url("http://a.example/", std::string("b\0c", 3)).ok());
  for (const Case& c : cases) {
    INFO(str(c.comment) << ": [" << str(c.url) << "]");
    const auto got = normalize_url(c.url);
    check_result(got, c.expected);
    if (c.expected != kError) {
      const auto self = resolve_url(c.url, c.url);
      CHECK(self.ok());
      if (self.ok() && got.ok()) CHECK(self.value() == got.value());
      if (!got.ok()) continue;
      const auto again = normalize_url(got.value());  // idempotent
      CHECK(again.ok());
      if (again.ok()) CHECK(again.value() == got.value());
    }
  }
}

TEST_CASE("strip_index_page maps a directory's index page to the directory") {
  struct Case {
    const char* url;
    const char* expected;
    const char* comment;
  };
  const Case cases[] = {
      {"http://example.com/index.html", "http://example.com/", "root index.html"},
      {"http://example.com/dir/index.html", "http://example.com/dir/", "dir/index.html"},
      {"http://example.com/dir/index.htm", "http://example.com/dir/", "index.htm"},
      {"http://example.com/dir/index.html?x=1", "http://example.com/dir/?x=1", "query kept"},
      {"http://example.com/dir/index.html?p=/index.html", "http://example.com/dir/?p=/index.html",
       "only the path is stripped"},
      {"http://example.com/dir/myindex.html", "http://example.com/dir/myindex.html",
       "myindex.html is not an index page"},
      {"http://example.com/dir/index.html5", "http://example.com/dir/index.html5", "other suffix"},
      {"http://example.com/dir/index.php", "http://example.com/dir/index.php", "not .html/.htm"},
      {"http://example.com/index.html/x", "http://example.com/index.html/x", "not last segment"},
      {"http://example.com/dir/", "http://example.com/dir/", "directory unchanged"},
      {"http://example.com/x?p=/index.html", "http://example.com/x?p=/index.html",
       "index.html in the query only"},
  };
  for (const Case& c : cases) {
    INFO(str(c.comment) << ": [" << str(c.url) << "]");
    CHECK(strip_index_page(c.url) == std::string(c.expected));
  }
}

TEST_CASE("file_url maps a file of the site to its URL") {
  const ResolveCase cases[] = {
      {"http://example.com/", "page.html", "http://example.com/page.html", "top-level file"},
      {"http://example.com/", "a/b/c.html", "http://example.com/a/b/c.html", "nested path"},
      {"http://example.com/", "index.html", "http://example.com/", "root index.html"},
      {"http://example.com/", "docs/index.html", "http://example.com/docs/", "dir index.html"},
      {"http://example.com/", "docs/index.htm", "http://example.com/docs/", "dir index.htm"},
      {"http://example.com/", "docs/myindex.html", "http://example.com/docs/myindex.html",
       "not an index page"},
      {"http://example.com/", "cart;jsessionid=ABC.html",
       "http://example.com/cart;jsessionid=ABC.html",
       "';' and '=' are pchars, kept"},
      {"http://example.com/", "my page.html", "http://example.com/my%20page.html", "space"},
      {"http://example.com/", "q?x=1.html", "http://example.com/q%3Fx=1.html", "'?' encoded"},
      {"http://example.com/", "a#b.html", "http://example.com/a%23b.html", "'#' encoded"},
      {"http://example.com/", "100%.html", "http://example.com/100%25.html", "'%' encoded"},
      {"http://example.com/", "%41.html", "http://example.com/%2541.html", "'%41' is literal"},
      {"http://example.com/", "caf\xc3\xa9/\xe6\x97\xa5.html",
       "http://example.com/caf%C3%A9/%E6%97%A5.html", "non-ASCII UTF-8 names"},
      {"http://example.com/", "a:b.html", "http://example.com/a:b.html",
       "colon in the first segment is not a scheme"},
      {"http://example.com/", "x/a:b.html", "http://example.com/x/a:b.html", "colon deeper"},
      {"http://example.com/", "[x].html", "http://example.com/%5Bx%5D.html", "brackets encoded"},
      {"http://example.com/docs/v1/", "guide/intro.html",
       "http://example.com/docs/v1/guide/intro.html", "base URL with a path"},
      {"http://example.com/docs/v1/", "index.html", "http://example.com/docs/v1/",
       "base with a path, index page"},
      {"HTTP://Example.COM:80/", "A.html", "http://example.com/A.html", "base normalised"},
      {"not a url", "a.html", kError, "bad base"},
  };
  for (const ResolveCase& c : cases) {
    INFO(str(c.comment) << ": base [" << str(c.base) << "], reference [" << str(c.reference)
                        << "]");
    check_result(file_url(c.base, c.reference), c.expected);
  }
}

TEST_CASE("url_host and url_path") {
  struct Case {
    const char* url;
    const char* host;
    const char* path;
    const char* comment;
  };
  const Case cases[] = {
      {"http://example.com/a/b.html", "example.com", "/a/b.html", "plain"},
      {"http://Example.COM/A/B.html", "example.com", "/A/B.html", "host lowered, path case kept"},
      {"http://example.com", "example.com", "/", "empty path is '/'"},
      {"http://example.com/", "example.com", "/", "root"},
      {"http://example.com/dir/", "example.com", "/dir/", "trailing slash kept"},
      {"http://example.com/x.html?q=1#f", "example.com", "/x.html", "no query or fragment"},
      {"http://example.com?q=1", "example.com", "/", "query only"},
      {"https://user@sub.example.com:8443/p", "sub.example.com", "/p", "userinfo, port"},
      {"http://example.com/a%20b", "example.com", "/a%20b", "path stays encoded"},
  };
  for (const Case& c : cases) {
    INFO(str(c.comment) << ": [" << str(c.url) << "]");
    CHECK(url_host(c.url) == std::string(c.host));
    CHECK(url_path(c.url) == std::string(c.path));
  }
  CHECK(url_host("mailto:a@example.com") == "");  // no authority: no host
  CHECK(url_host("not a url at all") == "");
  CHECK(url_path("not a url at all") == "/");
}

TEST_CASE("url_directories: the path's directories, outermost first, decoded") {
  using V = std::vector<std::string>;
  struct Case {
    const char* url;
    V directories;
  };
  const Case cases[] = {
      {"http://h/java.base/java/util/Timer.html", {"java.base", "java", "util"}},
      {"http://h/docs/", {"docs"}},
      {"http://h/index.html", {}},
      {"http://h/", {}},
      {"http://h", {}},
      {"http://h/a%20b/c%C3%A9/x.html?q=1#f", {"a b", "cé"}},
      {"http://h/a//b/x.html", {"a", "b"}},
      {"not a url at all", {}},
  };
  for (const Case& c : cases) {
    INFO(c.url);
    CHECK(url_directories(c.url) == c.directories);
  }
}
