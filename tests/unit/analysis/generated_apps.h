// Generated applications for the analysis tests that check a property over many shapes (the
// impact model's invariants, the finding-type registry): the generator's lines decoded straight
// into a model (the loader is tested elsewhere), and one set of varied configurations.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "eventlog/decoder.h"
#include "loggen/log_generator.h"
#include "model/model_builder.h"

namespace sf::analysis::testing {

inline model::AppModel generated_model(const loggen::GeneratorConfig& config) {
  model::ModelBuilder builder;
  eventlog::Decoder decoder;
  std::string padded;
  loggen::generate(
      config,
      [&](std::string_view line) {
        if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
        padded.assign(line);
        padded.append(eventlog::kLinePadding, '\0');
        decoder.decode(std::string_view(padded.data(), line.size()), builder);
      },
      nullptr);
  return builder.finish({});
}

// Twelve small applications of different seeds, shapes and feature mixes, and the demo one.
inline std::vector<loggen::GeneratorConfig> varied_generated_configs() {
  std::vector<loggen::GeneratorConfig> all;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    auto c = loggen::GeneratorConfig::small();
    c.seed = seed;
    c.actions = 3 + static_cast<int>(seed % 6);
    c.stages_per_action = 2 + static_cast<int>(seed % 3);
    c.tasks_per_stage = 20 + static_cast<int>(seed * 13 % 90);
    c.executors = 2 + static_cast<int>(seed % 5);
    c.cores_per_executor = 1 + static_cast<int>(seed % 4);
    c.speculation = seed % 2 == 0;
    c.skew = seed % 3 != 0;
    c.executor_churn = seed % 4 != 1;
    c.finished = seed % 5 != 0;
    all.push_back(c);
  }
  all.push_back(loggen::GeneratorConfig::demo());
  return all;
}

}  // namespace sf::analysis::testing
