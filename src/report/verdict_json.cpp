#include "report/verdict_json.h"

#include <nlohmann/json.hpp>

namespace sf::report {

namespace {

using nlohmann::json;
using namespace sf::results;

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

json point_json(const PointRef& p) {
  json out = {{"resultId", p.result_id},
              {"revision", p.revision},
              {"value", optional_number(p.value)},
              {"status", p.status},
              {"nativeOrder", p.native_order}};
  if (p.ancestry_distance) out["ancestryDistance"] = *p.ancestry_distance;
  if (!p.continuity.empty()) out["continuity"] = p.continuity;
  return out;
}

json method_json(const MethodConfig& m) {
  json out = {{"name", m.name},
              {"version", m.version},
              {"config",
               {{"k", m.k},
                {"window", m.window},
                {"minPoints", m.min_points},
                {"provisionalRelativeNoise", optional_number(m.provisional_relative_noise)},
                {"minEffect", m.min_effect},
                {"ordering", m.ordering},
                {"duplicates", m.duplicates},
                {"referenceStatuses", m.reference_statuses}}}};
  return out;
}

json outcome_json(const MethodOutcome& o) {
  return {{"referenceEstimate", optional_number(o.reference_estimate)},
          {"targetEstimate", optional_number(o.target_estimate)},
          {"effect", {{"measure", o.effect_measure}, {"value", optional_number(o.effect)}}},
          {"noise", {{"value", optional_number(o.noise)}, {"source", o.noise_source}, {"provisional", o.provisional}}},
          {"threshold", optional_number(o.threshold)},
          {"interval95", o.interval_low ? json::array({*o.interval_low, *o.interval_high}) : json(nullptr)},
          {"evidenceCount", o.evidence_count}};
}

json evaluation_json(const Evaluation& e) {
  json out;
  out["series"] = {{"fingerprint", e.series_fingerprint},
                   {"label", e.series_label},
                   {"identity", e.identity},
                   {"quantity", e.quantity},
                   {"unit", e.unit},
                   {"direction", e.direction},
                   {"deterministic", e.deterministic},
                   {"estimator", e.estimator}};
  if (!e.unit_key.empty()) out["unit"] = e.unit_key;
  out["target"] = e.target ? point_json(*e.target) : json(nullptr);
  out["ordering"] = e.ordering;
  json reference = json::array();
  for (const PointRef& p : e.reference) reference.push_back(point_json(p));
  out["reference"] = reference;
  json pairs = json::array();
  for (const PairEvidence& p : e.pairs) {
    pairs.push_back({{"round", p.round},
                     {"baselineResult", p.baseline_result},
                     {"targetResult", p.target_result},
                     {"baseline", p.baseline},
                     {"target", p.target}});
  }
  out["pairs"] = pairs;
  json boundaries = json::array();
  for (const BoundaryEvidence& b : e.boundaries) {
    boundaries.push_back({{"kind", b.kind}, {"at", b.at}, {"reason", b.reason}, {"points", b.points}});
  }
  out["boundaries"] = boundaries;
  json exclusions = json::array();
  for (const Exclusion& x : e.exclusions) exclusions.push_back({{"resultId", x.result_id}, {"reason", x.reason}});
  out["exclusions"] = exclusions;
  out["exclusionsNotListed"] = e.exclusions_not_listed;
  out["caveats"] = e.caveats;
  out["outcome"] = outcome_json(e.outcome);
  out["verdict"] = to_string(e.outcome.verdict);
  out["reason"] = e.outcome.reason;
  out["detail"] = e.detail;
  return out;
}

}  // namespace

std::string verdict_json(const VerdictDocument& d) {
  json root;
  root["schemaVersion"] = 1;
  root["kind"] = "sparkforensics.comparison";
  root["mode"] = d.mode;
  root["method"] = method_json(d.method);
  root["identityPolicy"] = {{"schema", d.policy_schema}, {"version", d.policy_version}};
  if (d.run) {
    root["run"] = {{"runKey", d.run->run_key},      {"profile", d.run->profile}, {"coordinate", d.run->coordinate},
                   {"baseline", d.run->baseline},   {"target", d.run->target},   {"units", d.run->units},
                   {"localOnly", d.run->local_only}};
  }
  if (!d.batch_target.empty()) root["batchTarget"] = d.batch_target;
  json evaluations = json::array();
  for (const Evaluation& e : d.evaluations) evaluations.push_back(evaluation_json(e));
  root["evaluations"] = evaluations;
  json failed = json::array();
  for (const FailedInvariant& f : d.failed_invariants)
    failed.push_back({{"name", f.name}, {"unit", f.unit_key}, {"detail", f.detail}});
  root["failedInvariants"] = failed;
  json missing = json::array();
  for (const MissingSeries& m : d.missing) {
    missing.push_back(
        {{"fingerprint", m.series_fingerprint}, {"label", m.series_label}, {"lastResultId", m.last_result_id}});
  }
  root["missing"] = missing;
  root["caveats"] = d.caveats;
  return root.dump(2) + "\n";
}

}  // namespace sf::report
