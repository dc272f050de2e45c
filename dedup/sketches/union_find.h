/// @file union_find.h
/// @brief Disjoint sets with path halving and union by size.
#pragma once

#include <cstdint>
#include <vector>

namespace canon::dedup {

/// Disjoint-set forest over elements 0..size-1. Not thread-safe.
class UnionFind {
public:
  explicit UnionFind(std::uint32_t size);
  /// The root of x's set (the element that names it). REQUIRES: x < size.
  std::uint32_t find(std::uint32_t x);
  /// Merges the sets of a and b; returns false when they were already one set.
  bool unite(std::uint32_t a, std::uint32_t b);
  std::uint32_t size() const { return static_cast<std::uint32_t>(parent_.size()); }
  /// For every element, the smallest element of its set (a stable cluster id).
  std::vector<std::uint32_t> smallest_member_labels();

private:
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint32_t> set_size_;
};

}  // namespace canon::dedup
