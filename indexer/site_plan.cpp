/// @file site_plan.cpp
/// @brief The site's page files and their URLs.
#include "indexer/site_plan.h"

#include <unordered_map>

#include "urls/url.h"

namespace canon::indexer {

bool serves_before(std::string_view path, std::string_view other) {
  return path.ends_with("index.html") && !other.ends_with("index.html");
}

Result<SitePlan> plan_site(const std::filesystem::path& site_dir, const std::string& base_url) {
  auto listing = walk_site(site_dir);
  if (!listing.ok()) return listing.status();
  SitePlan plan;
  plan.files = std::move(listing->files);
  plan.skipped = std::move(listing->skipped);
  std::unordered_map<std::string, std::size_t> owner_of_url;
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    plan.urls.push_back(urls::file_url(base_url, plan.files[i].relative_path));
    if (!plan.urls.back().ok()) continue;
    auto [it, inserted] = owner_of_url.emplace(plan.urls.back().value(), i);
    if (!inserted && serves_before(plan.files[i].relative_path, plan.files[it->second].relative_path)) {
      it->second = i;
    }
  }
  plan.url_owner.assign(plan.files.size(), 0);
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    if (plan.urls[i].ok()) plan.url_owner[i] = owner_of_url.at(plan.urls[i].value());
  }
  return plan;
}

PlanOutline outline_of(const SitePlan& plan) {
  PlanOutline outline{std::vector<bool>(plan.files.size())};
  for (std::size_t i = 0; i < plan.files.size(); ++i) outline.serves_url[i] = plan.serves_url(i);
  return outline;
}

}  // namespace canon::indexer
