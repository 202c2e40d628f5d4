#include "report/economics_json.h"

#include <map>

namespace sf::report {

namespace {

using Doc = nlohmann::ordered_json;
using namespace sf::analysis;

Doc share(double part, double whole) { return whole > 0 ? Doc(part / whole) : Doc(nullptr); }

Doc cluster_json(const ClusterShape& c) {
  const DynamicAllocation& da = c.dynamic_allocation;
  return {{"localMode", c.local_mode},
          {"executors", c.executors},
          {"coresPerExecutor", c.cores_per_executor},
          {"coresEstimated", c.cores_estimated},
          {"taskCpus", c.task_cpus},
          {"executorMemoryGib", c.executor_memory_gib},
          {"driverCores", c.driver_cores},
          {"driverMemoryGib", c.driver_memory_gib},
          {"executorStartupMs", c.executor_startup_ms},
          {"dynamicAllocation",
           {{"enabled", da.enabled},
            {"minExecutors", da.min_executors},
            {"initialExecutors", da.initial_executors},
            {"maxExecutors", da.max_executors ? Doc(*da.max_executors) : Doc(nullptr)},
            {"idleTimeoutMs", da.idle_timeout_ms}}}};
}

Doc time_split_json(const WindowSplit& s) {
  return {{"durationMs", s.duration_ms},
          {"driverOnlyMs", s.outside_ms()},
          {"executorMs", s.inside_ms},
          {"driverOnlyShare", share(s.outside_ms(), s.duration_ms)},
          {"executorShare", share(s.inside_ms, s.duration_ms)},
          {"beforeFirstJobMs", s.before_first_ms},
          {"betweenJobsMs", s.between_ms},
          {"afterLastJobMs", s.after_last_ms},
          {"gapsOverOneSecond", s.gaps_over_one_second},
          {"longestGapMs", s.longest_gap_ms}};
}

template <typename Id>
Doc cost_of(const std::map<Id, double>& costs, Id id) {
  auto it = costs.find(id);
  return it != costs.end() ? Doc(it->second) : Doc(nullptr);
}

Doc jobs_json(const Economics& e) {
  const std::map<int64_t, double> costs(e.cost.jobs.begin(), e.cost.jobs.end());
  Doc out = Doc::array();
  for (const JobTimeSplit& j : e.jobs) {
    const WindowSplit& s = j.split;
    out.push_back({{"jobId", j.job_id},
                   {"durationMs", s.duration_ms},
                   {"driverOnlyMs", s.outside_ms()},
                   {"beforeFirstStageMs", s.before_first_ms},
                   {"inStagesMs", s.inside_ms},
                   {"betweenStagesMs", s.between_ms},
                   {"afterLastStageMs", s.after_last_ms},
                   {"cost", cost_of(costs, j.job_id)}});
  }
  return out;
}

Doc sql_json(const Economics& e) {
  const std::map<int64_t, double> costs(e.cost.sql.begin(), e.cost.sql.end());
  Doc out = Doc::array();
  for (const SqlTimeSplit& x : e.sql) {
    const WindowSplit& s = x.split;
    out.push_back({{"executionId", x.execution_id},
                   {"durationMs", s.duration_ms},
                   {"driverOnlyMs", s.outside_ms()},
                   {"beforeFirstJobMs", s.before_first_ms},
                   {"inJobsMs", s.inside_ms},
                   {"betweenJobsMs", s.between_ms},
                   {"afterLastJobMs", s.after_last_ms},
                   {"cost", cost_of(costs, x.execution_id)}});
  }
  return out;
}

Doc critical_path_json(const CriticalPath& p) {
  Doc stages = Doc::array();
  for (const PathStage& s : p.stages) {
    stages.push_back({{"stageId", s.stage.stage_id},
                      {"attemptId", s.stage.attempt_id},
                      {"waitMs", s.wait_ms},
                      {"longestTaskMs", s.longest_task_ms},
                      {"floorMs", s.floor_ms}});
  }
  return {{"wallClockMs", p.wall_clock_ms},
          {"driverOnlyMs", p.driver_only_ms},
          {"chainMs", p.chain_ms},
          {"lengthMs", p.length_ms},
          {"idealChainMs", p.ideal_chain_ms},
          {"idealMs", p.ideal_ms},
          {"idealCores", p.cores},
          {"stages", std::move(stages)}};
}

Doc what_if_json(const WhatIf& w) {
  Doc curve = Doc::array();
  for (const WhatIfPoint& p : w.curve) {
    curve.push_back({{"executors", p.executors},
                     {"predictedMs", p.predicted_ms},
                     {"simulatedMs", p.simulated_ms},
                     {"executorHours", p.executor_hours},
                     {"cost", p.cost}});
  }
  return {{"coresPerExecutor", w.cores_per_executor},
          {"todayExecutors", w.today_executors},
          {"dynamicAllocation", w.dynamic_allocation},
          {"measuredMs", w.measured_ms},
          {"todaySimulatedMs", w.today_simulated_ms},
          {"todayError", w.today_error},
          {"kneeExecutors", w.knee_executors},
          {"kneeMs", w.knee_ms},
          {"bestMs", w.best_ms},
          {"kneeShare", WhatIf::kKneeShare},
          {"curve", std::move(curve)}};
}

Doc cost_json(const Cost& c) {
  const RateCard& r = c.rate_card;
  Doc stages = Doc::array();
  for (const auto& [ref, cost] : c.stages) {
    stages.push_back({{"stageId", ref.stage_id}, {"attemptId", ref.attempt_id}, {"cost", cost}});
  }
  Doc findings = Doc::array();
  for (const FindingCost& f : c.findings) findings.push_back({{"findingId", f.finding_id}, {"low", f.low}, {"high", f.high}});
  return {{"rateCard",
           {{"name", r.name},
            {"currency", r.currency},
            {"perCoreHour", r.per_core_hour},
            {"perGibHour", r.per_gib_hour},
            {"source", r.source},
            {"asOf", r.as_of}}},
          {"total", c.total},
          {"executors", c.executors},
          {"driver", c.driver},
          {"driverOnly", c.driver_only},
          {"coreHours", c.core_hours},
          {"gibHours", c.gib_hours},
          {"stages", std::move(stages)},
          {"findings", std::move(findings)}};
}

}  // namespace

nlohmann::ordered_json economics_json(const Economics& e) {
  Doc out;
  out["cluster"] = cluster_json(e.cluster);
  out["timeSplit"] = e.time_split ? time_split_json(*e.time_split) : Doc(nullptr);
  out["jobs"] = jobs_json(e);
  out["sql"] = sql_json(e);
  out["criticalPath"] = e.critical_path ? critical_path_json(*e.critical_path) : Doc(nullptr);
  out["whatIf"] = e.what_if ? what_if_json(*e.what_if) : Doc(nullptr);
  out["cost"] = cost_json(e.cost);
  return out;
}

}  // namespace sf::report
