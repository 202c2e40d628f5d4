#include "report/findings_json.h"

#include <algorithm>

#include "common/json_writer.h"

namespace sf::report {

namespace {

using namespace sf::analysis;

void write_impact(JsonWriter& w, const ImpactEstimate& impact) {
  w.object([&] {
    w.field("basis", to_string(impact.basis));
    w.key("wallClock");
    if (impact.wall_clock) {
      w.object([&] {
        w.field("lowMs", impact.wall_clock->low_ms);
        w.field("highMs", impact.wall_clock->high_ms);
      });
    } else {
      w.null();
    }
    w.field("estimateMethod", to_string(impact.method));
    w.key("rawWaste");
    if (impact.raw_waste) {
      w.object([&] {
        w.field("value", impact.raw_waste->value);
        w.field("unit", to_string(impact.raw_waste->unit));
      });
    } else {
      w.null();
    }
  });
}

double threshold_value(const Thresholds& thresholds, std::string_view name) {
  const ThresholdInfo* info = find_threshold(name);
  return info != nullptr ? thresholds.*(info->field) : 0.0;
}

}  // namespace

void write_stage_refs(JsonWriter& w, const std::vector<StageRef>& stages) {
  w.array([&] {
    for (const StageRef& s : stages) {
      w.object([&] {
        w.field("stageId", s.stage_id);
        w.field("attemptId", s.attempt_id);
      });
    }
  });
}

void write_finding(JsonWriter& w, const Finding& f, const Thresholds& thresholds) {
  w.object([&] {
    w.field("id", f.id);
    w.field("type", f.type);
    w.field("rule", f.rule);
    w.field("scope", to_string(f.scope));
    w.field("stageIds", f.stage_ids());
    w.key("stageAttempts");
    write_stage_refs(w, f.stages);
    w.field("sqlExecutionId", f.sql_execution_id);
    w.field("title", f.title);
    w.field("explanation", f.explanation);
    w.field("recommendation", f.recommendation);
    w.array_field("settings", [&] {
      for (const auto& s : f.settings) {
        w.object([&] {
          w.field("key", s.key);
          w.field("suggestedValue", s.suggested_value);
          w.field("currentValue", s.current_value);
          w.field("effectiveValue", s.effective_value);
        });
      }
    });
    w.array_field("evidence", [&] {
      for (const auto& e : f.evidence) {
        w.object([&] {
          w.field("name", e.name);
          w.field("value", e.value);
          w.field("unit", e.unit);
        });
      }
    });
    w.array_field("thresholds", [&] {
      for (const auto& name : f.thresholds) {
        w.object([&] {
          w.field("name", name);
          w.field("value", threshold_value(thresholds, name));
        });
      }
    });
    w.field("confidence", to_string(f.confidence));
    w.field("impactBand", to_string(f.band));
    w.key("validationRequired");
    if (f.validation_caveat.empty()) {
      w.null();
    } else {
      w.string(f.validation_caveat);
    }
    w.key("impactEstimate");
    write_impact(w, f.impact);
    w.array_field("alsoAnswers", [&] {
      for (const AnsweredFinding& a : f.also_answers) {
        w.object([&] {
          w.field("why", a.why);
          w.key("finding");
          write_finding(w, a.finding, thresholds);
        });
      }
    });
  });
}

void write_findings(JsonWriter& w, const Analysis& analysis) {
  w.array([&] {
    for (const Finding& f : analysis.findings) write_finding(w, f, analysis.thresholds);
  });
}

void write_rollup(JsonWriter& w, const Analysis& analysis) {
  w.array([&] {
    for (const RollupGroup& g : analysis.rollup.groups) {
      w.object([&] {
        w.field("type", g.type);
        w.field("tier", to_string(g.tier));
        switch (g.tier) {
          case RollupTier::kTime:
            w.field("label", "recoverable wall-clock");
            w.object_field("recoverableMs", [&] {
              w.field("low", g.recoverable_low_ms);
              w.field("high", g.recoverable_high_ms);
            });
            w.field("naiveSumHighMs", g.naive_high_ms);
            w.field("fixFirst", g.fix_first);
            break;
          case RollupTier::kResource:
            w.field("label", "resource-cost projection");
            w.field("unit", to_string(*g.unit));
            w.field("total", g.resource_total);
            break;
          case RollupTier::kCount: w.field("label", "count"); break;
        }
        w.object_field("bandCounts", [&] {
          for (const auto& [band, count] : g.band_counts) w.field(to_string(band), count);
        });
        w.field("bestImpactBand", to_string(g.best_band));
        w.field("bestFindingId", g.best_finding_id);
        w.field("findingIds", g.finding_ids);
      });
    }
  });
}

void write_analysis_config(JsonWriter& w, const Analysis& analysis) {
  const Thresholds defaults;
  w.object([&] {
    w.array_field("thresholds", [&] {
      for (const ThresholdInfo& info : threshold_registry()) {
        const bool overridden = std::find(analysis.overridden_thresholds.begin(), analysis.overridden_thresholds.end(),
                                          info.name) != analysis.overridden_thresholds.end();
        w.object([&] {
          w.field("name", info.name);
          w.field("value", analysis.thresholds.*(info.field));
          w.field("default", defaults.*(info.field));
          w.field("unit", info.unit);
          w.field("overridden", overridden);
        });
      }
    });
    w.field("guardViolations", analysis.guard_violations);
  });
}

}  // namespace sf::report
