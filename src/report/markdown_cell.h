// Text for a Markdown table cell, shared by every Markdown report.
#pragma once

#include <string>
#include <string_view>

namespace sf::report {

// No line breaks (they end the row) and no unescaped pipes (they end the cell).
inline std::string markdown_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace sf::report
