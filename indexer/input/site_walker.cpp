/// @file site_walker.cpp
/// @brief Link-safe walk of a site directory (depth-first, without recursion: how deep a site's
/// directories go is its author's choice).
#include "indexer/input/site_walker.h"

#include <sys/stat.h>

#include <algorithm>
#include <set>
#include <system_error>
#include <vector>

namespace canon::indexer {
namespace fs = std::filesystem;
namespace {

bool is_inside(const fs::path& root, const fs::path& candidate) {
  auto r = root.begin();
  auto c = candidate.begin();
  for (; r != root.end(); ++r, ++c) {
    if (c == candidate.end() || *r != *c) return false;
  }
  return true;
}

class Walker {
public:
  explicit Walker(fs::path root) : root_(std::move(root)) { listing_.files = FileList(root_.string()); }

  /// Walks `dir` and everything below it, in sorted order, depth first.
  void walk(const fs::path& dir, const std::string& relative_dir) {
    open_directory(dir, relative_dir);
    while (!open_.empty()) {
      OpenDirectory& top = open_.back();
      if (top.next == top.entries.size()) {
        open_.pop_back();
        continue;
      }
      // Copies: visit() may open a directory below, which grows open_.
      const fs::directory_entry entry = top.entries[top.next++];
      const std::string relative = top.relative;
      visit(entry, relative);
    }
  }

  /// Reads `dir`'s entries (sorted) to be visited next, unless it was seen already.
  void open_directory(const fs::path& dir, const std::string& relative_dir) {
    std::error_code ec;
    // A directory is known by its device and inode: fs::canonical would resolve every component
    // of its path again, which for a tree d levels deep is d² lookups (17 s for 1,000 levels).
    struct stat status {};
    if (::stat(dir.c_str(), &status) != 0) return;
    if (!visited_dirs_.emplace(status.st_dev, status.st_ino).second) return;  // link loop or seen already
    fs::directory_iterator it(dir, ec);
    if (ec) {
      listing_.skipped.push_back(SkippedPath{relative_dir, "cannot read directory: " + ec.message(), std::nullopt});
      return;
    }
    std::vector<fs::directory_entry> entries;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      entries.push_back(*it);
    }
    if (ec) listing_.skipped.push_back(SkippedPath{relative_dir, "cannot read directory: " + ec.message(), std::nullopt});
    // A directory sorts as its name and a '/': its files' paths then follow those of the
    // entries before it (`a-b.html` and `a-b/` come before `a/`, as "a-b" < "a/"), so the walk
    // finds the files in path order and the list is not sorted again (its copy would double it
    // for a moment: on a site of millions of pages, on every process).
    std::vector<std::pair<std::string, fs::directory_entry>> keyed;
    keyed.reserve(entries.size());
    for (fs::directory_entry& entry : entries) {
      std::error_code type_ec;
      std::string key = entry.path().filename().string();
      if (entry.is_directory(type_ec)) key += '/';
      keyed.emplace_back(std::move(key), std::move(entry));
    }
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t k = 0; k < keyed.size(); ++k) entries[k] = std::move(keyed[k].second);
    open_.push_back({std::move(entries), 0, relative_dir});
  }

  /// Walks the directories reached through links, after everything reachable without them.
  void walk_linked_dirs() {
    for (std::size_t i = 0; i < linked_dirs_.size(); ++i) {
      const SiteFile link = linked_dirs_[i];  // copy: walk() may grow the vector
      walk(link.absolute_path, link.relative_path);
    }
  }

  SiteListing take() {
    // In path order already, unless linked directories were walked after the rest.
    if (!listing_.files.is_sorted_by_path()) listing_.files.sort_by_path();
    return std::move(listing_);
  }

private:
  void visit(const fs::directory_entry& entry, const std::string& relative_dir) {
    const std::string name = entry.path().filename().string();
    const std::string relative = relative_dir.empty() ? name : relative_dir + "/" + name;
    std::error_code ec;
    const bool is_link = entry.is_symlink(ec);
    struct stat status {};  // follows links; stat(2) rather than fs::status for the size too
    if (::stat(entry.path().c_str(), &status) != 0) {
      if (is_link && is_page_file_name(name)) listing_.skipped.push_back(SkippedPath{relative, "broken symbolic link", std::nullopt});
      return;
    }
    const bool is_dir = S_ISDIR(status.st_mode);
    if (!is_dir && !is_page_file_name(name)) return;  // not a page: not an input
    if (is_link) {
      const fs::path target = fs::canonical(entry.path(), ec);
      if (ec || !is_inside(root_, target)) {
        listing_.skipped.push_back(SkippedPath{relative, "symbolic link leads outside the site", std::nullopt});
        return;
      }
    }
    if (is_dir && is_link) {
      linked_dirs_.push_back(SiteFile{relative, entry.path().string(), {}, std::nullopt, {}, 0});  // after the real tree: real paths win
    } else if (is_dir) {
      open_directory(entry.path(), relative);
    } else if (S_ISREG(status.st_mode)) {
      listing_.files.add(relative, static_cast<std::uint64_t>(status.st_size));  // at root_/relative
    } else {
      listing_.skipped.push_back(SkippedPath{relative, "not a regular file", std::nullopt});
    }
  }

  /// A directory being walked: its entries and the next one to visit.
  struct OpenDirectory {
    std::vector<fs::directory_entry> entries;
    std::size_t next = 0;
    std::string relative;
  };

  fs::path root_;
  std::vector<OpenDirectory> open_;
  std::set<std::pair<dev_t, ino_t>> visited_dirs_;
  std::vector<SiteFile> linked_dirs_;
  SiteListing listing_;
};

}  // namespace

bool is_page_file_name(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const auto ends_with = [&](std::string_view s) { return lower.size() > s.size() && lower.ends_with(s); };
  return ends_with(".html") || ends_with(".htm");
}

Result<SiteListing> walk_site(const fs::path& site_dir) {
  std::error_code ec;
  if (!fs::is_directory(site_dir, ec)) {
    return Status::not_found("site directory '" + site_dir.string() + "' does not exist or is not a directory");
  }
  const fs::path root = fs::canonical(site_dir, ec);
  if (ec) return Status::io_error("cannot open site directory '" + site_dir.string() + "': " + ec.message());
  fs::directory_iterator probe(root, ec);
  if (ec) return Status::io_error("cannot read site directory '" + site_dir.string() + "': " + ec.message());
  Walker walker(root);
  walker.walk(root, "");
  walker.walk_linked_dirs();
  return walker.take();
}

}  // namespace canon::indexer
