// "Spark Connect" in the text and Markdown reports: the client sessions, and the operations that
// cost the most with their session, user, tags, status, jobs, task time, cost and where their time
// went on the server, from the analysis's summaries (economics/connect_cost.h). A log without Spark
// Connect gets no section.
#pragma once

#include <string>
#include <vector>

#include "analysis/analyzer.h"
#include "model/app_model.h"

namespace sf::report {

// Appends the text section to `out`; at most `top` operations are listed.
void connect_text_section(std::string& out, const model::AppModel& model, const analysis::Analysis& analysis,
                          size_t top = 10);

// The Markdown section, ending with a blank line ("" without Spark Connect).
std::string connect_markdown_section(const model::AppModel& model, const analysis::Analysis& analysis, size_t top = 10);

// The operations' summaries, costliest first (then by start, the model's order).
std::vector<const analysis::ConnectOperationSummary*> costliest_operations(const analysis::Analysis& analysis);

// One operation in a line, as the sections list it: its id and session (shortened), user, tags,
// status, jobs, task time, cost and rows.
std::string connect_operation_line(const model::ConnectOperation& op, const analysis::ConnectOperationSummary& s,
                                   const std::string& currency);

}  // namespace sf::report
