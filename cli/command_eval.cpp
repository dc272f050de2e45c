/// @file command_eval.cpp
/// @brief `canon eval dedup INDEX_DIR --truth truth.json`: scores an index's near-duplicate
/// clusters against a ground truth (eval/metrics.h, docs/evaluation.md). `canon eval` groups
/// the evaluations; `diversity` will join `dedup`.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "eval/metrics.h"
#include "eval/truth.h"

namespace canon::cli {
namespace {

void add_eval_dedup_command(CLI::App& eval_app) {
  struct Args {
    std::filesystem::path index_dir;
    std::filesystem::path truth;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* dedup = eval_app.add_subcommand(
      "dedup",
      "Pairwise precision/recall/F1 (before and after union-find), page-level scores, authority");
  dedup->add_option("INDEX_DIR", args->index_dir, "Index directory written by `canon index`")
      ->required();
  dedup->add_option("--truth", args->truth, "truth.json written by `canon synth`")->required();
  dedup->add_flag("--json", args->json, "Print the scores as JSON");

  dedup->callback([args] {
    auto truth = eval::read_truth(args->truth);
    if (!truth.ok()) fail(truth.status());
    auto verdict = eval::read_index_verdict(args->index_dir);
    if (!verdict.ok()) fail(verdict.status());
    auto evaluation = eval::evaluate_dedup(truth.value(), verdict.value());
    if (!evaluation.ok()) fail(evaluation.status());
    if (args->json) {
      std::cout << eval::to_json(evaluation.value()).dump(2) << "\n";
    } else {
      std::cout << eval::render_text(evaluation.value());
    }
  });
}

}  // namespace

void add_eval_command(CLI::App& app) {
  CLI::App* eval_app = app.add_subcommand("eval", "Evaluate an index against a ground truth");
  eval_app->require_subcommand(1);
  add_eval_dedup_command(*eval_app);
}

}  // namespace canon::cli
