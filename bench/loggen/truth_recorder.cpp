#include "loggen/truth_recorder.h"

#include <algorithm>

namespace sf::loggen {

using spark::index_of;
using spark::TaskMetric;

namespace {

using StageKey = std::pair<int64_t, int32_t>;

// Spark's executor order: "driver" first, then numeric ids by value.
bool executor_before(std::string_view a, std::string_view b) {
  if (a == b) return false;
  if (a == "driver") return true;
  if (b == "driver") return false;
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

struct JobRecord {
  JobTruth truth;
  bool live = true;
  int64_t active_stages = 0;  // may dip below zero, as Spark's counter does
  std::set<int64_t> completed_stages;
  std::set<int64_t> skipped_stages;
  std::set<std::pair<int64_t, int32_t>> completed_indices;  // (stage, task index)
};

struct StageRecord {
  StageAttemptTruth truth;
  std::vector<JobRecord*> jobs;  // the jobs this attempt runs (or would run) for
  std::set<int32_t> completed_indices;
  std::set<int64_t> accumulator_ids;
  std::map<std::string, int64_t> failures;
  std::map<std::string, int64_t> killed;
  std::map<std::string, ExecutorStageTruth> executors;
};

struct ExecutorRecord {
  ExecutorTruth truth;
  bool live = true;
};

struct SqlRecord {
  SqlExecutionTruth truth;
  std::vector<PlanDesc> plans;  // oldest first; the last is the final plan
  std::map<int64_t, int64_t> driver_updates;
};

std::vector<int64_t> sorted_unique(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

}  // namespace

struct TruthRecorder::State {
  std::map<int64_t, JobRecord> jobs;
  std::map<StageKey, StageRecord> stages;
  std::map<std::string, ExecutorRecord, std::less<>> executors;
  std::map<int64_t, SqlRecord> sql;
  std::set<int64_t> rdd_ids;
  std::map<int64_t, CachedRddTruth> cached_rdds;
  std::map<int64_t, int64_t> stage_accumulator_values;  // SQL accumulator -> sum of StageCompleted values
  std::optional<int64_t> last_event_ms;
  int32_t live_cores = 0;
  int32_t live_executors = 0;
  int32_t peak_cores = 0;
  int32_t peak_executors = 0;

  void touch(int64_t time_ms) {
    if (time_ms > 0 && (!last_event_ms || time_ms > *last_event_ms)) last_event_ms = time_ms;
  }

  ExecutorRecord& executor(std::string_view id, int64_t time_ms) {
    auto it = executors.find(id);
    if (it == executors.end()) {
      it = executors.emplace(std::string(id), ExecutorRecord{}).first;
      it->second.truth.id = std::string(id);
      it->second.truth.add_time_ms = time_ms;
    }
    return it->second;
  }

  ExecutorRecord* live_executor(std::string_view id) {
    auto it = executors.find(id);
    return it != executors.end() && it->second.live ? &it->second : nullptr;
  }

  void describe_rdds(const StageAttemptDesc& desc) {
    for (const RddDesc& rdd : desc.rdds) {
      rdd_ids.insert(rdd.id);
      if (rdd.storage.cached()) {
        CachedRddTruth& cached = cached_rdds[rdd.id];
        cached.rdd_id = rdd.id;
        cached.name = rdd.name;
        cached.num_partitions = rdd.num_partitions;
        cached.use_memory = rdd.storage.use_memory;
        cached.use_disk = rdd.storage.use_disk;
        cached.deserialized = rdd.storage.deserialized;
        cached.replication = rdd.storage.replication;
      }
    }
  }

  StageRecord& stage(const StageAttemptDesc& desc) {
    StageRecord& record = stages[{desc.stage_id, desc.attempt_id}];
    StageAttemptTruth& t = record.truth;
    t.stage_id = desc.stage_id;
    t.attempt_id = desc.attempt_id;
    t.name = desc.name;
    t.num_tasks = desc.num_tasks;
    t.parent_ids = sorted_unique(desc.parent_ids);
    std::vector<int64_t> rdds;
    for (const RddDesc& rdd : desc.rdds) rdds.push_back(rdd.id);
    t.rdd_ids = sorted_unique(std::move(rdds));
    describe_rdds(desc);
    return record;
  }
};

TruthRecorder::TruthRecorder(GroundTruth& truth) : state_(std::make_unique<State>()), truth_(truth) {}
TruthRecorder::~TruthRecorder() = default;

// ---------------------------------------------------------------------------------------------
// The application and its executors

void TruthRecorder::log_start(std::string_view spark_version) { truth_.app.spark_version = std::string(spark_version); }

void TruthRecorder::application_start(std::string_view app_id, std::string_view name, std::string_view user,
                                      int64_t time_ms) {
  truth_.app.id = std::string(app_id);
  truth_.app.name = std::string(name);
  truth_.app.user = std::string(user);
  truth_.app.start_time_ms = time_ms;
  state_->touch(time_ms);
}

void TruthRecorder::application_end(int64_t time_ms) {
  truth_.app.end_time_ms = time_ms;
  truth_.app.finished = true;
  state_->touch(time_ms);
}

void TruthRecorder::executor_added(const ExecutorInfo& executor) {
  State& s = *state_;
  ExecutorRecord& record = s.executor(executor.id, executor.add_ms);
  record.live = true;
  record.truth.add_time_ms = executor.add_ms;
  record.truth.host = executor.host;
  record.truth.total_cores = executor.cores;
  s.live_cores += executor.cores;
  s.live_executors += 1;
  s.peak_cores = std::max(s.peak_cores, s.live_cores);
  s.peak_executors = std::max(s.peak_executors, s.live_executors);
  s.touch(executor.add_ms);
}

void TruthRecorder::executor_removed(const ExecutorInfo& executor, int64_t time_ms, std::string_view reason) {
  State& s = *state_;
  ExecutorRecord& record = s.executor(executor.id, time_ms);
  record.live = false;
  record.truth.remove_time_ms = time_ms;
  record.truth.remove_reason = std::string(reason);
  s.live_cores -= executor.cores;
  s.live_executors -= 1;
  s.touch(time_ms);
}

void TruthRecorder::block_manager_added(std::string_view executor_id, std::string_view host, int64_t max_memory_bytes,
                                        int64_t time_ms) {
  // The History Server creates an executor it has not seen (the driver) with this event's time.
  ExecutorRecord& record = state_->executor(executor_id, time_ms);
  if (record.truth.host.empty()) record.truth.host = std::string(host);
  record.truth.max_memory_bytes = max_memory_bytes;
  record.truth.block_manager_add_time_ms = time_ms;
  state_->touch(time_ms);
}

void TruthRecorder::block_manager_removed(int64_t time_ms) { state_->touch(time_ms); }

// ---------------------------------------------------------------------------------------------
// Jobs and stages

void TruthRecorder::job_start(int64_t job_id, int64_t time_ms, std::span<const StageAttemptDesc* const> stages,
                              const JobProperties& properties) {
  State& s = *state_;
  JobRecord& job = s.jobs[job_id];
  job = JobRecord{};
  JobTruth& t = job.truth;
  t.job_id = job_id;
  t.submission_time_ms = time_ms;
  t.description = properties.description;
  t.job_group = properties.job_group;
  t.sql_execution_id = properties.sql_execution_id;
  t.status = model::JobStatus::kRunning;
  const StageAttemptDesc* last = nullptr;
  for (const StageAttemptDesc* desc : stages) {
    t.stage_ids.push_back(desc->stage_id);
    if (!desc->completion_ms) t.num_tasks += desc->num_tasks;
    if (last == nullptr || desc->stage_id > last->stage_id) last = desc;
    // Every listed attempt is known from now on (pending until submitted) and runs for this job.
    StageRecord& stage = s.stage(*desc);
    if (std::find(stage.jobs.begin(), stage.jobs.end(), &job) == stage.jobs.end()) stage.jobs.push_back(&job);
  }
  t.stage_ids = sorted_unique(std::move(t.stage_ids));
  t.name = last != nullptr ? last->name : "";
  s.touch(time_ms);
}

void TruthRecorder::job_end(int64_t job_id, int64_t time_ms, const std::optional<std::string>& failure) {
  State& s = *state_;
  JobRecord& job = s.jobs.at(job_id);
  // Stages of this job still pending when it ends were skipped.
  for (auto& [key, stage] : s.stages) {
    if (stage.truth.status != model::StageStatus::kPending) continue;
    if (!std::binary_search(job.truth.stage_ids.begin(), job.truth.stage_ids.end(), key.first)) continue;
    stage.truth.status = model::StageStatus::kSkipped;
    job.skipped_stages.insert(key.first);
    job.truth.num_skipped_tasks += stage.truth.num_tasks;
    --job.active_stages;
  }
  job.live = false;
  job.truth.status = failure ? model::JobStatus::kFailed : model::JobStatus::kSucceeded;
  job.truth.failure_reason = failure.value_or("");
  job.truth.completion_time_ms = time_ms;
  s.touch(time_ms);
}

void TruthRecorder::stage_submitted(const StageAttemptDesc& desc) {
  State& s = *state_;
  StageRecord& stage = s.stage(desc);
  StageAttemptTruth& t = stage.truth;
  t.status = model::StageStatus::kActive;
  t.submission_time_ms = desc.submission_ms;
  t.description = desc.properties->description;
  t.sql_execution_id = desc.properties->sql_execution_id;
  // It runs for the live jobs that list it.
  stage.jobs.clear();
  for (auto& [id, job] : s.jobs) {
    if (!job.live) continue;
    if (!std::binary_search(job.truth.stage_ids.begin(), job.truth.stage_ids.end(), desc.stage_id)) continue;
    stage.jobs.push_back(&job);
    job.completed_stages.erase(desc.stage_id);
    ++job.active_stages;
  }
  if (desc.submission_ms) s.touch(*desc.submission_ms);
}

void TruthRecorder::stage_completed(const StageAttemptDesc& desc) {
  State& s = *state_;
  StageRecord& stage = s.stage(desc);
  StageAttemptTruth& t = stage.truth;
  t.completion_time_ms = desc.completion_ms;
  if (desc.failure_reason) {
    t.status = model::StageStatus::kFailed;
    t.failure_reason = *desc.failure_reason;
  } else {
    t.status = model::StageStatus::kComplete;
  }
  // What its Accumulables listed: the SQL metrics its tasks updated, its non-zero task metrics.
  for (size_t i = 0; i < desc.sql_metrics.size(); ++i) {
    if (i >= desc.sql_updated.size() || desc.sql_updated[i] == 0) continue;
    stage.accumulator_ids.insert(desc.sql_metrics[i].accumulator_id);
    s.stage_accumulator_values[desc.sql_metrics[i].accumulator_id] += *desc.sql_metrics[i].total;
  }
  for (size_t i = 0; i < kInternalAccumulatorCount; ++i) {
    if (desc.accumulator_totals[i] != 0) {
      stage.accumulator_ids.insert(desc.internal_accumulator_base + static_cast<int64_t>(i));
    }
  }
  for (JobRecord* job : stage.jobs) {
    if (t.status == model::StageStatus::kComplete) {
      job->completed_stages.insert(desc.stage_id);
    } else {
      ++job->truth.num_failed_stages;
    }
    --job->active_stages;
  }
  if (desc.completion_ms) s.touch(*desc.completion_ms);
}

// ---------------------------------------------------------------------------------------------
// Tasks

void TruthRecorder::task_start(const StageAttemptDesc& desc, const TaskAttempt& task, const ExecutorInfo& executor) {
  State& s = *state_;
  StageRecord& stage = s.stages.at({desc.stage_id, desc.attempt_id});
  StageAttemptTruth& t = stage.truth;
  ++t.tasks_started;
  ++t.tasks_active;
  if (task.speculative) ++t.tasks_speculative;
  if (!t.first_task_launched_time_ms || task.launch_ms < *t.first_task_launched_time_ms) {
    t.first_task_launched_time_ms = task.launch_ms;
  }
  for (JobRecord* job : stage.jobs) ++job->truth.num_active_tasks;
  if (ExecutorRecord* record = s.live_executor(executor.id)) ++record->truth.tasks_total;
  s.touch(task.launch_ms);
}

void TruthRecorder::task_end(const StageAttemptDesc& desc, const TaskAttempt& task, const ExecutorInfo& executor,
                             const TaskEndReason* reason, std::span<const AccumulatorUpdate> updates) {
  State& s = *state_;
  StageRecord& stage = s.stages.at({desc.stage_id, desc.attempt_id});
  StageAttemptTruth& t = stage.truth;
  const bool succeeded = task.end == TaskEndKind::kSuccess;
  const bool killed = task.end == TaskEndKind::kKilled;
  const bool failed = !succeeded && !killed;
  const spark::TaskMetricValues& m = task.metrics;
  const int64_t duration = task.finish_ms - task.launch_ms;

  // Attempts without metrics add only their duration (the only slot set in their vector).
  for (size_t i = 0; i < spark::kTaskMetricCount; ++i) t.metric_sums[i] += m[i];
  --t.tasks_active;
  if (duration > t.max_task_duration_ms || !t.max_task_duration_task_id) {
    t.max_task_duration_ms = duration;
    t.max_task_duration_task_id = task.task_id;
  }
  if (succeeded) {
    ++t.tasks_succeeded;
    stage.completed_indices.insert(task.index);
    t.successful_task_metrics.push_back(m);
  } else if (killed) {
    ++t.tasks_killed;
    ++stage.killed[reason->text];
  } else {
    ++t.tasks_failed;
    switch (reason->kind) {
      case TaskEndKind::kExceptionFailure: ++stage.failures["ExceptionFailure: " + reason->text]; break;
      case TaskEndKind::kExecutorLost: ++stage.failures["ExecutorLostFailure: " + reason->text.substr(0, 120)]; break;
      case TaskEndKind::kFetchFailed: ++stage.failures["FetchFailed"]; break;
      default: break;
    }
  }
  for (const AccumulatorUpdate& u : updates) stage.accumulator_ids.insert(u.id);

  ExecutorStageTruth& e = stage.executors[executor.id];
  e.executor_id = executor.id;
  e.host = executor.host;
  e.tasks_succeeded += succeeded ? 1 : 0;
  e.tasks_failed += failed ? 1 : 0;
  e.tasks_killed += killed ? 1 : 0;
  e.task_time_ms += duration;
  if (succeeded) e.succeeded_task_time_ms += duration;
  const int64_t shuffle_read =
      m[index_of(TaskMetric::kShuffleLocalBytesRead)] + m[index_of(TaskMetric::kShuffleRemoteBytesRead)];
  if (task.has_metrics) {
    e.executor_run_time_ms += m[index_of(TaskMetric::kExecutorRunTimeMs)];
    e.jvm_gc_time_ms += m[index_of(TaskMetric::kJvmGcTimeMs)];
    e.input_bytes += m[index_of(TaskMetric::kInputBytes)];
    e.shuffle_read_bytes += shuffle_read;
    e.shuffle_write_bytes += m[index_of(TaskMetric::kShuffleWriteBytes)];
    e.memory_bytes_spilled += m[index_of(TaskMetric::kMemoryBytesSpilled)];
    e.disk_bytes_spilled += m[index_of(TaskMetric::kDiskBytesSpilled)];
  }

  for (JobRecord* job : stage.jobs) {
    --job->truth.num_active_tasks;
    job->truth.num_completed_tasks += succeeded ? 1 : 0;
    job->truth.num_failed_tasks += failed ? 1 : 0;
    job->truth.num_killed_tasks += killed ? 1 : 0;
    if (succeeded) job->completed_indices.insert({desc.stage_id, task.index});
  }

  // An executor already removed no longer counts the attempts that end on it.
  if (ExecutorRecord* record = s.live_executor(executor.id)) {
    ExecutorTruth& x = record->truth;
    x.tasks_succeeded += succeeded ? 1 : 0;
    x.tasks_failed += failed ? 1 : 0;
    x.tasks_killed += killed ? 1 : 0;
    x.total_duration_ms += duration;
    if (task.has_metrics) {
      x.total_gc_time_ms += m[index_of(TaskMetric::kJvmGcTimeMs)];
      x.total_input_bytes += m[index_of(TaskMetric::kInputBytes)];
      x.total_shuffle_read_bytes += shuffle_read;
      x.total_shuffle_write_bytes += m[index_of(TaskMetric::kShuffleWriteBytes)];
    }
  }
  s.touch(task.finish_ms);
}

// ---------------------------------------------------------------------------------------------
// SQL

void TruthRecorder::sql_execution_start(int64_t execution_id, std::string_view description, const PlanDesc& plan,
                                        int64_t time_ms) {
  SqlRecord& record = state_->sql[execution_id];
  record.truth.execution_id = execution_id;
  record.truth.root_execution_id = execution_id;
  record.truth.description = std::string(description);
  record.truth.start_time_ms = time_ms;
  record.plans.push_back(plan);
  state_->touch(time_ms);
}

void TruthRecorder::sql_adaptive_execution_update(int64_t execution_id, const PlanDesc& plan) {
  SqlRecord& record = state_->sql.at(execution_id);
  record.plans.push_back(plan);
  ++record.truth.adaptive_updates;
}

void TruthRecorder::driver_accum_updates(int64_t execution_id, std::span<const std::pair<int64_t, int64_t>> updates) {
  SqlRecord& record = state_->sql.at(execution_id);
  for (const auto& [id, value] : updates) record.driver_updates[id] = value;
}

void TruthRecorder::sql_execution_end(int64_t execution_id, int64_t time_ms, std::string_view error_message) {
  SqlRecord& record = state_->sql.at(execution_id);
  record.truth.end_time_ms = time_ms;
  record.truth.error_message = std::string(error_message);
  state_->touch(time_ms);
}

// ---------------------------------------------------------------------------------------------
// Finishing

void TruthRecorder::finish() {
  State& s = *state_;
  GroundTruth& g = truth_;
  g.app.last_event_time_ms = s.last_event_ms;
  g.peak_concurrent_cores = s.peak_cores;
  g.peak_concurrent_executors = s.peak_executors;

  g.executors.clear();
  for (auto& [id, record] : s.executors) g.executors.push_back(record.truth);
  std::sort(g.executors.begin(), g.executors.end(),
            [](const ExecutorTruth& a, const ExecutorTruth& b) { return executor_before(a.id, b.id); });

  g.jobs.clear();
  for (auto& [id, job] : s.jobs) {
    JobTruth t = job.truth;
    t.num_completed_stages = static_cast<int32_t>(job.completed_stages.size());
    t.num_skipped_stages = static_cast<int32_t>(job.skipped_stages.size());
    t.num_active_stages = static_cast<int32_t>(std::max<int64_t>(0, job.active_stages));
    t.num_completed_indices = static_cast<int64_t>(job.completed_indices.size());
    g.jobs.push_back(std::move(t));
  }

  g.stages.clear();
  std::map<int64_t, std::set<int64_t>> stages_by_accumulator;
  for (auto& [key, stage] : s.stages) {
    StageAttemptTruth t = stage.truth;
    t.completed_indices = static_cast<int64_t>(stage.completed_indices.size());
    for (const JobRecord* job : stage.jobs) t.job_ids.push_back(job->truth.job_id);
    t.job_ids = sorted_unique(std::move(t.job_ids));
    // Never submitted: it belongs to the SQL execution of the job that lists it.
    if (!t.sql_execution_id) {
      for (const JobRecord* job : stage.jobs) {
        if (job->truth.sql_execution_id) {
          t.sql_execution_id = job->truth.sql_execution_id;
          break;
        }
      }
    }
    t.killed_tasks_summary.assign(stage.killed.begin(), stage.killed.end());
    for (const auto& [reason, count] : stage.failures) t.failure_reasons.push_back({reason, count});
    std::stable_sort(
        t.failure_reasons.begin(), t.failure_reasons.end(),
        [](const model::TaskFailureCount& a, const model::TaskFailureCount& b) { return a.count > b.count; });
    for (auto& [id, summary] : stage.executors) t.executors.push_back(summary);
    std::sort(t.executors.begin(), t.executors.end(), [](const ExecutorStageTruth& a, const ExecutorStageTruth& b) {
      return executor_before(a.executor_id, b.executor_id);
    });
    t.accumulator_ids.assign(stage.accumulator_ids.begin(), stage.accumulator_ids.end());
    for (int64_t id : t.accumulator_ids) stages_by_accumulator[id].insert(t.stage_id);
    g.stages.push_back(std::move(t));
  }

  auto plan_truth = [&](const PlanDesc& plan, const SqlRecord& record) {
    PlanTruth out;
    for (const PlanNodeDesc& node : plan.nodes) {
      PlanNodeTruth n;
      n.node_name = node.name;
      n.child_count = static_cast<int32_t>(node.children.size());
      std::set<int64_t> stage_ids;
      for (const PlanMetricDesc& metric : node.metrics) {
        n.accumulator_ids.push_back(metric.accumulator_id);
        std::optional<int64_t> value;
        if (auto it = s.stage_accumulator_values.find(metric.accumulator_id); it != s.stage_accumulator_values.end()) {
          value = it->second;
        }
        if (auto it = record.driver_updates.find(metric.accumulator_id); it != record.driver_updates.end()) {
          value = value.value_or(0) + it->second;
        }
        n.metric_values.push_back(value);
        if (auto it = stages_by_accumulator.find(metric.accumulator_id); it != stages_by_accumulator.end()) {
          stage_ids.insert(it->second.begin(), it->second.end());
        }
      }
      n.stage_ids.assign(stage_ids.begin(), stage_ids.end());
      out.nodes.push_back(std::move(n));
    }
    return out;
  };

  g.sql.clear();
  g.stage_plan_nodes.clear();
  for (auto& [id, record] : s.sql) {
    SqlExecutionTruth t = record.truth;
    t.driver_accum_updates.assign(record.driver_updates.begin(), record.driver_updates.end());
    for (const auto& [job_id, job] : s.jobs) {
      if (job.truth.sql_execution_id != id) continue;
      t.job_ids.push_back(job_id);
      t.stage_ids.insert(t.stage_ids.end(), job.truth.stage_ids.begin(), job.truth.stage_ids.end());
    }
    t.job_ids = sorted_unique(std::move(t.job_ids));
    t.stage_ids = sorted_unique(std::move(t.stage_ids));
    t.earlier_plans.clear();
    for (size_t i = 0; i + 1 < record.plans.size(); ++i) t.earlier_plans.push_back(plan_truth(record.plans[i], record));
    t.final_plan = plan_truth(record.plans.back(), record);
    for (size_t node = 0; node < t.final_plan.nodes.size(); ++node) {
      for (int64_t stage_id : t.final_plan.nodes[node].stage_ids) {
        g.stage_plan_nodes[stage_id].push_back(model::PlanNodeRef{id, static_cast<int32_t>(node)});
      }
    }
    g.sql.push_back(std::move(t));
  }

  g.rdd_ids.assign(s.rdd_ids.begin(), s.rdd_ids.end());
  g.cached_rdds.clear();
  for (const auto& [id, rdd] : s.cached_rdds) g.cached_rdds.push_back(rdd);
}

// ---------------------------------------------------------------------------------------------
// GroundTruth lookups

const StageAttemptTruth* GroundTruth::stage(int64_t stage_id, int32_t attempt_id) const {
  auto it = std::lower_bound(stages.begin(), stages.end(), std::pair{stage_id, attempt_id},
                             [](const StageAttemptTruth& s, const std::pair<int64_t, int32_t>& key) {
                               return std::pair{s.stage_id, s.attempt_id} < key;
                             });
  return it != stages.end() && it->stage_id == stage_id && it->attempt_id == attempt_id ? &*it : nullptr;
}

const JobTruth* GroundTruth::job(int64_t job_id) const {
  auto it =
      std::lower_bound(jobs.begin(), jobs.end(), job_id, [](const JobTruth& j, int64_t id) { return j.job_id < id; });
  return it != jobs.end() && it->job_id == job_id ? &*it : nullptr;
}

const ExecutorTruth* GroundTruth::executor(std::string_view executor_id) const {
  for (const ExecutorTruth& e : executors) {
    if (e.id == executor_id) return &e;
  }
  return nullptr;
}

const SqlExecutionTruth* GroundTruth::sql_execution(int64_t execution_id) const {
  auto it = std::lower_bound(sql.begin(), sql.end(), execution_id,
                             [](const SqlExecutionTruth& e, int64_t id) { return e.execution_id < id; });
  return it != sql.end() && it->execution_id == execution_id ? &*it : nullptr;
}

}  // namespace sf::loggen
