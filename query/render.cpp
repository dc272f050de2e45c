/// @file render.cpp
/// @brief Text and JSON renderings of SearchResults.
#include "query/render.h"

#include <cstdio>

namespace canon::query {

std::string join_place(const std::vector<std::string>& place) {
  std::string out;
  for (const std::string& crumb : place) out += (out.empty() ? "" : " › ") + crumb;
  return out;
}

std::string missing_shards_notice(const SearchResults& results) {
  if (results.missing_shards.empty()) return "";
  std::string names;
  for (const std::string& name : results.missing_shards) names += (names.empty() ? "" : ", ") + name;
  return "Not searched: " + std::to_string(results.missing_shards.size()) +
         (results.missing_shards.size() == 1 ? " shard" : " shards") + " did not answer (" + names +
         "); these results are from the others.";
}

std::string render_text(const SearchResults& results) {
  std::string out;
  char line[256];
  if (!results.missing_shards.empty()) out += missing_shards_notice(results) + "\n";
  if (!results.corrected_query.empty()) {
    out += "Showing results for \"" + results.corrected_query + "\"; search instead for \"" + results.query +
           "\" with --no-correct.\n";
  }
  if (results.hits.empty()) {
    return out + "No results for \"" + results.query + "\".\n";
  }
  std::snprintf(line, sizeof line, "%s%zu result%s; showing %zu-%zu.\n\n", results.matches_exact() ? "" : "About ",
                results.estimated_matches, results.estimated_matches == 1 ? "" : "s", results.hits.front().rank,
                results.hits.back().rank);
  out += line;
  for (const FacetCounts& facet : results.facets) {
    out += "Filter by " + std::string(index_format::facet_name(facet.facet)) + ":";
    for (const FacetCount& value : facet.values) out += " " + value.value + " (" + std::to_string(value.count) + ")";
    out += "\n";
  }
  if (!results.facets.empty()) out += "\n";
  for (const SearchHit& hit : results.hits) {
    out += std::to_string(hit.rank) + ". " + (!hit.short_title.empty() ? hit.short_title : hit.title.empty() ? hit.url : hit.title) + "\n";
    if (hit.place_from_breadcrumbs) out += "   in " + join_place(hit.place) + "\n";
    out += "   " + hit.url + "\n";
    if (!hit.snippet.empty()) out += "   " + hit.snippet + "\n";
    for (const SectionHit& section : hit.sections) out += "   § " + section.heading + "\n     " + section.url + "\n";
    for (const Alternate& alt : hit.alternates) {
      const bool matched = !hit.matched_url.empty() && alt.url == hit.matched_url;
      std::snprintf(line, sizeof line, " (%.2f%s)", alt.similarity, matched ? ", best match" : "");
      out += "   also at: " + alt.url + line + "\n";
    }
    out += "\n";
  }
  return out;
}

nlohmann::json to_json(const SearchResults& results) {
  nlohmann::json hits = nlohmann::json::array();
  for (const SearchHit& hit : results.hits) {
    nlohmann::json alternates = nlohmann::json::array();
    for (const Alternate& alt : hit.alternates) {
      alternates.push_back(
          {{"url", alt.url}, {"title", alt.title}, {"similarity", alt.similarity}});
    }
    nlohmann::json sections = nlohmann::json::array();
    for (const SectionHit& section : hit.sections) sections.push_back({{"url", section.url}, {"heading", section.heading}});
    hits.push_back({{"rank", hit.rank},
                    {"url", hit.url},
                    {"title", hit.title},
                    {"short_title", hit.short_title},
                    {"snippet", hit.snippet},
                    {"weight", hit.weight},
                    {"percent", hit.percent},
                    {"pagerank", hit.pagerank},
                    {"sections", sections},
                    {"alternates", alternates},
                    {"matched_url", hit.matched_url},
                    {"place", hit.place},
                    {"place_from", hit.place_from_breadcrumbs ? "breadcrumbs" : "url"}});
  }
  nlohmann::json filters = nlohmann::json::object();
  for (const FacetCounts& facet : results.facets) {
    nlohmann::json values = nlohmann::json::array();
    for (const FacetCount& value : facet.values) values.push_back({{"value", value.value}, {"count", value.count}});
    filters[std::string(index_format::facet_name(facet.facet))] = std::move(values);
  }
  return {{"query", results.query},
          {"filters", filters},
          {"estimated_matches", results.estimated_matches},
          {"matches_exact", results.matches_exact()},
          {"missing_shards", results.missing_shards},
          {"corrected_query", results.corrected_query.empty() ? nlohmann::json() : nlohmann::json(results.corrected_query)},
          {"offset", results.offset},
          {"collapse", results.collapse},
          {"results", hits}};
}

}  // namespace canon::query
