#include "report/comparison_json.h"

#include <cmath>

#include "analysis/findings/finding.h"
#include "common/json_writer.h"
#include "report/document_kind.h"

namespace sf::report {

namespace {

using namespace sf::compare;

// Ratios and scores rounded to 6 decimals, so the document does not carry float noise.
double rounded(double value) { return std::round(value * 1e6) / 1e6; }

void write_rounded(JsonWriter& w, std::string_view name, const std::optional<double>& value) {
  w.key(name);
  if (value) {
    w.number(rounded(*value));
  } else {
    w.null();
  }
}

// An empty reason is no reason: null.
void write_reason(JsonWriter& w, std::string_view name, const std::string& reason) {
  w.key(name);
  if (reason.empty()) {
    w.null();
  } else {
    w.string(reason);
  }
}

void write_run(JsonWriter& w, std::string_view name, const RunDescription& run) {
  w.object_field(name, [&] {
    w.field("label", run.label);
    w.field("path", run.path);
    w.field("appId", run.app_id);
    w.field("appName", run.app_name);
    w.field("sparkVersion", run.spark_version);
    w.field("durationMs", run.duration_ms);
  });
}

void write_totals(JsonWriter& w, std::string_view name, const StageTotals& t) {
  w.object_field(name, [&] {
    w.field("executorRunTimeMs", t.executor_run_time_ms);
    w.field("executorCpuTimeMs", t.executor_cpu_time_ms);
    w.field("taskTimeMs", t.task_time_ms);
    w.field("durationMs", t.duration_ms);
    w.field("jvmGcTimeMs", t.jvm_gc_time_ms);
    w.field("inputBytes", t.input_bytes);
    w.field("outputBytes", t.output_bytes);
    w.field("shuffleReadBytes", t.shuffle_read_bytes);
    w.field("shuffleWriteBytes", t.shuffle_write_bytes);
    w.field("memorySpillBytes", t.memory_spill_bytes);
    w.field("diskSpillBytes", t.disk_spill_bytes);
    w.field("tasks", t.tasks);
    w.field("failedTasks", t.failed_tasks);
    write_rounded(w, "taskSkew", t.task_skew);
  });
}

void write_stage_side(JsonWriter& w, const StageSide& side) {
  w.object([&] {
    w.field("stageId", side.stage_id);
    w.field("name", side.name);
    w.field("executionId", side.execution_id);
    write_totals(w, "totals", side.totals);
  });
}

void write_stage_sides(JsonWriter& w, std::string_view name, const std::vector<StageSide>& sides) {
  w.array_field(name, [&] {
    for (const auto& s : sides) write_stage_side(w, s);
  });
}

void write_configuration(JsonWriter& w, const std::vector<SettingDifference>& configuration) {
  w.array_field("configurationDifferences", [&] {
    for (const auto& d : configuration) {
      w.object([&] {
        w.field("key", d.key);
        w.field("baseline", d.baseline);
        w.field("candidate", d.candidate);
        w.field("baselineEffective", d.baseline_effective);
        w.field("candidateEffective", d.candidate_effective);
        w.field("sameInEffect", d.same_in_effect);
      });
    }
  });
}

void write_metric(JsonWriter& w, const MetricDelta& d) {
  w.object([&] {
    w.field("name", d.name);
    w.field("unit", d.unit);
    write_rounded(w, "baseline", d.baseline);
    write_rounded(w, "candidate", d.candidate);
    write_rounded(w, "delta", d.delta);
    write_rounded(w, "relativeChange", d.relative_change);
    w.field("direction", to_string(d.direction));
    w.field("noise", rounded(d.noise));
    write_reason(w, "unavailableReason", d.unavailable_reason);
  });
}

void write_execution_deltas(JsonWriter& w, const std::vector<ExecutionDelta>& deltas) {
  w.array_field("executionDeltas", [&] {
    for (const auto& d : deltas) {
      w.object([&] {
        w.field("baselineExecutionId", d.base_execution_id);
        w.field("candidateExecutionId", d.cand_execution_id);
        w.field("description", d.description);
        w.field("baselineDurationMs", d.base_duration_ms);
        w.field("candidateDurationMs", d.cand_duration_ms);
        w.field("deltaMs", d.delta_ms);
        w.field("noiseMs", rounded(d.noise_ms));
        w.field("direction", to_string(d.direction));
      });
    }
  });
}

void write_categories(JsonWriter& w, std::string_view name, const std::vector<FindingCategory>& categories) {
  w.array_field(name, [&] {
    for (const auto& c : categories) {
      w.object([&] {
        w.field("rule", c.rule);
        w.field("band", analysis::to_string(c.band));
        w.field("baseline", c.baseline);
        w.field("candidate", c.candidate);
      });
    }
  });
}

void write_execution_alignment(JsonWriter& w, const ExecutionAlignment& e) {
  w.object_field("executionAlignment", [&] {
    w.field("baselineExecutions", e.base_executions);
    w.field("candidateExecutions", e.cand_executions);
    w.field("paired", e.paired);
    write_rounded(w, "agreement", e.agreement);
    w.field("accepted", e.accepted);
    w.field("bounded", e.bounded);
    w.array_field("pairs", [&] {
      for (const auto& p : e.pairs) {
        w.object([&] {
          w.field("baselineExecutionId", p.base_execution_id);
          w.field("candidateExecutionId", p.cand_execution_id);
          w.field("score", rounded(p.score));
        });
      }
    });
  });
}

// The two sides of a list, as {"baseline": [...], "candidate": [...]}.
void write_sides(JsonWriter& w, std::string_view name, const std::vector<int64_t>& base,
                 const std::vector<int64_t>& cand) {
  w.object_field(name, [&] {
    w.field("baseline", base);
    w.field("candidate", cand);
  });
}

void write_pair(JsonWriter& w, const StagePair& p) {
  w.object([&] {
    w.field("baselineStageId", p.base_stage_id);
    w.field("candidateStageId", p.cand_stage_id);
    w.field("baselineExecutionId", p.base_execution_id);
    w.field("candidateExecutionId", p.cand_execution_id);
    w.field("method", to_string(p.method));
    w.field("byPosition", p.method == PairMethod::kPositional);
    w.field("score", rounded(p.score));
    w.field("quality", pair_quality(p.method, p.score));
    w.field("ambiguous", p.ambiguous());
    write_sides(w, "ambiguousWith", p.ambiguous_base_stage_ids, p.ambiguous_cand_stage_ids);
  });
}

void write_replanned(JsonWriter& w, const std::vector<ReplannedGroup>& replanned) {
  w.array_field("replanned", [&] {
    for (const auto& g : replanned) {
      w.object([&] {
        w.field("baselineExecutionId", g.base_execution_id);
        w.field("candidateExecutionId", g.cand_execution_id);
        w.field("baselineStageIds", g.base_stage_ids);
        w.field("candidateStageIds", g.cand_stage_ids);
        write_totals(w, "baselineTotals", g.base_totals);
        write_totals(w, "candidateTotals", g.cand_totals);
      });
    }
  });
}

void write_stage_deltas(JsonWriter& w, const std::vector<StageDelta>& deltas) {
  w.array_field("stageDeltas", [&] {
    for (const auto& d : deltas) {
      w.object([&] {
        w.key("pair");
        write_pair(w, d.pair);
        w.key("baseline");
        write_stage_side(w, d.base);
        w.key("candidate");
        write_stage_side(w, d.cand);
        w.field("executorRunTimeDeltaMs", d.run_time_delta_ms);
      });
    }
  });
}

void write_skew_deltas(JsonWriter& w, const std::vector<SkewDelta>& deltas) {
  w.array_field("stageSkewDeltas", [&] {
    for (const auto& s : deltas) {
      w.object([&] {
        w.field("baselineStageId", s.base_stage_id);
        w.field("candidateStageId", s.cand_stage_id);
        write_rounded(w, "baselineSkew", s.base_skew);
        write_rounded(w, "candidateSkew", s.cand_skew);
      });
    }
  });
}

std::string_view budget_kind(Budget::Kind kind) {
  return kind == Budget::Kind::kRelative ? "relative" : kind == Budget::Kind::kIncrease ? "increase" : "ceiling";
}

void write_budgets(JsonWriter& w, const std::vector<BudgetResult>& budgets) {
  w.array_field("budgets", [&] {
    for (const auto& r : budgets) {
      w.object([&] {
        w.field("budget", r.budget.text);
        w.field("metric", r.budget.metric);
        w.field("kind", budget_kind(r.budget.kind));
        w.field("limit", rounded(r.budget.limit));
        write_rounded(w, "allowed", r.allowed);
        write_rounded(w, "candidate", r.candidate);
        w.field("exceeded", r.exceeded);
        write_reason(w, "uncheckedReason", r.unchecked_reason);
      });
    }
  });
}

}  // namespace

std::string comparison_json(const Comparison& c, int indent) {
  std::string out;
  JsonWriter w(out, indent);
  const StageAlignment& a = c.alignment;
  w.object([&] {
    write_document_kind(w, kComparisonDocument);
    // The version's first name, kept for the readers written before every document had a kind.
    w.field("comparisonSchemaVersion", kComparisonDocument.schema_version);
    write_run(w, "baseline", c.baseline);
    write_run(w, "candidate", c.candidate);
    w.field("confidence", to_string(c.confidence));
    write_reason(w, "banner", c.banner);
    write_rounded(w, "runtimeCoverage", c.runtime_coverage);
    w.field("matchedCoverage", rounded(c.matched_coverage));
    w.field("comparable", c.comparable);
    write_configuration(w, c.configuration);
    w.array_field("metricDeltas", [&] {
      for (const auto& d : c.metric_deltas) write_metric(w, d);
    });
    write_execution_deltas(w, c.execution_deltas);
    w.object_field("findingsDelta", [&] {
      write_categories(w, "categories", c.findings.categories);
      write_categories(w, "introduced", c.findings.introduced);
      write_categories(w, "resolved", c.findings.resolved);
    });
    write_execution_alignment(w, a.executions);
    w.array_field("stagePairs", [&] {
      for (const auto& p : a.pairs) write_pair(w, p);
    });
    write_sides(w, "unmatched", a.unmatched_base, a.unmatched_cand);
    write_replanned(w, a.replanned);
    write_sides(w, "deltaBookkeeping", a.bookkeeping_base, a.bookkeeping_cand);
    w.object_field("runTime", [&] {
      w.field("pairedMs", a.paired_run_time_ms);
      w.field("replannedMs", a.replanned_run_time_ms);
      w.field("totalMs", a.total_run_time_ms);
      w.field("replannedCountsTowardCoverage", c.replanned_counts_toward_coverage);
    });
    write_stage_deltas(w, c.stage_deltas);
    write_skew_deltas(w, c.skew_deltas);
    w.field("collisionIdentities", c.collision_identities);
    write_stage_sides(w, "baseStages", c.base_stages);
    write_stage_sides(w, "candStages", c.cand_stages);
    w.field("normalizePatterns", c.normalize_patterns);
    write_budgets(w, c.budgets);
  });
  out += '\n';
  return out;
}

}  // namespace sf::report
