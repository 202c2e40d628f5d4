// The findings part of the analysis document: findings, the rollup and the thresholds used.
// model_json.cpp puts these sections into the document; the dashboard's stage page writes the
// findings of one stage with write_finding.
#pragma once

#include "analysis/analyzer.h"

namespace sf {
class JsonWriter;
}

namespace sf::report {

void write_finding(JsonWriter& w, const analysis::Finding& finding, const analysis::Thresholds& thresholds);
// Stage attempts as the documents name them: [{"stageId", "attemptId"}].
void write_stage_refs(JsonWriter& w, const std::vector<analysis::StageRef>& stages);
void write_findings(JsonWriter& w, const analysis::Analysis& analysis);
void write_rollup(JsonWriter& w, const analysis::Analysis& analysis);
void write_analysis_config(JsonWriter& w, const analysis::Analysis& analysis);

}  // namespace sf::report
