// `analyze --format html`: one self-contained HTML file, the dashboard (web/, compiled into the
// program: report/web_assets.h) with its script and style inlined and the run's documents
// embedded, that opens offline from file:// (a page to attach to a ticket). The documents are
// those `serve` answers for the log: the analysis document (redacted as the model was built) and
// the timeline (report/timeline_json.h).
//
// The documents sit in <script id="sf-report" type="application/json">, every '<' written as
// \u003c so no text of the log can end the element. Pure function; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace sf::report {

// An error when the program was built without the dashboard (SF_WEB=OFF, or no npm).
Result<std::string> analysis_html(std::string_view analysis_json, std::string_view timeline_json);

}  // namespace sf::report
