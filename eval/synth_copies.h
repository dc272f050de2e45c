/// @file synth_copies.h
/// @brief Internal to `canon synth`: a source page with its planned copies, the registry of
/// output paths, and the functions that plan and write copies and version links.
///
/// The site writer (synth.cpp) reads the source pages and chooses the originals; the copies'
/// paths, their bytes and the originals' links to them are made in synth_copies.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "eval/synth.h"
#include "eval/synth_page_layout.h"
#include "eval/wordnet.h"

namespace canon::eval::detail {

/// The paths already used in the output, so that copies never clash with a page, a file, a
/// directory or a URL of the site.
class PathRegistry {
public:
  void add(const std::string& path);
  bool free(const std::string& path) const;

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

/// Each original's copies (1 to max_dups) and their paths: the copy kinds' directories in turn,
/// numbered past the first round (or `copies/1/`, `copies/2/`, ... in the numbered layout), made
/// free of taken paths.
void plan_copies(std::vector<SourcePage>& pages, const std::vector<std::size_t>& chosen, std::uint64_t max_dups,
                 SynthOptions::CopyLayout layout, Random& random, PathRegistry& taken);

/// A copy of `page`: segments inserted into the main text, relative links re-rooted.
std::string make_copy(const SourcePage& page, const NounList& nouns, const SynthOptions& options,
                      Random& random, SynthReport& report);

/// The original with one link to each of its copies, in a <nav> (page chrome, so the main
/// text the detector reads does not change).
std::string with_version_links(const SourcePage& page);

}  // namespace canon::eval::detail
