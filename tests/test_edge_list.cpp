/// @file test_edge_list.cpp
/// @brief Edge and node lists (`canon rank`'s input): format, errors with line numbers, id
/// interning against a std::unordered_map model, and the sorted score output.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ranking/edge_list.h"

using canon::ranking::EdgeList;
using canon::ranking::NodeId;
using canon::ranking::NodeNames;
using canon::ranking::read_edge_list;
using canon::ranking::read_node_list;
using canon::ranking::write_scores;

namespace {

using NamePairs = std::vector<std::pair<std::string, std::string>>;

/// The edges of `list` as (source name, target name), in input order.
NamePairs named_edges(const EdgeList& list) {
  NamePairs result;
  for (const auto& e : list.edges) {
    result.emplace_back(std::string(list.nodes.name(e.source)),
                        std::string(list.nodes.name(e.target)));
  }
  return result;
}

std::vector<std::string> names(const NodeNames& nodes) {
  std::vector<std::string> result;
  for (NodeId v = 0; v < nodes.size(); ++v) result.emplace_back(nodes.name(v));
  return result;
}

/// A stream buffer that hands out at most `piece` bytes per underflow and cannot seek (like a
/// pipe); with `fail_at`, reading past that offset throws (the istream then reports bad()).
class PipeBuf : public std::streambuf {
public:
  PipeBuf(std::string data, std::size_t piece, std::size_t fail_at = std::string::npos)
      : data_(std::move(data)), piece_(piece), fail_at_(fail_at) {}

protected:
  int_type underflow() override {
    if (pos_ >= fail_at_) throw std::runtime_error("disk on fire");
    if (pos_ >= data_.size()) return traits_type::eof();
    const std::size_t n = std::min({piece_, data_.size() - pos_, fail_at_ - pos_});
    char* p = data_.data() + pos_;
    setg(p, p, p + n);
    pos_ += n;
    return traits_type::to_int_type(*p);
  }

private:
  std::string data_;
  std::size_t piece_, fail_at_, pos_ = 0;
};

}  // namespace

TEST_CASE("good edge lists") {
  struct Case {
    const char* what;
    std::string text;
    NamePairs edges;
    std::vector<std::string> nodes;  // in id order
  };
  const std::vector<Case> cases{
      {"empty input", "", {}, {}},
      {"one edge, no final newline", "a\tb", {{"a", "b"}}, {"a", "b"}},
      {"one edge", "a\tb\n", {{"a", "b"}}, {"a", "b"}},
      {"comments and blank lines",
       "# header\n\na\tb\n\n# a\tb\nb\ta\n",
       {{"a", "b"}, {"b", "a"}},
       {"a", "b"}},
      {"CRLF", "a\tb\r\nb\tc\r\n\r\n#x\r\n", {{"a", "b"}, {"b", "c"}}, {"a", "b", "c"}},
      {"CR only before LF is dropped", "a\r\tb\n", {{"a\r", "b"}}, {"a\r", "b"}},
      {"byte-order mark", "\xEF\xBB\xBFx\ty\n", {{"x", "y"}}, {"x", "y"}},
      {"ids are bytes: spaces, '#' inside, UTF-8, URLs",
       " a \thttp://x/#frag\né\t#b\n",
       {{" a ", "http://x/#frag"}, {"é", "#b"}},
       {" a ", "http://x/#frag", "é", "#b"}},
      {"repeats and self-links are kept; ids interned once",
       "a\tb\na\tb\nb\tb\nc\ta\n",
       {{"a", "b"}, {"a", "b"}, {"b", "b"}, {"c", "a"}},
       {"a", "b", "c"}},
      {"ids differing only in case or length are different",
       "a\tA\naa\ta\n",
       {{"a", "A"}, {"aa", "a"}},
       {"a", "A", "aa"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    for (const std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{1} << 20}) {
      CAPTURE(piece);
      PipeBuf buf(c.text, piece);
      std::istream pipe(&buf);
      std::istringstream seekable(c.text);
      for (std::istream* in : {&pipe, static_cast<std::istream*>(&seekable)}) {
        auto list = read_edge_list(*in, "edges.tsv");
        REQUIRE(list.ok());
        CHECK(named_edges(list.value()) == c.edges);
        CHECK(names(list->nodes) == c.nodes);
      }
    }
  }
}

TEST_CASE("malformed lines are reported with their line number") {
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases{
      {"a b\n", "edges.tsv:1: no tab; expected 'source<TAB>target'"},
      {"a\tb\n# fine\n\nx\n", "edges.tsv:4: no tab; expected 'source<TAB>target'"},
      {"a\tb\tc\n", "edges.tsv:1: more than one tab; expected 'source<TAB>target'"},
      {"a\tb\r\nc\td\t\r\n", "edges.tsv:2: more than one tab; expected 'source<TAB>target'"},
      {"\tb\n", "edges.tsv:1: empty source id"},
      {"a\tb\na\t\n", "edges.tsv:2: empty target id"},
      {"a\t\r\n", "edges.tsv:1: empty target id"},
      {"a\tb\n \n", "edges.tsv:2: no tab; expected 'source<TAB>target'"},  // not blank: a space
      {"a\tb\nlast", "edges.tsv:2: no tab; expected 'source<TAB>target'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    std::istringstream in(c.text);
    auto list = read_edge_list(in, "edges.tsv");
    REQUIRE_FALSE(list.ok());
    CHECK(list.status().message() == c.error);
  }
}

TEST_CASE("a read error is not taken for the end of the input") {
  PipeBuf buf("a\tb\nc\td\n", 2, 5);
  std::istream in(&buf);
  auto list = read_edge_list(in, "-");
  REQUIRE_FALSE(list.ok());
  CHECK(list.status().message() == "-: read error");
}

TEST_CASE("node lists add nodes without links, once") {
  std::istringstream edges("a\tb\n");
  auto list = read_edge_list(edges, "edges.tsv");
  REQUIRE(list.ok());
  std::istringstream nodes("# all pages\nc\r\nb\n\nd\nc\n");
  REQUIRE(read_node_list(nodes, "nodes.txt", list->nodes).ok());
  CHECK(names(list->nodes) == std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(list->edges.size() == 1);

  std::istringstream bad("e\nf\tg\n");
  const canon::Status status = read_node_list(bad, "nodes.txt", list->nodes);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() == "nodes.txt:2: a node id cannot contain a tab");
}

TEST_CASE("lines longer than the read block, and many blocks") {
  const std::string long_id(3 << 20, 'x');  // 3 MiB: longer than the 1 MiB block
  std::string text = "a\t" + long_id + "\n" + long_id + "\tb\r\n";
  NamePairs expected{{"a", long_id}, {long_id, "b"}};
  std::mt19937 rng(3);
  for (int i = 0; i < 200000; ++i) {  // ~3 MB of short lines crossing block boundaries
    const std::string s = "n" + std::to_string(rng() % 5000),
                      t = "n" + std::to_string(rng() % 5000);
    text += s + "\t" + t + (i % 2 ? "\n" : "\r\n");
    expected.emplace_back(s, t);
  }
  for (const std::size_t piece : {std::size_t{4093}, std::size_t{1} << 22}) {
    PipeBuf buf(text, piece);
    std::istream in(&buf);
    auto list = read_edge_list(in, "big.tsv");
    REQUIRE(list.ok());
    CHECK(named_edges(list.value()) == expected);
  }
}

TEST_CASE("NodeNames matches a std::unordered_map model through many table growths") {
  NodeNames nodes;
  std::unordered_map<std::string, NodeId> model;
  std::vector<std::string> by_id;
  std::mt19937 rng(42);
  for (int i = 0; i < 300000; ++i) {
    // Mostly new names of varied lengths, some repeats; includes the empty name and NULs.
    std::string name;
    if (i % 4 == 0 && !by_id.empty()) {
      name = by_id[rng() % by_id.size()];
    } else {
      name = std::to_string(rng() % 1000000);
      name.append(rng() % 3, '\0');
      if (i % 7 == 0) name += std::string(rng() % 40, 'z');
      if (i == 5) name.clear();
    }
    const auto [it, added] = model.emplace(name, static_cast<NodeId>(by_id.size()));
    if (added) by_id.push_back(name);
    REQUIRE(nodes.intern(name) == it->second);
  }
  REQUIRE(nodes.size() == by_id.size());
  for (NodeId v = 0; v < nodes.size(); ++v) {
    CHECK(nodes.name(v) == by_id[v]);
    CHECK(nodes.find(by_id[v]) == v);
  }
  CHECK_FALSE(nodes.find("not a node").has_value());

  // Without its lookup table it keeps the names, and rebuilds the table when asked to look up.
  const std::size_t with_table = nodes.memory_bytes();
  nodes.release_lookup_table();
  CHECK(nodes.memory_bytes() < with_table);
  CHECK(nodes.name(7) == by_id[7]);
  CHECK(nodes.find(by_id[1234]) == 1234);
  CHECK(nodes.intern("brand new") == by_id.size());
}

TEST_CASE("intern_batch equals intern one by one, repeats within a batch included") {
  std::mt19937 rng(8);
  std::vector<std::string> storage;
  for (int i = 0; i < 50000; ++i) storage.push_back("id" + std::to_string(rng() % 20000));
  const std::vector<std::string_view> names(storage.begin(), storage.end());
  NodeNames one_by_one, batched;
  std::vector<NodeId> expected, ids(names.size());
  for (const std::string_view name : names) expected.push_back(one_by_one.intern(name));
  // Uneven batch sizes, so that batches straddle the internal groups and table growths.
  for (std::size_t first = 0, size = 1; first < names.size();
       first += size, size = size * 3 % 997 + 1) {
    const std::size_t count = std::min(size, names.size() - first);
    batched.intern_batch(std::span(names).subspan(first, count),
                         std::span(ids).subspan(first, count));
  }
  CHECK(ids == expected);
  CHECK(batched.size() == one_by_one.size());
}

TEST_CASE("write_scores: score descending, ties by id bytes, 17 significant digits") {
  NodeNames nodes;
  for (const char* name : {"b", "a", "c", "B", "d"}) nodes.intern(name);
  const std::vector<double> scores{0.25, 0.25, 0.1, 0.25, 0.4 / 3};
  std::ostringstream out;
  REQUIRE(write_scores(out, nodes, scores).ok());
  CHECK(out.str() == "B\t0.25\na\t0.25\nb\t0.25\nd\t0.13333333333333333\nc\t0.10000000000000001\n");
  // Every printed score reads back as the same double.
  std::istringstream lines(out.str());
  std::string line;
  while (std::getline(lines, line)) {
    const std::string id = line.substr(0, line.find('\t'));
    const double read_back = std::strtod(line.c_str() + id.size() + 1, nullptr);
    CHECK(read_back == scores[*nodes.find(id)]);
  }

  std::ostringstream failed;
  failed.setstate(std::ios::badbit);
  CHECK_FALSE(write_scores(failed, nodes, scores).ok());
}
