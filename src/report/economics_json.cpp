#include "report/economics_json.h"

#include <map>

#include "common/json_writer.h"

namespace sf::report {

namespace {

using namespace sf::analysis;

void write_share(JsonWriter& w, double part, double whole) {
  if (whole > 0) {
    w.number(part / whole);
  } else {
    w.null();
  }
}

void write_cluster(JsonWriter& w, const ClusterShape& c) {
  const DynamicAllocation& da = c.dynamic_allocation;
  w.object([&] {
    w.field("localMode", c.local_mode);
    w.field("executors", c.executors);
    w.field("coresPerExecutor", c.cores_per_executor);
    w.field("coresEstimated", c.cores_estimated);
    w.field("taskCpus", c.task_cpus);
    w.field("executorMemoryGib", c.executor_memory_gib);
    w.field("driverCores", c.driver_cores);
    w.field("driverMemoryGib", c.driver_memory_gib);
    w.field("executorStartupMs", c.executor_startup_ms);
    w.object_field("dynamicAllocation", [&] {
      w.field("enabled", da.enabled);
      w.field("minExecutors", da.min_executors);
      w.field("initialExecutors", da.initial_executors);
      w.field("maxExecutors", da.max_executors);
      w.field("idleTimeoutMs", da.idle_timeout_ms);
    });
  });
}

void write_time_split(JsonWriter& w, const WindowSplit& s) {
  w.object([&] {
    w.field("durationMs", s.duration_ms);
    w.field("driverOnlyMs", s.outside_ms());
    w.field("executorMs", s.inside_ms);
    w.key("driverOnlyShare");
    write_share(w, s.outside_ms(), s.duration_ms);
    w.key("executorShare");
    write_share(w, s.inside_ms, s.duration_ms);
    w.field("beforeFirstJobMs", s.before_first_ms);
    w.field("betweenJobsMs", s.between_ms);
    w.field("afterLastJobMs", s.after_last_ms);
    w.field("gapsOverOneSecond", s.gaps_over_one_second);
    w.field("longestGapMs", s.longest_gap_ms);
  });
}

template <typename Id>
void write_cost_of(JsonWriter& w, const std::map<Id, double>& costs, Id id) {
  auto it = costs.find(id);
  if (it != costs.end()) {
    w.number(it->second);
  } else {
    w.null();
  }
}

void write_jobs(JsonWriter& w, const Economics& e) {
  const std::map<int64_t, double> costs(e.cost.jobs.begin(), e.cost.jobs.end());
  w.array([&] {
    for (const JobTimeSplit& j : e.jobs) {
      const WindowSplit& s = j.split;
      w.object([&] {
        w.field("jobId", j.job_id);
        w.field("durationMs", s.duration_ms);
        w.field("driverOnlyMs", s.outside_ms());
        w.field("beforeFirstStageMs", s.before_first_ms);
        w.field("inStagesMs", s.inside_ms);
        w.field("betweenStagesMs", s.between_ms);
        w.field("afterLastStageMs", s.after_last_ms);
        w.key("cost");
        write_cost_of(w, costs, j.job_id);
      });
    }
  });
}

void write_sql(JsonWriter& w, const Economics& e) {
  const std::map<int64_t, double> costs(e.cost.sql.begin(), e.cost.sql.end());
  w.array([&] {
    for (const SqlTimeSplit& x : e.sql) {
      const WindowSplit& s = x.split;
      w.object([&] {
        w.field("executionId", x.execution_id);
        w.field("durationMs", s.duration_ms);
        w.field("driverOnlyMs", s.outside_ms());
        w.field("beforeFirstJobMs", s.before_first_ms);
        w.field("inJobsMs", s.inside_ms);
        w.field("betweenJobsMs", s.between_ms);
        w.field("afterLastJobMs", s.after_last_ms);
        w.key("cost");
        write_cost_of(w, costs, x.execution_id);
      });
    }
  });
}

void write_critical_path(JsonWriter& w, const CriticalPath& p) {
  w.object([&] {
    w.field("wallClockMs", p.wall_clock_ms);
    w.field("driverOnlyMs", p.driver_only_ms);
    w.field("chainMs", p.chain_ms);
    w.field("lengthMs", p.length_ms);
    w.field("idealChainMs", p.ideal_chain_ms);
    w.field("idealMs", p.ideal_ms);
    w.field("idealCores", p.cores);
    w.array_field("stages", [&] {
      for (const PathStage& s : p.stages) {
        w.object([&] {
          w.field("stageId", s.stage.stage_id);
          w.field("attemptId", s.stage.attempt_id);
          w.field("waitMs", s.wait_ms);
          w.field("longestTaskMs", s.longest_task_ms);
          w.field("floorMs", s.floor_ms);
        });
      }
    });
  });
}

void write_what_if(JsonWriter& w, const WhatIf& what_if) {
  w.object([&] {
    w.field("coresPerExecutor", what_if.cores_per_executor);
    w.field("todayExecutors", what_if.today_executors);
    w.field("peakExecutors", what_if.peak_executors);
    w.field("dynamicAllocation", what_if.dynamic_allocation);
    w.field("measuredMs", what_if.measured_ms);
    w.field("todaySimulatedMs", what_if.today_simulated_ms);
    w.field("todayError", what_if.today_error);
    w.field("kneeExecutors", what_if.knee_executors);
    w.field("kneeMs", what_if.knee_ms);
    w.field("bestMs", what_if.best_ms);
    w.field("kneeShare", WhatIf::kKneeShare);
    if (what_if.ramp) {
      w.object_field("allocationRamp", [&] {
        w.field("executors", what_if.ramp->executors);
        w.field("allocationRatio", what_if.ramp->allocation_ratio);
        w.field("sustainedBacklogTimeoutMs", what_if.ramp->sustained_backlog_timeout_ms);
        w.field("settingsMs", what_if.ramp->settings_ms);
        w.field("executorStartupMs", what_if.ramp->executor_startup_ms);
        w.field("defaultRampMs", what_if.ramp->default_ms);
        w.field("defaultRatioMs", what_if.ramp->default_ratio_ms);
        w.field("defaultRoundsMs", what_if.ramp->default_rounds_ms);
        w.field("settingsExecutorHours", what_if.ramp->settings_executor_hours);
        w.field("defaultRampExecutorHours", what_if.ramp->default_executor_hours);
      });
    }
    w.array_field("curve", [&] {
      for (const WhatIfPoint& p : what_if.curve) {
        w.object([&] {
          w.field("executors", p.executors);
          w.field("predictedMs", p.predicted_ms);
          w.field("simulatedMs", p.simulated_ms);
          w.field("executorHours", p.executor_hours);
          w.field("cost", p.cost);
        });
      }
    });
  });
}

void write_cost(JsonWriter& w, const Cost& c) {
  const RateCard& r = c.rate_card;
  w.object([&] {
    w.object_field("rateCard", [&] {
      w.field("name", r.name);
      w.field("currency", r.currency);
      w.field("perCoreHour", r.per_core_hour);
      w.field("perGibHour", r.per_gib_hour);
      w.field("source", r.source);
      w.field("asOf", r.as_of);
    });
    w.field("total", c.total);
    w.field("executors", c.executors);
    w.field("driver", c.driver);
    w.field("driverOnly", c.driver_only);
    w.field("coreHours", c.core_hours);
    w.field("gibHours", c.gib_hours);
    w.array_field("stages", [&] {
      for (const auto& stage : c.stages) {  // (ref, cost); clang 14 lets no lambda capture a binding
        w.object([&] {
          w.field("stageId", stage.first.stage_id);
          w.field("attemptId", stage.first.attempt_id);
          w.field("cost", stage.second);
        });
      }
    });
    w.array_field("findings", [&] {
      for (const FindingCost& f : c.findings) {
        w.object([&] {
          w.field("findingId", f.finding_id);
          w.field("low", f.low);
          w.field("high", f.high);
        });
      }
    });
  });
}

}  // namespace

void write_economics(JsonWriter& w, const Economics& e) {
  w.object([&] {
    w.key("cluster");
    write_cluster(w, e.cluster);
    w.key("timeSplit");
    if (e.time_split) {
      write_time_split(w, *e.time_split);
    } else {
      w.null();
    }
    w.key("jobs");
    write_jobs(w, e);
    w.key("sql");
    write_sql(w, e);
    w.key("criticalPath");
    if (e.critical_path) {
      write_critical_path(w, *e.critical_path);
    } else {
      w.null();
    }
    w.key("whatIf");
    if (e.what_if) {
      write_what_if(w, *e.what_if);
    } else {
      w.null();
    }
    w.key("cost");
    write_cost(w, e.cost);
  });
}

}  // namespace sf::report
