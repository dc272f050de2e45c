/// @file fuzz_readers.cpp
/// @brief libFuzzer target: canon's readers of its own and its users' files: `canon rank`'s
/// edge and node lists, pages.jsonl lines, truth files, the alternates of document data, the
/// page store's catalog and a page's text head and tail as value slots hold them. The first byte
/// picks the reader; the rest is its input.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include <xxhash.h>

#include "eval/truth.h"
#include "format/alternates.h"
#include "format/index_format.h"
#include "format/text_head.h"
#include "format/text_tail.h"
#include "indexer/records/pages_jsonl.h"
#include "store/store_catalog.h"
#include "ranking/edge_list.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 7) {
    case 0: {
      std::istringstream in(input);
      auto edges = canon::ranking::read_edge_list(in, "fuzz");
      (void)edges;
      break;
    }
    case 1: {
      std::istringstream in(input);
      canon::ranking::NodeNames names;
      (void)canon::ranking::read_node_list(in, "fuzz", names);
      break;
    }
    case 2: {
      auto page = canon::indexer::decode_page_line(input);
      if (page.ok()) {  // what is read back is written the same way again
        const std::string line = canon::indexer::encode_page_line(page.value());
        auto again = canon::indexer::decode_page_line(line);
        if (!again.ok() || canon::indexer::encode_page_line(again.value()) != line) __builtin_trap();
      }
      break;
    }
    case 3:
      (void)canon::eval::parse_truth(input, "fuzz");
      break;
    case 4: {  // the catalog's body, given the checksum it needs so that the decoder reads it
      std::string catalog = "canon page store catalog\n";
      for (int i = 0; i < 4; ++i) catalog.push_back(static_cast<char>((canon::store::kStoreCatalogVersion >> (8 * i)) & 0xff));
      catalog += input;
      const std::uint64_t hash = XXH3_64bits(catalog.data(), catalog.size());
      for (int i = 0; i < 8; ++i) catalog.push_back(static_cast<char>((hash >> (8 * i)) & 0xff));
      (void)canon::store::decode_store_catalog(catalog, "fuzz");
      break;
    }
    case 5: {  // a text head (its text encoded again reads back the same) and a tail, piecewise
      if (const auto head = canon::index_format::decode_text_head(input)) {
        if (canon::index_format::decode_text_head(canon::index_format::encode_text_head(*head)) != head) __builtin_trap();
      }
      canon::index_format::TextTailReader tail(input);
      std::string text;
      while (tail.append(text, 4096)) {
      }
      break;
    }
    default:
      (void)canon::index_format::decode_alternates(canon::index_format::data_field(input, "canon_alternates"));
      break;
  }
  return 0;
}
