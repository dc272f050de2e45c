/// @file floor.cpp
/// @brief The floor of a page's cost, on one thread: (a) gumbo parsing the page alone, and (b)
/// Xapian indexing the text canon extracts from it with canon's term generation settings (the
/// stemmer, STEM_SOME, CJK n-grams, the title under its prefix and weighted, headings and main
/// text with positions, the URL term), one document per page added to a database and committed.
/// What canon does beyond (a) + (b) is its own cost (bench/floor/run.sh, docs/benchmarks.md).
///
/// Usage: canon_floor SITE_DIR WORK_DIR
/// Prints one JSON line: files, pages (parsed as HTML), bytes, read_s (reading the files),
/// gumbo_s (gumbo_parse + gumbo_destroy_output), xapian_s (TermGenerator, add_document and the
/// commit), each the CPU time of this thread.
#include <time.h>

#include <filesystem>
#include <iostream>
#include <string>

#include <gumbo.h>
#include <xapian.h>

#include "common/file_io.h"
#include "format/index_format.h"
#include "html/html_extract.h"
#include "html/page_encoding.h"
#include "indexer/input/site_walker.h"

namespace {

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

/// Adds CPU seconds of what `work` does to `total`.
template <typename Work>
auto timed(double& total, Work&& work) {
  const double start = thread_cpu_seconds();
  if constexpr (std::is_void_v<decltype(work())>) {
    work();
    total += thread_cpu_seconds() - start;
  } else {
    auto result = work();
    total += thread_cpu_seconds() - start;
    return result;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: canon_floor SITE_DIR WORK_DIR\n";
    return 2;
  }
  namespace fmt = canon::index_format;
  const std::filesystem::path site = argv[1];
  const std::filesystem::path work = argv[2];
  auto listing = canon::indexer::walk_site(site);
  if (!listing.ok()) {
    std::cerr << listing.status().message() << "\n";
    return 1;
  }
  std::filesystem::remove_all(work / "floor.db");
  std::filesystem::create_directories(work);
  Xapian::WritableDatabase db((work / "floor.db").string(), Xapian::DB_CREATE_OR_OVERWRITE);
  Xapian::TermGenerator terms;
  terms.set_stemmer(Xapian::Stem(fmt::kStemLanguage));
  terms.set_stemming_strategy(Xapian::TermGenerator::STEM_SOME);
  terms.set_flags(Xapian::TermGenerator::FLAG_CJK_NGRAM);

  double read_s = 0, gumbo_s = 0, xapian_s = 0;
  std::size_t pages = 0, bytes = 0;
  const canon::html::PageLimits limits;
  for (const auto& file : listing->files) {
    auto read = timed(read_s, [&] { return canon::read_file_prefix(file.absolute_path, limits.max_page_bytes); });
    if (!read.ok() || !canon::html::check_page_bytes(read->bytes).ok()) continue;
    auto decoded = canon::html::decode_page(std::move(read->bytes));
    if (!decoded.ok()) continue;
    const std::string& html = decoded->utf8;
    bytes += html.size();
    ++pages;
    // (a) gumbo alone, with its own allocator, as any user of gumbo would call it.
    timed(gumbo_s, [&] {
      GumboOutput* output = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
      gumbo_destroy_output(&kGumboDefaultOptions, output);
    });
    // (b) the page's text, extracted by canon (not timed), indexed as canon's settings index it.
    const std::string url = "http://localhost/" + file.relative_path;
    const canon::html::ExtractedPage page = canon::html::extract_page(html, url, limits);
    timed(xapian_s, [&] {
      Xapian::Document doc;
      terms.set_document(doc);
      terms.index_text(page.title, 1, std::string(fmt::kTitlePrefix));
      terms.index_text(page.title, 5);
      for (const std::string& heading : page.headings) {
        terms.increase_termpos(100);
        terms.index_text(heading, 2);
      }
      terms.increase_termpos(100);
      terms.index_text(page.main_text);
      doc.add_boolean_term(fmt::url_term(url));
      doc.set_data(url);
      db.add_document(doc);
    });
  }
  timed(xapian_s, [&] { db.commit(); });
  std::cout << "{\"files\": " << listing->files.size() << ", \"pages\": " << pages << ", \"bytes\": " << bytes
            << ", \"read_s\": " << read_s << ", \"gumbo_s\": " << gumbo_s << ", \"xapian_s\": " << xapian_s << "}\n";
  return 0;
}
