// Text handling every layer shares, written once.
#pragma once

#include <cstddef>
#include <string>
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

// `text` when it is at most `max_bytes` long; otherwise its first `max_bytes` bytes, back to the
// start of a UTF-8 character so no character is split (a JSON writer refuses half of one),
// followed by " [cut: N bytes in all]": what is kept of a string too long to keep whole, marked
// where every reader sees it.
inline std::string cut_text(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t kept = max_bytes;
  // Back over continuation bytes (10xxxxxx) to the lead byte of the character the cut falls in.
  while (kept > 0 && (static_cast<unsigned char>(text[kept]) & 0xC0) == 0x80) --kept;
  std::string out(text.substr(0, kept));
  out += " [cut: " + std::to_string(text.size()) + " bytes in all]";
  return out;
}

}  // namespace sf::text
