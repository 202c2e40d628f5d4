// "Where the time and the money go" in the text and Markdown reports: the time split, the
// critical path, the what-if curve with its knee, and the cost (analysis/economics/economics.h). Both
// reports say the same figures with the same words; each report calls its section once.
#pragma once

#include <string>

#include "analysis/economics/economics.h"

namespace sf::report {

// Appends the text section to `out`.
void economics_text_section(std::string& out, const analysis::Economics& economics);

// The Markdown section, ending with a blank line.
std::string economics_markdown_section(const analysis::Economics& economics);

// "12.34 USD", "0.0123 USD": two decimals from one unit up, four below.
std::string format_money(double amount, const std::string& currency);

}  // namespace sf::report
