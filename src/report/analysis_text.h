// The analysis as text for a terminal. It leads with "Fix these first" (the rollup groups by
// recoverable wall-clock, each with its best finding, its figure as a range and what to change),
// then the application summary, every finding, the top stages by duration and what happened
// reading the log.
#pragma once

#include <string>

#include "analysis/analyzer.h"
#include "model/app_model.h"

namespace sf::report {

struct TextOptions {
  size_t top_stages = 10;
  size_t top_groups = 5;     // rollup groups under "Fix these first"
  size_t top_findings = 20;  // findings listed, in the analysis's order (0: every one); the rest counted
};

// `analysis` may be null: the report then has no findings sections.
std::string analysis_text(const model::AppModel& model, const analysis::Analysis* analysis,
                          const TextOptions& options = {});

// One line for one application: its id, name, duration, finished or not, the finding count
// and what to fix first. `analyze` prints it for each log of a batch; MCP tools summarize with it.
std::string analysis_summary_line(const std::string& source, const model::AppModel& model,
                                  const analysis::Analysis& analysis);

}  // namespace sf::report
