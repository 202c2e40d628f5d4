// The analysis config file (`analyze --config FILE`, and every front end that reads one): the
// thresholds to override and the rate card costs are priced with.
//
//   { "thresholds": { "skew.maxToMedianRatio": 4 },
//     "rateCard": { "preset": "aws-emr-serverless-us-east-1" } }
//
// Both sections are optional. An unknown key, threshold or preset, or a value of the wrong type,
// is an error naming the file and the key, so a typo never silently leaves a default in place.
#pragma once

#include <string>

#include "analysis/analyzer.h"
#include "common/status.h"

namespace sf::analysis {

// The defaults with the file's thresholds and rate card applied.
Result<AnalysisOptions> load_analysis_options(const std::string& config_path);

}  // namespace sf::analysis
