/// @file help_text.h
/// @brief What `canon ... --help` shows of an option: a value name as the README writes it
/// (`--limit N`, `--out DIR`, `--layout prefixes|numbered`) and its default, never the parser's
/// types (INT, FLOAT, TEXT, ENUM, "value in {...}").
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace canon::cli {

/// Writes the help text of every option of `app` and of its subcommands (call it once all are
/// registered) and gives each the formatter that shows it.
void name_option_values(CLI::App& app);

/// The value name `--help` shows for `option` of `command` ("urls learn"): the table's
/// (help_text.cpp), else the choices it is checked against ("tsv|nutch"), else its kind: N for
/// an integer, X for any other number, VALUE for text.
std::string value_name(const CLI::Option& option, const std::string& command);

/// Whether the command line named a command group (`canon`, `canon eval`, `canon urls`) but no
/// command in it: then its help is what to show.
bool lacks_command(const CLI::App& app);

}  // namespace canon::cli
