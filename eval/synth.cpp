/// @file synth.cpp
/// @brief The near-duplicate site generator: page selection, copies with inserted noun
/// segments (edits spliced into the source bytes at positions gumbo reports), re-rooted
/// links, and truth.json.
#include "eval/synth.h"

#include <gumbo.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "common/build_dir.h"
#include "common/file_io.h"
#include "common/html_escape.h"
#include "common/percent_encoding.h"
#include "common/utf8.h"
#include "eval/truth.h"
#include "html/html_extract.h"
#include "html/html_rules.h"
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

// --- HTML: where the main content's text is, and where the relative links are -------------

// The main text is walked by the extractor's own walk (html::walk_main_text), so that
// the words edited are the words the detector reads.
using html::attribute;
using html::children_of;
using html::find_outermost;
using html::is_element;
using html::is_html_space;

/// Byte offset of `p` in the buffer starting at `base`.
std::size_t offset_in(const char* base, const char* p) {
  return static_cast<std::size_t>(p - base);
}

/// Where a page can be edited: all offsets are bytes of the source file.
struct PageLayout {
  /// main_text_word_ends() of the page.
  std::vector<std::size_t> word_ends;
  /// Where a copy's relative-link prefix goes: the start of each relative URL attribute value
  /// (or only of <base href> when the page has a relative one; nothing when it has an absolute
  /// one, since the page's other links then do not depend on where the page is).
  std::vector<std::size_t> link_starts;
  /// Where the original's links to its copies go: before </body>, else </html>, else the end.
  std::size_t versions_at = 0;
};

/// Finds the word ends of the main content in the source bytes, from the extractor's own walk.
class WordFinder : public html::MainTextVisitor {
public:
  WordFinder(const char* base, std::vector<std::size_t>& word_ends)
      : base_(base), word_ends_(word_ends) {}

  void text(const GumboNode* node) override {
    if (node->type == GUMBO_NODE_WHITESPACE) return end_word();
    const GumboStringPiece& source = node->v.text.original_text;
    // A CDATA section, or text whose source holds markup gumbo kept as text, is read but not
    // edited: its words are not the source bytes.
    if (node->type == GUMBO_NODE_CDATA || std::memchr(source.data, '<', source.length) != nullptr) {
      return unedited(node->v.text.text);
    }
    const std::size_t begin = offset_in(base_, source.data);
    for (std::size_t i = 0; i < source.length; ++i) {
      if (is_html_space(source.data[i])) {
        end_word();
      } else {
        last_ = begin + i + 1;
      }
    }
  }

  void word_break() override { end_word(); }

  /// Ends the last word; call after the walk.
  void end_word() {
    if (last_ != kNone) word_ends_.push_back(last_);
    last_ = kNone;
  }

private:
  /// Text not edited: a word running on into it gets no end here (the extractor's word goes on),
  /// nor do its own words; a word it ends, or that starts in it and runs on, ends as usual.
  void unedited(std::string_view text) {
    if (text.empty()) return;  // the words on either side are one
    if (is_html_space(text.front())) end_word();
    last_ = kNone;
  }

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const char* base_;
  std::vector<std::size_t>& word_ends_;
  std::size_t last_ = kNone;  // just after the current word's last byte
};

/// True for a URL reference that is a relative path: not empty, no scheme, not "/...",
/// "//...", "#..." or "?...". Such references change target when the page moves.
bool is_relative_path_reference(std::string_view ref) {
  while (!ref.empty() && is_html_space(ref.front())) ref.remove_prefix(1);
  if (ref.empty() || ref.front() == '/' || ref.front() == '#' || ref.front() == '?' ||
      ref.front() == '\\') {
    return false;
  }
  if (std::isalpha(static_cast<unsigned char>(ref.front()))) {
    for (std::size_t i = 1; i < ref.size(); ++i) {
      const char c = ref[i];
      if (c == ':') return false;  // a scheme
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') break;
    }
  }
  return true;
}

bool is_url_attribute(const GumboNode* element, std::string_view name) {
  if (name == "href" || name == "src" || name == "action" || name == "formaction" ||
      name == "poster" || name == "cite") {
    return true;
  }
  return name == "data" && element->v.element.tag == GUMBO_TAG_OBJECT;
}

/// Offset of the first character of `attr`'s value after its quote and leading white space.
std::size_t value_start(const GumboAttribute* attr, const char* base) {
  const GumboStringPiece& v = attr->original_value;
  std::size_t i = 0;
  if (v.length > 0 && (v.data[0] == '"' || v.data[0] == '\'')) ++i;
  while (i < v.length && is_html_space(v.data[i])) ++i;
  return offset_in(base, v.data) + i;
}

void collect_links(const GumboNode* root, const char* base, std::vector<std::size_t>& out) {
  const auto enter = [&](const GumboNode* node) {
    if (node->type == GUMBO_NODE_ELEMENT || node->type == GUMBO_NODE_TEMPLATE) {
      const GumboVector& attrs = node->v.element.attributes;
      for (unsigned i = 0; i < attrs.length; ++i) {
        const auto* attr = static_cast<const GumboAttribute*>(attrs.data[i]);
        if (attr->original_value.length == 0 || !is_url_attribute(node, attr->name)) continue;
        if (is_relative_path_reference(attr->value)) out.push_back(value_start(attr, base));
      }
    }
    return true;
  };
  html::walk_tree(root, enter, [](const GumboNode*) {});
}

PageLayout layout_of(const std::string& html) {
  PageLayout layout;
  const char* base = html.data();
  std::unique_ptr<GumboOutput, void (*)(GumboOutput*)> output(
      gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size()),
      [](GumboOutput* o) { gumbo_destroy_output(&kGumboDefaultOptions, o); });

  WordFinder words(base, layout.word_ends);
  html::walk_main_text(output->root, words);
  words.end_word();

  // Links: a <base href> decides how the others resolve (an empty one names the page itself).
  std::vector<const GumboNode*> bases;
  find_outermost(
      output->root,
      [](const GumboNode* n) {
        const char* href = is_element(n, GUMBO_TAG_BASE) ? attribute(n, "href") : nullptr;
        return href != nullptr &&
               std::string_view(href).find_first_not_of(" \t\n\r\f") != std::string_view::npos;
      },
      bases);
  if (!bases.empty()) {
    const GumboAttribute* href = gumbo_get_attribute(&bases.front()->v.element.attributes, "href");
    if (href->original_value.length > 0 && is_relative_path_reference(href->value)) {
      layout.link_starts.push_back(value_start(href, base));
    }
  } else {
    collect_links(output->document, base, layout.link_starts);
    // Elements gumbo re-creates (misnested formatting) share their source attributes.
    std::sort(layout.link_starts.begin(), layout.link_starts.end());
    layout.link_starts.erase(std::unique(layout.link_starts.begin(), layout.link_starts.end()),
                             layout.link_starts.end());
  }

  layout.versions_at = html.size();
  const GumboNode* html_element = output->root;
  for (const GumboNode* child : children_of(html_element)) {
    if (is_element(child, GUMBO_TAG_BODY) && child->v.element.original_end_tag.length > 0) {
      layout.versions_at = offset_in(base, child->v.element.original_end_tag.data);
      return layout;
    }
  }
  if (html_element->v.element.original_end_tag.length > 0) {
    layout.versions_at = offset_in(base, html_element->v.element.original_end_tag.data);
  }
  return layout;
}

}  // namespace

std::vector<std::size_t> main_text_word_ends(const std::string& html) {
  return layout_of(html).word_ends;
}

namespace {

// --- paths and text -------------------------------------------------------------------------

/// "../" once per directory of `relative_path` ("a/b/c.html" gives "../../").
std::string up_to_root(std::string_view relative_path) {
  std::string out;
  for (char c : relative_path) {
    if (c == '/') out += "../";
  }
  return out;
}

std::string directory_of(const std::string& relative_path) {
  const std::size_t slash = relative_path.rfind('/');
  return slash == std::string::npos ? std::string() : relative_path.substr(0, slash + 1);
}

/// Two paths a server maps to one URL ("d/index.html" and "d/index.htm" are "d/").
std::string url_key(const std::string& relative_path) {
  const std::string dir = directory_of(relative_path);
  const std::string name = relative_path.substr(dir.size());
  return name == "index.html" || name == "index.htm" ? dir : relative_path;
}

struct CopyKind {
  const char* directory;
  const char* link_text;
};
constexpr CopyKind kCopyKinds[] = {
    {"mirror", "mirror"}, {"print", "printer-friendly version"}, {"archive", "archived copy"}};

/// The paths already used in the output, so that copies never clash with a page, a file, a
/// directory or a URL of the site.
class PathRegistry {
public:
  void add(const std::string& path) {
    files_.insert(path);
    url_keys_.insert(url_key(path));
    for (std::size_t slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      directories_.insert(path.substr(0, slash));
    }
  }
  bool free(const std::string& path) const {
    if (files_.contains(path) || directories_.contains(path) ||
        url_keys_.contains(url_key(path))) {
      return false;
    }
    for (std::size_t slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      if (files_.contains(path.substr(0, slash))) return false;
    }
    return true;
  }

private:
  std::set<std::string> files_;
  std::set<std::string> directories_;
  std::set<std::string> url_keys_;
};

/// One source page.
struct SourcePage {
  std::string path;  // relative, '/'-separated
  std::string bytes;
  PageLayout layout;
  /// XXH3 of the main text canon extracts (0: not an eligible page): pages of the source with
  /// the same main text are one document saved under several names.
  std::uint64_t text_key = 0;
  std::vector<std::string> copies;  // relative paths, in order
  std::vector<std::string> copy_link_texts;
};

/// A change to the source bytes: `erase` bytes at `at` replaced by `text`.
struct Splice {
  std::size_t at;
  std::size_t erase;
  std::string text;
};

/// The splice that makes the relative reference starting at `at` in a copy of the page at
/// `original_path` (one directory deeper, under a top-level directory) reach the same target:
/// back to the site root, then into the original's directory. Leading "./" and "../" of the
/// reference are folded into that path, so "../x.html" in "docs/a.html" becomes "../../x.html"
/// in "mirror/docs/a.html", not "../../docs/../x.html".
Splice reroot_link(const std::string& html, std::size_t at, const std::string& original_path) {
  std::vector<std::string> directories;
  for (std::size_t start = 0, slash; (slash = original_path.find('/', start)) != std::string::npos;
       start = slash + 1) {
    directories.push_back(original_path.substr(start, slash - start));
  }
  std::size_t end = at;
  for (;;) {
    if (html.compare(end, 3, "../") == 0 && !directories.empty()) {
      directories.pop_back();
      end += 3;
    } else if (html.compare(end, 2, "./") == 0) {
      end += 2;
    } else {
      break;
    }
  }
  std::string prefix = up_to_root(original_path) + "../";
  for (const std::string& directory : directories) prefix += percent_encode(directory, KeepInUrl::kPath) + "/";
  return {at, end - at, escape_html(prefix)};
}

/// A copy of `page`: segments inserted into the main text, relative links re-rooted.
std::string make_copy(const SourcePage& page, const NounList& nouns, const SynthOptions& options,
                      Random& random, SynthReport& report) {
  const std::string& html = page.bytes;
  std::vector<Splice> splices;
  for (std::size_t at : page.layout.link_starts) {
    splices.push_back(reroot_link(html, at, page.path));
  }
  for (const std::size_t at : page.layout.word_ends) {
    ++report.words;
    if (!random.chance(options.segment_ratio)) continue;
    const std::uint64_t length = random.between(1, options.max_segment);
    std::string segment;
    std::uint64_t words = 0;
    while (words < length) {
      const auto& noun = nouns.nouns[random.below(nouns.nouns.size())];
      for (std::size_t w = 0; w < noun.size() && words < length; ++w, ++words) {
        segment += ' ';
        segment += escape_html(noun[w]);
      }
    }
    ++report.segments;
    report.inserted_words += length;
    splices.push_back({at, 0, std::move(segment)});
  }
  // Link values and text never overlap: the splices apply in offset order.
  std::stable_sort(splices.begin(), splices.end(),
                   [](const Splice& a, const Splice& b) { return a.at < b.at; });
  std::string out;
  out.reserve(html.size() + html.size() / 4);
  std::size_t done = 0;
  for (const Splice& splice : splices) {
    out.append(html, done, splice.at - done);
    out += splice.text;
    done = splice.at + splice.erase;
  }
  out.append(html, done, std::string::npos);
  return out;
}

/// The original with one link to each of its copies, in a <nav> (page chrome, so the main
/// text the detector reads does not change).
std::string with_version_links(const SourcePage& page) {
  std::string nav =
      "<nav class=\"canon-synth-versions\" aria-label=\"Other versions of this page\">";
  for (std::size_t c = 0; c < page.copies.size(); ++c) {
    if (c > 0) nav += " | ";
    nav += "<a href=\"" + escape_html(up_to_root(page.path) + percent_encode(page.copies[c], KeepInUrl::kPath)) + "\">" +
           escape_html(page.copy_link_texts[c]) + "</a>";
  }
  nav += "</nav>\n";
  std::string out = page.bytes;
  out.insert(page.layout.versions_at, nav);
  return out;
}


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

/// Each original's copies (1 to max_dups) and their paths: the copy kinds' directories in turn,
/// numbered past the first round (or `copies/1/`, `copies/2/`, ... in the numbered layout), made
/// free of taken paths.
void plan_copies(std::vector<SourcePage>& pages, const std::vector<std::size_t>& chosen, std::uint64_t max_dups,
                 SynthOptions::CopyLayout layout, Random& random, PathRegistry& taken) {
  for (std::size_t index : chosen) {
    SourcePage& page = pages[index];
    const std::uint64_t count = random.between(1, max_dups);
    for (std::uint64_t c = 0; c < count; ++c) {
      const CopyKind& kind = kCopyKinds[c % std::size(kCopyKinds)];
      std::string directory = kind.directory;
      std::string link_text = kind.link_text;
      if (layout == SynthOptions::CopyLayout::kNumbered) {
        directory = "copies/" + std::to_string(c + 1);
        link_text = "copy " + std::to_string(c + 1);
      } else if (c >= std::size(kCopyKinds)) {
        directory += std::to_string(c / std::size(kCopyKinds) + 1);
        link_text += " " + std::to_string(c / std::size(kCopyKinds) + 1);
      }
      std::string path = directory + "/" + page.path;
      for (int variant = 2; !taken.free(path); ++variant) {
        path = directory + "-" + std::to_string(variant) + "/" + page.path;
      }
      taken.add(path);
      page.copies.push_back(path);
      page.copy_link_texts.push_back(link_text);
    }
  }
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
