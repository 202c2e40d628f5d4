// Text handling every layer shares, written once.
#pragma once

#include <string_view>

namespace sf::text {

// `text` without the ASCII whitespace (space, tab, line feed, vertical tab, form feed, carriage
// return) at either end: what a user typed around a value, a line ending, or a stack frame's indent.
constexpr std::string_view trim(std::string_view text) {
  constexpr std::string_view kWhitespace = " \t\n\v\f\r";
  const size_t first = text.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kWhitespace) - first + 1);
}

}  // namespace sf::text
