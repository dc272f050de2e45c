/// @file test_cli_messages.cpp
/// @brief What a newcomer sees of the built canon binary (CANON_BINARY): an empty site fails and
/// says so, `--full` replaces a damaged index (and nothing that is not an index), `-q` is quiet,
/// bare `canon` prints its help, `canon shard` has no `-n`, and `canon export pagefind` says what
/// it lacks.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/canon_cli.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;

namespace {

using canon::testing::read_file;
using canon::testing::Run;
using canon::testing::run_canon;

/// A small site: two pages of their own and a copy of the first.
void write_site(const canon::testing::TempDir& dir, const std::string& site) {
  const std::string text = "<p>Grebes dive for fish in the reed beds of the northern lakes every spring morning.</p>";
  dir.write(site + "/a.html", "<html><head><title>Grebe</title></head><body><main>" + text + "</main></body></html>");
  dir.write(site + "/copy/a.html",
            "<html><head><title>Grebe</title></head><body><main>" + text + "</main></body></html>");
  dir.write(site + "/b.html", "<html><head><title>Heron</title></head><body><main><p>Herons stand still in the "
                              "shallows and wait for frogs.</p></main></body></html>");
}

/// Whether `canon search` finds the grebe page in `index`.
bool finds_grebe(const canon::testing::TempDir& dir, const std::string& index) {
  const Run run = run_canon(dir, "search " + index + " grebes --json");
  return run.exit_code == 0 && run.out.find("a.html") != std::string::npos;
}

}  // namespace

TEST_CASE("an empty site: a message naming it, exit 2 (not found), and no index written") {
  canon::testing::TempDir dir;
  dir.write("empty/notes.txt", "no pages here");
  const Run fresh = run_canon(dir, "index empty --out idx");
  CHECK(fresh.exit_code == 2);
  CHECK(fresh.out.empty());
  CHECK_MESSAGE(fresh.err == "canon: no HTML pages (.html, .htm) found in 'empty'\n", fresh.err);
  CHECK_FALSE(fs::exists(dir.path() / "idx"));

  // Its only page a link out of it: what was skipped is said too.
  dir.write("elsewhere.html", "<title>Outside</title>");
  fs::create_directories(dir.path() / "linked");
  fs::create_symlink(dir.path() / "elsewhere.html", dir.path() / "linked/a.html");
  const Run linked = run_canon(dir, "index linked --out idx");
  CHECK(linked.exit_code == 2);
  CHECK_MESSAGE(linked.err.starts_with("canon: no HTML pages (.html, .htm) found in 'linked' (1 skipped, the first "
                                       "'a.html': "),
                linked.err);
  CHECK_FALSE(fs::exists(dir.path() / "idx"));

  // Over an index: it stays as it was.
  write_site(dir, "site");
  REQUIRE(run_canon(dir, "index site --out idx -q").exit_code == 0);
  const std::string pages = read_file(dir.path() / "idx/pages.jsonl");
  const Run again = run_canon(dir, "index empty --out idx");
  CHECK(again.exit_code == 2);
  CHECK(again.err.find("no HTML pages") != std::string::npos);
  CHECK(read_file(dir.path() / "idx/pages.jsonl") == pages);
  CHECK(finds_grebe(dir, "idx"));
}

TEST_CASE("a damaged index is replaced with --full, and the message without it says so") {
  canon::testing::TempDir dir;
  write_site(dir, "site");
  REQUIRE(run_canon(dir, "index site --out idx -q").exit_code == 0);
  for (const auto& entry : fs::directory_iterator(dir.path() / "idx/xapian")) fs::remove(entry.path());
  dir.write("idx/xapian/iamglass", "garbage");

  const Run refused = run_canon(dir, "index site --out idx");
  CHECK(refused.exit_code == 5);  // corruption
  CHECK_MESSAGE(refused.err.find("'idx' is a damaged canon index") != std::string::npos, refused.err);
  CHECK(refused.err.find("--full") != std::string::npos);
  CHECK(refused.err.find("refusing") == std::string::npos);

  const Run replaced = run_canon(dir, "index site --out idx --full");
  CHECK_MESSAGE(replaced.exit_code == 0, replaced.err);
  CHECK(finds_grebe(dir, "idx"));
}

TEST_CASE("a directory that is not a canon index is never replaced, --full or not") {
  canon::testing::TempDir dir;
  write_site(dir, "site");
  dir.write("notes/todo.txt", "mine");
  // A directory of the user's that happens to hold a xapian/ no database is in.
  dir.write("project/xapian/README", "a checkout");
  dir.write("project/pages.jsonl", "");
  dir.write("project/main.c", "int main() {}");
  for (const std::string out : {"notes", "project"}) {
    for (const std::string full : {"", " --full"}) {
      CAPTURE(out + full);
      const Run run = run_canon(dir, "index site --out " + out + full);
      CHECK(run.exit_code == 3);  // failed precondition
      CHECK_MESSAGE(run.err.find("'" + out + "' is not a canon index") != std::string::npos, run.err);
      CHECK(run.err.find("canon index replaces only an index it wrote") != std::string::npos);
    }
  }
  CHECK(read_file(dir.path() / "notes/todo.txt") == "mine");
  CHECK(read_file(dir.path() / "project/main.c") == "int main() {}");
}

TEST_CASE("-q: nothing on stdout or stderr but errors and warnings") {
  canon::testing::TempDir dir;
  write_site(dir, "site");
  dir.write("nouns.txt", "quokka n 1 1 @ 1 0 01234567  \naxolotl n 1 1 @ 1 0 01234569  \n");
  for (const std::string args : {"index site --out idx -q", "index site --out idx --quiet",
                                 "urls learn idx --out rules.json -q", "shard idx --parts 2 -o shards -q",
                                 "synth site synthetic --nouns nouns.txt -q"}) {
    CAPTURE(args);
    const Run run = run_canon(dir, args);
    CHECK_MESSAGE(run.exit_code == 0, run.err);
    CHECK(run.out.empty());
    CHECK(run.err.empty());
  }
  // Without it, the summary.
  const Run loud = run_canon(dir, "index site --out idx");
  CHECK(loud.out.find("Indexed site into idx: ") != std::string::npos);
  // Errors still show.
  const Run failed = run_canon(dir, "index missing --out idx -q");
  CHECK(failed.exit_code == 2);
  CHECK(failed.err.find("does not exist") != std::string::npos);
}

TEST_CASE("bare canon, canon eval and canon urls print their help on stdout and exit 1") {
  canon::testing::TempDir dir;
  const Run bare = run_canon(dir, "");
  CHECK(bare.exit_code == 1);
  CHECK(bare.err.empty());
  for (const char* command : {"index", "search", "serve", "shard", "synth", "rank", "eval", "urls"}) {
    CHECK_MESSAGE(bare.out.find("\n  " + std::string(command) + " ") != std::string::npos, command);
  }
  CHECK(bare.out.find("canon COMMAND --help") != std::string::npos);
  CHECK(run_canon(dir, "--help").out == bare.out);
  CHECK(run_canon(dir, "--help").exit_code == 0);

  const Run eval = run_canon(dir, "eval");
  CHECK(eval.exit_code == 1);
  CHECK(eval.out.find("Usage: ") != std::string::npos);
  CHECK(eval.out.find(" eval [OPTIONS] SUBCOMMAND") != std::string::npos);
  for (const char* command : {"dedup", "diversity", "findability"}) CHECK(eval.out.find(command) != std::string::npos);
  const Run urls = run_canon(dir, "urls");
  CHECK(urls.exit_code == 1);
  for (const char* command : {"learn", "normalize", "export"}) CHECK(urls.out.find(command) != std::string::npos);

  // A command's own missing argument is an error, not the help.
  const Run index = run_canon(dir, "index");
  CHECK(index.exit_code > 100);
  CHECK(index.err.find("SITE is required") != std::string::npos);
}

TEST_CASE("canon shard: --parts N; -n means --limit only, in canon search") {
  canon::testing::TempDir dir;
  write_site(dir, "site");
  REQUIRE(run_canon(dir, "index site --out idx -q").exit_code == 0);
  const Run short_flag = run_canon(dir, "shard idx -n 2 -o shards");
  CHECK(short_flag.exit_code > 100);  // CLI11's own codes
  CHECK_FALSE(fs::exists(dir.path() / "shards"));
  const Run parts = run_canon(dir, "shard idx --parts 2 -o shards");
  CHECK_MESSAGE(parts.exit_code == 0, parts.err);
  CHECK(fs::exists(dir.path() / "shards/shard-2"));
  CHECK(finds_grebe(dir, "shards"));
  const Run limited = run_canon(dir, "search idx grebes -n 1");
  CHECK(limited.exit_code == 0);
}

TEST_CASE("canon export pagefind: what it needs and what it will not overwrite, said with an exit status") {
  canon::testing::TempDir dir;
  write_site(dir, "site");
  REQUIRE(run_canon(dir, "index site --out idx -q").exit_code == 0);
  // Not an index.
  const Run missing = run_canon(dir, "export pagefind nowhere --out bundle");
  CHECK(missing.exit_code == 2);
  CHECK_MESSAGE(missing.err.starts_with("canon: "), missing.err);
  CHECK_FALSE(fs::exists(dir.path() / "bundle"));
  // No pagefind package where it is said to be.
  const Run no_package = run_canon(dir, "export pagefind idx --out bundle --pagefind nothing-here");
  CHECK(no_package.exit_code == 3);
  CHECK_MESSAGE(no_package.err.find("no pagefind package at 'nothing-here'") != std::string::npos, no_package.err);
  CHECK_FALSE(fs::exists(dir.path() / "bundle"));
  // No Node.js: a package that looks like one, and a node that does not exist.
  dir.write("package/lib/index.js", "export const createIndex = () => null;\n");
  const Run no_node = run_canon(dir, "export pagefind idx --out bundle --pagefind package --node no-such-node");
  CHECK(no_node.exit_code == 3);
  CHECK_MESSAGE(no_node.err.find("canon export pagefind needs Node.js") != std::string::npos, no_node.err);
  CHECK_FALSE(fs::exists(dir.path() / "bundle"));
  // Node.js runs, and the package fails: reported, nothing left behind.
  if (std::system("command -v node > /dev/null 2>&1") == 0) {
    const Run failed = run_canon(dir, "export pagefind idx --out bundle --pagefind package");
    CHECK(failed.exit_code == 6);
    CHECK_MESSAGE(failed.err.find("canon: Pagefind's indexer failed") != std::string::npos, failed.err);
    CHECK_FALSE(fs::exists(dir.path() / "bundle"));
    for (const auto& entry : fs::directory_iterator(dir.path())) {
      CHECK_MESSAGE(entry.path().filename().string().find(".exporting-") == std::string::npos, entry.path());
    }
  }
  // A directory of the user's files is not replaced by a bundle.
  dir.write("mine/notes.txt", "keep me");
  const Run occupied = run_canon(dir, "export pagefind idx --out mine --pagefind package --node no-such-node");
  CHECK(occupied.exit_code == 3);
  CHECK_MESSAGE(occupied.err.find("holds files and no Pagefind bundle") != std::string::npos, occupied.err);
  CHECK(read_file(dir.path() / "mine/notes.txt") == "keep me");
}
