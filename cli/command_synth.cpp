/// @file command_synth.cpp
/// @brief `canon synth SRC_SITE OUT_SITE`: a near-duplicate site with its ground truth
/// (eval/synth.h, docs/evaluation.md).
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/option_groups.h"
#include "eval/synth.h"

namespace canon::cli {

void add_synth_command(CLI::App& app) {
  auto options = std::make_shared<eval::SynthOptions>();
  auto quiet = std::make_shared<bool>(false);
  CLI::App* synth = app.add_subcommand(
      "synth",
      "Make a near-duplicate site from a real one, with its true clusters in OUT_SITE/truth.json");
  synth->add_option("SRC_SITE", options->source_dir, "Directory of saved HTML pages to start from")
      ->required();
  synth
      ->add_option("OUT_SITE", options->out_dir,
                   "Directory to write (replaced only if canon synth wrote it)")
      ->required();
  synth->add_option("--dup-ratio", options->dup_ratio, "Share of the pages that get copies")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  synth->add_option("--max-dups", options->max_dups, "Copies per chosen page: 1 to this")
      ->capture_default_str()
      ->check(CLI::Range(1u, 100u));
  synth
      ->add_option("--segment-ratio", options->segment_ratio,
                   "Probability of inserting a noun segment after each word of a copy")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  synth
      ->add_option("--layout", options->layout,
                   "Where copies go: prefixes (mirror/, print/, archive/) or numbered (copies/1/, copies/2/, ...)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, canon::eval::SynthOptions::CopyLayout>{
              {"prefixes", canon::eval::SynthOptions::CopyLayout::kPrefixes},
              {"numbered", canon::eval::SynthOptions::CopyLayout::kNumbered}},
          CLI::ignore_case))
      ->default_str("prefixes");
  synth->add_option("--max-segment", options->max_segment, "Words per inserted segment: 1 to this")
      ->capture_default_str()
      ->check(CLI::Range(1u, 100u));
  add_seed_option(*synth, options->seed, "Random seed (the output is reproducible for a seed)");
  synth->add_option("--nouns", options->noun_list, "Noun list in WordNet's index.noun format")
      ->capture_default_str();
  add_quiet_flag(*synth, *quiet, "Print nothing but errors");

  synth->callback([options, quiet] {
    auto report = eval::synthesize_site(*options);
    if (!report.ok()) fail(report.status());
    if (*quiet) return;
    const eval::SynthReport& r = report.value();
    char rate[32];
    std::snprintf(
        rate, sizeof rate, "%.4f",
        r.words == 0 ? 0.0 : static_cast<double>(r.segments) / static_cast<double>(r.words));
    std::cout << "Synthesised " << options->out_dir.string() << " from "
              << options->source_dir.string() << ": " << r.pages << " pages (" << r.originals
              << " of " << r.eligible << " eligible pages copied, " << r.copies << " copies; "
              << r.segments << " segments inserted after " << r.words << " words, rate " << rate
              << "), " << r.other_files << " other files; truth in " << r.truth_path.string()
              << "\n";
  });
}

}  // namespace canon::cli
