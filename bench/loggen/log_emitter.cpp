#include "loggen/log_emitter.h"

namespace sf::loggen {

LogEmitter::LogEmitter(const LineSink& sink, GroundTruth* truth, bool cut_last_line)
    : sink_(sink), truth_(truth), cut_last_line_(cut_last_line), writer_(buffer_) {
  if (truth_ != nullptr) recorder_ = std::make_unique<TruthRecorder>(*truth_);
  updates_.reserve(64);
}

template <class Write, class Record>
void LogEmitter::emit(Write&& write, Record&& record, bool final_event) {
  buffer_.clear();
  write();
  const bool last = final_event || (remaining_ && *remaining_ <= 1);
  if (last && cut_last_line_) {
    // A torn line: the writer stopped part-way through it. Not part of the truth.
    const size_t keep = std::max<size_t>(1, (buffer_.size() - 1) / 2);
    sink_(std::string_view(buffer_.data(), keep));
    bytes_ += keep;
    truncated_ = true;
    throw LogEnded{};
  }
  sink_(std::string_view(buffer_.data(), buffer_.size()));
  ++lines_;
  bytes_ += buffer_.size();
  if (recorder_) record(*recorder_);
  if (remaining_ && --*remaining_ == 0) throw LogEnded{};
}

void LogEmitter::finish() {
  if (truth_ == nullptr) return;
  recorder_->finish();
  truth_->complete_lines = lines_;
  truth_->bytes = bytes_;
  truth_->truncated_last_line = truncated_;
}

// ---------------------------------------------------------------------------------------------

void LogEmitter::log_start(std::string_view spark_version) {
  emit([&] { writer_.log_start(spark_version); }, [&](TruthRecorder& r) { r.log_start(spark_version); });
}

void LogEmitter::resource_profile_added(int32_t executor_cores, int64_t executor_memory_mb) {
  emit([&] { writer_.resource_profile_added(executor_cores, executor_memory_mb); }, [](TruthRecorder&) {});
}

void LogEmitter::environment_update(const Properties& jvm, const Properties& spark, const Properties& hadoop,
                                    const Properties& system, const Properties& classpath) {
  emit([&] { writer_.environment_update(jvm, spark, hadoop, system, classpath); }, [](TruthRecorder&) {});
}

void LogEmitter::application_start(std::string_view app_name, std::string_view app_id, int64_t time_ms,
                                   std::string_view user, const Properties& driver_logs) {
  emit([&] { writer_.application_start(app_name, app_id, time_ms, user, "1", driver_logs); },
       [&](TruthRecorder& r) { r.application_start(app_id, app_name, user, time_ms); });
}

void LogEmitter::application_end(int64_t time_ms) {
  emit([&] { writer_.application_end(time_ms); }, [&](TruthRecorder& r) { r.application_end(time_ms); }, true);
}

void LogEmitter::executor_added(const ExecutorInfo& executor, std::string_view user) {
  emit([&] { writer_.executor_added(executor, user); }, [&](TruthRecorder& r) { r.executor_added(executor); });
}

void LogEmitter::executor_removed(const ExecutorInfo& executor) {
  const int64_t time_ms = executor.remove_ms.value_or(0);
  emit([&] { writer_.executor_removed(executor, time_ms, executor.remove_reason); },
       [&](TruthRecorder& r) { r.executor_removed(executor, time_ms, executor.remove_reason); });
}

void LogEmitter::block_manager_added(std::string_view executor_id, std::string_view host, int32_t port,
                                     int64_t max_memory_bytes, int64_t time_ms) {
  emit([&] { writer_.block_manager_added(executor_id, host, port, max_memory_bytes, time_ms); },
       [&](TruthRecorder& r) { r.block_manager_added(executor_id, host, max_memory_bytes, time_ms); });
}

void LogEmitter::block_manager_removed(const ExecutorInfo& executor, int64_t time_ms) {
  emit([&] { writer_.block_manager_removed(executor.id, executor.host, executor.port, time_ms); },
       [&](TruthRecorder& r) { r.block_manager_removed(time_ms); });
}

void LogEmitter::job_start(int64_t job_id, int64_t time_ms, std::span<const StageAttemptDesc* const> stages,
                           const JobProperties& properties) {
  emit([&] { writer_.job_start(job_id, time_ms, stages, properties); },
       [&](TruthRecorder& r) { r.job_start(job_id, time_ms, stages, properties); });
}

void LogEmitter::job_end(int64_t job_id, int64_t time_ms, const std::optional<std::string>& failure) {
  emit([&] { writer_.job_end(job_id, time_ms, failure); },
       [&](TruthRecorder& r) { r.job_end(job_id, time_ms, failure); });
}

void LogEmitter::stage_submitted(const StageAttemptDesc& stage) {
  emit([&] { writer_.stage_submitted(stage); }, [&](TruthRecorder& r) { r.stage_submitted(stage); });
}

void LogEmitter::stage_completed(const StageAttemptDesc& stage) {
  emit([&] { writer_.stage_completed(stage); }, [&](TruthRecorder& r) { r.stage_completed(stage); });
}

void LogEmitter::unpersist_rdd(int64_t rdd_id) {
  emit([&] { writer_.unpersist_rdd(rdd_id); }, [](TruthRecorder&) {});
}

void LogEmitter::task_start(const StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor) {
  emit([&] { writer_.task_start(stage, task, executor); },
       [&](TruthRecorder& r) { r.task_start(stage, task, executor); });
}

void LogEmitter::task_end(StageAttemptDesc& stage, const TaskAttempt& task, const ExecutorInfo& executor,
                          const TaskEndReason* reason) {
  // The accumulator updates the task reports: its SQL metrics (successful attempts only), then
  // its non-zero task metrics; "Value" is the accumulator's total after the update.
  updates_.clear();
  const spark::TaskMetricValues& m = task.metrics;
  if (task.end == TaskEndKind::kSuccess) {
    if (stage.sql_updated.size() < stage.sql_metrics.size()) stage.sql_updated.resize(stage.sql_metrics.size(), 0);
    for (size_t i = 0; i < stage.sql_metrics.size(); ++i) {
      const SqlMetricBinding& b = stage.sql_metrics[i];
      const int64_t base = b.source.base == spark::TaskMetric::kCount ? 1 : m[spark::index_of(b.source.base)];
      const int64_t update = base * b.source.num / b.source.den;
      if (update == 0) continue;
      *b.total += update;
      stage.sql_updated[i] = 1;
      updates_.push_back(AccumulatorUpdate{b.accumulator_id, b.name, update, *b.total, true});
    }
  }
  if (task.has_metrics) {
    for (size_t i = 0; i < kInternalAccumulatorCount; ++i) {
      const spark::TaskMetric metric = kInternalAccumulators[i].metric;
      if (metric == spark::TaskMetric::kCount) continue;
      const int64_t update = m[spark::index_of(metric)];
      if (update == 0) continue;
      stage.accumulator_totals[i] += update;
      updates_.push_back(AccumulatorUpdate{stage.internal_accumulator_base + static_cast<int64_t>(i),
                                           kInternalAccumulators[i].name, update, stage.accumulator_totals[i], false});
    }
  }
  emit([&] { writer_.task_end(stage, task, executor, reason, updates_); },
       [&](TruthRecorder& r) { r.task_end(stage, task, executor, reason, updates_); });
}

void LogEmitter::sql_execution_start(int64_t execution_id, std::string_view description, std::string_view details,
                                     const PlanDesc& plan, int64_t time_ms) {
  emit([&] { writer_.sql_execution_start(execution_id, description, details, plan, time_ms); },
       [&](TruthRecorder& r) { r.sql_execution_start(execution_id, description, plan, time_ms); });
}

void LogEmitter::sql_adaptive_execution_update(int64_t execution_id, const PlanDesc& plan) {
  emit([&] { writer_.sql_adaptive_execution_update(execution_id, plan); },
       [&](TruthRecorder& r) { r.sql_adaptive_execution_update(execution_id, plan); });
}

void LogEmitter::driver_accum_updates(int64_t execution_id, std::span<const std::pair<int64_t, int64_t>> updates) {
  if (updates.empty()) return;
  emit([&] { writer_.driver_accum_updates(execution_id, updates); },
       [&](TruthRecorder& r) { r.driver_accum_updates(execution_id, updates); });
}

void LogEmitter::sql_execution_end(int64_t execution_id, int64_t time_ms, std::string_view error_message) {
  emit([&] { writer_.sql_execution_end(execution_id, time_ms, error_message); },
       [&](TruthRecorder& r) { r.sql_execution_end(execution_id, time_ms, error_message); });
}

}  // namespace sf::loggen
