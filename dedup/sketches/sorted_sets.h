/// @file sorted_sets.h
/// @brief Operations on sorted sets without repeats (shingle hashes, token ids), written once for
/// every detector.
#pragma once

#include <cstddef>
#include <span>

namespace canon::dedup {

/// |a ∩ b| of two sorted sets without repeats, in one merge pass (the same count as
/// std::set_intersection, without building the intersection). Raw pointers keep Debug builds
/// (span iterators are not inlined there) fast enough.
template <class T>
std::size_t intersection_size(std::span<const T> a, std::span<const T> b) {
  std::size_t common = 0;
  const T *i = a.data(), *i_end = i + a.size(), *j = b.data(), *j_end = j + b.size();
  while (i != i_end && j != j_end) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++common, ++i, ++j;
    }
  }
  return common;
}

}  // namespace canon::dedup
