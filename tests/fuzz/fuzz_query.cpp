/// @file fuzz_query.cpp
/// @brief libFuzzer target: a query through Xapian's query parser and canon's search (title
/// matches, snippets, alternates) over an index of sample_site built once at start-up.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "query/searcher.h"
#include "tests/fuzz/sample_index.h"

namespace {

std::unique_ptr<canon::query::Searcher> open_sample_index() {
  const std::filesystem::path index = canon::fuzz::index_sample_site("query");
  auto searcher = canon::query::Searcher::open(index);
  if (!searcher.ok()) std::abort();
  std::error_code ec;
  std::filesystem::remove_all(index, ec);  // the open database stays readable
  return std::move(searcher.value());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::unique_ptr<canon::query::Searcher> searcher = open_sample_index();
  canon::query::SearchRequest request;
  request.query.assign(reinterpret_cast<const char*>(data), size);
  request.limit = 5;
  request.highlight_start = "[";
  request.highlight_end = "]";
  auto results = searcher->search(request);  // a bad query is an error Status, never a crash
  if (results.ok() && results.value().hits.size() > request.limit) __builtin_trap();
  return 0;
}
