// ModelBuilder: folds decoded events, in log order, into an AppModel.
//
// One pass, no event kept: task events update per-stage sums, per-executor summaries and the
// value columns of the stage's exact quantiles; a stage's columns are reduced to quantiles and
// freed when it completes, so memory tracks running stages, not the whole log. finish() derives
// what needs the whole log (job counts, skipped stages, plan-node attribution, peak concurrent
// cores) and returns the model. Counting follows Spark's History Server (AppStatusListener)
// wherever the History Server defines the figure; docs/model.md lists the few deliberate
// differences.
//
// Not thread-safe; one builder per log.
#pragma once

#include <memory>

#include "eventlog/events.h"
#include "model/app_model.h"

namespace sf::model {

// Bounds that hold whatever the log claims.
struct BuilderLimits {
  // Successful tasks whose metric values open stage attempts hold for their exact quantiles
  // (23 values, 184 bytes, each). Past it, the attempt that would cross it drops its values:
  // its quantiles are left empty and a diagnostics note names it; sums and counts stay exact.
  // The default, 8M tasks (1.5 GiB), is far above any real log's running stages.
  uint64_t max_open_task_values = uint64_t{1} << 23;
  // Structured Streaming micro-batches kept over all queries (about 200 bytes each): past it a
  // query's batches are counted, not kept, and a diagnostics note says so. The default, 1M
  // batches, is twelve days of a one-second trigger.
  uint64_t max_streaming_batches = uint64_t{1} << 20;
};

class ModelBuilder final : public eventlog::EventHandler {
 public:
  explicit ModelBuilder(BuilderLimits limits = {});
  ~ModelBuilder() override;
  ModelBuilder(const ModelBuilder&) = delete;
  ModelBuilder& operator=(const ModelBuilder&) = delete;

  void on(const eventlog::LogStart& e) override;
  void on(const eventlog::DatabricksMetadata& e) override;
  void on(const eventlog::ApplicationStart& e) override;
  void on(const eventlog::ApplicationEnd& e) override;
  void on(const eventlog::EnvironmentUpdate& e) override;
  void on(const eventlog::ResourceProfileAdded& e) override;
  void on(const eventlog::ExecutorAdded& e) override;
  void on(const eventlog::ExecutorRemoved& e) override;
  void on(const eventlog::BlockManagerAdded& e) override;
  void on(const eventlog::BlockManagerRemoved& e) override;
  void on(const eventlog::JobStart& e) override;
  void on(const eventlog::JobEnd& e) override;
  void on(const eventlog::StageSubmitted& e) override;
  void on(const eventlog::StageCompleted& e) override;
  void on(const eventlog::TaskStart& e) override;
  void on(const eventlog::TaskEnd& e) override;
  void on(const eventlog::StageExecutorMetrics& e) override;
  void on(const eventlog::UnpersistRdd& e) override;
  void on(const eventlog::MiscellaneousProcessAdded& e) override;
  void on(const eventlog::ExclusionChange& e) override;
  void on(const eventlog::SqlExecutionStart& e) override;
  void on(const eventlog::SqlExecutionEnd& e) override;
  void on(const eventlog::SqlAdaptiveExecutionUpdate& e) override;
  void on(const eventlog::SqlAdaptiveMetricUpdates& e) override;
  void on(const eventlog::DriverAccumUpdates& e) override;
  void on(const eventlog::StreamingQueryStarted& e) override;
  void on(const eventlog::StreamingQueryProgress& e) override;
  void on(const eventlog::StreamingQueryIdle& e) override;
  void on(const eventlog::StreamingQueryTerminated& e) override;
  void on(const eventlog::ConnectSessionEvent& e) override;
  void on(const eventlog::ConnectOperationEvent& e) override;
  void on_unknown_event(std::string_view event_name) override;

  // The loader records line-level problems here as it reads.
  Diagnostics& diagnostics();

  // Completes the model. The builder must not be used afterwards.
  AppModel finish(SourceInfo source);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace sf::model
