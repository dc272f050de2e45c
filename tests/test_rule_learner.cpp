/// @file test_rule_learner.cpp
/// @brief Learning URL rules from hand-made clusters: what is learned, that it generalises to
/// URLs the learner never saw, that a rule merging pages in their own right is refused, and that
/// on a small site a folder's listing page is kept as an exception of the folder's rule.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "urls/rule_learner.h"

using canon::urls::LabelledUrl;
using canon::urls::LearnParameters;
using canon::urls::learn_url_rules;
using canon::urls::RuleKind;
using canon::urls::RuleSet;

namespace {

/// A site of `pages` pages in their own right (cluster i, indexed), http://h/docs/pI.html.
struct SiteBuilder {
  std::vector<LabelledUrl> urls;
  std::uint64_t next_cluster = 0;

  std::uint64_t original(const std::string& url) {
    urls.push_back({url, next_cluster, true});
    return next_cluster++;
  }
  void duplicate(const std::string& url, std::uint64_t cluster) { urls.push_back({url, cluster, false}); }
};

std::string page(int i) { return "http://h/docs/p" + std::to_string(i) + ".html"; }

std::string hex_id(int i) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned v = static_cast<unsigned>(i) * 2654435761u; out.size() < 8; v /= 16) out += digits[v % 16];
  return out;
}

std::string normalized(const RuleSet& rules, const std::string& url) {
  auto out = rules.normalize(url);
  REQUIRE(out.ok());
  return out->url;
}

}  // namespace

TEST_CASE("learn: print copies, release folders, session ids and parameter order, generalised") {
  SiteBuilder site;
  for (int i = 0; i < 60; ++i) {
    const std::uint64_t c = site.original(page(i));
    if (i < 40) site.duplicate("http://h/print/docs/p" + std::to_string(i) + ".html", c);
    if (i < 40) site.duplicate(page(i) + "?sid=" + hex_id(i), c);
  }
  for (int i = 0; i < 40; ++i) {
    const std::uint64_t c = site.original("http://h/api/latest/f" + std::to_string(i) + ".html");
    const std::string release = std::to_string(1 + i % 4) + "." + std::to_string(i % 3);
    site.duplicate("http://h/api/" + release + "/f" + std::to_string(i) + ".html", c);
  }
  for (int i = 0; i < 40; ++i) {
    const std::uint64_t c = site.original("http://h/list.html?a=" + std::to_string(i) + "&b=x");
    site.duplicate("http://h/list.html?b=x&a=" + std::to_string(i), c);
  }
  auto report = learn_url_rules(site.urls, LearnParameters{});
  REQUIRE(report.ok());
  CHECK(report->held_out_clusters > 0);
  CHECK(report->learning_clusters > report->held_out_clusters);
  const auto& rules = report->file.rules;
  int path_rules = 0, drop_rules = 0, sort_rules = 0;
  for (const auto& r : rules) {
    CAPTURE(r.pattern);
    CHECK(r.evidence.originals_changed == 0);
    CHECK(r.evidence.precision() == 1.0);
    CHECK(r.evidence.support >= 2);
    path_rules += r.kind == RuleKind::kPath;
    drop_rules += r.kind == RuleKind::kDropParam;
    sort_rules += r.kind == RuleKind::kSortParams;
  }
  CHECK(path_rules == 2);
  CHECK(drop_rules == 1);
  CHECK(sort_rules == 1);
  CHECK(report->evaluation.originals_changed == 0);
  CHECK(report->evaluation.distinct_after == report->evaluation.clusters);  // every duplicate found

  // Generalisation: variants of pages the learner never saw, and a release it never saw.
  auto set = RuleSet::compile(rules);
  REQUIRE(set.ok());
  CHECK(normalized(set.value(), "http://h/print/docs/p999.html") == "http://h/docs/p999.html");
  CHECK(normalized(set.value(), "http://h/docs/new.html?sid=0badcafe") == "http://h/docs/new.html");
  CHECK(normalized(set.value(), "http://h/api/7.3/g.html") == "http://h/api/latest/g.html");
  CHECK(normalized(set.value(), "http://h/list.html?b=y&a=1") == "http://h/list.html?a=1&b=y");
  CHECK(normalized(set.value(), "http://h/print/docs/p1.html?sid=abc123&z=1&y=2") == "http://h/docs/p1.html?y=2&z=1");
  // Pages in their own right are left alone.
  CHECK(normalized(set.value(), page(50)) == page(50));
  CHECK(normalized(set.value(), "http://h/api/latest/f3.html") == "http://h/api/latest/f3.html");
}

TEST_CASE("learn: a rule that would merge pages in their own right is refused") {
  // /a/xI.html copies /b/xI.html, but /a/yJ.html and /b/yJ.html are different pages: "a -> b"
  // would make each /a/yJ.html unfindable.
  SiteBuilder site;
  for (int i = 0; i < 30; ++i) {
    const std::uint64_t c = site.original("http://h/b/x" + std::to_string(i) + ".html");
    site.duplicate("http://h/a/x" + std::to_string(i) + ".html", c);
  }
  for (int j = 0; j < 5; ++j) {
    site.original("http://h/a/y" + std::to_string(j) + ".html");
    site.original("http://h/b/y" + std::to_string(j) + ".html");
  }
  auto report = learn_url_rules(site.urls, LearnParameters{});
  REQUIRE(report.ok());
  CHECK(report->rejected_originals > 0);
  auto set = RuleSet::compile(report->file.rules);
  REQUIRE(set.ok());
  for (int j = 0; j < 5; ++j) {
    const std::string url = "http://h/a/y" + std::to_string(j) + ".html";
    CHECK(normalized(set.value(), url) == url);
  }
  CHECK(report->evaluation.originals_changed == 0);
}

namespace {

/// The small-site shape: 150 pages in their own right under /docs/, 90 of them copied into two
/// of print/, mirror/ and archive/v14/ each (60 copies per folder, about 42 learning clusters
/// per rule), and a listing page in each folder (print/index.html, served as /print/), a page
/// of its own with no original. With `root_page`, the site also has a page of its own at "/",
/// the URL each folder's rule would rewrite the listing page into.
SiteBuilder small_site(bool root_page) {
  SiteBuilder site;
  const std::vector<std::string> folders = {"print", "mirror", "archive/v14"};
  for (int i = 0; i < 150; ++i) {
    const std::uint64_t c = site.original(page(i));
    for (int f = 0; f < 3 && i < 90; ++f) {
      if (i % 3 != f) site.duplicate("http://h/" + folders[f] + "/docs/p" + std::to_string(i) + ".html", c);
    }
  }
  for (const std::string& folder : folders) site.original("http://h/" + folder + "/");
  if (root_page) site.original("http://h/");
  return site;
}

}  // namespace

TEST_CASE("learn: on a small site, a folder's listing page is an exception, not a reason to refuse its rule") {
  const SiteBuilder site = small_site(false);
  auto report = learn_url_rules(site.urls, LearnParameters{});
  REQUIRE(report.ok());
  const auto& rules = report->file.rules;
  REQUIRE(rules.size() == 3);
  std::set<std::string> exceptions;
  for (const auto& r : rules) {
    CAPTURE(r.pattern);
    CHECK(r.kind == RuleKind::kPath);
    CHECK(r.evidence.support >= 35);
    CHECK(r.evidence.support <= 50);
    CHECK(r.evidence.precision() == 1.0);
    CHECK(r.evidence.learning_correct + r.evidence.held_out_correct == 60);
    // One listing page is 1 of 61 pages the rule changes: above the 1 % share, within the
    // allowance for pages rewritten into URLs the site does not have.
    CHECK(r.evidence.originals_changed == 1);
    REQUIRE(r.exceptions.size() == 1);
    exceptions.insert(r.exceptions.front());
  }
  CHECK(exceptions == std::set<std::string>{"http://h/archive/v14/", "http://h/mirror/", "http://h/print/"});
  auto set = RuleSet::compile(rules);
  REQUIRE(set.ok());
  CHECK(normalized(set.value(), "http://h/print/docs/p1.html") == page(1));
  CHECK(normalized(set.value(), "http://h/mirror/docs/p0.html") == page(0));
  CHECK(normalized(set.value(), "http://h/archive/v14/docs/p0.html") == page(0));
  CHECK(normalized(set.value(), "http://h/print/docs/unseen.html") == "http://h/docs/unseen.html");
  // No page in its own right is rewritten: the listing pages stay, alone and together.
  for (const std::string listing : {"http://h/print/", "http://h/mirror/", "http://h/archive/v14/"}) {
    CHECK(normalized(set.value(), listing) == listing);
  }
  CHECK(report->evaluation.originals_changed == 0);
  CHECK(report->evaluation.distinct_after == report->evaluation.clusters);

  // --exception-share 0 still means no exceptions at all.
  LearnParameters no_exceptions;
  no_exceptions.exception_share = 0.0;
  auto strict = learn_url_rules(site.urls, no_exceptions);
  REQUIRE(strict.ok());
  CHECK(strict->file.rules.empty());
  CHECK(strict->rejected_originals == 4);
}

TEST_CASE("learn: a rule that would rewrite a page into another page's URL is still refused on a small site") {
  // The same site with a page of its own at "/": each folder's rule would now take its listing
  // page for the root page, which is a page the site has.
  const SiteBuilder site = small_site(true);
  auto report = learn_url_rules(site.urls, LearnParameters{});
  REQUIRE(report.ok());
  CHECK(report->file.rules.empty());
  CHECK(report->rejected_originals >= 3);
  bool reason_given = false;
  for (const auto& [rule, why] : report->rejected) {
    reason_given = reason_given || why.find("rewrites 1 indexed page, 1 into URLs the site has;") != std::string::npos;
  }
  CHECK(reason_given);
  CHECK(report->evaluation.changed == 0);

  // And a folder with too few copies for the allowance: 30 correct rewrites beside one listing
  // page is a page in its own right for every 31 URLs the rule changes (refused).
  SiteBuilder thin;
  for (int i = 0; i < 60; ++i) {
    const std::uint64_t c = thin.original(page(i));
    if (i < 30) thin.duplicate("http://h/print/docs/p" + std::to_string(i) + ".html", c);
  }
  thin.original("http://h/print/");
  auto thin_report = learn_url_rules(thin.urls, LearnParameters{});
  REQUIRE(thin_report.ok());
  CHECK(thin_report->file.rules.empty());
  CHECK(thin_report->rejected_originals > 0);
}

TEST_CASE("learn: a pattern seen in one cluster only is below the default support") {
  SiteBuilder site;
  const std::uint64_t c = site.original(page(1));
  site.duplicate("http://h/print/docs/p1.html", c);
  for (int i = 2; i < 10; ++i) site.original(page(i));
  auto report = learn_url_rules(site.urls, LearnParameters{});
  REQUIRE(report.ok());
  CHECK(report->file.rules.empty());
  CHECK(report->evaluation.changed == 0);
}

TEST_CASE("learn: parameters out of range are refused; unusable URLs are counted, not fatal") {
  CHECK_FALSE(learn_url_rules({}, LearnParameters{0, 1.0, 0.3}).ok());
  CHECK_FALSE(learn_url_rules({}, LearnParameters{2, 1.5, 0.3}).ok());
  CHECK_FALSE(learn_url_rules({}, LearnParameters{2, 1.0, 1.0}).ok());
  auto report = learn_url_rules({{"not a url", 0, true}, {"http://h/", 1, true}}, LearnParameters{});
  REQUIRE(report.ok());
  CHECK(report->unusable == 1);
  CHECK(report->urls == 1);
}

TEST_CASE("evaluate_url_rules: reduction against the best possible, originals changed") {
  std::vector<LabelledUrl> site = {{"http://h/a.html", 0, true},
                                   {"http://h/print/a.html", 0, false},
                                   {"http://h/b.html", 1, true},
                                   {"http://h/print/b.html", 1, false},
                                   {"http://h/print/c.html", 2, true}};
  canon::urls::UrlRule print;
  print.kind = RuleKind::kPath;
  print.pattern = "(http://h)/print(.*)";
  print.rewrite = "\\1\\2";
  auto set = RuleSet::compile({print});
  REQUIRE(set.ok());
  const auto e = canon::urls::evaluate_url_rules(set.value(), site);
  CHECK(e.urls == 5);
  CHECK(e.clusters == 3);
  CHECK(e.distinct_after == 3);  // a, b, and c (rewritten to a URL of nothing)
  CHECK(e.changed == 3);
  CHECK(e.correct == 2);
  CHECK(e.originals_changed == 1);
  CHECK(e.reduction() == doctest::Approx(0.4));
  CHECK(e.best_reduction() == doctest::Approx(0.4));
  CHECK(e.precision() == doctest::Approx(2.0 / 3.0));
}
