/// @file file_list.cpp
/// @brief The page files of a site, held compactly.
#include "indexer/input/file_list.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace canon::indexer {

FileList::FileList(std::string root) : root_(std::move(root)) {
  if (!root_.empty() && root_.back() != '/') root_ += '/';
}

void FileList::add(std::string_view relative_path, std::uint64_t size) {
  paths_.append(relative_path);
  ends_.push_back(paths_.size());
  sizes_.push_back(size);
  if (!extra_.empty()) extra_.push_back(kNoExtra);
}

void FileList::push_back(const SiteFile& file) {
  const bool plain = file.content_type.empty() && !file.redirect && file.record.empty() &&
                     !root_.empty() && file.absolute_path.size() == root_.size() + file.relative_path.size() &&
                     file.absolute_path.starts_with(root_) && file.absolute_path.ends_with(file.relative_path);
  add(file.relative_path, file.size);
  if (plain) return;
  if (extra_.empty()) extra_.assign(size(), kNoExtra);  // the first file with extras
  extra_.back() = static_cast<std::uint32_t>(extras_.size());
  extras_.push_back(Extra{file.absolute_path, file.content_type, file.redirect, file.record});
}

std::string_view FileList::relative_path(std::size_t i) const {
  const std::size_t begin = i == 0 ? 0 : ends_[i - 1];
  return std::string_view(paths_).substr(begin, ends_[i] - begin);
}

SiteFile FileList::operator[](std::size_t i) const {
  SiteFile file;
  file.relative_path = relative_path(i);
  file.size = sizes_[i];
  if (!extra_.empty() && extra_[i] != kNoExtra) {
    const Extra& extra = extras_[extra_[i]];
    file.absolute_path = extra.absolute_path;
    file.content_type = extra.content_type;
    file.redirect = extra.redirect;
    file.record = extra.record;
  } else {
    file.absolute_path = root_ + file.relative_path;
  }
  return file;
}

bool FileList::is_redirect(std::size_t i) const {
  return !extra_.empty() && extra_[i] != kNoExtra && extras_[extra_[i]].redirect.has_value();
}

bool FileList::is_sorted_by_path() const {
  for (std::size_t i = 1; i < size(); ++i) {
    if (relative_path(i) < relative_path(i - 1)) return false;
  }
  return true;
}

void FileList::sort_by_path() {
  assert(size() < UINT32_MAX);
  std::vector<std::uint32_t> order(size());
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(),
                   [this](std::uint32_t a, std::uint32_t b) { return relative_path(a) < relative_path(b); });
  std::string paths;
  paths.reserve(paths_.size());
  std::vector<std::uint64_t> ends(size());
  std::vector<std::uint64_t> sizes(size());
  std::vector<std::uint32_t> extra(extra_.empty() ? 0 : size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    paths.append(relative_path(order[k]));
    ends[k] = paths.size();
    sizes[k] = sizes_[order[k]];
    if (!extra_.empty()) extra[k] = extra_[order[k]];
  }
  paths_ = std::move(paths);
  ends_ = std::move(ends);
  sizes_ = std::move(sizes);
  extra_ = std::move(extra);
}

void FileList::keep_range(std::size_t first, std::size_t end) {
  assert(first <= end && end <= size());
  const std::size_t begin_byte = first == 0 ? 0 : ends_[first - 1];
  const std::size_t end_byte = first == end ? begin_byte : ends_[end - 1];
  std::string paths = paths_.substr(begin_byte, end_byte - begin_byte);
  std::vector<std::uint64_t> ends(ends_.begin() + static_cast<std::ptrdiff_t>(first),
                                  ends_.begin() + static_cast<std::ptrdiff_t>(end));
  for (std::uint64_t& e : ends) e -= begin_byte;
  std::vector<std::uint64_t> sizes(sizes_.begin() + static_cast<std::ptrdiff_t>(first),
                                   sizes_.begin() + static_cast<std::ptrdiff_t>(end));
  std::vector<std::uint32_t> extra;
  std::vector<Extra> extras;
  if (!extra_.empty()) {
    for (std::size_t i = first; i < end; ++i) {
      if (extra_[i] == kNoExtra) {
        extra.push_back(kNoExtra);
      } else {
        extra.push_back(static_cast<std::uint32_t>(extras.size()));
        extras.push_back(std::move(extras_[extra_[i]]));
      }
    }
  }
  paths_ = std::move(paths);
  ends_ = std::move(ends);
  sizes_ = std::move(sizes);
  extra_ = std::move(extra);
  extras_ = std::move(extras);
}

}  // namespace canon::indexer
