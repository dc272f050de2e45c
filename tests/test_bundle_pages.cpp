/// @file test_bundle_pages.cpp
/// @brief The pages of a Pagefind bundle (pagefind/bundle_pages.h): URLs made site-relative
/// (table), sections cut out of a page's text as the index numbered its words (model: random
/// pages written by IndexWriter, read back, against the sections they were written with), and
/// the HTML given to Pagefind (every text escaped).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <xapian.h>

#include "format/index_format.h"
#include "indexer/stages/index_writer.h"
#include "pagefind/bundle_pages.h"
#include "support/temp_dir.h"

using canon::pagefind::bundle_page;
using canon::pagefind::bundle_page_html;
using canon::pagefind::bundle_url;
using canon::pagefind::BundlePage;

TEST_CASE("bundle_url: under the index's base URL, relative to the site's root (table)") {
  struct Row {
    const char* url;
    const char* base;
    const char* want;
  };
  const Row rows[] = {
      {"http://localhost/library/os.html", "http://localhost/", "/library/os.html"},
      {"http://localhost/", "http://localhost/", "/"},
      {"https://docs.example.org/a/b.html", "https://docs.example.org/", "/a/b.html"},
      {"https://docs.example.org/a/b.html", "http://localhost/", "https://docs.example.org/a/b.html"},
      {"http://localhost/a.html", "", "http://localhost/a.html"},
      {"http://localhost/a.html", "http://localhost", "http://localhost/a.html"},  // not a directory
  };
  for (const Row& row : rows) {
    CAPTURE(row.url);
    CHECK(bundle_url(row.url, row.base) == row.want);
  }
}

namespace {

/// A page of `sections` random sections, their headings' words also in the text before them (a
/// table of contents, a summary that names the members), with words the index counts apart
/// ("a-b", "x.y", "C++", CJK characters).
canon::indexer::IndexedPage random_page(std::mt19937& random, int n, std::vector<std::string>& bodies,
                                        std::string& lead) {
  static const std::vector<std::string> words = {"alpha", "beta", "gamma-delta", "x.y", "C++", "don't",
                                                 "日本語", "fn()", "3.14", "über", "a/b", "&", "—"};
  const auto some = [&](int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += (i ? " " : "") + words[random() % words.size()];
    return text;
  };
  canon::indexer::IndexedPage page;
  page.url = "http://localhost/p" + std::to_string(n) + ".html";
  page.title = "Page " + std::to_string(n);
  std::vector<std::string> headings;
  const int count = static_cast<int>(random() % 6);
  for (int s = 0; s < count; ++s) headings.push_back("Heading " + some(1 + static_cast<int>(random() % 3)));
  lead = "Intro";
  for (int i = static_cast<int>(random() % 8); i > 0; --i) lead += " " + some(1);
  for (const std::string& heading : headings) lead += " " + heading;  // the contents, named first
  page.main_text = lead;
  bodies.clear();
  for (int s = 0; s < count; ++s) {
    canon::html::PageSection section;
    section.anchor = s % 4 == 3 ? "" : "s" + std::to_string(s);
    section.heading = headings[s];
    section.text_begin = page.main_text.size() + 1;
    page.main_text += " " + headings[s];
    section.text_end = page.main_text.size();
    const std::string body = some(static_cast<int>(random() % 12));
    if (!body.empty()) page.main_text += " " + body;
    bodies.push_back(body);
    page.sections.push_back(section);
  }
  return page;
}

}  // namespace

TEST_CASE("bundle_page: each section's heading and text as written, found by the index's word positions (model)") {
  canon::testing::TempDir dir;
  std::mt19937 random(11);
  std::vector<canon::indexer::IndexedPage> pages;
  std::vector<std::vector<std::string>> bodies;
  std::vector<std::string> leads;
  {
    auto writer = canon::indexer::IndexWriter::create((dir.path() / "xapian").string());
    REQUIRE(writer.ok());
    for (int n = 0; n < 200; ++n) {
      bodies.emplace_back();
      leads.emplace_back();
      pages.push_back(random_page(random, n, bodies.back(), leads.back()));
      REQUIRE(writer.value()->add(pages.back()).ok());
    }
    REQUIRE(writer.value()->finish().ok());
  }
  Xapian::Database db((dir.path() / "xapian").string());
  std::size_t sections_seen = 0;
  for (Xapian::docid id = 1; id <= db.get_doccount(); ++id) {
    const auto page = bundle_page(db.get_document(id), "http://localhost/");
    REQUIRE(page.has_value());
    const std::size_t n = std::stoul(page->url.substr(2));
    CAPTURE(page->url);
    const canon::indexer::IndexedPage& written = pages[n];
    // The oracle: the sections with an anchor, each running to the next with one; an anchorless
    // one stays in the text of the one before.
    std::string want_lead = leads[n];
    std::vector<std::pair<std::string, std::string>> want;  // (heading, text)
    const bool any_anchor = std::any_of(written.sections.begin(), written.sections.end(),
                                        [](const auto& s) { return !s.anchor.empty(); });
    for (std::size_t s = 0; s < written.sections.size(); ++s) {
      const std::string& body = bodies[n][s];
      if (!written.sections[s].anchor.empty() || !any_anchor) {
        if (any_anchor) want.emplace_back(written.sections[s].heading, body);
        else want_lead += " " + written.sections[s].heading + (body.empty() ? "" : " " + body);
        continue;
      }
      std::string& open = want.empty() ? want_lead : want.back().second;
      open += (open.empty() ? "" : " ") + written.sections[s].heading + (body.empty() ? "" : " " + body);
    }
    CHECK(page->lead == want_lead);
    REQUIRE(page->sections.size() == want.size());
    for (std::size_t s = 0; s < want.size(); ++s) {
      CHECK(page->sections[s].heading == want[s].first);
      CAPTURE(page->sections[s].heading);
      CHECK(page->sections[s].text == want[s].second);
    }
    sections_seen += want.size();
  }
  CHECK(sections_seen > 200);
}

TEST_CASE("bundle_page_html: the page's texts escaped, its copies and facets as Pagefind's attributes") {
  BundlePage page;
  page.url = "/a.html";
  page.title = "<script>alert(1)</script> & more";
  page.language = "en";
  page.section = "docs";
  page.release = "2.0";
  page.lead = "Lead <b>text</b>";
  page.sections = {{"in\"stall", "Install <now>", "Body"}};
  page.alternates = {{"/print/a.html", "Print \"copy\"", 0.97}};
  page.place = {"Docs", "<Guide>"};
  page.pagerank = 0.25;
  const std::string html = bundle_page_html(page);
  CHECK(html.find("<script>") == std::string::npos);
  CHECK(html.find("<b>") == std::string::npos);
  CHECK(html.find("<h1 data-pagefind-meta=\"title\">&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</h1>") != std::string::npos);
  CHECK(html.find("<h2 id=\"in&quot;stall\">Install &lt;now&gt;</h2>") != std::string::npos);
  CHECK(html.find("data-pagefind-meta=\"canon_alternates\"") != std::string::npos);
  CHECK(html.find("&quot;url&quot;:&quot;/print/a.html&quot;") != std::string::npos);
  CHECK(html.find("data-pagefind-filter=\"section\">docs<") != std::string::npos);
  CHECK(html.find("data-pagefind-filter=\"release\">2.0<") != std::string::npos);
  CHECK(html.find("data-pagefind-sort=\"pagerank\">0.25<") != std::string::npos);
  CHECK(html.find("<html lang=\"en\">") != std::string::npos);
  // The copies' titles are words of the page, as in canon's index.
  CHECK(html.find("Print &quot;copy&quot;. </p>") != std::string::npos);
}
