// The economics part of the analysis document: time split, critical path, what-if curve and
// cost (analysis/economics.h). Private to src/report (it exposes nlohmann::json); model_json.cpp
// puts it into the document as "economics". docs/analysis-schema.md lists every field.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/economics.h"

namespace sf::report {

nlohmann::ordered_json economics_json(const analysis::Economics& economics);

}  // namespace sf::report
