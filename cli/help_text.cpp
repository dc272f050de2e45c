/// @file help_text.cpp
/// @brief Value names in `--help`, written in one pass over every command's options.
#include "cli/help_text.h"

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace canon::cli {
namespace {

/// Value names the option's kind does not give: by "COMMAND --option" (one command), by
/// "--option" (every command) or by "*-suffix" (every option so named), in that order.
constexpr std::pair<std::string_view, std::string_view> kValueNames[] = {
    {"urls learn --out", "FILE"},
    {"--out", "DIR"},
    {"--base-url", "URL"},
    {"--url-rules", "FILE"},
    {"--rules", "FILE"},
    {"--nodes", "FILE"},
    {"--truth", "FILE"},
    {"--queries", "FILE"},
    {"--nouns", "FILE"},
    {"--site", "DIR"},
    {"--allow-origin", "ORIGIN"},
    {"--filter", "FACET=VALUE"},
    {"--template", "FILE"},
    {"--work-dir", "DIR"},
    {"--host", "HOST"},
    {"--port", "PORT"},
    {"--layout", "prefixes|numbered"},
    {"--seed", "S"},
    {"--damping", "D"},
    {"--tolerance", "T"},
    {"--shingle-size", "K"},
    {"--shard-deadline", "S"},
    {"--shard-refresh", "S"},
    {"--spelling", "DIR"},
    {"--request-timeout", "S"},
    {"*-threshold", "T"},
    {"*-weight", "W"},
};

/// The table's value name for the option `name` of `command`, or "".
std::string_view table_name(const std::string& name, const std::string& command) {
  for (const auto& [key, value] : kValueNames) {
    if (key == command + " " + name || key == name) return value;
    if (key.starts_with('*') && name.ends_with(key.substr(1))) return value;
  }
  return {};
}

/// The parser's type name (CLI11's get_type_name(): "UINT:INT in [1 - 1024]") cut at ':' into the
/// type and its checks' descriptions.
std::vector<std::string> type_parts(const CLI::Option& option) {
  std::vector<std::string> parts;
  const std::string full = option.get_type_name();
  for (std::size_t start = 0;;) {
    const std::size_t colon = full.find(':', start);
    parts.push_back(full.substr(start, colon - start));
    if (colon == std::string::npos) return parts;
    start = colon + 1;
  }
}

/// The notes after the value name: required, the default, the options it needs or excludes.
std::string notes_of(const CLI::Option& option) {
  std::vector<std::string> notes;
  if (option.get_required()) notes.push_back("required");
  // A flag (no value) is off by default, whatever it stores.
  if (option.get_expected_max() != 0 && !option.get_default_str().empty()) {
    notes.push_back("default " + option.get_default_str());
  }
  for (const CLI::Option* other : option.get_needs()) notes.push_back("needs " + other->get_name());
  for (const CLI::Option* other : option.get_excludes()) notes.push_back("not with " + other->get_name());
  std::string text;
  for (const std::string& note : notes) text += (text.empty() ? "(" : "; ") + note;
  return text.empty() ? text : text + ")";
}

/// The whole text after the option's names: its value name (a positional's name is one), "..."
/// when it takes several values, and its notes.
std::string option_text(const CLI::Option& option, const std::string& command) {
  std::vector<std::string> words;
  if (option.nonpositional() && option.get_expected_max() != 0) words.push_back(value_name(option, command));
  if (option.get_items_expected_max() >= CLI::detail::expected_max_vector_size) words.emplace_back("...");
  if (std::string notes = notes_of(option); !notes.empty()) words.push_back(std::move(notes));
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

/// CLI11's formatter, but an option shows only the text option_text() gave it after its names,
/// and a negated flag not the value it stores ("--no-title-rule{false}").
class HelpFormatter : public CLI::Formatter {
public:
  std::string make_option_name(const CLI::Option* option, bool positional) const override {
    std::string name = CLI::Formatter::make_option_name(option, positional);
    for (std::size_t open = name.find('{'); open != std::string::npos; open = name.find('{', open)) {
      const std::size_t close = name.find('}', open);
      if (close == std::string::npos) break;
      name.erase(open, close - open + 1);
    }
    return name;
  }
  std::string make_option_opts(const CLI::Option* option) const override {
    const std::string& text = option->get_option_text();
    return text.empty() ? text : " " + text;
  }
};

void name_values_below(CLI::App& app, const std::string& command, const std::shared_ptr<HelpFormatter>& formatter) {
  app.formatter(formatter);
  for (CLI::Option* option : app.get_options([](CLI::Option*) { return true; })) {
    option->option_text(option_text(*option, command));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    name_values_below(*sub, command.empty() ? sub->get_name() : command + " " + sub->get_name(), formatter);
  }
}

}  // namespace

std::string value_name(const CLI::Option& option, const std::string& command) {
  if (const std::string_view name = table_name(option.get_name(), command); !name.empty()) return std::string(name);
  const std::vector<std::string> parts = type_parts(option);
  for (std::size_t k = 1; k < parts.size(); ++k) {
    // A set of choices (CLI::IsMember): "{tsv,nutch}".
    const std::string& check = parts[k];
    if (check.size() > 2 && check.front() == '{' && check.back() == '}' && check.find("->") == std::string::npos) {
      std::string choices = check.substr(1, check.size() - 2);
      for (char& c : choices) c = c == ',' ? '|' : c;
      return choices;
    }
  }
  if (parts[0] == "INT" || parts[0] == "UINT") return "N";
  if (parts[0] == "FLOAT") return "X";
  return "VALUE";
}

void name_option_values(CLI::App& app) {
  name_values_below(app, "", std::make_shared<HelpFormatter>());
}

bool lacks_command(const CLI::App& app) {
  const CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  return !at->get_subcommands([](const CLI::App*) { return true; }).empty();
}

}  // namespace canon::cli
