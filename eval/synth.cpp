/// @file synth.cpp
/// @brief The near-duplicate site generator's run: options checked, the source read, the
/// originals chosen, the site written beside OUT_SITE with its truth.json, then moved into place.
///
/// Where a page may be edited is found in synth_page_layout.cpp and the copies are planned and
/// made in synth_copies.cpp; this file holds the seeded random numbers and everything about the
/// site as a whole.
#include "eval/synth.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "common/build_dir.h"
#include "common/file_io.h"
#include "common/utf8.h"
#include "eval/synth_copies.h"
#include "eval/synth_page_layout.h"
#include "eval/truth.h"
#include "html/html_extract.h"
#include "indexer/input/site_plan.h"
#include "indexer/input/site_walker.h"
#include "urls/url.h"

namespace canon::eval {
namespace fs = std::filesystem;

std::uint64_t Random::below(std::uint64_t n) {
  // Values below 2^64 mod n would make the low residues likelier: draw again.
  const std::uint64_t reject_below = (0 - n) % n;
  for (;;) {
    const std::uint64_t x = engine_();
    if (x >= reject_below) return x % n;
  }
}

bool Random::chance(double p) {
  if (!(p > 0.0)) return false;
  if (p >= 1.0) return true;
  const auto threshold = static_cast<std::uint64_t>(std::ldexp(p, 53));  // exact scaling
  return (engine_() >> 11) < threshold;
}

namespace {

constexpr const char* kTruthFile = "truth.json";
constexpr const char* kGenerator = "canon synth";
/// Seeds the segment insertions' random stream (with the seed) apart from the structure's.
constexpr std::uint64_t kTextStream = 0x9e3779b97f4a7c15;
/// The URL pages are looked at under while choosing originals (any base gives the same answer).
constexpr const char* kProbeBase = "http://localhost/";

using detail::layout_of;
using detail::make_copy;
using detail::PathRegistry;
using detail::plan_copies;
using detail::SourcePage;
using detail::with_version_links;

Status write_file(const fs::path& path, std::string_view bytes) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return Status::error("cannot write '" + path.string() + "'");
  return Status::ok_status();
}

/// True when `inner` is `outer` or below it (both absolute and normalised).
bool is_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

Status check_options(const SynthOptions& o) {
  if (!(o.dup_ratio >= 0.0 && o.dup_ratio <= 1.0))
    return Status::error("--dup-ratio must be in [0, 1]");
  if (o.max_dups < 1 || o.max_dups > 100) return Status::error("--max-dups must be in [1, 100]");
  if (!(o.segment_ratio >= 0.0 && o.segment_ratio <= 1.0)) {
    return Status::error("--segment-ratio must be in [0, 1]");
  }
  if (o.max_segment < 1 || o.max_segment > 100)
    return Status::error("--max-segment must be in [1, 100]");
  return Status::ok_status();
}

/// OUT_SITE may be replaced when it does not exist, is empty, or was written by canon synth.
Status check_replaceable(const fs::path& out_dir) {
  std::error_code ec;
  if (!fs::exists(out_dir, ec)) return Status::ok_status();
  if (!fs::is_directory(out_dir, ec))
    return Status::error("'" + out_dir.string() + "' exists and is not a directory");
  if (fs::is_empty(out_dir, ec)) return Status::ok_status();
  auto truth = read_file(out_dir / kTruthFile);
  if (truth.ok()) {
    const auto j = nlohmann::json::parse(truth.value(), nullptr, false);
    if (j.is_object() && j.value("generator", "") == kGenerator) return Status::ok_status();
  }
  return Status::error("'" + out_dir.string() + "' exists and was not written by canon synth (no " +
                       kTruthFile + "); refusing to replace it");
}

/// Every page file of the source that can be read (an unreadable one is not part of the output
/// site), in path order; their paths are taken in `taken`.
Result<std::vector<SourcePage>> read_source_pages(const fs::path& source, PathRegistry& taken) {
  auto listing = indexer::walk_site(source);
  if (!listing.ok()) return listing.status();
  std::vector<SourcePage> pages;
  for (const indexer::SiteFile& file : listing->files) {
    auto bytes = read_file(file.absolute_path);
    if (!bytes.ok()) continue;
    SourcePage page;
    page.path = file.relative_path;
    page.bytes = std::move(bytes.value());
    taken.add(page.path);
    pages.push_back(std::move(page));
  }
  return pages;
}

/// The pages canon would index with some main text (each gets its layout): those that serve
/// their URL, are readable text, neither redirect nor say noindex.
std::vector<std::size_t> eligible_pages(std::vector<SourcePage>& pages) {
  std::vector<std::string> probe_urls(pages.size());
  std::unordered_map<std::string, std::size_t> url_owner;  // probe URL -> page (index.html wins)
  for (std::size_t i = 0; i < pages.size(); ++i) {
    auto url = urls::file_url(kProbeBase, pages[i].path);
    if (!url.ok()) continue;
    probe_urls[i] = url.value();
    auto [it, inserted] = url_owner.emplace(probe_urls[i], i);
    if (!inserted && indexer::serves_before(pages[i].path, pages[it->second].path)) {
      it->second = i;
    }
  }
  std::vector<std::size_t> eligible;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    SourcePage& page = pages[i];
    if (probe_urls[i].empty() || url_owner.at(probe_urls[i]) != i) continue;
    // Synth writes words into a page's own bytes: UTF-8 pages only.
    if (page.bytes.size() > html::PageLimits{}.max_page_bytes || !html::check_page_bytes(page.bytes).ok() ||
        !is_valid_utf8(page.bytes)) {
      continue;
    }
    const html::ExtractedPage extracted = html::extract_page(page.bytes, probe_urls[i]);
    // A page the indexer cuts (past a limit) is no original: synth edits the page's own bytes,
    // which the indexer would not read as they are.
    if (extracted.refresh_url || extracted.robots_noindex || !extracted.cuts.empty()) continue;
    page.layout = layout_of(page.bytes);
    if (page.layout.word_ends.empty()) continue;
    page.text_key = XXH3_64bits(extracted.main_text.data(), extracted.main_text.size()) | 1;
    eligible.push_back(i);
  }
  return eligible;
}

/// The source's other files (not pages), to be copied as they are (symbolic links as the files
/// they name), in path order; their paths are taken in `taken`.
std::vector<std::string> other_site_files(const fs::path& source, PathRegistry& taken) {
  std::vector<std::string> other_files;
  std::error_code ec;
  for (fs::recursive_directory_iterator
           it(source, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) || !it->is_regular_file(ec)) continue;
    if (indexer::is_page_file_name(it->path().filename().string())) continue;  // pages are above
    const std::string relative = fs::relative(it->path(), source, ec).generic_string();
    if (ec || relative.empty() || relative == kTruthFile) continue;
    other_files.push_back(relative);
    taken.add(relative);
  }
  std::sort(other_files.begin(), other_files.end());
  return other_files;
}

/// The originals: dup_ratio of the eligible pages by a seeded partial Fisher–Yates shuffle, in
/// page order.
std::vector<std::size_t> choose_originals(std::vector<std::size_t> eligible, double dup_ratio, Random& random) {
  const auto wanted = static_cast<std::size_t>(std::floor(dup_ratio * static_cast<double>(eligible.size()) + 0.5));
  const std::size_t originals = std::min(wanted, eligible.size());
  for (std::size_t i = 0; i < originals; ++i) {
    std::swap(eligible[i], eligible[i + random.below(eligible.size() - i)]);
  }
  std::vector<std::size_t> chosen(eligible.begin(), eligible.begin() + static_cast<std::ptrdiff_t>(originals));
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

/// truth.json: the generator, its parameters, the run's counts and the clusters.
nlohmann::json truth_json(const SynthOptions& options, const fs::path& source, const NounList& nouns,
                          const SynthReport& report, const Truth& truth) {
  nlohmann::json j = {
      {"generator", kGenerator},
      {"source", source.string()},
      {"seed", options.seed},
      {"parameters",
       {{"dup_ratio", options.dup_ratio},
        {"max_dups", options.max_dups},
        {"segment_ratio", options.segment_ratio},
        {"max_segment", options.max_segment},
        {"layout", options.layout == SynthOptions::CopyLayout::kNumbered ? "numbered" : "prefixes"},
        {"nouns", options.noun_list.string()},
        {"noun_count", nouns.nouns.size()}}},
      {"stats",
       {{"pages", report.pages},
        {"other_files", report.other_files},
        {"eligible", report.eligible},
        {"originals", report.originals},
        {"copies", report.copies},
        {"source_duplicates", report.source_duplicates},
        {"words", report.words},
        {"segments", report.segments},
        {"inserted_words", report.inserted_words}}},
      {"clusters", clusters_json(truth)},
  };
  // Only when the source has pages saved under several names: how many names lead each cluster.
  if (!truth.names.empty()) j["names"] = truth.names;
  return j;
}

/// The run itself, writing into the fresh directory `work_dir`.
Result<SynthReport> run(const SynthOptions& options, const fs::path& source, const NounList& nouns,
                        const fs::path& work_dir) {
  SynthReport report;
  PathRegistry taken;
  auto read = read_source_pages(source, taken);
  if (!read.ok()) return read.status();
  std::vector<SourcePage>& pages = read.value();
  const std::vector<std::size_t> eligible = eligible_pages(pages);
  report.eligible = eligible.size();
  const std::vector<std::string> other_files = other_site_files(source, taken);

  Random random(options.seed);
  const std::vector<std::size_t> chosen = choose_originals(eligible, options.dup_ratio, random);
  report.originals = chosen.size();
  plan_copies(pages, chosen, options.max_dups, options.layout, random, taken);

  // The copies' text, from a stream of its own: the clusters depend only on the site, the ratio
  // of copied pages, max_dups and the seed, so runs at several segment ratios share them.
  Random text_random(options.seed ^ kTextStream);
  for (std::size_t index : chosen) {
    const SourcePage& page = pages[index];
    for (const std::string& copy : page.copies) {
      if (Status s = write_file(work_dir / copy, make_copy(page, nouns, options, text_random, report)); !s.ok()) {
        return s;
      }
      ++report.copies;
      ++report.pages;
    }
  }

  // The source pages (originals with their version links) and the other files. Source pages
  // with the same main text (a page saved under several names: MediaWiki's redirect names) are
  // one document: one true cluster with all their copies.
  Truth truth;
  std::vector<std::vector<std::string>> copies_of;  // per cluster, after its names
  std::unordered_map<std::uint64_t, std::size_t> cluster_of_text;
  for (const SourcePage& page : pages) {
    const std::string bytes = page.copies.empty() ? page.bytes : with_version_links(page);
    if (Status s = write_file(work_dir / page.path, bytes); !s.ok()) return s;
    ++report.pages;
    std::size_t c = truth.clusters.size();
    if (page.text_key != 0) {
      const auto [it, inserted] = cluster_of_text.emplace(page.text_key, c);
      if (!inserted) {
        c = it->second;
        ++report.source_duplicates;
      }
    }
    if (c == truth.clusters.size()) {
      truth.clusters.emplace_back();
      copies_of.emplace_back();
      truth.names.push_back(0);
    }
    truth.clusters[c].push_back(page.path);
    ++truth.names[c];
    copies_of[c].insert(copies_of[c].end(), page.copies.begin(), page.copies.end());
  }
  for (std::size_t c = 0; c < truth.clusters.size(); ++c) {
    truth.clusters[c].insert(truth.clusters[c].end(), copies_of[c].begin(), copies_of[c].end());
  }
  if (report.source_duplicates == 0) truth.names.clear();
  std::error_code ec;
  for (const std::string& relative : other_files) {
    fs::create_directories((work_dir / relative).parent_path(), ec);
    fs::copy_file(source / relative, work_dir / relative, fs::copy_options::overwrite_existing, ec);
    if (ec) return Status::error("cannot copy '" + (source / relative).string() + "': " + ec.message());
    ++report.other_files;
  }
  const std::string truth_text = truth_json(options, source, nouns, report, truth).dump(1) + "\n";
  if (Status s = write_file(work_dir / kTruthFile, truth_text); !s.ok()) return s;
  return report;
}

}  // namespace

Result<SynthReport> synthesize_site(const SynthOptions& options) {
  if (Status s = check_options(options); !s.ok()) return s;
  std::error_code ec;
  if (!fs::is_directory(options.source_dir, ec)) {
    return Status::error("source site '" + options.source_dir.string() + "' is not a directory");
  }
  // Absolute, symbolic links resolved, no trailing separator: comparable and with a file name.
  const auto resolved = [&ec](const fs::path& path) {
    fs::path out = fs::weakly_canonical(fs::absolute(path), ec);
    return out.has_filename() ? out : out.parent_path();
  };
  const fs::path source = resolved(options.source_dir);
  const fs::path out_dir = resolved(options.out_dir);
  if (out_dir == out_dir.root_path())
    return Status::error("the output site cannot be a file system root");
  if (is_within(out_dir, source) || is_within(source, out_dir)) {
    return Status::error("the output site '" + options.out_dir.string() +
                         "' must not overlap the source site '" + options.source_dir.string() +
                         "'");
  }
  if (Status s = check_replaceable(out_dir); !s.ok()) return s;
  auto nouns = read_noun_list(options.noun_list);
  if (!nouns.ok()) return nouns.status();

  // Build beside OUT_SITE, then move it into place.
  auto build = BuildDirectory::create(out_dir, "synth");
  if (!build.ok()) return build.status();
  BuildDirectory work = std::move(build).value();
  auto report = run(options, source, nouns.value(), work.path());
  if (!report.ok()) return report;
  if (Status moved = work.commit(); !moved.ok()) return moved;
  report.value().truth_path = out_dir / kTruthFile;
  return report;
}

}  // namespace canon::eval
