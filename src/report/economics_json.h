// The economics part of the analysis document: time split, critical path, what-if curve and
// cost (analysis/economics/economics.h). model_json.cpp puts it into the document as "economics".
// docs/analysis-schema.md lists every field.
#pragma once

#include "analysis/economics/economics.h"

namespace sf {
class JsonWriter;
}

namespace sf::report {

void write_economics(JsonWriter& w, const analysis::Economics& economics);

}  // namespace sf::report
