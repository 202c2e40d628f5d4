#include "report/verdict_json.h"

#include "common/json_writer.h"
#include "report/document_kind.h"

namespace sf::report {

namespace {

using namespace sf::results;

// Every object below writes its members in sorted key order (byte order, as std::map keeps
// them): the document's first writer was nlohmann::json, whose objects are sorted maps, and the
// bytes stay the ones CI gates have been comparing.

void write_point(JsonWriter& w, const PointRef& p) {
  w.object([&] {
    if (p.ancestry_distance) w.field("ancestryDistance", *p.ancestry_distance);
    if (!p.continuity.empty()) w.field("continuity", p.continuity);
    w.field("nativeOrder", p.native_order);
    w.field("resultId", p.result_id);
    w.field("revision", p.revision);
    w.field("status", p.status);
    w.field("value", p.value);
  });
}

void write_method(JsonWriter& w, const MethodConfig& m) {
  w.object_field("method", [&] {
    w.object_field("config", [&] {
      w.field("duplicates", m.duplicates);
      w.field("k", m.k);
      w.field("minEffect", m.min_effect);
      w.field("minPoints", m.min_points);
      w.field("ordering", m.ordering);
      w.field("provisionalRelativeNoise", m.provisional_relative_noise);
      w.field("referenceStatuses", m.reference_statuses);
      w.field("window", m.window);
    });
    w.field("name", m.name);
    w.field("version", m.version);
  });
}

void write_outcome(JsonWriter& w, const MethodOutcome& o) {
  w.object_field("outcome", [&] {
    w.object_field("effect", [&] {
      w.field("measure", o.effect_measure);
      w.field("value", o.effect);
    });
    w.field("evidenceCount", o.evidence_count);
    w.key("interval95");
    if (o.interval_low) {
      w.array([&] {
        w.number(*o.interval_low);
        w.value(o.interval_high);
      });
    } else {
      w.null();
    }
    w.object_field("noise", [&] {
      w.field("provisional", o.provisional);
      w.field("source", o.noise_source);
      w.field("value", o.noise);
    });
    w.field("referenceEstimate", o.reference_estimate);
    w.field("targetEstimate", o.target_estimate);
    w.field("threshold", o.threshold);
  });
}

void write_series(JsonWriter& w, const Evaluation& e) {
  w.object_field("series", [&] {
    w.field("deterministic", e.deterministic);
    w.field("direction", e.direction);
    w.field("estimator", e.estimator);
    w.field("fingerprint", e.series_fingerprint);
    w.object_field("identity", [&] {
      for (const auto& [name, value] : e.identity) w.field(name, value);
    });
    w.field("label", e.series_label);
    w.field("quantity", e.quantity);
    w.field("unit", e.unit);
  });
}

void write_evaluation(JsonWriter& w, const Evaluation& e) {
  w.object([&] {
    w.array_field("boundaries", [&] {
      for (const BoundaryEvidence& b : e.boundaries) {
        w.object([&] {
          w.field("at", b.at);
          w.field("kind", b.kind);
          w.field("points", b.points);
          w.field("reason", b.reason);
        });
      }
    });
    w.field("caveats", e.caveats);
    w.field("detail", e.detail);
    w.array_field("exclusions", [&] {
      for (const Exclusion& x : e.exclusions) {
        w.object([&] {
          w.field("reason", x.reason);
          w.field("resultId", x.result_id);
        });
      }
    });
    w.field("exclusionsNotListed", e.exclusions_not_listed);
    w.field("ordering", e.ordering);
    write_outcome(w, e.outcome);
    w.array_field("pairs", [&] {
      for (const PairEvidence& p : e.pairs) {
        w.object([&] {
          w.field("baseline", p.baseline);
          w.field("baselineResult", p.baseline_result);
          w.field("round", p.round);
          w.field("target", p.target);
          w.field("targetResult", p.target_result);
        });
      }
    });
    w.field("reason", e.outcome.reason);
    w.array_field("reference", [&] {
      for (const PointRef& p : e.reference) write_point(w, p);
    });
    write_series(w, e);
    w.key("target");
    if (e.target) {
      write_point(w, *e.target);
    } else {
      w.null();
    }
    if (!e.unit_key.empty()) w.field("unit", e.unit_key);
    w.field("verdict", to_string(e.outcome.verdict));
  });
}

}  // namespace

std::string verdict_json(const VerdictDocument& d) {
  std::string out;
  JsonWriter w(out, 2);
  w.object([&] {
    if (!d.batch_target.empty()) w.field("batchTarget", d.batch_target);
    w.field("caveats", d.caveats);
    w.array_field("evaluations", [&] {
      for (const Evaluation& e : d.evaluations) write_evaluation(w, e);
    });
    w.array_field("failedInvariants", [&] {
      for (const FailedInvariant& f : d.failed_invariants) {
        w.object([&] {
          w.field("detail", f.detail);
          w.field("name", f.name);
          w.field("unit", f.unit_key);
        });
      }
    });
    w.object_field("identityPolicy", [&] {
      w.field("schema", d.policy_schema);
      w.field("version", d.policy_version);
    });
    w.field("kind", kVerdictDocument.kind);
    write_method(w, d.method);
    w.array_field("missing", [&] {
      for (const MissingSeries& m : d.missing) {
        w.object([&] {
          w.field("fingerprint", m.series_fingerprint);
          w.field("label", m.series_label);
          w.field("lastResultId", m.last_result_id);
        });
      }
    });
    w.field("mode", d.mode);
    if (d.run) {
      w.object_field("run", [&] {
        w.field("baseline", d.run->baseline);
        w.field("coordinate", d.run->coordinate);
        w.field("localOnly", d.run->local_only);
        w.field("profile", d.run->profile);
        w.field("runKey", d.run->run_key);
        w.field("target", d.run->target);
        w.field("units", d.run->units);
      });
    }
    w.field("schemaVersion", kVerdictDocument.schema_version);
  });
  out += '\n';
  return out;
}

}  // namespace sf::report
