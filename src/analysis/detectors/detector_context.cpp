#include "analysis/detectors/detector_context.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "common/units.h"

namespace sf::analysis {

DetectorContext::DetectorContext(const model::AppModel& model, const Thresholds& thresholds,
                                 const std::vector<StageOccupancy>& occupancy)
    : model_(model),
      thresholds_(thresholds),
      occupancy_(occupancy),
      streaming_(summarize_streaming(model.streaming_queries)) {
  for (const auto& stage : model_.stages) {
    if (stage.status != model::StageStatus::kSkipped && stage.status != model::StageStatus::kPending &&
        this->occupancy(stage).in_sweep) {
      ran_stages_.push_back(&stage);
      if (stage.sql_execution_id) ran_stages_by_execution_[*stage.sql_execution_id].push_back(&stage);
    }
  }
}

bool DetectorContext::micro_batch_stage(const model::StageAttempt& stage) const {
  return std::any_of(stage.job_ids.begin(), stage.job_ids.end(), [&](int64_t job_id) {
    const model::Job* job = model_.job(job_id);
    return job != nullptr && job->streaming_batch_id.has_value();
  });
}

const std::vector<const model::StageAttempt*>& DetectorContext::ran_stages_of_execution(int64_t execution_id) const {
  static const std::vector<const model::StageAttempt*> kNone;
  auto it = ran_stages_by_execution_.find(execution_id);
  return it != ran_stages_by_execution_.end() ? it->second : kNone;
}

const StageOccupancy& DetectorContext::occupancy(const model::StageAttempt& stage) const {
  return occupancy_[static_cast<size_t>(&stage - model_.stages.data())];
}

double DetectorContext::significance_floor_ms(double absolute_ms) const {
  return std::min(absolute_ms,
                  std::max(thresholds_.significance_min_ms, thresholds_.significance_app_share * app_duration_ms()));
}

bool DetectorContext::ran_long_enough(const model::StageAttempt& stage) const {
  return significant_ms(occupancy(stage).duration_ms, thresholds_.stage_min_duration_ms);
}

int32_t DetectorContext::total_cores() const { return std::max(1, model_.peak_concurrent_cores); }

double DetectorContext::app_duration_ms() const { return static_cast<double>(model_.app.duration_ms().value_or(0)); }

std::optional<std::string> DetectorContext::property(std::string_view key) const {
  const std::string* value = model_.environment.spark_property(key);
  if (value == nullptr) return std::nullopt;
  return *value;
}

std::optional<int64_t> DetectorContext::size_property(std::string_view key) const {
  auto value = property(key);
  if (!value) return std::nullopt;
  return parse_size_bytes(*value);
}

std::optional<int64_t> DetectorContext::memory_property_bytes(std::string_view key) const {
  auto value = property(key);
  if (!value) return std::nullopt;
  const bool unitless = !value->empty() &&
                        std::all_of(value->begin(), value->end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  auto bytes = parse_size_bytes(unitless ? *value + "m" : *value);
  if (!bytes || *bytes <= 0) return std::nullopt;
  return bytes;
}

std::optional<double> DetectorContext::number_property(std::string_view key) const {
  auto value = property(key);
  if (!value) return std::nullopt;
  double number = 0;
  auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), number);
  if (ec != std::errc() || end != value->data() + value->size()) return std::nullopt;
  return number;
}

std::optional<bool> DetectorContext::bool_property(std::string_view key) const {
  auto value = property(key);
  if (!value) return std::nullopt;
  std::string lower = *value;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "true") return true;
  if (lower == "false") return false;
  return std::nullopt;
}

std::optional<std::string> DetectorContext::execution_property(const model::SqlExecution& sql,
                                                               std::string_view key) const {
  for (const auto& [k, v] : sql.modified_configs) {
    if (k == key) return v;
  }
  return property(key);
}

std::optional<std::pair<int, int>> DetectorContext::spark_version() const {
  const std::string& v = model_.app.spark_version;
  int major = 0;
  int minor = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), major);
  if (ec != std::errc() || end == v.data() + v.size() || *end != '.') return std::nullopt;
  auto [end2, ec2] = std::from_chars(end + 1, v.data() + v.size(), minor);
  if (ec2 != std::errc()) return std::nullopt;
  return std::pair{major, minor};
}

std::optional<int> DetectorContext::java_major_version() const {
  const model::KeyValues& jvm = model_.environment.jvm_information;
  const auto it = std::find_if(jvm.begin(), jvm.end(), [](const auto& kv) { return kv.first == "Java Version"; });
  if (it == jvm.end()) return std::nullopt;
  std::string_view text = it->second;
  if (text.starts_with("1.")) text.remove_prefix(2);  // Java 8 and before: 1.<major>.0_<update>
  int major = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), major);
  if (ec != std::errc() || major <= 0) return std::nullopt;
  return major;
}

bool DetectorContext::local_master() const {
  const std::string master = property("spark.master").value_or("");
  return master.starts_with("local") && !master.starts_with("local-cluster");
}

bool DetectorContext::databricks() const {
  const auto& properties = model_.environment.spark_properties;
  return model_.app.databricks || std::any_of(properties.begin(), properties.end(),
                                              [](const auto& kv) { return kv.first.starts_with("spark.databricks."); });
}

// Every Databricks cluster's application is "Databricks Shell", a Jobs run's too. A Jobs run says
// so in its cluster's source tag (JOB, JOB_SERVERLESS) or in its jobs' group
// ("job-<job id>-run-<run id>-action-<n>"); a notebook's groups are "<session>_<command>_<uuid>".
bool DetectorContext::databricks_jobs_run() const {
  if (property("spark.databricks.clusterUsageTags.clusterSource").value_or("").starts_with("JOB")) return true;
  return std::any_of(model_.jobs.begin(), model_.jobs.end(), [](const model::Job& job) {
    return job.job_group.starts_with("job-") && job.job_group.find("-run-") != std::string::npos;
  });
}

bool DetectorContext::interactive_session() const {
  static constexpr std::string_view kShellNames[] = {"Spark shell", "PySparkShell", "SparkR", "sparkR"};
  for (std::string_view name : kShellNames) {
    if (model_.app.name == name) return true;
  }
  if (model_.app.name == "Databricks Shell") return !databricks_jobs_run();
  // The REPL publishes its generated classes to executors; notebooks (Zeppelin, Livy, Jupyter
  // kernels) run through a REPL or announce themselves in their properties.
  for (std::string_view key : {"spark.repl.class.uri", "spark.repl.class.outputDir", "zeppelin.spark.useHiveContext",
                               "spark.livy.spark_major_version"}) {
    if (property(key)) return true;
  }
  return false;
}

Confidence DetectorContext::confidence_above(double value, double threshold) const {
  if (threshold <= 0) return Confidence::kHigh;
  const double margin = value / threshold;
  if (margin >= thresholds_.confidence_high_margin) return Confidence::kHigh;
  if (margin >= thresholds_.confidence_medium_margin) return Confidence::kMedium;
  return Confidence::kLow;
}

Confidence DetectorContext::confidence_below(double value, double threshold) const {
  if (value <= 0) return Confidence::kHigh;
  return confidence_above(threshold, value);
}

std::string DetectorContext::stage_label(const model::StageAttempt& stage) {
  std::string label = "stage " + std::to_string(stage.stage_id) + "." + std::to_string(stage.attempt_id);
  if (!stage.name.empty()) label += " (" + stage.name + ")";
  return label;
}

std::string DetectorContext::stage_key(const model::StageAttempt& stage) {
  return "stage-" + std::to_string(stage.stage_id) + "." + std::to_string(stage.attempt_id);
}

std::string DetectorContext::finding_id(std::string_view type, std::string_view rule, std::string_view key) {
  std::string id(type);
  id += '/';
  id += rule;
  id += '/';
  id += key;
  return id;
}

Finding DetectorContext::stage_finding(const model::StageAttempt& stage, std::string type, std::string rule,
                                       std::string_view id_detail) {
  Finding f;
  f.type = std::move(type);
  f.rule = std::move(rule);
  f.scope = Scope::kStage;
  f.id = finding_id(f.type, f.rule,
                    id_detail.empty() ? stage_key(stage) : stage_key(stage) + ":" + std::string(id_detail));
  f.stages = {ref(stage)};
  f.sql_execution_id = stage.sql_execution_id;
  return f;
}

std::optional<std::string> DetectorContext::effective_value(std::string_view key) const {
  return effective_setting_value(model_, key);
}

std::optional<double> DetectorContext::effective_number(std::string_view key) const {
  return effective_setting_number(model_, key);
}

double DetectorContext::reshape_cores(const model::StageAttempt& stage) const {
  const double window = occupancy(stage).window_cores;
  if (dynamic_allocation()) {
    return std::max(window, static_cast<double>(total_cores()));
  }
  return window;
}

bool DetectorContext::dynamic_allocation() const {
  return bool_property("spark.dynamicAllocation.enabled").value_or(false);
}

bool DetectorContext::has_setting(std::string_view key) const {
  const SparkSetting* known = find_spark_setting(key);
  return known == nullptr || exists_in(*known, version());
}

bool DetectorContext::could_hold_more_cores(const model::StageAttempt& stage) const {
  return reshape_cores(stage) >= occupancy(stage).window_cores + 1.0;
}

std::string DetectorContext::stage_cores_words(const model::StageAttempt& stage) const {
  const auto could = static_cast<int64_t>(std::round(reshape_cores(stage)));
  if (!could_hold_more_cores(stage)) return "on " + units::format_counted(could, "core");
  return fmt::format("on about {}, where dynamic allocation could have held {}",
                     units::format_counted(static_cast<int64_t>(std::round(occupancy(stage).window_cores)), "core"),
                     units::format_count(could));
}

double DetectorContext::claim_reshaped_stage(Finding& f, const model::StageAttempt& stage, double tasks_after,
                                             double work_share, EstimateMethod method) const {
  const StageWork measured = work(stage);
  const double after = reshaped_duration_ms(measured, tasks_after, work_share);
  const double waste = std::max(0.0, measured.duration_ms - after);
  f.claim.kind = WasteClaim::Kind::kStages;
  f.claim.method = method;
  f.claim.stages = {{ref(stage), waste, false, std::min(after, measured.duration_ms)}};
  f.claim.raw = RawWaste{waste, WasteUnit::kMs};
  f.evidence.push_back({"stageDurationAfterFixMs", after, "ms"});
  f.evidence.push_back({"tasksAfterFix", tasks_after, "count"});
  f.evidence.push_back({"perTaskOverheadMs", measured.overhead_ms, "ms"});
  f.evidence.push_back({"windowCores", measured.cores, "count"});
  return waste;
}

std::optional<SparkVersion> DetectorContext::version() const { return parse_spark_version(model_.app.spark_version); }

SettingChange DetectorContext::setting(std::string key, std::string suggested_value,
                                       SettingChange::Direction direction) const {
  SettingChange change;
  change.current_value = property(key).value_or("");
  change.effective_value = effective_value(key).value_or("");
  change.key = std::move(key);
  change.suggested_value = std::move(suggested_value);
  change.direction = direction;
  return change;
}

}  // namespace sf::analysis
