// The comparator's verdict document as JSON (schemaVersion 1): the form CI gates and alerting consume.
// Keys sorted, floats in one format, no clock: equal documents are equal bytes.
#pragma once

#include <string>

#include "results/verdict_document.h"

namespace sf::report {

std::string verdict_json(const results::VerdictDocument& document);

}  // namespace sf::report
