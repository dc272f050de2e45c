/// @file file_list.h
/// @brief The page files of a site, held compactly: what the walk finds and a plan keeps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace canon::indexer {

/// A page file found in the site.
struct SiteFile {
  /// Path relative to the site root, '/'-separated, as reached by the walk.
  std::string relative_path;
  /// Path to open.
  std::string absolute_path;
  /// A capture of a web archive (archive_site.h): the HTTP response's Content-Type (its
  /// charset rules how the page is decoded), the target of an HTTP redirect (the file then has
  /// no body to read), and where the record is ("crawl.warc.gz@1234", for pages.jsonl). Empty
  /// for a file on disk.
  std::string content_type;
  std::optional<std::string> redirect;
  std::string record;
  /// Its size in bytes when the walk saw it (the parse's work, to schedule it); 0 when unknown.
  std::uint64_t size = 0;
};

/// A list of SiteFile, held as their relative paths in one buffer and their sizes: a path's
/// bytes and 16 more a file, where a vector of SiteFile costs ~300 bytes more (its strings'
/// headers and heap blocks, the absolute path repeating the site's directory). Every process of
/// a partitioned build lists the whole site (docs/partitioned-build.md), so this is a cost per
/// page of the whole site on each. A file's absolute path is its directory's `root` joined with
/// its relative path; a web archive's captures, which have their own (a body's file), a type, a
/// record or a redirect, keep those beside (`extras_`).
class FileList {
public:
  /// Files under `root` (a directory; "" for files whose absolute paths are given).
  explicit FileList(std::string root = {});

  /// Appends a file at root/`relative_path`.
  void add(std::string_view relative_path, std::uint64_t size);
  /// Appends `file`; what the compact form does not give back (an absolute path other than
  /// root/relative_path, a content type, redirect or record) is kept beside.
  void push_back(const SiteFile& file);

  std::size_t size() const { return sizes_.size(); }
  bool empty() const { return sizes_.empty(); }
  /// File i, rebuilt. REQUIRES: i < size().
  SiteFile operator[](std::size_t i) const;
  std::string_view relative_path(std::size_t i) const;
  std::uint64_t file_size(std::size_t i) const { return sizes_[i]; }
  /// Whether file i is a capture of an HTTP redirect (no body to read).
  bool is_redirect(std::size_t i) const;

  /// Whether the files are in relative path order (byte order).
  bool is_sorted_by_path() const;
  /// Sorts the files by relative path (byte order); files of equal paths keep their order.
  void sort_by_path();
  /// Keeps the files [first, end) only, their memory let go of the rest.
  void keep_range(std::size_t first, std::size_t end);

  /// Walks the files as SiteFile values (each rebuilt when read).
  class const_iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = SiteFile;
    using difference_type = std::ptrdiff_t;
    using reference = SiteFile;
    using pointer = void;
    const_iterator(const FileList* list, std::size_t i) : list_(list), i_(i) {}
    SiteFile operator*() const { return (*list_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const const_iterator& other) const { return i_ == other.i_; }

  private:
    const FileList* list_;
    std::size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

private:
  /// What a capture of a web archive has beyond a path and a size.
  struct Extra {
    std::string absolute_path;
    std::string content_type;
    std::optional<std::string> redirect;
    std::string record;
  };
  static constexpr std::uint32_t kNoExtra = UINT32_MAX;

  std::string root_;
  std::string paths_;                  ///< the relative paths, one after another
  std::vector<std::uint64_t> ends_;    ///< where each file's path ends in paths_
  std::vector<std::uint64_t> sizes_;   ///< by file
  std::vector<Extra> extras_;          ///< the captures' extras, in no order
  std::vector<std::uint32_t> extra_;   ///< by file, its extra in extras_ (kNoExtra); empty when none has one
};

}  // namespace canon::indexer
