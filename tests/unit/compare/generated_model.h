// The model of a log the deterministic generator (bench/loggen) writes: written to a temporary
// directory, read, and removed. A failure to read is a test failure (and an empty model).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "loggen/log_generator.h"
#include "model/load.h"

namespace sf::compare::test_logs {

// `tag` keeps the directories of tests running at once apart.
inline model::AppModel generated_model(const loggen::GeneratorConfig& config, const std::string& tag) {
  const auto dir = std::filesystem::temp_directory_path() / ("sf-generated-" + std::to_string(::getpid())) /
                   (tag + "-" + std::to_string(config.seed) + "-" + std::to_string(config.scale));
  std::filesystem::remove_all(dir);
  const auto written = loggen::write_event_log(config, {}, dir, nullptr);
  auto loaded = model::load_event_log(written.path.string());
  std::filesystem::remove_all(dir);
  if (!loaded) {
    ADD_FAILURE() << loaded.error().message();
    return {};
  }
  return std::move(*loaded);
}

}  // namespace sf::compare::test_logs
