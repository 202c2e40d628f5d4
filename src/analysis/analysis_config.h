// The analysis config file (`--config FILE` on every command that reads logs, and the Python
// package's `config=`): the thresholds to override, the rate card costs are priced with, and the
// read limits, in one JSON object read the same way by every front end:
//
//   { "thresholds": { "skew.maxToMedianRatio": 4 },
//     "rateCard": { "preset": "aws-emr-serverless-us-east-1" },
//     "limits": { "maxLineBytes": 16777216 } }
//
// Every section is optional. An unknown key, threshold, limit or preset, or a value of the wrong
// type, is an error naming the source and the key, so a typo never silently leaves a default in
// place.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/analyzer.h"
#include "common/status.h"
#include "model/load.h"

namespace sf::analysis {

// The read limits the document sets; a front end's own flags win over them, and they over
// model::LoadOptions' defaults.
struct ConfigLimits {
  std::optional<uint64_t> max_line_bytes, max_decompression_ratio, max_open_tasks;
};

struct AnalysisConfig {
  AnalysisOptions analysis;  // the defaults with the document's thresholds and rate card applied
  ConfigLimits limits;
};

// `source` is what messages name: the file, or where the text came from.
Result<AnalysisConfig> parse_analysis_config(std::string_view text, const std::string& source);
// The file at `path`; one that cannot be read is NotFound naming it.
Result<AnalysisConfig> read_analysis_config(const std::string& path);
// read_analysis_config(path)'s analysis options alone.
Result<AnalysisOptions> load_analysis_options(const std::string& path);

// `flags` (a front end's own, each unset or a value) over `config` over `load`'s defaults.
void apply_read_limits(const ConfigLimits& config, const ConfigLimits& flags, model::LoadOptions& load);

}  // namespace sf::analysis
