// Self-contained pages of the dashboard: `analyze --format html` (one log's analysis) and
// `compare --format html` (a comparison). One HTML file: the dashboard (web/, compiled into the
// program: report/web_assets.h) with its script and style inlined and the documents embedded,
// that opens offline from file:// (a page to attach to a ticket).
//
// The documents sit in <script id="sf-report" type="application/json">, an object whose keys
// are the documents' names, every '<' written as \u003c so no text of a log can end the element;
// the page reads them instead of asking a server (web/src/api.ts, inlinedReport). Pure
// functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace sf::report {

// `documents`: (name, JSON text) pairs, the text already valid JSON. An error when the program
// was built without the dashboard (SF_WEB=OFF, or no npm).
Result<std::string> self_contained_dashboard(
    const std::vector<std::pair<std::string_view, std::string_view>>& documents);

// The analysis document (redacted as the model was built) and the timeline
// (report/timeline_json.h): the documents `serve` answers for the log.
Result<std::string> analysis_html(std::string_view analysis_json, std::string_view timeline_json);

// The comparison document (report/comparison_json.h) and the plan diffs of its aligned
// executions (report/plan_diff_json.h: plan_diffs_json).
Result<std::string> comparison_html(std::string_view comparison_json, std::string_view plan_diffs_json);

}  // namespace sf::report
