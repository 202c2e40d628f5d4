// The findings part of the analysis document: findings, the rollup and the thresholds used.
// Private to src/report (it exposes nlohmann::json); model_json.cpp puts these sections into
// the document.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"

namespace sf::report {

nlohmann::ordered_json findings_json(const analysis::Analysis& analysis);
nlohmann::ordered_json rollup_json(const analysis::Analysis& analysis);
nlohmann::ordered_json analysis_config_json(const analysis::Analysis& analysis);

}  // namespace sf::report
