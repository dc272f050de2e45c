/// @file wordnet.h
/// @brief The noun vocabulary of `canon synth`'s segment insertions (WordNet's index.noun).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/status.h"

namespace canon::eval {

/// Where Debian's wordnet-base package installs the noun index.
inline constexpr const char* kWordnetNounIndex = "/usr/share/wordnet/index.noun";

/// A list of nouns, each split into its words (WordNet's "eye_doctor" is {"eye", "doctor"}).
struct NounList {
  std::vector<std::vector<std::string>> nouns;
};

/// Reads a noun list in WordNet's index format: every line that does not start with two spaces
/// (WordNet's licence header) and is not blank names a noun in its first whitespace-separated
/// field; '_' separates the words of a multi-word noun. A file with one noun per line is the
/// same format. Fails when the file cannot be read (the message says to install wordnet-base
/// when it is the default path) or holds no noun.
Result<NounList> read_noun_list(const std::filesystem::path& path = kWordnetNounIndex);

}  // namespace canon::eval
