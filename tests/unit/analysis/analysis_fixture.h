// Shared by the detector tests: write a scenario log, load it like any log, analyze it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/analyzer.h"
#include "analysis/findings/finding_types.h"
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
  // The one finding of the type, or nullptr when there is none or more than one.
  const Finding* only(std::string_view type) const {
    const auto found = of_type(type);
    return found.size() == 1 ? found.front() : nullptr;
  }
  // What the detectors found, whether a finding kept its own entry or was folded into the one
  // that names the same fix (analysis/findings/same_fix.h).
  std::vector<const Finding*> detected(std::string_view type, std::string_view rule = {}) const {
    std::vector<const Finding*> found;
    auto take = [&](const Finding& f) {
      if (f.type == type && (rule.empty() || f.rule == rule)) found.push_back(&f);
    };
    for (const Finding& f : analysis.findings) {
      take(f);
      for (const AnsweredFinding& a : f.also_answers) take(a.finding);
    }
    return found;
  }
  // The entry the finding `id` ended in: itself, the finding it was folded into, or nullptr.
  const Finding* entry_of(std::string_view id) const {
    for (const Finding& f : analysis.findings) {
      if (f.id == id) return &f;
      for (const AnsweredFinding& a : f.also_answers) {
        if (a.finding.id == id) return &f;
      }
    }
    return nullptr;
  }
};

// The thresholds detector tests judge their rules with: the defaults, but no absolute floor on
// cost-only findings (significance.minCoreHours, minGiBHours), which the small generated runs of
// these tests are all under; tests of that floor set it themselves.
inline Thresholds detector_thresholds() {
  Thresholds t;
  t.significance_min_core_hours = 0;
  t.significance_min_gib_hours = 0;
  return t;
}

// Every finding of the analysis, and every one folded into another's entry, is one the registry
// lists (analysis/findings/finding_types.h) with the scope it was reported at: a detector that reports a
// new type or rule registers it there, with its reference page. Every analysis of a detector
// test is checked, so each generated scenario is a case.
inline void expect_registered(const Analysis& analysis) {
  auto check = [](const Finding& f) {
    const FindingTypeInfo* info = find_finding_type(f.type, f.rule);
    if (info == nullptr) {
      ADD_FAILURE() << f.id << ": type \"" << f.type << "\" with rule \"" << f.rule
                    << "\" is not in the finding-type registry (src/analysis/findings/finding_types.cpp)";
      return;
    }
    if (std::find(info->scopes.begin(), info->scopes.end(), f.scope) == info->scopes.end()) {
      ADD_FAILURE() << f.id << ": scope " << to_string(f.scope) << " is not one the finding-type registry gives "
                    << f.type_and_rule();
    }
  };
  for (const Finding& f : analysis.findings) {
    check(f);
    for (const AnsweredFinding& a : f.also_answers) check(a.finding);
  }
}

// Loads the log through load_event_log (the whole reading path) and analyzes it.
inline Analyzed analyze_scenario(const sf::testing::ScenarioLog& log,
                                 const Thresholds& thresholds = detector_thresholds()) {
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
  expect_registered(result.analysis);
  return result;
}

// Reading a finding in tests.
namespace finding_readers {

inline const Evidence* find_evidence(const Finding& f, std::string_view name) {
  for (const Evidence& e : f.evidence) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// An evidence figure; a test failure (and NaN) when the finding does not give it.
inline double evidence_of(const Finding& f, std::string_view name) {
  const Evidence* e = find_evidence(f, name);
  if (e == nullptr) {
    ADD_FAILURE() << f.id << " has no evidence " << name;
    return std::nan("");
  }
  return e->value;
}

inline const SettingChange* find_setting(const Finding& f, std::string_view key) {
  for (const SettingChange& s : f.settings) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

// The suggested / current value of a setting the finding names, or "<absent>".
inline std::string suggested(const Finding& f, std::string_view key) {
  const SettingChange* s = find_setting(f, key);
  return s != nullptr ? s->suggested_value : "<absent>";
}
inline std::string current(const Finding& f, std::string_view key) {
  const SettingChange* s = find_setting(f, key);
  return s != nullptr ? s->current_value : "<absent>";
}

// The finding's raw waste and wall-clock range; NaN when it has none.
inline double raw_of(const Finding& f) { return f.impact.raw_waste ? f.impact.raw_waste->value : std::nan(""); }
inline double high_of(const Finding& f) { return f.impact.wall_clock ? f.impact.wall_clock->high_ms : std::nan(""); }
inline double low_of(const Finding& f) { return f.impact.wall_clock ? f.impact.wall_clock->low_ms : std::nan(""); }

inline bool names_threshold(const Finding& f, std::string_view name) {
  return std::find(f.thresholds.begin(), f.thresholds.end(), name) != f.thresholds.end();
}

}  // namespace finding_readers

}  // namespace sf::analysis::testing
