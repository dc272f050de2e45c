/// @file title_suffix.h
/// @brief The suffix a site repeats on its pages' titles (" — Python 3.11.2 documentation",
/// " - Rust", " (Java SE 17 & JDK 17)"), learnt from the titles themselves as its boilerplate
/// is: shown results leave it out, so a title says what the page is on one line.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace canon::query {

/// The suffix shared by at least half of `titles` (and at least kLeastTitlesSharing of them)
/// that starts at a separator: " - ", " – ", " — ", " | ", " · ", " :: ", " : ", or " (" when the
/// title ends with ")"; the one most titles share (the longer on a tie); "" when none is. Only a
/// suffix that leaves words before it counts.
std::string repeated_title_suffix(std::span<const std::string> titles);

inline constexpr std::size_t kLeastTitlesSharing = 4;

/// `title` without `suffix` when it ends with it and something is left; else `title`.
std::string without_suffix(std::string_view title, std::string_view suffix);

}  // namespace canon::query
