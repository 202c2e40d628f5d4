// The analysis as text for a terminal: an application summary, the top stages by duration and
// what went wrong reading the log.
#pragma once

#include <string>

#include "model/app_model.h"

namespace sf::report {

struct TextOptions {
  size_t top_stages = 10;
};

std::string analysis_text(const model::AppModel& model, const TextOptions& options = {});

}  // namespace sf::report
