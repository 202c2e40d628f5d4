#include "analysis/economics/connect_cost.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

namespace sf::analysis {

namespace {

std::optional<int64_t> between(const std::optional<int64_t>& from, const std::optional<int64_t>& to) {
  int64_t ms = 0;
  if (!from || !to || __builtin_sub_overflow(*to, *from, &ms)) return std::nullopt;
  return std::max<int64_t>(0, ms);
}

// Whether one of `job_ids` (sorted) ran the attempt: a skipped stage's entry names the job that
// skipped it, a pending one's the job that never got to it.
bool ran_for(const model::StageAttempt& attempt, const std::vector<int64_t>& job_ids) {
  if (attempt.status == model::StageStatus::kSkipped || attempt.status == model::StageStatus::kPending) return false;
  return std::any_of(attempt.job_ids.begin(), attempt.job_ids.end(),
                     [&](int64_t id) { return std::binary_search(job_ids.begin(), job_ids.end(), id); });
}

bool about(const Finding& f, const model::ConnectOperation& op, const std::vector<StageRef>& stages) {
  if (f.sql_execution_id &&
      std::binary_search(op.sql_execution_ids.begin(), op.sql_execution_ids.end(), *f.sql_execution_id)) {
    return true;
  }
  return std::any_of(f.stages.begin(), f.stages.end(),
                     [&](const StageRef& ref) { return std::binary_search(stages.begin(), stages.end(), ref); });
}

}  // namespace

std::vector<ConnectOperationSummary> summarize_connect(const model::AppModel& model, const Cost& cost,
                                                       const std::vector<Finding>& findings) {
  std::vector<ConnectOperationSummary> out;
  if (model.connect_operations.empty()) return out;
  const std::map<int64_t, double> job_cost(cost.jobs.begin(), cost.jobs.end());
  for (size_t i = 0; i < model.connect_operations.size(); ++i) {
    const model::ConnectOperation& op = model.connect_operations[i];
    ConnectOperationSummary s;
    s.operation_index = i;
    s.operation_id = op.operation_id;
    s.jobs = static_cast<int64_t>(op.job_ids.size());
    std::set<int64_t> stage_ids;
    for (int64_t job_id : op.job_ids) {
      if (auto found = job_cost.find(job_id); found != job_cost.end()) s.cost += found->second;
      if (const model::Job* job = model.job(job_id)) stage_ids.insert(job->stage_ids.begin(), job->stage_ids.end());
    }
    for (int64_t stage_id : stage_ids) {
      for (const model::StageAttempt& attempt : model.attempts_of(stage_id)) {
        if (!ran_for(attempt, op.job_ids)) continue;
        s.stages.push_back({attempt.stage_id, attempt.attempt_id});
        // A sum of the model's own sums: saturated, as a hostile log's sums may be near the limit.
        if (__builtin_add_overflow(s.task_time_ms, attempt.metric(model::TaskMetric::kDurationMs), &s.task_time_ms)) {
          s.task_time_ms = INT64_MAX;
        }
      }
    }
    for (const Finding& f : findings) {
      if (about(f, op, s.stages)) s.finding_ids.push_back(f.id);
    }
    s.analysis_ms = between(op.started_ms, op.analyzed_ms);
    s.planning_ms = between(op.analyzed_ms, op.ready_ms);
    s.execution_ms = between(op.ready_ms, op.finished_ms);
    s.result_ms = between(op.finished_ms, op.closed_ms);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace sf::analysis
