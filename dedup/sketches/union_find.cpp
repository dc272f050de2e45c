/// @file union_find.cpp
/// @brief UnionFind: path halving in find, union by size (hand-written; see minhash.cpp).
#include "dedup/sketches/union_find.h"

#include <cassert>
#include <numeric>
#include <utility>

namespace canon::dedup {

UnionFind::UnionFind(std::uint32_t size) : parent_(size), set_size_(size, 1) {
  std::iota(parent_.begin(), parent_.end(), 0u);
}

std::uint32_t UnionFind::find(std::uint32_t x) {
  assert(x < size());
  while (parent_[x] != x) {
    parent_[x] = parent_[parent_[x]];
    x = parent_[x];
  }
  return x;
}

bool UnionFind::unite(std::uint32_t a, std::uint32_t b) {
  a = find(a);
  b = find(b);
  if (a == b) return false;
  if (set_size_[a] < set_size_[b]) std::swap(a, b);
  parent_[b] = a;
  set_size_[a] += set_size_[b];
  return true;
}

std::vector<std::uint32_t> UnionFind::smallest_member_labels() {
  // Elements are visited in increasing order, so the first one seen of each set is its smallest.
  constexpr std::uint32_t kUnset = UINT32_MAX;
  std::vector<std::uint32_t> smallest(size(), kUnset), labels(size());
  for (std::uint32_t x = 0; x < size(); ++x) {
    std::uint32_t& s = smallest[find(x)];
    if (s == kUnset) s = x;
    labels[x] = s;
  }
  return labels;
}

}  // namespace canon::dedup
