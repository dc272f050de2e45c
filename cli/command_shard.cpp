/// @file command_shard.cpp
/// @brief `canon shard INDEX_DIR --parts N --out DIR`: the index split into N shards, to serve
/// from several machines (format/shards.h, docs/serving.md).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/option_groups.h"
#include "format/shards.h"

namespace canon::cli {

void add_shard_command(CLI::App& app) {
  struct Args {
    std::filesystem::path index_dir;
    std::filesystem::path out_dir;
    unsigned parts = 2;
    bool quiet = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* shard = app.add_subcommand(
      "shard", "Split an index into shards, to serve them from several machines (xapian-tcpsrv)");
  shard->add_option("INDEX_DIR", args->index_dir, "Index directory written by `canon index`")->required();
  shard->add_option("--parts", args->parts, "Number of shards")->capture_default_str()->check(CLI::Range(1, 1024));
  shard->add_option("--out,-o", args->out_dir,
                    "Directory to write: shard-1 .. shard-N, and xapian/XAPIANDB listing them")
      ->required();
  add_quiet_flag(*shard, args->quiet, "Print nothing but errors");
  shard->callback([args] {
    if (Status split = index_format::split_index(args->index_dir, args->parts, args->out_dir); !split.ok())
      fail(split);
    if (args->quiet) return;
    std::cout << "Split " << args->index_dir.string() << " into " << args->parts << " shards in "
              << args->out_dir.string() << " (search it as it is, or serve each shard-N with xapian-tcpsrv)\n";
  });
}

}  // namespace canon::cli
