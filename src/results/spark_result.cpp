#include "results/spark_result.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/economics/cost.h"
#include "results/stage_key.h"

namespace sf::results {

namespace {

using model::TaskMetric;

void add(std::vector<Quantity>& out, std::string name, double value, std::string unit, Direction direction,
         bool deterministic = false) {
  out.push_back({std::move(name), value, std::move(unit), direction, deterministic});
}

// The analysis's reading of the run (result.h: is_analysis_quantity). The recoverable range is
// 0 when nothing is worth fixing first, so its series goes on; a finding type the run does not
// have has no quantity (absent: none found), or every document would list every detector.
void add_analysis(std::vector<Quantity>& out, const analysis::Analysis& analysis) {
  const analysis::RollupGroup* lead = analysis::leading_fix_first_group(analysis.rollup);
  add(out, kFixFirstRecoverableLowMsQuantity, lead ? lead->recoverable_low_ms : 0.0, "ms", Direction::kLowerIsBetter);
  add(out, kFixFirstRecoverableHighMsQuantity, lead ? lead->recoverable_high_ms : 0.0, "ms", Direction::kLowerIsBetter);
  std::map<std::string, int64_t> per_type;
  for (const analysis::Finding& f : analysis.findings) ++per_type[f.type];
  for (const auto& [type, count] : per_type) {
    add(out, kFindingCountQuantityPrefix + type, static_cast<double>(count), "count", Direction::kLowerIsBetter);
  }
}

// Keys made unique within one application: a repeated key gets ~2, ~3, ... in id order.
std::string unique_key(std::map<std::string, int>& seen, const std::string& key) {
  const int n = ++seen[key];
  return n == 1 ? key : fmt::format("{}~{}", key, n);
}

}  // namespace

ResultDocument result_from_app_model(const model::AppModel& app, const analysis::Analysis& analysis,
                                     const SparkResultContext& context) {
  ResultDocument result;
  result.subject = context.subject.empty() ? app.app.name : context.subject;
  if (result.subject.empty()) result.subject = "(unnamed application)";
  result.revision = context.revision;
  result.parameters = context.parameters;
  if (!app.app.spark_version.empty()) result.environment["sparkVersion"] = app.app.spark_version;
  const std::string* cores = app.environment.spark_property("spark.executor.cores");
  const std::string* memory = app.environment.spark_property("spark.executor.memory");
  if (cores != nullptr || memory != nullptr) {
    result.environment["executorShape"] = fmt::format("{}c/{}", cores ? *cores : "?", memory ? *memory : "?");
  }
  if (const std::string* master = app.environment.spark_property("spark.master"))
    result.environment["sparkMaster"] = *master;
  for (const auto& [key, value] : context.environment) result.environment[key] = value;
  result.procedure = context.procedure;
  result.status = context.status ? *context.status : status_of_log(app).status;
  result.origin = context.origin.empty() ? fmt::format("spark event log of {}", app.app.id) : context.origin;

  model::TaskMetricValues sums{};
  int64_t failed_tasks = 0;
  for (const model::StageAttempt& stage : app.stages) {
    for (size_t i = 0; i < sums.size(); ++i) sums[i] += stage.metric_sums[i];
    failed_tasks += stage.tasks_failed;
  }
  auto sum = [&](TaskMetric m) { return static_cast<double>(sums[model::index_of(m)]); };
  auto& q = result.quantities;
  const Direction lower = Direction::kLowerIsBetter;
  if (auto wall = app.app.duration_ms()) add(q, "appWallClockMs", static_cast<double>(*wall), "ms", lower);
  add(q, "executorRunTimeMs", sum(TaskMetric::kExecutorRunTimeMs), "ms", lower);
  add(q, "executorCpuTimeMs", sum(TaskMetric::kExecutorCpuTimeNs) / 1e6, "ms", lower);
  add(q, "jvmGcTimeMs", sum(TaskMetric::kJvmGcTimeMs), "ms", lower);
  add(q, "shuffleReadBytes", sum(TaskMetric::kShuffleLocalBytesRead) + sum(TaskMetric::kShuffleRemoteBytesRead),
      "bytes", lower);
  add(q, "shuffleWriteBytes", sum(TaskMetric::kShuffleWriteBytes), "bytes", lower);
  add(q, "spillDiskBytes", sum(TaskMetric::kDiskBytesSpilled), "bytes", lower);
  add(q, "spillMemoryBytes", sum(TaskMetric::kMemoryBytesSpilled), "bytes", lower);
  add(q, "inputBytes", sum(TaskMetric::kInputBytes), "bytes", Direction::kNone, /*deterministic=*/true);
  add(q, "failedTasks", static_cast<double>(failed_tasks), "count", lower);
  add(q, "coreHours", model::core_hours_held(app), "core-hours", lower);
  // The currency is the unit, so costs priced in two currencies are never judged against each other.
  if (app.app.start_time_ms)
    add(q, "cost", analysis::application_cost(app, context.rate_card), context.rate_card.currency, lower);

  std::map<std::string, int> seen;
  for (const model::SqlExecution& execution : app.sql) {
    if (auto duration = execution.duration_ms()) {
      add(q, "sql:" + unique_key(seen, sql_execution_key(execution)) + ":durationMs", static_cast<double>(*duration),
          "ms", lower);
    }
  }
  // The latest attempt of each stage: what the run finally waited for.
  const std::map<int64_t, std::string> keys = stage_keys(app);
  for (size_t i = 0; i < app.stages.size(); ++i) {
    const model::StageAttempt& stage = app.stages[i];
    if (i + 1 < app.stages.size() && app.stages[i + 1].stage_id == stage.stage_id) continue;
    const auto key = keys.find(stage.stage_id);
    if (auto duration = stage.duration_ms(); duration && key != keys.end()) {
      add(q, "stage:" + unique_key(seen, key->second) + ":durationMs", static_cast<double>(*duration), "ms", lower);
    }
  }
  add_analysis(q, analysis);
  std::sort(q.begin(), q.end(), [](const Quantity& a, const Quantity& b) { return a.name < b.name; });
  return result;
}

LogStatus status_of_log(const model::AppModel& app) {
  if (app.app.exit_code && *app.app.exit_code != 0) {
    return {RunStatus::kError, fmt::format("the application exited with code {}", *app.app.exit_code)};
  }
  if (app.diagnostics.read_error) return {RunStatus::kPartial, "the log could not be read to its end"};
  if (!app.app.finished) return {RunStatus::kPartial, "the log has no application end (still running, or cut)"};
  return {};
}

Status validate(const SparkResultContext& context) {
  if (!context.revision.parents.empty() && context.revision.tree.empty()) {
    return Status::InvalidArgument("parent revisions need the revision they are parents of (--revision)");
  }
  if ((context.procedure.round || context.procedure.slot) && context.procedure.run_key.empty()) {
    return Status::InvalidArgument("a round or a slot needs the run key it belongs to (--run-key)");
  }
  return {};
}

LogResult result_of_log(const model::AppModel& app, const analysis::Analysis& analysis, SparkResultContext context,
                        const analysis::RateCard& rates, std::string_view source, std::string_view status_given_by) {
  context.rate_card = rates;
  context.origin = event_log_origin(source, app.app.id);
  LogResult out;
  out.status_reason = !context.status                     ? status_of_log(app).reason
                      : *context.status == RunStatus::kOk ? ""
                                                          : fmt::format("as {} says", status_given_by);
  out.document = result_from_app_model(app, analysis, context);
  return out;
}

Result<SparkResultContext> context_of(const IngestDescription& run, std::string_view status_name) {
  SparkResultContext c;
  c.subject = run.subject;
  c.revision = {run.revision, run.parents, run.benchmark_tree, !run.dirty};
  if (!run.variant.empty()) c.parameters[std::string(kVariantRoleParameter)] = run.variant;
  for (const auto& [key, value] : run.parameters) c.parameters[key] = value;
  c.environment = run.environment;
  c.procedure = {run.run_key, run.round, run.slot};
  if (!run.status.empty()) {
    c.status = parse_run_status(run.status);
    if (!c.status) {
      return fail(Status::InvalidArgument(
          fmt::format("{} {}: expected ok, partial, censored, error or skipped", status_name, run.status)));
    }
  }
  if (Status s = validate(c); !s.ok()) return fail(s);
  return c;
}

std::string event_log_origin(std::string_view source, std::string_view app_id) {
  return fmt::format("spark event log {} ({})", source, app_id);
}

std::optional<std::string> event_log_source(std::string_view origin) {
  constexpr std::string_view kPrefix = "spark event log ";
  if (origin.substr(0, kPrefix.size()) != kPrefix || origin.empty() || origin.back() != ')') return std::nullopt;
  const size_t open = origin.rfind(" (");
  if (open == std::string_view::npos || open < kPrefix.size()) return std::nullopt;
  return std::string(origin.substr(kPrefix.size(), open - kPrefix.size()));
}

}  // namespace sf::results
