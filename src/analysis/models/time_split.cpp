#include "analysis/models/time_split.h"

#include <algorithm>
#include <map>

namespace sf::analysis {

namespace {

// A gap the driver's own work shows in: a second or more.
constexpr double kNotableGapMs = 1000;

double as_ms(int64_t t) { return static_cast<double>(t); }

// A job's or an SQL execution's window; one that never ended runs until `end`. Callers skip
// those without a start.
Interval job_window(const model::Job& j, double end) {
  return {as_ms(*j.submission_time_ms), j.completion_time_ms ? as_ms(*j.completion_time_ms) : end};
}

Interval sql_window(const model::SqlExecution& x, double end) {
  return {as_ms(*x.start_time_ms), x.end_time_ms ? as_ms(*x.end_time_ms) : end};
}

}  // namespace

WindowSplit split_window(Interval outer, std::vector<Interval> inner, bool end_known) {
  WindowSplit split;
  split.duration_ms = std::max(0.0, outer.end_ms - outer.start_ms);
  for (Interval& i : inner) {
    i.start_ms = std::max(i.start_ms, outer.start_ms);
    i.end_ms = std::min(i.end_ms, outer.end_ms);
  }
  const std::vector<Interval> merged = merge_intervals(std::move(inner));
  if (merged.empty()) {
    split.before_first_ms = split.duration_ms;
    return split;
  }
  split.before_first_ms = merged.front().start_ms - outer.start_ms;
  if (end_known) split.after_last_ms = outer.end_ms - merged.back().end_ms;
  for (size_t i = 0; i < merged.size(); ++i) {
    split.inside_ms += merged[i].end_ms - merged[i].start_ms;
    if (i == 0) continue;
    const double gap = merged[i].start_ms - merged[i - 1].end_ms;
    split.between_ms += gap;
    split.longest_gap_ms = std::max(split.longest_gap_ms, gap);
    if (gap >= kNotableGapMs) ++split.gaps_over_one_second;
  }
  return split;
}

std::optional<double> app_end_ms(const model::AppModel& model) {
  if (!model.app.start_time_ms) return std::nullopt;
  return as_ms(*model.app.start_time_ms) + as_ms(model.app.duration_ms().value_or(0));
}

std::vector<Interval> app_job_windows(const model::AppModel& model, double end_ms) {
  std::vector<Interval> jobs;
  for (const model::Job& j : model.jobs) {
    if (j.submission_time_ms) jobs.push_back(job_window(j, end_ms));
  }
  return merge_intervals(std::move(jobs));
}

std::optional<WindowSplit> app_time_split(const model::AppModel& model) {
  const std::optional<double> end = app_end_ms(model);
  if (!end) return std::nullopt;
  return split_window({as_ms(*model.app.start_time_ms), *end}, app_job_windows(model, *end), model.app.finished);
}

std::optional<WindowSplit> driver_code_split(const model::AppModel& model) {
  const std::optional<double> end = app_end_ms(model);
  if (!end) return std::nullopt;
  std::vector<Interval> work;
  std::optional<double> first_job;
  for (const model::Job& j : model.jobs) {
    if (!j.submission_time_ms) continue;
    work.push_back(job_window(j, *end));
    if (!first_job || work.back().start_ms < *first_job) first_job = work.back().start_ms;
  }
  if (!first_job) return std::nullopt;
  for (const model::SqlExecution& x : model.sql) {
    if (x.start_time_ms) work.push_back(sql_window(x, *end));
  }
  // While a streaming query runs, the time between its batches is its trigger's wait (or its
  // source having nothing new), not the driver's own code: from its start to its last batch's end,
  // or to the application's end while it still ran.
  for (const model::StreamingQuery& q : model.streaming_queries) {
    if (!q.start_ms || q.batches.empty()) continue;
    const model::StreamingBatch& last = q.batches.back();
    const double last_end = static_cast<double>(last.start_ms.value_or(*q.start_ms) + last.duration_ms);
    work.push_back({static_cast<double>(*q.start_ms), q.terminated ? std::min(last_end, *end) : *end});
  }
  return split_window({*first_job, *end}, std::move(work), model.app.finished);
}

std::vector<JobTimeSplit> job_time_splits(const model::AppModel& model) {
  const std::optional<double> end = app_end_ms(model);
  std::vector<JobTimeSplit> out;
  for (const model::Job& j : model.jobs) {
    if (!j.submission_time_ms || (!j.completion_time_ms && !end)) continue;
    const Interval window = job_window(j, end.value_or(0));  // end unused when the job ended
    std::vector<Interval> stages;
    // The job's stages looked up by id, not each job against every stage.
    for (int64_t stage_id : j.stage_ids) {
      for (const model::StageAttempt& s : model.attempts_of(stage_id)) {
        if (!s.submission_time_ms) continue;
        // A stage attempt of another job (a shared stage run again) is not this job's.
        if (!s.job_ids.empty() && !std::binary_search(s.job_ids.begin(), s.job_ids.end(), j.job_id)) continue;
        stages.push_back(
            {as_ms(*s.submission_time_ms), s.completion_time_ms ? as_ms(*s.completion_time_ms) : window.end_ms});
      }
    }
    out.push_back({j.job_id, split_window(window, std::move(stages), j.completion_time_ms.has_value())});
  }
  return out;
}

std::vector<SqlTimeSplit> sql_time_splits(const model::AppModel& model) {
  const std::optional<double> end = app_end_ms(model);
  std::vector<SqlTimeSplit> out;
  // A sub-execution's jobs are its root's: the root was not "without a job" while they ran
  // (db_subExecution_id: execution 5 read as 4m 14s with no job, its sub-executions' jobs running).
  std::map<int64_t, std::vector<const model::SqlExecution*>> subs_of;
  for (const model::SqlExecution& x : model.sql) {
    if (x.is_sub_execution()) subs_of[*x.root_execution_id].push_back(&x);
  }
  for (const model::SqlExecution& x : model.sql) {
    if (x.is_sub_execution() || !x.start_time_ms || (!x.end_time_ms && !end)) continue;
    const Interval window = sql_window(x, end.value_or(0));  // end unused when the execution ended
    std::vector<const model::SqlExecution*> tree = {&x};
    if (auto it = subs_of.find(x.execution_id); it != subs_of.end())
      tree.insert(tree.end(), it->second.begin(), it->second.end());
    std::vector<Interval> jobs;
    for (const model::SqlExecution* part : tree) {
      for (int64_t id : part->job_ids) {
        const model::Job* j = model.job(id);
        if (j == nullptr || !j->submission_time_ms) continue;
        jobs.push_back(job_window(*j, window.end_ms));
      }
    }
    out.push_back({x.execution_id, split_window(window, std::move(jobs), x.end_time_ms.has_value())});
  }
  return out;
}

}  // namespace sf::analysis
