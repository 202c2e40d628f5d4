#include "model/model_builder.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "common/units.h"
#include "model/connect_builder.h"
#include "model/plan_attribution.h"
#include "model/quantiles.h"
#include "model/redaction.h"
#include "model/sort_unique.h"
#include "model/streaming_builder.h"

namespace sf::model {

namespace ev = eventlog;

namespace {

// How Spark words the kill of an attempt whose task another attempt finished first
// (TaskSetManager.handleSuccessfulTask).
constexpr std::string_view kLostRaceReason = "another attempt succeeded";

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
};

template <class V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

using StageKey = std::pair<int64_t, int32_t>;  // stage id, attempt id

struct JobBuild;

// The partition indices of a stage with a successful task. Spark's indices run from 0 to the
// stage's task count, so a bit per index is the compact form; an index past kDenseLimit (no
// real stage has 16M tasks, a hostile log can claim 2^31) goes to a set, so memory follows the
// events read, never a number a line asserts.
class CompletedIndices {
 public:
  void mark(int32_t index) {
    const auto i = static_cast<size_t>(std::max(0, index));
    if (i >= kDenseLimit) {
      sparse_.insert(i);
      return;
    }
    if (i >= dense_.size()) dense_.resize(i + 1, false);
    dense_[i] = true;
  }
  void merge_from(const CompletedIndices& other) {
    if (dense_.size() < other.dense_.size()) dense_.resize(other.dense_.size(), false);
    for (size_t i = 0; i < other.dense_.size(); ++i) {
      if (other.dense_[i]) dense_[i] = true;
    }
    sparse_.insert(other.sparse_.begin(), other.sparse_.end());
  }
  int64_t count() const {
    return static_cast<int64_t>(std::count(dense_.begin(), dense_.end(), true)) + static_cast<int64_t>(sparse_.size());
  }

 private:
  static constexpr size_t kDenseLimit = size_t{1} << 24;
  std::vector<bool> dense_;
  std::set<size_t> sparse_;
};

// A stage attempt while the log is being read.
struct StageBuild {
  StageAttempt out;
  TaskDistribution distribution;
  bool distribution_final = false;
  bool distribution_dropped = false;  // past BuilderLimits::max_open_task_values
  StringMap<ExecutorStageSummary> executors;
  CompletedIndices completed_indices;
  std::unordered_set<int64_t> accumulator_ids;
  std::map<std::string, int64_t> failure_reasons;
  std::map<std::string, TaskFailureCause> failure_causes;  // by reason and cause key
  std::map<std::string, int64_t> killed_reasons;
  std::vector<JobBuild*> jobs;  // the jobs this attempt runs for
};

struct JobBuild {
  Job out;
  std::set<int64_t> completed_stage_ids;
};

struct ExecutorBuild {
  Executor out;
  bool live = true;  // between add and remove, as the History Server tracks it
  std::set<int64_t> excluded_in_stages;
  std::optional<int64_t> first_task_finish_ms;  // the earliest end of any of its tasks
  // The application's clock (its latest job, stage, task or SQL time) when each of the
  // executor's own times was read: what stands in for a time outside the run (clock_check).
  std::optional<int64_t> clock_at_add, clock_at_remove, clock_at_block_manager_add, clock_at_block_manager_remove;
};

// A stage the log announced in a JobStart's stage infos.
struct AnnouncedStage {
  int32_t attempt_id = 0;
  std::string name;
  std::string details;
  int32_t num_tasks = 0;
  std::vector<int64_t> parent_ids;
  std::vector<int64_t> rdd_ids;
  std::vector<int64_t> rdd_ids_in_log_order;
  int32_t resource_profile_id = 0;
  bool submitted = false;  // an attempt of it has been submitted (ever)
};

void add_metrics(TaskMetricValues& sums, const TaskMetricValues& values) {
  for (size_t i = 0; i < kTaskMetricCount; ++i) sums[i] += values[i];
}

std::string failure_key(const ev::TaskEnd& e) {
  std::string key(e.reason_text);
  if (!e.exception_class.empty()) {
    key += ": ";
    key += e.exception_class;
  } else if (!e.loss_reason.empty()) {
    key += ": ";
    // Loss reasons embed container ids and hosts; keep the stable head.
    auto head = e.loss_reason.substr(0, std::min<size_t>(e.loss_reason.size(), 120));
    key += head;
  }
  return key;
}

// The root cause in a failed attempt's own text. Read here, while the text is in hand: keeping
// every failed attempt's stack trace until the analysis would make memory grow with the log.
FailureCause task_failure_cause(const ev::TaskEnd& e) {
  switch (e.reason) {
    case ev::TaskEndReason::kExceptionFailure: {
      if (!e.full_stack_trace.empty()) return read_failure_cause(e.full_stack_trace);
      // Spark 1.0 and 1.1 logged no Full Stack Trace: the class and description still say what.
      std::string text(e.exception_class);
      if (!e.description.empty()) text += ": " + std::string(e.description);
      return read_failure_cause(text);
    }
    case ev::TaskEndReason::kExecutorLostFailure: return read_executor_loss(e.loss_reason);
    case ev::TaskEndReason::kFetchFailed: return read_failure_cause(e.fetch_failed_message);
    default: return {};
  }
}

void count_failure_cause(StageBuild& stage, const ev::TaskEnd& e, bool during_shutdown) {
  FailureCause cause = task_failure_cause(e);
  std::string key(e.reason_text);
  key += during_shutdown ? "|shutdown|" : "|";
  key += cause.key();
  auto [it, added] = stage.failure_causes.try_emplace(std::move(key));
  TaskFailureCause& counted = it->second;
  if (added) {
    counted.reason = std::string(e.reason_text);
    counted.cause = std::move(cause);
    counted.during_shutdown = during_shutdown;
  }
  ++counted.count;
  auto& executors = counted.executor_ids;
  if (std::find(executors.begin(), executors.end(), e.info.executor_id) == executors.end()) {
    executors.emplace_back(e.info.executor_id);
  }
}

// The most task values a stage attempt's distribution reserves room for up front.
constexpr int32_t kMaxReservedTasks = 1 << 20;

}  // namespace

struct ModelBuilder::State {
  BuilderLimits limits;
  uint64_t open_task_values = 0;  // successful tasks held by open stage attempts' distributions
  AppModel model;
  std::map<StageKey, std::unique_ptr<StageBuild>> stages;
  StageBuild* last_stage = nullptr;  // consecutive task events usually hit one stage
  std::map<int64_t, std::unique_ptr<JobBuild>> jobs;
  // The jobs between their start and end, by id: what a submitted stage is matched against
  // (a log can hold thousands of ended jobs, and as many stages). A job not here has ended.
  std::map<int64_t, JobBuild*> live_jobs;
  StringMap<ExecutorBuild> executors;
  std::map<int64_t, AnnouncedStage> announced;
  std::map<int64_t, SqlExecution> sql;
  std::map<int64_t, std::map<int64_t, int64_t>> driver_accum_updates;  // execution -> id -> value
  std::map<std::string, uint64_t> unknown_events;
  std::map<std::string, uint64_t> orphans;
  std::set<std::string> notes;
  // Spark's default until the environment names the application's own patterns.
  Redaction redaction;
  StreamingBuilder streaming{limits.max_streaming_batches};
  ConnectBuilder connect;

  void redact_text(std::string& text) const { redaction.redact_text(text); }
  void redact_plan(std::string& description, PlanTree& plan) const {
    redact_text(description);
    for (PlanNode& node : plan.nodes) {
      redact_text(node.simple_string);
      for (auto& [key, value] : node.metadata) redact_text(value);
    }
  }

  // The application's own clock: the times of its start and end, its jobs, stages, tasks and SQL
  // executions. Executors and block managers report times of their own, checked against it
  // when the log ends (clock_check): a log spliced from another run's events carries them.
  std::optional<int64_t> first_core_time_ms;
  std::optional<int64_t> last_core_time_ms;
  std::vector<int64_t> peripheral_times_ms;  // executor, block manager, exclusion and process times

  void touch(std::optional<int64_t> time_ms) {
    if (!time_ms || *time_ms <= 0) return;
    if (!first_core_time_ms || *time_ms < *first_core_time_ms) first_core_time_ms = time_ms;
    if (!last_core_time_ms || *time_ms > *last_core_time_ms) last_core_time_ms = time_ms;
  }
  void touch(int64_t time_ms) { touch(std::optional<int64_t>(time_ms)); }
  // A time an executor-side event carries. Returns the application's clock as it stands.
  std::optional<int64_t> touch_peripheral(std::optional<int64_t> time_ms) {
    if (time_ms && *time_ms > 0) peripheral_times_ms.push_back(*time_ms);
    return last_core_time_ms;
  }
  void clock_check();

  void orphan(const char* kind) { ++orphans[kind]; }

  ExecutorBuild& executor(const std::string& id, std::optional<int64_t> add_time) {
    auto it = executors.find(id);
    if (it == executors.end()) {
      it = executors.emplace(id, ExecutorBuild{}).first;
      it->second.out.id = id;
      it->second.out.add_time_ms = add_time;
    }
    return it->second;
  }

  ExecutorBuild* live_executor(std::string_view id) {
    auto it = executors.find(id);
    if (it == executors.end() || !it->second.live) return nullptr;
    return &it->second;
  }

  StageBuild* find_stage(int64_t stage_id, int32_t attempt_id) {
    if (last_stage != nullptr && last_stage->out.stage_id == stage_id && last_stage->out.attempt_id == attempt_id) {
      return last_stage;
    }
    auto it = stages.find({stage_id, attempt_id});
    if (it == stages.end()) return nullptr;
    last_stage = it->second.get();
    return last_stage;
  }

  StageBuild& stage_for(const ev::StageInfo& info) {
    auto& slot = stages[{info.stage_id, info.attempt_id}];
    if (!slot) {
      slot = std::make_unique<StageBuild>();
      slot->out.stage_id = info.stage_id;
      slot->out.attempt_id = info.attempt_id;
    }
    apply_info(*slot, info);
    return *slot;
  }

  // A task event for a stage attempt the log never submitted (a log whose start is missing):
  // keep its tasks in a stand-in attempt rather than dropping them.
  StageBuild& stage_for_task(int64_t stage_id, int32_t attempt_id) {
    if (StageBuild* found = find_stage(stage_id, attempt_id)) return *found;
    orphan("task event for a stage never submitted");
    ev::StageInfo info;
    info.stage_id = stage_id;
    info.attempt_id = attempt_id;
    if (auto it = announced.find(stage_id); it != announced.end()) {
      info.name = it->second.name;
      info.num_tasks = it->second.num_tasks;
    }
    StageBuild& stage = stage_for(info);
    stage.out.status = StageStatus::kActive;
    last_stage = &stage;
    return stage;
  }

  void apply_info(StageBuild& stage, const ev::StageInfo& info) {
    StageAttempt& out = stage.out;
    if (!info.name.empty()) out.name = info.name;
    if (!info.details.empty()) out.details = info.details;
    out.num_tasks = info.num_tasks;
    out.parent_ids = info.parent_ids;
    out.resource_profile_id = info.resource_profile_id;
    out.shuffle_push_enabled = info.shuffle_push_enabled;
    out.shuffle_mergers_count = info.shuffle_mergers_count;
    if (info.submission_time_ms) out.submission_time_ms = info.submission_time_ms;
    if (info.completion_time_ms) out.completion_time_ms = info.completion_time_ms;
    if (!info.rdds.empty()) {
      out.rdd_ids.clear();
      for (const auto& rdd : info.rdds) {
        out.rdd_ids.push_back(rdd.rdd_id);
        model.rdds[rdd.rdd_id] = rdd;
      }
      out.rdd_ids_in_log_order = out.rdd_ids;
      sort_unique(out.rdd_ids);
    }
    for (const auto& accumulable : info.accumulables) stage.accumulator_ids.insert(accumulable.id);
  }

  void finalize_distribution(StageBuild& stage) {
    if (stage.distribution_final) return;
    open_task_values -= stage.distribution.size();
    stage.out.quantiles = stage.distribution.finish();
    stage.distribution_final = true;
  }

  // Keeps a successful task's values for its attempt's quantiles, unless the open attempts
  // already hold the most the limits allow.
  void keep_for_quantiles(StageBuild& stage, const TaskMetricValues& metrics) {
    if (stage.distribution_dropped) return;
    if (open_task_values >= limits.max_open_task_values) {
      open_task_values -= stage.distribution.size();
      stage.distribution = TaskDistribution{};
      stage.distribution_dropped = true;
      notes.insert("stage " + std::to_string(stage.out.stage_id) + " attempt " + std::to_string(stage.out.attempt_id) +
                   ": task quantiles not kept: open stages held " + std::to_string(limits.max_open_task_values) +
                   " tasks' values (--max-open-tasks)");
      return;
    }
    // The attempt's task count, known from its submission, sizes the columns once (bounded,
    // so a log claiming absurd counts cannot reserve absurd memory).
    if (stage.distribution.size() == 0) {
      const uint64_t room = std::min<uint64_t>(limits.max_open_task_values - open_task_values, kMaxReservedTasks);
      stage.distribution.reserve(static_cast<size_t>(std::clamp<int64_t>(stage.out.num_tasks, 0, room)));
    }
    stage.distribution.add(metrics);
    ++open_task_values;
  }

  void record_executor_task(StageBuild& stage, const ev::TaskEnd& e, int64_t duration_ms, bool succeeded, bool failed,
                            bool killed) {
    auto it = stage.executors.find(e.info.executor_id);
    if (it == stage.executors.end()) {
      it = stage.executors.emplace(std::string(e.info.executor_id), ExecutorStageSummary{}).first;
      it->second.executor_id = std::string(e.info.executor_id);
      it->second.host = std::string(e.info.host);
    }
    ExecutorStageSummary& s = it->second;
    const auto& m = e.metrics;
    s.tasks_succeeded += succeeded ? 1 : 0;
    s.tasks_failed += failed ? 1 : 0;
    s.tasks_killed += killed ? 1 : 0;
    if (!e.executor_metrics.present || e.executor_metrics.values[index_of(ExecutorMetric::kJvmHeapMemory)] > -1) {
      s.peaks_set = true;
    }
    // A Resubmitted end names a task that had ended: the History Server counts it as failed but
    // adds neither its time nor its metrics again.
    if (e.reason == ev::TaskEndReason::kResubmitted) {
      s.peak_metrics.merge(e.executor_metrics);
      return;
    }
    s.task_time_ms += duration_ms;
    if (succeeded) s.succeeded_task_time_ms += duration_ms;
    if (e.has_metrics) {
      s.executor_run_time_ms += m[index_of(TaskMetric::kExecutorRunTimeMs)];
      s.jvm_gc_time_ms += m[index_of(TaskMetric::kJvmGcTimeMs)];
      s.input_bytes += m[index_of(TaskMetric::kInputBytes)];
      s.input_records += m[index_of(TaskMetric::kInputRecords)];
      s.output_bytes += m[index_of(TaskMetric::kOutputBytes)];
      s.output_records += m[index_of(TaskMetric::kOutputRecords)];
      s.shuffle_read_bytes +=
          m[index_of(TaskMetric::kShuffleLocalBytesRead)] + m[index_of(TaskMetric::kShuffleRemoteBytesRead)];
      s.shuffle_read_records += m[index_of(TaskMetric::kShuffleRecordsRead)];
      s.shuffle_write_bytes += m[index_of(TaskMetric::kShuffleWriteBytes)];
      s.shuffle_write_records += m[index_of(TaskMetric::kShuffleWriteRecords)];
      s.memory_bytes_spilled += m[index_of(TaskMetric::kMemoryBytesSpilled)];
      s.disk_bytes_spilled += m[index_of(TaskMetric::kDiskBytesSpilled)];
    }
    s.peak_metrics.merge(e.executor_metrics);
  }

  AppModel finish(SourceInfo source);
  void finish_executors();
  void finish_stages_and_jobs();
  std::vector<StageAttempt> never_submitted_stages() const;
  void finish_sql();
  void compute_peak_cores();
};

ModelBuilder::ModelBuilder(BuilderLimits limits) : state_(std::make_unique<State>()) {
  state_->limits = limits;
  state_->streaming = StreamingBuilder(limits.max_streaming_batches);
}
ModelBuilder::~ModelBuilder() = default;

Diagnostics& ModelBuilder::diagnostics() { return state_->model.diagnostics; }

// ---------------------------------------------------------------------------------------------
// Application and environment

void ModelBuilder::on(const ev::LogStart& e) { state_->model.app.spark_version = e.spark_version; }

void ModelBuilder::on(const ev::DatabricksMetadata& e) {
  state_->model.app.spark_version = e.spark_version;
  state_->model.app.databricks = true;
  state_->touch(e.timestamp_ms);
}

void ModelBuilder::on(const ev::ApplicationStart& e) {
  AppInfo& app = state_->model.app;
  app.id = e.app_id;
  app.name = e.app_name;
  app.attempt_id = e.attempt_id;
  app.user = e.user;
  app.start_time_ms = e.timestamp_ms;
  app.driver_logs = e.driver_logs;
  app.driver_attributes = e.driver_attributes;
  state_->touch(e.timestamp_ms);
  // The History Server gives the driver the logs of this event, and with them its attributes.
  if (!e.driver_logs.empty()) {
    if (auto it = state_->executors.find(std::string_view("driver")); it != state_->executors.end()) {
      it->second.out.log_urls = e.driver_logs;
      it->second.out.attributes = e.driver_attributes;
    }
  }
}

void ModelBuilder::on(const ev::ApplicationEnd& e) {
  AppInfo& app = state_->model.app;
  app.end_time_ms = e.timestamp_ms;
  app.exit_code = e.exit_code;
  app.finished = true;
  state_->touch(e.timestamp_ms);
}

void ModelBuilder::on(const ev::EnvironmentUpdate& e) {
  State& s = *state_;
  std::vector<std::string> notes;
  s.redaction = Redaction::for_application(e.spark_properties, notes);
  s.notes.insert(notes.begin(), notes.end());
  Environment& env = s.model.environment;
  env.jvm_information = e.jvm_information;
  env.spark_properties = e.spark_properties;
  env.system_properties = e.system_properties;
  env.hadoop_properties = e.hadoop_properties;
  env.metrics_properties = e.metrics_properties;
  // Spark leaves the classpath as it is; so does its redaction.
  env.classpath_entries = e.classpath_entries;
  for (KeyValues* values : {&env.jvm_information, &env.spark_properties, &env.system_properties, &env.hadoop_properties,
                            &env.metrics_properties}) {
    s.redaction.redact(*values);
  }
}

void ModelBuilder::on(const ev::ResourceProfileAdded& e) {
  auto& profiles = state_->model.environment.resource_profiles;
  auto it = std::find_if(profiles.begin(), profiles.end(), [&](const auto& p) { return p.id == e.profile.id; });
  if (it != profiles.end()) {
    *it = e.profile;
  } else {
    profiles.push_back(e.profile);
  }
}

// ---------------------------------------------------------------------------------------------
// Executors

void ModelBuilder::on(const ev::ExecutorAdded& e) {
  ExecutorBuild& exec = state_->executor(e.executor_id, e.timestamp_ms);
  exec.live = true;
  Executor& out = exec.out;
  out.add_time_ms = e.timestamp_ms;
  out.remove_time_ms.reset();
  out.host = e.host;
  out.total_cores = e.has_total_cores ? e.total_cores : 0;
  out.resource_profile_id = e.resource_profile_id;
  out.log_urls = e.log_urls;
  out.attributes = e.attributes;
  out.resources = e.resources;
  out.request_time_ms = e.request_time_ms;
  out.registration_time_ms = e.registration_time_ms;
  exec.clock_at_add = state_->touch_peripheral(e.timestamp_ms);
  exec.clock_at_remove.reset();
}

void ModelBuilder::on(const ev::ExecutorRemoved& e) {
  auto it = state_->executors.find(e.executor_id);
  if (it == state_->executors.end()) {
    state_->orphan("executor removed without being added");
    return;
  }
  it->second.live = false;
  it->second.out.remove_time_ms = e.timestamp_ms;
  it->second.out.remove_reason = e.reason;
  it->second.clock_at_remove = state_->touch_peripheral(e.timestamp_ms);
}

void ModelBuilder::on(const ev::BlockManagerAdded& e) {
  ExecutorBuild& exec = state_->executor(e.executor_id, e.timestamp_ms);
  Executor& out = exec.out;
  if (out.host.empty()) out.host = e.host;
  out.host_port = e.port ? e.host + ":" + std::to_string(*e.port) : e.host;
  out.max_memory_bytes = e.max_memory_bytes;
  if (e.max_onheap_memory_bytes) out.max_onheap_memory_bytes = e.max_onheap_memory_bytes;
  if (e.max_offheap_memory_bytes) out.max_offheap_memory_bytes = e.max_offheap_memory_bytes;
  out.block_manager_add_time_ms = e.timestamp_ms;
  exec.clock_at_block_manager_add = state_->touch_peripheral(e.timestamp_ms);
}

void ModelBuilder::on(const ev::BlockManagerRemoved& e) {
  auto it = state_->executors.find(e.executor_id);
  const std::optional<int64_t> clock = state_->touch_peripheral(e.timestamp_ms);
  if (it == state_->executors.end()) return;
  it->second.out.block_manager_remove_time_ms = e.timestamp_ms;
  it->second.clock_at_block_manager_remove = clock;
}

void ModelBuilder::on(const ev::ExclusionChange& e) {
  State& s = *state_;
  s.touch_peripheral(e.timestamp_ms);
  // A node's exclusion covers its executors but never the driver, which keeps running the
  // application whatever its host does (as the History Server has it since SPARK-33029).
  auto matches = [&](const ExecutorBuild& exec) {
    return e.target == ev::ExclusionChange::Target::kExecutor ? exec.out.id == e.id
                                                              : exec.out.host == e.id && !exec.out.is_driver();
  };
  if (e.stage_id) {
    const int32_t attempt = e.stage_attempt_id.value_or(0);
    StageBuild* stage = s.find_stage(*e.stage_id, attempt);
    for (auto& [id, exec] : s.executors) {
      if (!exec.live || !matches(exec)) continue;
      exec.excluded_in_stages.insert(*e.stage_id);
      if (stage != nullptr) {
        auto it = stage->executors.find(id);
        if (it == stage->executors.end()) {
          it = stage->executors.emplace(id, ExecutorStageSummary{}).first;
          it->second.executor_id = id;
          it->second.host = exec.out.host;
        }
        it->second.excluded = true;
      }
    }
    return;
  }
  for (auto& [id, exec] : s.executors) {
    if (exec.live && matches(exec)) exec.out.excluded = e.excluded;
  }
}

// ---------------------------------------------------------------------------------------------
// Jobs and stages

void ModelBuilder::on(const ev::JobStart& e) {
  State& s = *state_;
  auto& slot = s.jobs[e.job_id];
  if (slot) {
    s.notes.insert("job " + std::to_string(e.job_id) + " started twice; the later start wins");
    // Reset in place: stage attempts hold pointers to the job they run for.
    *slot = JobBuild{};
  } else {
    slot = std::make_unique<JobBuild>();
  }
  s.live_jobs[e.job_id] = slot.get();
  Job& job = slot->out;
  job.job_id = e.job_id;
  if (e.submission_time_ms && *e.submission_time_ms > 0) job.submission_time_ms = e.submission_time_ms;
  job.stage_ids = e.stage_ids;
  job.stage_ids_in_log_order = e.stage_ids;
  sort_unique(job.stage_ids);
  job.description = e.properties.job_description;
  job.job_group = e.properties.job_group;
  for (size_t start = 0; start <= e.properties.job_tags.size();) {
    size_t end = e.properties.job_tags.find(',', start);
    if (end == std::string::npos) end = e.properties.job_tags.size();
    if (end > start) job.tags.push_back(e.properties.job_tags.substr(start, end - start));
    start = end + 1;
  }
  sort_unique(job.tags);
  job.sql_execution_id = e.properties.sql_execution_id;
  job.streaming_query_id = e.properties.streaming_query_id;
  job.streaming_batch_id = e.properties.streaming_batch_id;
  job.status = JobStatus::kRunning;

  const ev::StageInfo* last_stage = nullptr;
  for (const auto& info : e.stage_infos) {
    if (!info.completion_time_ms) job.num_tasks += info.num_tasks;
    if (last_stage == nullptr || info.stage_id > last_stage->stage_id) last_stage = &info;
    AnnouncedStage& announced = s.announced[info.stage_id];
    announced.attempt_id = info.attempt_id;
    announced.name = info.name;
    announced.details = info.details;
    announced.num_tasks = info.num_tasks;
    announced.parent_ids = info.parent_ids;
    announced.resource_profile_id = info.resource_profile_id;
    announced.rdd_ids.clear();
    for (const auto& rdd : info.rdds) {
      announced.rdd_ids.push_back(rdd.rdd_id);
      s.model.rdds[rdd.rdd_id] = rdd;
    }
    announced.rdd_ids_in_log_order = announced.rdd_ids;
    sort_unique(announced.rdd_ids);
    // A running attempt that this job also needs runs for it too.
    if (StageBuild* running = s.find_stage(info.stage_id, info.attempt_id);
        running != nullptr && running->out.status == StageStatus::kActive &&
        std::find(running->jobs.begin(), running->jobs.end(), slot.get()) == running->jobs.end()) {
      running->jobs.push_back(slot.get());
      ++job.num_active_stages;
    }
  }
  job.name = last_stage != nullptr ? last_stage->name : "(Unknown Stage Name)";
  if (job.sql_execution_id) {
    auto it = s.sql.find(*job.sql_execution_id);
    if (it != s.sql.end()) it->second.job_ids.push_back(e.job_id);
  }
  s.touch(e.submission_time_ms);
}

void ModelBuilder::on(const ev::JobEnd& e) {
  State& s = *state_;
  auto it = s.jobs.find(e.job_id);
  if (it == s.jobs.end()) {
    s.orphan("job end without a start");
    return;
  }
  JobBuild& build = *it->second;
  Job& job = build.out;
  s.live_jobs.erase(e.job_id);
  // Stages the job announced but never submitted while it ran were skipped.
  for (int64_t stage_id : job.stage_ids) {
    auto announced = s.announced.find(stage_id);
    if (announced == s.announced.end()) continue;
    const StageBuild* ran = s.find_stage(stage_id, announced->second.attempt_id);
    const bool ran_for_this_job =
        ran != nullptr && std::find(ran->jobs.begin(), ran->jobs.end(), &build) != ran->jobs.end();
    if (!ran_for_this_job) {
      ++job.num_skipped_stages;
      job.num_skipped_tasks += announced->second.num_tasks;
    }
  }
  job.status = e.succeeded ? JobStatus::kSucceeded : JobStatus::kFailed;
  job.failure_reason = e.failure_message;
  if (e.completion_time_ms && *e.completion_time_ms > 0) job.completion_time_ms = e.completion_time_ms;
  s.touch(e.completion_time_ms);
}

void ModelBuilder::on(const ev::StageSubmitted& e) {
  State& s = *state_;
  StageBuild& stage = s.stage_for(e.info);
  StageAttempt& out = stage.out;
  out.status = StageStatus::kActive;
  out.description = e.properties.job_description;
  out.scheduling_pool = e.properties.scheduler_pool.empty() ? "default" : e.properties.scheduler_pool;
  if (e.properties.sql_execution_id) out.sql_execution_id = e.properties.sql_execution_id;
  s.announced[e.info.stage_id].submitted = true;

  stage.jobs.clear();
  for (auto& [job_id, job] : s.live_jobs) {
    if (!std::binary_search(job->out.stage_ids.begin(), job->out.stage_ids.end(), e.info.stage_id)) continue;
    stage.jobs.push_back(job);
    job->completed_stage_ids.erase(e.info.stage_id);
    ++job->out.num_active_stages;
  }
  s.touch(e.info.submission_time_ms);
}

void ModelBuilder::on(const ev::StageCompleted& e) {
  State& s = *state_;
  StageBuild* found = s.find_stage(e.info.stage_id, e.info.attempt_id);
  if (found == nullptr) s.orphan("stage completed without being submitted");
  StageBuild& stage = found != nullptr ? *found : s.stage_for(e.info);
  s.apply_info(stage, e.info);
  StageAttempt& out = stage.out;
  out.accumulables = e.info.accumulables;
  std::sort(out.accumulables.begin(), out.accumulables.end(),
            [](const Accumulable& a, const Accumulable& b) { return a.id < b.id; });
  if (e.info.failure_reason) {
    out.status = StageStatus::kFailed;
    out.failure_reason = *e.info.failure_reason;
  } else if (e.info.submission_time_ms) {
    out.status = StageStatus::kComplete;
  } else {
    out.status = StageStatus::kSkipped;
  }
  for (JobBuild* job : stage.jobs) {
    switch (out.status) {
      case StageStatus::kComplete: job->completed_stage_ids.insert(e.info.stage_id); break;
      case StageStatus::kSkipped:
        ++job->out.num_skipped_stages;
        job->out.num_skipped_tasks += e.info.num_tasks;
        break;
      default: ++job->out.num_failed_stages; break;
    }
    --job->out.num_active_stages;
  }
  // An executor excluded for this stage is no longer excluded once the stage is over.
  for (const auto& [id, summary] : stage.executors) {
    if (!summary.excluded) continue;
    if (auto it = s.executors.find(id); it != s.executors.end()) it->second.excluded_in_stages.erase(e.info.stage_id);
  }
  // A completed stage has every partition done, so no successful attempt can follow; a failed
  // attempt's tasks can still finish (they are zombies), so its distribution stays open.
  if (out.status == StageStatus::kComplete) s.finalize_distribution(stage);
  s.touch(e.info.completion_time_ms);
}

// ---------------------------------------------------------------------------------------------
// Tasks

void ModelBuilder::on(const ev::TaskStart& e) {
  State& s = *state_;
  StageBuild& stage = s.stage_for_task(e.stage_id, e.stage_attempt_id);
  StageAttempt& out = stage.out;
  ++out.tasks_started;
  ++out.tasks_active;
  if (e.info.speculative) {
    ++out.tasks_speculative;
  } else if (!out.last_regular_launch_time_ms || e.info.launch_time_ms > *out.last_regular_launch_time_ms) {
    out.last_regular_launch_time_ms = e.info.launch_time_ms;
  }
  if (auto level = parse_locality(e.info.locality)) ++out.locality_counts[static_cast<size_t>(*level)];
  if (!out.first_task_launched_time_ms || e.info.launch_time_ms < *out.first_task_launched_time_ms) {
    out.first_task_launched_time_ms = e.info.launch_time_ms;
  }
  for (JobBuild* job : stage.jobs) ++job->out.num_active_tasks;
  if (ExecutorBuild* exec = s.live_executor(e.info.executor_id)) ++exec->out.tasks_total;
  s.touch(e.info.launch_time_ms);
}

void ModelBuilder::on(const ev::TaskEnd& e) {
  State& s = *state_;
  StageBuild& stage = s.stage_for_task(e.stage_id, e.stage_attempt_id);
  StageAttempt& out = stage.out;

  const bool succeeded = e.reason == ev::TaskEndReason::kSuccess;
  const bool killed = e.reason == ev::TaskEndReason::kTaskKilled || e.reason == ev::TaskEndReason::kTaskCommitDenied;
  const bool failed = !succeeded && !killed;
  const int64_t duration_ms =
      e.info.finish_time_ms > 0 ? std::max<int64_t>(0, e.info.finish_time_ms - e.info.launch_time_ms) : 0;

  // The task's full metric vector, including the fields Spark derives from Task Info.
  TaskMetricValues metrics = e.metrics;
  fill_task_info_timings(metrics, e.info.launch_time_ms, e.info.finish_time_ms, e.info.getting_result_time_ms,
                         e.has_metrics);

  if (e.has_metrics) {
    add_metrics(out.metric_sums, metrics);
  } else {
    out.metric_sums[index_of(TaskMetric::kDurationMs)] += duration_ms;
  }
  if (out.tasks_active > 0) --out.tasks_active;
  if (!out.first_task_launched_time_ms || e.info.launch_time_ms < *out.first_task_launched_time_ms) {
    out.first_task_launched_time_ms = e.info.launch_time_ms;
  }
  if (!out.max_task_duration_task_id || duration_ms > out.max_task_duration_ms) {
    out.max_task_duration_ms = duration_ms;
    out.max_task_duration_task_id = e.info.task_id;
    out.max_task_duration_host = std::string(e.info.host);
    if (e.info.finish_time_ms > 0) out.max_task_duration_finish_ms = e.info.finish_time_ms;
  }

  ExecutorBuild* executor = s.live_executor(e.info.executor_id);
  if (succeeded && executor != nullptr) {
    const bool first_wave = !executor->first_task_finish_ms || *executor->first_task_finish_ms > e.info.launch_time_ms;
    if (first_wave) {
      ++out.first_wave_tasks_succeeded;
    } else if (!out.max_warmed_task_duration_ms || duration_ms > *out.max_warmed_task_duration_ms) {
      out.max_warmed_task_duration_ms = duration_ms;
    }
  }
  if (executor != nullptr && e.info.finish_time_ms > 0 &&
      (!executor->first_task_finish_ms || e.info.finish_time_ms < *executor->first_task_finish_ms)) {
    executor->first_task_finish_ms = e.info.finish_time_ms;
  }

  if (succeeded) {
    ++out.tasks_succeeded;
    stage.completed_indices.mark(e.info.index);
    if (stage.distribution_final) {
      s.orphan("successful task after its stage completed (in sums, not in quantiles)");
    } else {
      s.keep_for_quantiles(stage, metrics);
    }
  } else if (killed) {
    ++out.tasks_killed;
    out.killed_task_time_ms += duration_ms;
    // Keyed as the History Server keys its killed-tasks summary (TaskCommitDenied.toErrorString).
    const std::string reason =
        e.reason == ev::TaskEndReason::kTaskCommitDenied
            ? "TaskCommitDenied (Driver denied task commit) for job: " + std::to_string(e.commit_denied_job) +
                  ", partition: " + std::to_string(e.commit_denied_partition) +
                  ", attemptNumber: " + std::to_string(e.commit_denied_attempt)
            : std::string(e.kill_reason);
    ++stage.killed_reasons[reason];
    if (e.kill_reason.find(kLostRaceReason) != std::string_view::npos && e.info.finish_time_ms > 0) {
      out.lost_race_windows.emplace_back(e.info.launch_time_ms, std::max(e.info.launch_time_ms, e.info.finish_time_ms));
      if (e.info.speculative) {
        ++out.lost_race_copies;
        out.longest_lost_copy_ms = std::max(out.longest_lost_copy_ms, duration_ms);
      }
    }
  } else {
    ++out.tasks_failed;
    out.failed_task_time_ms += duration_ms;
    ++stage.failure_reasons[failure_key(e)];
    count_failure_cause(stage, e, /*during_shutdown=*/s.model.app.finished);
  }

  for (JobBuild* job : stage.jobs) {
    Job& j = job->out;
    if (j.num_active_tasks > 0) --j.num_active_tasks;
    j.num_completed_tasks += succeeded ? 1 : 0;
    j.num_failed_tasks += failed ? 1 : 0;
    j.num_killed_tasks += killed ? 1 : 0;
  }

  s.record_executor_task(stage, e, duration_ms, succeeded, failed, killed);
  stage.out.peak_executor_metrics.merge(e.executor_metrics);
  for (int64_t id : e.accumulator_ids) stage.accumulator_ids.insert(id);

  if (executor != nullptr) {
    Executor& x = executor->out;
    x.tasks_succeeded += succeeded ? 1 : 0;
    x.tasks_failed += failed ? 1 : 0;
    x.tasks_killed += killed ? 1 : 0;
    // As the History Server counts them: a Resubmitted end is a failed task, but the task it
    // names had ended already, so it neither ends an active task nor adds its time again.
    if (e.reason == ev::TaskEndReason::kResubmitted) {
      ++x.tasks_resubmitted;
    } else {
      x.total_duration_ms += duration_ms;
    }
    // The History Server keeps a resubmitted task's first metrics; so do we.
    if (e.has_metrics && e.reason != ev::TaskEndReason::kResubmitted) {
      x.total_gc_time_ms += metrics[index_of(TaskMetric::kJvmGcTimeMs)];
      x.total_input_bytes += metrics[index_of(TaskMetric::kInputBytes)];
      x.total_shuffle_read_bytes += metrics[index_of(TaskMetric::kShuffleLocalBytesRead)] +
                                    metrics[index_of(TaskMetric::kShuffleRemoteBytesRead)];
      x.total_shuffle_write_bytes += metrics[index_of(TaskMetric::kShuffleWriteBytes)];
    }
    x.peak_metrics.merge(e.executor_metrics);
  }
  s.touch(e.info.finish_time_ms);
}

void ModelBuilder::on(const ev::StageExecutorMetrics& e) {
  State& s = *state_;
  if (StageBuild* stage = s.find_stage(e.stage_id, e.stage_attempt_id)) {
    stage->out.peak_executor_metrics.merge(e.metrics);
    auto it = stage->executors.find(e.executor_id);
    if (it == stage->executors.end()) {
      it = stage->executors.emplace(e.executor_id, ExecutorStageSummary{}).first;
      it->second.executor_id = e.executor_id;
      if (auto exec = s.executors.find(e.executor_id); exec != s.executors.end())
        it->second.host = exec->second.out.host;
    }
    it->second.peak_metrics.merge(e.metrics);
    if (e.metrics.present && e.metrics.values[index_of(ExecutorMetric::kJvmHeapMemory)] > -1)
      it->second.peaks_set = true;
  }
  if (auto it = s.executors.find(e.executor_id); it != s.executors.end()) it->second.out.peak_metrics.merge(e.metrics);
}

void ModelBuilder::on(const ev::UnpersistRdd& e) {
  auto it = state_->model.rdds.find(e.rdd_id);
  if (it == state_->model.rdds.end()) return;
  it->second.num_cached_partitions = 0;
  it->second.memory_size_bytes = 0;
  it->second.disk_size_bytes = 0;
}

void ModelBuilder::on(const ev::MiscellaneousProcessAdded& e) {
  state_->touch_peripheral(e.timestamp_ms);
  auto& processes = state_->model.miscellaneous_processes;
  auto it = std::find_if(processes.begin(), processes.end(), [&](const auto& p) { return p.id == e.process_id; });
  if (it == processes.end()) it = processes.insert(processes.end(), MiscellaneousProcess{});
  it->id = e.process_id;
  it->host_port = e.host_port;
  it->cores = e.cores;
  it->add_time_ms = e.timestamp_ms;
  it->log_urls = e.log_urls;
  std::sort(processes.begin(), processes.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
}

// ---------------------------------------------------------------------------------------------
// SQL

void ModelBuilder::on(const ev::SqlExecutionStart& e) {
  State& s = *state_;
  SqlExecution& sql = s.sql[e.execution_id];
  sql.execution_id = e.execution_id;
  sql.root_execution_id = e.root_execution_id;
  sql.description = e.description;
  sql.details = e.details;
  sql.physical_plan_description = e.physical_plan_description;
  sql.plan = e.plan;
  sql.start_time_ms = e.time_ms;
  sql.modified_configs = e.modified_configs;
  sql.query_id = e.query_id;
  s.redaction.redact(sql.modified_configs);
  s.redact_text(sql.description);
  s.redact_text(sql.details);
  s.redact_plan(sql.physical_plan_description, sql.plan);
  s.touch(e.time_ms);
}

void ModelBuilder::on(const ev::SqlExecutionEnd& e) {
  State& s = *state_;
  auto it = s.sql.find(e.execution_id);
  if (it == s.sql.end()) {
    s.orphan("SQL execution end without a start");
    return;
  }
  it->second.end_time_ms = e.time_ms;
  it->second.error_message = e.error_message;
  s.touch(e.time_ms);
}

void ModelBuilder::on(const ev::SqlAdaptiveExecutionUpdate& e) {
  State& s = *state_;
  auto it = s.sql.find(e.execution_id);
  if (it == s.sql.end()) {
    s.orphan("AQE plan update for an unknown SQL execution");
    return;
  }
  SqlExecution& sql = it->second;
  sql.earlier_plans.push_back(PlanVersion{std::move(sql.physical_plan_description), std::move(sql.plan)});
  sql.physical_plan_description = e.physical_plan_description;
  sql.plan = e.plan;
  s.redact_plan(sql.physical_plan_description, sql.plan);
  ++sql.adaptive_updates;
}

void ModelBuilder::on(const ev::SqlAdaptiveMetricUpdates& e) {
  State& s = *state_;
  auto it = s.sql.find(e.execution_id);
  if (it == s.sql.end()) {
    s.orphan("AQE metric update for an unknown SQL execution");
    return;
  }
  auto& metrics = it->second.adaptive_metrics;
  metrics.insert(metrics.end(), e.metrics.begin(), e.metrics.end());
}

void ModelBuilder::on(const ev::DriverAccumUpdates& e) {
  auto& updates = state_->driver_accum_updates[e.execution_id];
  for (const auto& [id, value] : e.updates) updates[id] = value;
}

void ModelBuilder::on(const ev::StreamingQueryStarted& e) { state_->streaming.on(e); }
void ModelBuilder::on(const ev::StreamingQueryProgress& e) { state_->streaming.on(e); }
void ModelBuilder::on(const ev::StreamingQueryIdle& e) { state_->streaming.on(e); }
void ModelBuilder::on(const ev::StreamingQueryTerminated& e) { state_->streaming.on(e); }
void ModelBuilder::on(const ev::ConnectSessionEvent& e) { state_->connect.on(e); }
void ModelBuilder::on(const ev::ConnectOperationEvent& e) { state_->connect.on(e); }

void ModelBuilder::on_unknown_event(std::string_view event_name) { ++state_->unknown_events[std::string(event_name)]; }

// ---------------------------------------------------------------------------------------------
// Finishing

AppModel ModelBuilder::finish(SourceInfo source) { return state_->finish(std::move(source)); }

AppModel ModelBuilder::State::finish(SourceInfo source) {
  model.source = std::move(source);
  clock_check();
  finish_executors();
  finish_stages_and_jobs();
  finish_sql();
  model.streaming_queries = streaming.finish(model, redaction, notes);
  connect.finish(model.jobs, redaction, model.connect_sessions, model.connect_operations);
  compute_peak_cores();

  Diagnostics& d = model.diagnostics;
  d.incomplete = !model.app.finished;
  d.unknown_events.assign(unknown_events.begin(), unknown_events.end());
  d.orphan_events.assign(orphans.begin(), orphans.end());
  notes.insert(d.notes.begin(), d.notes.end());  // the loader's notes come first in time
  if (model.app.id.empty()) notes.insert("the log has no SparkListenerApplicationStart: application id unknown");
  d.notes.assign(notes.begin(), notes.end());
  return std::move(model);
}

// A time more than this far outside the run's own clock belongs to another run (a log spliced
// from the events of two): at least a day away, and at least ten times the run's own span, so a
// notebook whose executors idle out hours after its last query keeps its times.
constexpr int64_t kClockMarginMinMs = int64_t{24} * 3600 * 1000;
constexpr int64_t kClockMarginRunSpans = 10;

void ModelBuilder::State::clock_check() {
  std::optional<int64_t>& last = model.app.last_event_time_ms;
  last = last_core_time_ms;
  if (!first_core_time_ms) {
    // Nothing of the run's own to check against: the executors' times are all the log has.
    for (int64_t t : peripheral_times_ms) last = std::max(last.value_or(t), t);
    return;
  }
  const int64_t span = *last_core_time_ms - *first_core_time_ms;
  const int64_t margin = std::max(kClockMarginMinMs, kClockMarginRunSpans * span);
  auto inside = [&](int64_t t) { return t >= *first_core_time_ms - margin && t <= *last_core_time_ms + margin; };
  for (int64_t t : peripheral_times_ms) {
    if (inside(t)) last = std::max(*last, t);
  }
  uint64_t outside = 0;
  int64_t farthest = 0;  // the time farthest from the run, for the note
  // A time outside the run stands replaced by the run's clock when it was read: where in the
  // run the event sits, which is as near its true time as the log tells.
  // `logged`, when given, keeps the time as the log wrote it (the History Server serves that).
  auto replace = [&](std::optional<int64_t>& time, std::optional<int64_t> clock,
                     std::optional<int64_t>* logged = nullptr) {
    if (!time || *time <= 0 || inside(*time)) return;
    const auto distance = [&](int64_t t) { return std::max(*first_core_time_ms - t, t - *last_core_time_ms); };
    if (outside++ == 0 || distance(*time) > distance(farthest)) farthest = *time;
    if (logged != nullptr) *logged = time;
    time = clock.value_or(*first_core_time_ms);
  };
  for (auto& [id, exec] : executors) {
    replace(exec.out.add_time_ms, exec.clock_at_add ? exec.clock_at_add : exec.clock_at_block_manager_add,
            &exec.out.logged_add_time_ms);
    replace(exec.out.remove_time_ms, exec.clock_at_remove, &exec.out.logged_remove_time_ms);
    replace(exec.out.block_manager_add_time_ms, exec.clock_at_block_manager_add);
    replace(exec.out.block_manager_remove_time_ms, exec.clock_at_block_manager_remove);
  }
  // A miscellaneous process's time feeds no duration: it stays as logged, as the History Server serves it.
  model.diagnostics.times_outside_run = outside;
  if (outside == 0) return;
  const int64_t days_away =
      std::max(*first_core_time_ms - farthest, farthest - *last_core_time_ms) / (int64_t{24} * 3600 * 1000);
  notes.insert(std::to_string(outside) + " executor or block manager time" + (outside == 1 ? "" : "s") +
               " lie outside the run's own clock (the farthest, " + units::format_time_utc(farthest) + ", " +
               std::to_string(days_away) + " days from its jobs and tasks, which ran from " +
               units::format_time_utc(*first_core_time_ms) + " to " + units::format_time_utc(*last_core_time_ms) +
               "): the log holds events of another run or a wrong clock. Each such time is taken as where its "
               "event sits in the run, and left out of durations, cost and utilization");
}

void ModelBuilder::State::finish_executors() {
  model.executors.reserve(executors.size());
  for (auto& [id, exec] : executors) {
    exec.out.excluded_in_stages.assign(exec.excluded_in_stages.begin(), exec.excluded_in_stages.end());
    model.executors.push_back(std::move(exec.out));
  }
  std::sort(model.executors.begin(), model.executors.end(),
            [](const Executor& a, const Executor& b) { return executor_id_less(a.id, b.id); });
}

void ModelBuilder::State::finish_stages_and_jobs() {
  // The stages that never ran and every attempt that did, each moved into the model once and in
  // (stage id, attempt id) order, the two ordered sequences merged: a stage attempt is a few KiB
  // (its quantile columns), and growing the vector, then sorting it, moved each several times.
  std::vector<StageAttempt> never_ran = never_submitted_stages();
  model.stages.reserve(never_ran.size() + stages.size());
  auto next_never_ran = never_ran.begin();
  for (auto& [key, stage] : stages) {
    for (; next_never_ran != never_ran.end() && next_never_ran->stage_id < key.first; ++next_never_ran) {
      model.stages.push_back(std::move(*next_never_ran));
    }
    StageAttempt& out = stage->out;
    finalize_distribution(*stage);
    out.completed_indices = stage->completed_indices.count();
    for (const JobBuild* job : stage->jobs) out.job_ids.push_back(job->out.job_id);
    sort_unique(out.job_ids);
    if (!out.sql_execution_id) {
      for (const JobBuild* job : stage->jobs) {
        if (job->out.sql_execution_id) {
          out.sql_execution_id = job->out.sql_execution_id;
          break;
        }
      }
    }
    out.killed_tasks_summary.assign(stage->killed_reasons.begin(), stage->killed_reasons.end());
    for (const auto& [reason, count] : stage->failure_reasons) out.failure_reasons.push_back({reason, count});
    std::stable_sort(out.failure_reasons.begin(), out.failure_reasons.end(),
                     [](const TaskFailureCount& a, const TaskFailureCount& b) { return a.count > b.count; });
    for (auto& [cause_key, counted] : stage->failure_causes) {
      std::sort(counted.executor_ids.begin(), counted.executor_ids.end(), executor_id_less);
      out.failure_causes.push_back(std::move(counted));
    }
    std::stable_sort(out.failure_causes.begin(), out.failure_causes.end(),
                     [](const TaskFailureCause& a, const TaskFailureCause& b) { return a.count > b.count; });
    out.accumulator_ids.assign(stage->accumulator_ids.begin(), stage->accumulator_ids.end());
    std::sort(out.accumulator_ids.begin(), out.accumulator_ids.end());

    // Per-executor summaries, then their roll-up by host.
    for (auto& [id, summary] : stage->executors) out.executors.push_back(std::move(summary));
    std::sort(out.executors.begin(), out.executors.end(),
              [](const auto& a, const auto& b) { return executor_id_less(a.executor_id, b.executor_id); });
    std::map<std::string, HostStageSummary> hosts;
    for (const auto& x : out.executors) {
      HostStageSummary& h = hosts[x.host];
      h.host = x.host;
      ++h.executors;
      h.tasks_succeeded += x.tasks_succeeded;
      h.tasks_failed += x.tasks_failed;
      h.tasks_killed += x.tasks_killed;
      h.task_time_ms += x.task_time_ms;
      h.succeeded_task_time_ms += x.succeeded_task_time_ms;
      h.executor_run_time_ms += x.executor_run_time_ms;
      h.jvm_gc_time_ms += x.jvm_gc_time_ms;
      h.input_bytes += x.input_bytes;
      h.shuffle_read_bytes += x.shuffle_read_bytes;
      h.shuffle_write_bytes += x.shuffle_write_bytes;
      h.disk_bytes_spilled += x.disk_bytes_spilled;
    }
    for (auto& [host, summary] : hosts) out.hosts.push_back(std::move(summary));
    model.stages.push_back(std::move(out));
  }
  std::move(next_never_ran, never_ran.end(), std::back_inserter(model.stages));

  // Jobs move into the model last: the stage summaries above read them.
  // Which attempts ran for each job, to count the job's distinct completed partitions.
  std::map<const JobBuild*, std::vector<const StageBuild*>> attempts_by_job;
  for (auto& [key, stage] : stages) {
    for (const JobBuild* job : stage->jobs) attempts_by_job[job].push_back(stage.get());
  }
  for (auto& [job_id, build] : jobs) {
    Job& job = build->out;
    job.num_completed_stages = static_cast<int32_t>(build->completed_stage_ids.size());
    job.num_active_stages = std::max(0, job.num_active_stages);
    // Distinct (stage, partition index) pairs with a successful attempt, over the job's attempts.
    std::map<int64_t, CompletedIndices> done_by_stage;
    for (const StageBuild* stage : attempts_by_job[build.get()]) {
      done_by_stage[stage->out.stage_id].merge_from(stage->completed_indices);
    }
    for (const auto& [stage_id, done] : done_by_stage) job.num_completed_indices += done.count();
    if (live_jobs.contains(job_id)) job.status = JobStatus::kRunning;
    model.jobs.push_back(std::move(job));
  }
}

// Stages that jobs listed but that never ran in this log. Once a job that lists one has ended,
// Spark calls it skipped (its output already existed); while all its jobs still run, pending.
// In stage id order.
std::vector<StageAttempt> ModelBuilder::State::never_submitted_stages() const {
  // The announced stages that never ran, then the jobs listing each, in one pass over the jobs
  // (a log can have thousands of both).
  std::unordered_map<int64_t, std::vector<const JobBuild*>> never_ran_jobs;
  for (const auto& [stage_id, info] : announced) {
    if (info.submitted) continue;
    auto attempts = stages.lower_bound({stage_id, INT32_MIN});
    if (attempts != stages.end() && attempts->first.first == stage_id) continue;  // ran in some attempt
    never_ran_jobs[stage_id];
  }
  std::vector<StageAttempt> never_ran_stages;
  if (never_ran_jobs.empty()) return never_ran_stages;
  never_ran_stages.reserve(never_ran_jobs.size());
  for (const auto& [job_id, job] : jobs) {  // in job id order
    for (int64_t stage_id : job->out.stage_ids) {
      if (auto it = never_ran_jobs.find(stage_id); it != never_ran_jobs.end()) it->second.push_back(job.get());
    }
  }
  for (const auto& [stage_id, info] : announced) {
    auto listed = never_ran_jobs.find(stage_id);
    if (listed == never_ran_jobs.end()) continue;
    StageAttempt never_ran;
    never_ran.stage_id = stage_id;
    never_ran.attempt_id = info.attempt_id;
    never_ran.name = info.name;
    never_ran.details = info.details;
    never_ran.num_tasks = info.num_tasks;
    never_ran.parent_ids = info.parent_ids;
    never_ran.rdd_ids = info.rdd_ids;
    never_ran.rdd_ids_in_log_order = info.rdd_ids_in_log_order;
    never_ran.resource_profile_id = info.resource_profile_id;
    never_ran.status = StageStatus::kPending;
    for (const JobBuild* job : listed->second) {
      never_ran.job_ids.push_back(job->out.job_id);
      if (!live_jobs.contains(job->out.job_id)) never_ran.status = StageStatus::kSkipped;
      if (!never_ran.sql_execution_id) never_ran.sql_execution_id = job->out.sql_execution_id;
    }
    sort_unique(never_ran.job_ids);
    never_ran_stages.push_back(std::move(never_ran));
  }
  return never_ran_stages;
}

void ModelBuilder::State::finish_sql() {
  std::unordered_map<int64_t, std::vector<const Job*>> jobs_by_execution;
  for (const Job& job : model.jobs) {
    if (job.sql_execution_id) jobs_by_execution[*job.sql_execution_id].push_back(&job);
  }
  for (auto& [execution_id, execution] : sql) {
    if (auto it = driver_accum_updates.find(execution_id); it != driver_accum_updates.end()) {
      execution.driver_accum_updates.assign(it->second.begin(), it->second.end());
    }
    // Jobs may name an execution before its start event was read (or without one at all).
    execution.job_ids.clear();
    if (auto it = jobs_by_execution.find(execution_id); it != jobs_by_execution.end()) {
      for (const Job* job : it->second) {
        execution.job_ids.push_back(job->job_id);
        execution.stage_ids.insert(execution.stage_ids.end(), job->stage_ids.begin(), job->stage_ids.end());
      }
    }
    sort_unique(execution.job_ids);
    sort_unique(execution.stage_ids);
    model.sql.push_back(std::move(execution));
  }
  attribute_plan_nodes(model);
}

void ModelBuilder::State::compute_peak_cores() {
  struct Change {
    int64_t time_ms;
    int32_t cores;
    int32_t executors;
  };
  std::vector<Change> changes;
  bool any_cores = false;
  for (const Executor& exec : model.executors) {
    if (!exec.add_time_ms || exec.total_cores < 0) continue;
    // Only executors announced by an ExecutorAdded carry cores; the driver of a cluster-mode
    // app has only a block manager and runs no tasks.
    if (exec.total_cores == 0 && exec.is_driver()) continue;
    any_cores = any_cores || exec.total_cores > 0;
    changes.push_back({*exec.add_time_ms, exec.total_cores, 1});
    if (exec.remove_time_ms) changes.push_back({*exec.remove_time_ms, -exec.total_cores, -1});
  }
  // At one instant a removal applies before an addition, so a same-instant replacement is
  // never counted twice.
  std::sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
    if (a.time_ms != b.time_ms) return a.time_ms < b.time_ms;
    return a.executors < b.executors;
  });
  int32_t running_cores = 0;
  int32_t running_executors = 0;
  for (const Change& c : changes) {
    running_cores += c.cores;
    running_executors += c.executors;
    model.peak_concurrent_cores = std::max(model.peak_concurrent_cores, running_cores);
    model.peak_concurrent_executors = std::max(model.peak_concurrent_executors, running_executors);
  }
  if (!any_cores && model.peak_concurrent_executors > 0) {
    int32_t per_executor = 1;
    if (const std::string* value = model.environment.spark_property("spark.executor.cores")) {
      try {
        per_executor = std::max(1, std::stoi(*value));
      } catch (...) {
        notes.insert("spark.executor.cores is not a number: " + *value);
      }
    }
    model.peak_concurrent_cores = model.peak_concurrent_executors * per_executor;
    model.peak_cores_from_executor_count = true;
  }
}

}  // namespace sf::model
