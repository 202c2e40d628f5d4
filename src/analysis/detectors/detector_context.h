// What every detector sees: the model, the thresholds, the occupancy of each stage, and the
// helpers that keep findings consistent (ids, confidence, settings, stage labels).
//
// Detectors are free functions `void detect_x(const DetectorContext&, std::vector<Finding>&)`,
// one file per family, listed in detectors.h. A detector fills in the finding's facts and its
// WasteClaim; impact, band and ordering are the analyzer's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/findings/finding.h"
#include "analysis/models/occupancy.h"
#include "analysis/models/stage_reshape.h"
#include "analysis/models/streaming_summary.h"
#include "analysis/settings/spark_settings.h"
#include "analysis/settings/thresholds.h"
#include "model/app_model.h"

namespace sf::analysis {

class DetectorContext {
 public:
  DetectorContext(const model::AppModel& model, const Thresholds& thresholds,
                  const std::vector<StageOccupancy>& occupancy);

  const model::AppModel& model() const { return model_; }
  const Thresholds& thresholds() const { return thresholds_; }
  const StageOccupancy& occupancy(const model::StageAttempt& stage) const;

  // Peak concurrent cores (at least 1), the denominator of ceilings and idle-core figures.
  int32_t total_cores() const;
  double app_duration_ms() const;

  // A Spark property as the application set it, if it did.
  std::optional<std::string> property(std::string_view key) const;
  // A size property ("10m", "4g", "512k", "1048576") in bytes, if set and readable.
  std::optional<int64_t> size_property(std::string_view key) const;
  // A memory setting ("4g", "4096") in bytes: Spark reads a unitless memory size as MiB, unlike
  // its byte-size settings.
  std::optional<int64_t> memory_property_bytes(std::string_view key) const;
  std::optional<double> number_property(std::string_view key) const;
  std::optional<bool> bool_property(std::string_view key) const;
  // A SQL setting as one execution ran with it: a session-level change (modifiedConfigs) wins
  // over the application's properties.
  std::optional<std::string> execution_property(const model::SqlExecution& sql, std::string_view key) const;
  // The Spark major.minor version, if the log says (3.3 -> {3, 3}).
  std::optional<std::pair<int, int>> spark_version() const;

  // The driver JVM's Java major version ("1.8.0_382 (Azul Systems, Inc.)" -> 8, "17.0.15" -> 17),
  // if the log says; the executors run the same Java on every cluster manager Spark supports.
  std::optional<int> java_major_version() const;

  // A spark-shell, pyspark, sparkR or notebook session: gaps between jobs there are a person
  // reading and typing, not work the application could have done sooner.
  bool interactive_session() const;
  // A Databricks cluster (its log's own header, or Databricks' properties): executors there are
  // sized by the workers' node type, one executor a worker, not by spark.executor.* settings.
  bool databricks() const;
  // A Databricks Jobs run (a scheduled or submitted job), not a notebook on an interactive cluster.
  bool databricks_jobs_run() const;
  // Local mode (spark.master local, local[N], local[N,F]): the tasks run inside the driver's JVM,
  // so executor settings do not apply. local-cluster mode has real executors and is not.
  bool local_master() const;

  // A time that matters: at least `absolute_ms` (a detector's floor, sized for long runs), or
  // at least significance.appShare of the application and significance.minMs (a short run's
  // problems are judged by their share of it).
  bool significant_ms(double ms, double absolute_ms) const { return ms >= significance_floor_ms(absolute_ms); }
  // The least time significant_ms accepts: the smaller of the two floors.
  double significance_floor_ms(double absolute_ms) const;

  // A stage attempt long enough for its own findings to matter: significant against
  // stage.minDurationMs.
  bool ran_long_enough(const model::StageAttempt& stage) const;

  // Stage attempts that ran: a window of positive length, not skipped. In the model's order;
  // found once, when the context is made (every detector family walks them).
  const std::vector<const model::StageAttempt*>& ran_stages() const { return ran_stages_; }
  // A stage of a Structured Streaming micro-batch: one of its jobs carries a batch id.
  bool micro_batch_stage(const model::StageAttempt& stage) const;
  // Each streaming query run's figures (streaming_summary.h), worked out once, in the model's order.
  const std::vector<StreamingQuerySummary>& streaming() const { return streaming_; }
  // Those of one SQL execution (by the attempt's own execution id), in the same order.
  const std::vector<const model::StageAttempt*>& ran_stages_of_execution(int64_t execution_id) const;

  // How far past its threshold a value sits: value / threshold (or threshold / value for a
  // lower-is-worse trigger) against the configured margins.
  Confidence confidence_above(double value, double threshold) const;
  Confidence confidence_below(double value, double threshold) const;

  // "stage 12.0 (count at Foo.scala:31)"
  static std::string stage_label(const model::StageAttempt& stage);
  static StageRef ref(const model::StageAttempt& stage) { return {stage.stage_id, stage.attempt_id}; }
  // A stable finding id: "type/rule/key"; key names the scope ("stage-12.0", "sql-3", "app").
  static std::string finding_id(std::string_view type, std::string_view rule, std::string_view key);
  static std::string stage_key(const model::StageAttempt& stage);
  // A stage-scoped finding with its identity filled in: type, rule, scope, id, stage, SQL id.
  // `id_detail` tells apart findings of one type and rule on the same stage (a host, a reason).
  static Finding stage_finding(const model::StageAttempt& stage, std::string type, std::string rule = "",
                               std::string_view id_detail = "");

  // The stage's measured work, for a fix that reshapes its tasks (stage_reshape.h).
  StageWork work(const model::StageAttempt& stage) const {
    return stage_work(stage, occupancy(stage), reshape_cores(stage), thresholds_.task_overhead_ms);
  }
  // The cores a stage with more tasks could run on: its window's, or under dynamic allocation
  // (idle executors are released, waiting tasks ask for more) the most the application held.
  double reshape_cores(const model::StageAttempt& stage) const;
  // spark.dynamicAllocation.enabled in effect.
  bool dynamic_allocation() const;
  // The log's Spark reads `key` (spark_settings.h): true for a key the table lacks or a log
  // without a version.
  bool has_setting(std::string_view key) const;
  // "on 8 cores", or under dynamic allocation, when the stage held fewer cores than more tasks
  // could have had, "on about 34 cores, where dynamic allocation could have held 200": it asks
  // for executors by pending tasks, so a stage of few tasks never had the application's peak.
  std::string stage_cores_words(const model::StageAttempt& stage) const;
  // The cores alive while the stage ran are fewer than reshape_cores (dynamic allocation).
  bool could_hold_more_cores(const model::StageAttempt& stage) const;
  // A wall-clock claim on one stage whose fix reshapes its tasks into `tasks_after` even tasks
  // with `work_share` of its data work left: the stage's duration minus its duration after the
  // fix, which is also the claim's floor. Raw waste: the same figure, in ms, which it returns.
  double claim_reshaped_stage(Finding& f, const model::StageAttempt& stage, double tasks_after, double work_share,
                              EstimateMethod method) const;

  // A setting change with the application's current value and the value in effect filled in.
  // `direction` says which way the suggestion must move from the value in effect; the analyzer
  // drops one that does not (or that is in effect already, or that the log's Spark lacks).
  SettingChange setting(std::string key, std::string suggested_value,
                        SettingChange::Direction direction = SettingChange::Direction::kSet) const;
  SettingChange raise_setting(std::string key, std::string suggested_value) const {
    return setting(std::move(key), std::move(suggested_value), SettingChange::Direction::kRaise);
  }
  SettingChange lower_setting(std::string key, std::string suggested_value) const {
    return setting(std::move(key), std::move(suggested_value), SettingChange::Direction::kLower);
  }

  // The value in effect: the application's, else the default of the log's Spark version
  // (spark_settings.h), through the setting it falls back to; nullopt when neither says.
  std::optional<std::string> effective_value(std::string_view key) const;
  // The value in effect read as its setting's type reads it (bytes, ms for durations); a value
  // set that it cannot read counts as the version's default; nullopt for a setting the table lacks.
  std::optional<double> effective_number(std::string_view key) const;
  // effective_number of a setting the table gives a default in every version the caller reads it
  // for (the caller's own guard: dynamic allocation on, a Kubernetes master): 0 if it has none.
  double number_in_effect(std::string_view key) const { return effective_number(key).value_or(0); }
  // The log's Spark version, when it says.
  std::optional<SparkVersion> version() const;

 private:
  const model::AppModel& model_;
  const Thresholds& thresholds_;
  const std::vector<StageOccupancy>& occupancy_;
  std::vector<const model::StageAttempt*> ran_stages_;
  std::vector<StreamingQuerySummary> streaming_;
  std::unordered_map<int64_t, std::vector<const model::StageAttempt*>> ran_stages_by_execution_;
};

}  // namespace sf::analysis
