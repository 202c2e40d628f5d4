// The analysis document as JSON: the model and its findings as plain data with a
// schemaVersion. Field names are camelCase with their units; ids are sorted; the same model
// always gives the same bytes. docs/analysis-schema.md documents every field.
#pragma once

#include <string>

#include "analysis/analyzer.h"
#include "model/app_model.h"

namespace sf::report {

inline constexpr int kAnalysisSchemaVersion = 1;

struct JsonOptions {
  int indent = 2;                 // -1 for one line
  bool include_plans = true;      // SQL plan trees and physical plan descriptions
};

// The document for `model`; with an analysis, its findings, rollup and thresholds too.
std::string analysis_json(const model::AppModel& model, const analysis::Analysis* analysis,
                          const JsonOptions& options = {});

// Spark's default spark.redaction.regex: property values whose key matches it are replaced in
// every document this program writes, as Spark's own UI does.
bool is_sensitive_key(std::string_view key);
inline constexpr std::string_view kRedactedValue = "*********(redacted)";

}  // namespace sf::report
