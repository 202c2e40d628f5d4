// Hand-built models for the impact-model unit tests: stages with exactly the windows, run
// times and longest tasks a case needs.
#pragma once

#include "model/app_model.h"

namespace sf::analysis::testing {

inline model::StageAttempt make_stage(int64_t id, int64_t start_ms, int64_t end_ms, int64_t run_time_ms,
                                      int64_t max_task_ms = 0) {
  model::StageAttempt s;
  s.stage_id = id;
  s.submission_time_ms = start_ms;
  s.completion_time_ms = end_ms;
  s.status = model::StageStatus::kComplete;
  s.metric_sums[model::index_of(model::TaskMetric::kExecutorRunTimeMs)] = run_time_ms;
  s.metric_sums[model::index_of(model::TaskMetric::kDurationMs)] = run_time_ms;
  s.max_task_duration_ms = max_task_ms;
  return s;
}

inline model::AppModel make_model(std::vector<model::StageAttempt> stages, int32_t cores = 8, int64_t app_start = 0,
                                  int64_t app_end = 600000) {
  model::AppModel m;
  m.app.start_time_ms = app_start;
  m.app.end_time_ms = app_end;
  m.app.finished = true;
  m.peak_concurrent_cores = cores;
  m.stages = std::move(stages);
  return m;
}

}  // namespace sf::analysis::testing
