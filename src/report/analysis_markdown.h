// The analysis as Markdown, for a pull-request comment: the same "Fix these first" rollup as the
// text report, as a table, then every finding with its evidence and recommendation folded under
// a <details> block.
#pragma once

#include <string>

#include "analysis/analyzer.h"
#include "model/app_model.h"

namespace sf::report {

std::string analysis_markdown(const model::AppModel& model, const analysis::Analysis& analysis);

}  // namespace sf::report
