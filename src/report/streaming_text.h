// "Streaming queries" in the text and Markdown reports: each query run's batches against its
// trigger, its rates, its state, its watermark and where a batch's time goes, from the analysis's
// summaries (streaming_summary.h). Both reports say the same figures in the same words; a log
// without streaming queries gets no section.
#pragma once

#include <string>

#include "analysis/analyzer.h"
#include "model/app_model.h"

namespace sf::report {

// Appends the text section to `out`.
void streaming_text_section(std::string& out, const model::AppModel& model, const analysis::Analysis& analysis);

// The Markdown section, ending with a blank line ("" without streaming queries).
std::string streaming_markdown_section(const model::AppModel& model, const analysis::Analysis& analysis);

}  // namespace sf::report
