// Shared by the detector tests: write a scenario log, load it like any log, analyze it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/analyzer.h"
#include "model/load.h"
#include "support/scenario_log.h"

namespace sf::analysis::testing {

struct Analyzed {
  model::AppModel model;
  Analysis analysis;

  std::vector<const Finding*> of_type(std::string_view type, std::string_view rule = {}) const {
    std::vector<const Finding*> found;
    for (const Finding& f : analysis.findings) {
      if (f.type == type && (rule.empty() || f.rule == rule)) found.push_back(&f);
    }
    return found;
  }
};

// Loads the log through load_event_log (the whole reading path) and analyzes it.
inline Analyzed analyze_scenario(const sf::testing::ScenarioLog& log, const Thresholds& thresholds = {}) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "-" + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  const auto dir = std::filesystem::temp_directory_path() / ("sf-analysis-" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(dir);
  const auto path = log.write(dir);
  auto model = model::load_event_log(path.string());
  std::filesystem::remove_all(dir);
  if (!model) {
    ADD_FAILURE() << model.error().message();
    return {};
  }
  AnalysisOptions options;
  options.thresholds = thresholds;
  Analyzed result{std::move(*model), {}};
  result.analysis = analyze(result.model, options);
  return result;
}

}  // namespace sf::analysis::testing
