/// @file site_links_by_owner.cpp
/// @brief The link stage by parts: URLs resolved by their owner processes, a redirect hop a round.
///
/// Written by hand, not with a distributed-hash-table library: what is exchanged is a few
/// messages of the run's own collectives (all_to_all_bytes), and the result must be the same for
/// every number of processes, bit for bit, which fixes every order (nodes and edges in file order,
/// texts counted per page).
#include "indexer/stages/site_links_by_owner.h"

#include <algorithm>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <xxhash.h>

#include "common/byte_codec.h"
#include "urls/url.h"

namespace canon::indexer {
namespace {

using codec::put_string;
using codec::put_varint;

Status damaged(std::string_view what) {
  return Status::corruption("the link stage received a damaged message (" + std::string(what) + ")");
}

/// What the owner of a URL knows of the page at it.
struct OwnedUrl {
  std::uint32_t file = kNoRecord;
  std::uint32_t node = kNoRecord;  ///< kNoRecord for a redirect page
  std::string_view redirects_to;   ///< the next URL, for a redirect page (a view of OwnedPages::received)
};

/// The pages whose URLs this process owns, by URL: views of the bytes it received.
struct OwnedPages {
  std::vector<std::string> received;
  std::unordered_map<std::string_view, OwnedUrl> by_url;
};

/// One URL being followed, from a redirect page of this process (`redirect_of`) or a link target:
/// where it lands. Small (40 bytes; the URL of the last redirect it went through, if any, in a
/// table beside): a process follows every URL its own pages link to.
struct Query {
  /// The URL it starts from: a view of the page's record or of the run's URL table.
  std::string_view start;
  std::uint32_t redirect_of = kNoRecord;
  std::uint32_t file = kNoRecord;  ///< the page it lands on, or kNoRecord
  std::uint32_t node = kNoRecord;
  /// Once a redirect led on: the URL it led to, in the table of hops (follow_queries).
  std::uint32_t hop = kNoRecord;
  std::uint8_t lookups = 0;
  bool existence_only = false;     ///< after kMaxRedirectHops: only whether a page serves url()
  bool final_url_is_page = false;  ///< a page of the site serves url() (set when file is none)
  /// The URL asked next, or, once followed, the last one asked; `hops`, the table of hops.
  std::string_view url(const std::vector<std::string>& hops) const {
    return hop != kNoRecord ? std::string_view(hops[hop]) : start;
  }
};

/// The process whose range holds `file`; `ends` are the ranges' ends in rank order.
unsigned file_owner(std::uint32_t file, const std::vector<std::uint32_t>& ends) {
  return static_cast<unsigned>(std::upper_bound(ends.begin(), ends.end(), file) - ends.begin());
}

/// The texts this process's pages link with, for the processes that hold the pages linked to: per
/// process, each text once (a list, PartTable) and each named link as its target and the text's
/// place in that list. Texts repeat from page to page (a sidebar's names on every page of a folder).
class NamedLinksTo {
public:
  NamedLinksTo(unsigned processes, const std::vector<std::string>& anchor_texts)
      : run_texts_(anchor_texts.begin(), anchor_texts.end()), pairs_(processes), texts_(processes) {
    tables_.reserve(processes);
    for (std::vector<std::string>& texts : texts_) tables_.emplace_back(run_texts_, texts);
  }
  void add(unsigned to, std::uint32_t target, std::uint32_t text) {
    put_varint(pairs_[to], target);
    put_varint(pairs_[to], tables_[to].renumber(text));
  }
  /// The message for each process: its list of texts, then the pairs.
  std::vector<std::string> messages() && {
    std::vector<std::string> out(pairs_.size());
    for (std::size_t p = 0; p < pairs_.size(); ++p) {
      codec::put_list(out[p], texts_[p]);
      out[p] += pairs_[p];
      std::string().swap(pairs_[p]);
    }
    return out;
  }

private:
  std::vector<std::string_view> run_texts_;
  std::vector<std::string> pairs_;
  std::vector<std::vector<std::string>> texts_;  ///< by process; tables_[p] fills texts_[p]
  std::vector<PartTable> tables_;
};

/// Every process's range, checked to tile [0, files) in rank order (an empty one anywhere);
/// returns their ends.
Result<std::vector<std::uint32_t>> gather_ranges(std::uint32_t first, std::uint32_t end, std::size_t files,
                                                 const Collective& processes) {
  std::string mine;
  put_varint(mine, first);
  put_varint(mine, end);
  std::vector<std::uint32_t> ends;
  std::uint64_t expected_first = 0;
  for (const std::string& bytes : processes.all_gather_bytes(mine)) {
    codec::Reader in(bytes);
    std::uint64_t f = in.varint(), e = in.varint();
    if (f == e) f = e = expected_first;  // a process without files
    if (!in.ok() || f != expected_first || e < f || e > files) return damaged("the files' ranges do not tile the site");
    ends.push_back(static_cast<std::uint32_t>(e));
    expected_first = e;
  }
  if (expected_first != files) return damaged("the files' ranges do not tile the site");
  return ends;
}

/// Whether every process is done (each says whether it is): one all_reduce_min.
bool all_done(bool done, const Collective& processes) {
  std::uint32_t flag = done ? 1 : 0;
  processes.all_reduce_min(std::span(&flag, 1));
  return flag == 1;
}

/// The owner's side of a lookup round: answers each URL asked for from `owned`, in the order
/// asked, per asking process: 0 no page serves it; 1 a page (its file and node); 2 a redirect page
/// (the URL it leads to).
Result<std::vector<std::string>> answer_lookups(std::vector<std::string> received, const OwnedPages& owned) {
  std::vector<std::string> answers(received.size());
  for (std::size_t from = 0; from < received.size(); ++from) {
    codec::Reader in(received[from]);
    while (!in.at_end()) {
      const std::string_view url = in.view();
      if (!in.ok()) return damaged("a URL asked for");
      const auto it = owned.by_url.find(url);
      if (it == owned.by_url.end()) {
        put_varint(answers[from], 0);
      } else if (it->second.node == kNoRecord) {
        put_varint(answers[from], 2);
        put_string(answers[from], it->second.redirects_to);
      } else {
        put_varint(answers[from], 1);
        put_varint(answers[from], it->second.file);
        put_varint(answers[from], it->second.node);
      }
    }
    std::string().swap(received[from]);
  }
  return answers;
}

/// Reads one answer (answer_lookups) into `query`; returns whether the query asks again (a
/// redirect led on; its next URL in `hops`).
Result<bool> read_answer(codec::Reader& in, Query& query, std::vector<std::string>& hops) {
  const std::uint64_t kind = in.varint();
  if (!in.ok() || kind > 2) return damaged("an answer");
  ++query.lookups;
  if (query.existence_only || kind != 2) {
    // The query ends here: a page, nowhere, or (after its last hop) a URL served by a page or not.
    query.final_url_is_page = kind != 0;
    if (kind == 1) {
      const std::uint64_t file = in.varint(), node = in.varint();
      if (!in.ok() || file >= kNoRecord || node >= kNoRecord) return damaged("an answer");
      if (!query.existence_only) {
        query.file = static_cast<std::uint32_t>(file);
        query.node = static_cast<std::uint32_t>(node);
      }
    } else if (kind == 2) {
      in.view();
    }
    return false;
  }
  // The next URL, stripped of its index page by share_pages: a query's hops take one entry of the
  // table, the last in it.
  std::string next = in.string();
  if (!in.ok()) return damaged("an answer");
  if (query.hop == kNoRecord) {
    query.hop = static_cast<std::uint32_t>(hops.size());
    hops.push_back(std::move(next));
  } else {
    hops[query.hop] = std::move(next);
  }
  // After kMaxRedirectHops redirects the chain lands nowhere; a redirect page still asks whether its last
  // URL is a page (then its redirects go round).
  if (query.lookups == kMaxRedirectHops) {
    if (query.redirect_of == kNoRecord) return false;
    query.existence_only = true;
  }
  return true;
}

/// Follows every query to where it leads, a lookup a round at the URL's owner, which answers
/// from `owned` (the pages whose URLs it owns); the URLs redirects lead queries on to go to
/// `hops` (Query::hop).
Status follow_queries(std::vector<Query>& queries, std::vector<std::string>& hops, const OwnedPages& owned,
                      const Collective& processes) {
  const unsigned p_count = processes.size();
  std::vector<std::uint32_t> active(queries.size());
  for (std::size_t q = 0; q < queries.size(); ++q) active[q] = static_cast<std::uint32_t>(q);
  while (!all_done(active.empty(), processes)) {
    // Ask each URL's owner; its answers come back in the order asked.
    std::vector<std::string> asks(p_count);
    std::vector<std::vector<std::uint32_t>> asked(p_count);
    for (const std::uint32_t q : active) {
      const std::string_view url = queries[q].url(hops);
      const unsigned owner = url_owner(url, p_count);
      put_string(asks[owner], url);
      asked[owner].push_back(q);
    }
    auto answers = answer_lookups(processes.all_to_all_bytes(asks), owned);
    if (!answers.ok()) return answers.status();
    asks = {};
    const std::vector<std::string> answered = processes.all_to_all_bytes(answers.value());
    answers.value() = {};
    std::vector<std::uint32_t> still;
    for (unsigned owner = 0; owner < p_count; ++owner) {
      codec::Reader in(answered[owner]);
      for (const std::uint32_t q : asked[owner]) {
        const auto again = read_answer(in, queries[q], hops);
        if (!again.ok()) return again.status();
        if (again.value()) still.push_back(q);
      }
      if (!in.at_end()) return damaged("more answers than questions");
    }
    active = std::move(still);
  }
  return Status::ok_status();
}

/// The parsed pages of this process, told to the owners of their URLs; returns the pages whose
/// URLs this process owns, the smallest file first for a URL two pages give.
Result<OwnedPages> share_pages(const HeldRecords& records, std::uint32_t first, std::uint32_t end,
                               const std::vector<std::uint32_t>& node_of, const Collective& processes) {
  std::vector<std::string> to_owner(processes.size());
  for (std::uint32_t i = first; i < end; ++i) {
    const PageRecord& r = records[i];
    if (!r.parsed) continue;
    std::string& out = to_owner[url_owner(r.url, processes.size())];
    put_string(out, r.url);
    put_varint(out, i);
    put_varint(out, r.refresh_url ? 0 : std::uint64_t{node_of[i - first]} + 1);
    if (r.refresh_url) put_string(out, urls::strip_index_page(*r.refresh_url));
  }
  OwnedPages owned;
  owned.received = processes.all_to_all_bytes(to_owner);
  to_owner = {};
  for (const std::string& bytes : owned.received) {
    codec::Reader in(bytes);
    while (!in.at_end()) {
      const std::string_view url = in.view();
      OwnedUrl page;
      const std::uint64_t file = in.varint(), node = in.varint();
      if (!in.ok() || file >= kNoRecord || node > kNoRecord) return damaged("a page");
      page.file = static_cast<std::uint32_t>(file);
      if (node == 0) {
        page.redirects_to = in.view();
      } else {
        page.node = static_cast<std::uint32_t>(node - 1);
      }
      if (!in.ok()) return damaged("a page");
      owned.by_url.emplace(url, page);  // processes in rank order: files in order
    }
  }
  return owned;
}

/// Where a link lands: the page (file and node) serving its URL once redirects are followed, or
/// kNoRecord.
struct Landing {
  std::uint32_t file = kNoRecord;
  std::uint32_t node = kNoRecord;
};

/// Where each URL (by UrlIds id) the nodes of [first, end) link to lands (kNoRecord for the
/// others), followed in rounds of at most `per_round` URLs; the processes agree on the number of
/// rounds (the most any needs), one with fewer following none in the last.
Result<std::vector<Landing>> follow_link_targets(std::uint32_t first, std::uint32_t end,
                                                 const std::vector<std::uint32_t>& node_of, const ParsedLinks& links,
                                                 std::size_t per_round, const OwnedPages& owned,
                                                 const Collective& processes) {
  per_round = std::max<std::size_t>(per_round, 1);
  std::vector<bool> linked(links.urls.size(), false);
  std::size_t linked_count = 0;
  for (std::uint32_t i = first; i < end; ++i) {
    if (node_of[i - first] == kNoRecord) continue;
    for (const std::uint32_t id : links.targets_of(i)) {
      if (!linked[id]) ++linked_count;
      linked[id] = true;
    }
  }
  // The most rounds any process needs: the smallest complement.
  std::uint32_t rounds = ~static_cast<std::uint32_t>((linked_count + per_round - 1) / per_round);
  processes.all_reduce_min(std::span(&rounds, 1));
  rounds = ~rounds;

  std::vector<Landing> landings(links.urls.size());
  const std::vector<std::string_view> url_text = links.urls.views();  // the strings stay put
  std::size_t next_id = 0;
  std::vector<Query> queries;
  std::vector<std::uint32_t> ids;
  std::vector<std::string> hops;
  for (std::uint32_t round = 0; round < rounds; ++round) {
    queries.clear();
    ids.clear();
    hops.clear();
    for (; next_id < linked.size() && ids.size() < per_round; ++next_id) {
      if (!linked[next_id]) continue;
      ids.push_back(static_cast<std::uint32_t>(next_id));
      queries.emplace_back();
      queries.back().start = url_text[next_id];
    }
    if (Status followed = follow_queries(queries, hops, owned, processes); !followed.ok()) return followed;
    for (std::size_t q = 0; q < ids.size(); ++q) landings[ids[q]] = {queries[q].file, queries[q].node};
  }
  return landings;
}

/// This process's nodes (its parsed pages but redirects, in file order) numbered after those of
/// the processes before it.
struct OwnNodes {
  std::vector<std::uint32_t> node_of;  ///< per file of [first, end): its node, or kNoRecord
  std::vector<std::uint32_t> records;  ///< the files of this process's nodes, in node order
  std::uint32_t base = 0;              ///< the first node's number
  std::uint32_t total = 0;             ///< the nodes of every process
  std::vector<std::uint32_t> starts;   ///< each process's first node, then `total`
};

Result<OwnNodes> number_own_nodes(const HeldRecords& records, std::uint32_t first, std::uint32_t end,
                                  const Collective& processes) {
  OwnNodes nodes;
  nodes.node_of.assign(end - first, kNoRecord);
  for (std::uint32_t i = first; i < end; ++i) {
    if (!records[i].parsed || records[i].refresh_url) continue;
    nodes.node_of[i - first] = static_cast<std::uint32_t>(nodes.records.size());
    nodes.records.push_back(i);
  }
  std::string count;
  put_varint(count, nodes.records.size());
  const std::vector<std::string> counts = processes.all_gather_bytes(count);
  for (unsigned p = 0; p < processes.size(); ++p) {
    codec::Reader in(counts[p]);
    const std::uint64_t n = in.varint();
    if (!in.ok() || nodes.total + n >= kNoRecord) return damaged("a count of nodes");
    if (p < processes.rank()) nodes.base += static_cast<std::uint32_t>(n);
    nodes.starts.push_back(nodes.total);
    nodes.total += static_cast<std::uint32_t>(n);
  }
  nodes.starts.push_back(nodes.total);
  for (std::uint32_t& node : nodes.node_of) {
    if (node != kNoRecord) node += nodes.base;
  }
  return nodes;
}

/// The URLs this process's records name besides their links, to follow: its redirect pages' URLs
/// (the first `redirects` queries), then its pages' rel=canonical (a page URL rules recorded is a
/// redirect to the URL they give).
struct NamedPageQueries {
  std::vector<Query> queries;
  std::size_t redirects = 0;
  std::deque<std::string> canonical_urls;   ///< the queries view them: a deque's elements stay put
  std::vector<std::uint32_t> canonical_of;  ///< per canonical query, its record
  std::vector<std::string> hops;            ///< Query::hop
};

NamedPageQueries named_page_queries(const HeldRecords& records, std::uint32_t first, std::uint32_t end) {
  NamedPageQueries named;
  for (std::uint32_t i = first; i < end; ++i) {
    if (!records[i].parsed || !records[i].refresh_url) continue;
    named.queries.emplace_back();
    named.queries.back().start = records[i].url;
    named.queries.back().redirect_of = i;
  }
  named.redirects = named.queries.size();
  for (std::uint32_t i = first; i < end; ++i) {
    const PageRecord& r = records[i];
    if (!r.in_dedup || !r.canonical_url) continue;
    named.canonical_urls.push_back(urls::strip_index_page(*r.canonical_url));
    named.queries.emplace_back();
    named.queries.back().start = named.canonical_urls.back();
    named.canonical_of.push_back(i);
  }
  return named;
}

/// Records where the followed `named` queries led: each redirect page's status and final URL, the page URL rules named, a rel=canonical's
/// page; each redirect's landing counted by the process holding the page it lands on.
Status settle_named_pages(HeldRecords& records, std::uint32_t first, std::uint32_t end, const NamedPageQueries& named,
                          const std::vector<std::uint32_t>& ends, const Collective& processes) {
  std::vector<std::string> landed(processes.size());
  for (std::size_t q = 0; q < named.redirects; ++q) {
    const Query& query = named.queries[q];
    PageRecord& r = records[query.redirect_of];
    if (query.file == kNoRecord && query.final_url_is_page) {
      r.status = PageStatus::kSkipped;
      r.reason = redirect_loop_reason();
    } else {
      r.status = PageStatus::kRedirect;
      r.redirect_to = std::string(query.url(named.hops));
    }
    // A page URL rules recorded: the page at its final URL (where its redirect lands, if anywhere).
    if (query.file == kNoRecord) continue;
    if (r.url_rule) r.rule_page = query.file;
    put_varint(landed[file_owner(query.file, ends)], query.file);
  }
  for (std::size_t k = 0; k < named.canonical_of.size(); ++k) {
    records[named.canonical_of[k]].canonical_page = named.queries[named.redirects + k].file;
  }
  for (const std::string& bytes : processes.all_to_all_bytes(landed)) {
    codec::Reader in(bytes);
    while (in.ok() && !in.at_end()) {
      const std::uint64_t page = in.varint();
      if (!in.ok() || page < first || page >= end) return damaged("a redirect's landing");
      ++records[page].redirects_in;
    }
  }
  return Status::ok_status();
}

/// This process's rows of the graph (its nodes' links, where they land) and the texts it links
/// with, addressed to the holders of the files linked to.
struct OwnLinks {
  std::vector<ranking::Edge> edges;
  std::vector<std::string> named_links_to;  ///< per process: NamedLinksTo's message
};

OwnLinks own_links(const OwnNodes& nodes, const ParsedLinks& links, const std::vector<Landing>& landings,
                   const std::vector<std::string>& anchor_texts, const std::vector<std::uint32_t>& ends,
                   unsigned p_count) {
  const std::vector<std::uint32_t> name_of_place = names_of_places(anchor_texts);
  OwnLinks out;
  NamedLinksTo named_to(p_count, anchor_texts);
  std::vector<std::uint64_t> page_named;
  for (std::size_t own = 0; own < nodes.records.size(); ++own) {
    const std::uint32_t i = nodes.records[own];
    const std::uint32_t node = nodes.base + static_cast<std::uint32_t>(own);
    const std::vector<std::uint32_t>& targets = links.targets_of(i);
    const std::vector<std::uint32_t>& texts = links.texts_of(i);
    const bool with_texts = texts.size() == targets.size();
    page_named.clear();
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const Landing& landing = landings[targets[k]];
      if (landing.file == kNoRecord) continue;
      out.edges.push_back({node, landing.node});
      // A page's own links to its places name them (a class's member list); its other links to
      // itself say nothing of what other pages call it.
      const std::uint32_t text = with_texts ? texts[k] : kNoRecord;
      if (text == kNoRecord) continue;
      if (landing.file != i || is_place_key(anchor_texts[text])) page_named.push_back(std::uint64_t{landing.file} << 32 | text);
      if (landing.file != i && name_of_place[text] != kNoRecord) {
        page_named.push_back(std::uint64_t{landing.file} << 32 | name_of_place[text]);
      }
    }
    std::sort(page_named.begin(), page_named.end());  // each linking page counts once per text
    page_named.erase(std::unique(page_named.begin(), page_named.end()), page_named.end());
    for (const std::uint64_t named : page_named) {
      const auto target = static_cast<std::uint32_t>(named >> 32);
      named_to.add(file_owner(target, ends), target, static_cast<std::uint32_t>(named));
    }
  }
  out.named_links_to = std::move(named_to).messages();
  return out;
}

/// What other pages call this process's pages, counted where the pages are: the texts received
/// (`received`, NamedLinksTo's messages) into the records of `nodes` (count_inbound_anchors).
Status count_named_links(std::vector<std::string> received, HeldRecords& records, std::uint32_t first,
                         std::uint32_t end, const OwnNodes& nodes, std::vector<std::string>& anchor_texts) {
  TextIds text_ids(anchor_texts);
  std::vector<std::uint64_t> named_links;
  for (std::string& bytes : received) {
    codec::Reader in(bytes);
    std::vector<std::uint32_t> id_of;  // the sender's list of texts, as ids of this process's
    const std::uint64_t texts = in.count();
    for (std::uint64_t k = 0; k < texts && in.ok(); ++k) id_of.push_back(text_ids.id(in.view()));
    while (in.ok() && !in.at_end()) {
      const std::uint64_t target = in.varint(), text = in.varint();
      if (!in.ok() || target < first || target >= end || !records[target].node || text >= id_of.size()) {
        return damaged("a link text");
      }
      named_links.push_back(target << 32 | id_of[text]);
    }
    if (!in.ok()) return damaged("a link text");
  }
  text_ids.commit();
  count_inbound_anchors(std::move(named_links), nodes.records, anchor_texts, records);
  return Status::ok_status();
}

}  // namespace

unsigned url_owner(std::string_view url, unsigned processes) {
  return processes <= 1 ? 0 : static_cast<unsigned>(XXH3_64bits(url.data(), url.size()) % processes);
}

Result<SiteGraph> link_pages_by_owner(HeldRecords& records, std::uint32_t first, std::uint32_t end,
                                      const ParsedLinks& links, std::vector<std::string>& anchor_texts,
                                      const Collective& processes, std::size_t targets_per_round) {
  const auto ends = gather_ranges(first, end, records.size(), processes);
  if (!ends.ok()) return ends.status();
  auto nodes = number_own_nodes(records, first, end, processes);
  if (!nodes.ok()) return nodes.status();
  const std::vector<std::uint32_t>& node_of = nodes.value().node_of;

  // The pages told to their URLs' owners; this process's redirect pages, rel=canonical URLs and
  // link targets followed there.
  auto owned = share_pages(records, first, end, node_of, processes);
  if (!owned.ok()) return owned.status();
  NamedPageQueries named = named_page_queries(records, first, end);
  if (Status followed = follow_queries(named.queries, named.hops, owned.value(), processes); !followed.ok()) {
    return followed;
  }
  // The URLs this process's pages link to, followed a round of `targets_per_round` at a time (in
  // id order; where each lands is kept, 8 bytes a URL): the queries and messages of a round are
  // what the stage holds besides, whatever the number of URLs.
  auto landings = follow_link_targets(first, end, node_of, links, targets_per_round, owned.value(), processes);
  if (!landings.ok()) return landings.status();
  owned.value() = {};

  for (std::uint32_t i = first; i < end; ++i) {
    if (node_of[i - first] != kNoRecord) records[i].node = node_of[i - first];
  }
  if (Status settled = settle_named_pages(records, first, end, named, ends.value(), processes); !settled.ok()) {
    return settled;
  }
  named = {};
  OwnLinks own = own_links(nodes.value(), links, landings.value(), anchor_texts, ends.value(), processes.size());
  landings.value() = {};
  Status counted = count_named_links(processes.all_to_all_bytes(std::move(own.named_links_to)), records, first, end,
                                     nodes.value(), anchor_texts);
  if (!counted.ok()) return counted;

  // The rows kept: the graph stays in parts, each process with its own nodes' records.
  const std::uint32_t base = nodes.value().base;
  const auto own_count = static_cast<std::uint32_t>(nodes.value().records.size());
  ranking::OutLinkRows rows = ranking::OutLinkRows::build(nodes.value().total, base, base + own_count, std::move(own.edges));
  return SiteGraph{std::move(rows), std::move(nodes.value().records),
                   detail::RecordParts(std::move(nodes.value().starts))};
}

}  // namespace canon::indexer
