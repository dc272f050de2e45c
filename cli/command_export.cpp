/// @file command_export.cpp
/// @brief `canon export pagefind INDEX_DIR --out DIR`: the index's authoritative pages as a
/// Pagefind bundle with canon's search box, for a site hosted as static files
/// (pagefind/pagefind_export.h, docs/pagefind.md).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/option_groups.h"
#include "pagefind/pagefind_export.h"

namespace canon::cli {

namespace {

void add_export_pagefind_command(CLI::App& export_app) {
  struct Args {
    pagefind::PagefindExportOptions options;
    bool quiet = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = export_app.add_subcommand(
      "pagefind", "Write a Pagefind bundle of the index's authoritative pages, their copies listed under them");
  command->add_option("INDEX_DIR", args->options.index_dir, "Index directory written by `canon index`")->required();
  command->add_option("--out,-o", args->options.out_dir,
                      "The bundle's directory (the site's /pagefind/): created, or replaced when it holds a bundle")
      ->required();
  command->add_option("--pagefind", args->options.pagefind_package,
                      "The npm package pagefind's directory (default: $CANON_PAGEFIND, else the one "
                      "scripts/install-deps.sh installs)");
  command->add_option("--node", args->options.node, "The Node.js program")->capture_default_str();
  add_quiet_flag(*command, args->quiet, "Print nothing but errors");
  command->callback([args] {
    args->options.progress = !args->quiet;
    auto report = pagefind::export_pagefind(args->options);
    if (!report.ok()) fail(report.status());
    for (const std::string& refused : report->refused) std::cerr << "canon: Pagefind refused " << refused << "\n";
    if (args->quiet) return;
    std::cout << "Wrote a Pagefind bundle of " << report->pages << " pages to " << args->options.out_dir.string();
    if (report->duplicates > 0) std::cout << " (" << report->duplicates << " duplicates shown under their pages)";
    if (!report->language.empty()) std::cout << ", indexed as language '" << report->language << "'";
    std::cout << "\nSearch it at " << (args->options.out_dir / "search.html").string()
              << " served over HTTP, or add canon-pagefind.js to the site's pages (docs/pagefind.md)\n";
  });
}

}  // namespace

void add_export_command(CLI::App& app) {
  CLI::App* export_app = app.add_subcommand("export", "Export an index for other search front ends");
  export_app->require_subcommand(1);
  add_export_pagefind_command(*export_app);
}

}  // namespace canon::cli
