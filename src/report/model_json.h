// The analysis document as JSON: the model and its findings as plain data with a
// schemaVersion. Field names are camelCase with their units; ids are sorted; the same model
// always gives the same bytes. Secrets were redacted when the model was built (model/redaction.h).
// docs/analysis-schema.md documents every field.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "analysis/analyzer.h"
#include "model/app_model.h"

namespace sf {
class JsonWriter;
}

namespace sf::report {

struct JsonOptions {
  int indent = 2;             // -1 for one line
  bool include_plans = true;  // SQL plan trees and physical plan descriptions
};

// The document for `model`; with an analysis, its findings, rollup and thresholds too.
std::string analysis_json(const model::AppModel& model, const analysis::Analysis* analysis,
                          const JsonOptions& options = {});
// The same document, with the analysis `analyze` returns (it must outlive the call): it runs on
// the calling thread while another thread writes the model's sections, which come first and which
// the analysis does not change, so a second core shortens the whole command rather than the read.
std::string analysis_json_while_analyzing(const model::AppModel& model,
                                          const std::function<const analysis::Analysis&()>& analyze,
                                          const JsonOptions& options = {});

// The same two documents handed to `sink` in pieces as they are written, in order, ending with
// the newline: a command streams them to its output and never holds the whole text (80 MB
// pretty for a 1 GB log).
using TextSink = std::function<void(std::string_view text)>;
void stream_analysis_json(const model::AppModel& model, const analysis::Analysis* analysis, const JsonOptions& options,
                          const TextSink& sink);
void stream_analysis_json_while_analyzing(const model::AppModel& model,
                                          const std::function<const analysis::Analysis&()>& analyze,
                                          const JsonOptions& options, const TextSink& sink);

// Parts of the document, for answers that send one of them (the dashboard's stage page): the
// same bytes as in the whole document.
void write_stage(JsonWriter& w, const model::AppModel& model, const model::StageAttempt& stage);
void write_plan_metrics(JsonWriter& w, const model::PlanNode& node);

}  // namespace sf::report
