// Text for Markdown, shared by every Markdown report: a table cell, and inline code.
#pragma once

#include <algorithm>
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

// `text` as inline code: fenced by more backticks than its longest run (SQL quotes names with
// them), padded with a space where it starts or ends with one (CommonMark strips one space), on
// one line (a blank line would end the span's paragraph).
inline std::string markdown_code(std::string_view text) {
  size_t longest = 0, run = 0;
  std::string line;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    line += c == '\n' || c == '\r' ? ' ' : c;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !line.empty() && (line.front() == '`' || line.back() == '`');
  return fence + (pad ? " " : "") + line + (pad ? " " : "") + fence;
}

}  // namespace sf::report
