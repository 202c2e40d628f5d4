// The verdict document's layout: keys sorted at every level (its first writer was
// nlohmann::json, a sorted map, and CI gates compare its bytes), two spaces of indent, doubles
// as nlohmann prints them, members that only some documents have present exactly when set.
#include "report/verdict_json.h"

#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace sf::report {
namespace {

using results::Evaluation;
using results::PointRef;
using results::VerdictDocument;
using Sorted = nlohmann::json;

// Every optional member set, every list with an element, and the awkward values: a NaN, a
// whole double, a control character.
VerdictDocument everything() {
  VerdictDocument d;
  d.mode = "run";
  d.policy_schema = "sf.identity";
  d.policy_version = 3;
  d.method.provisional_relative_noise = 0.05;
  d.method.reference_statuses = {"ok", "partial"};
  d.run = results::PlannedRun{.run_key = "R1",
                              .profile = "variants",
                              .coordinate = "parameters.role",
                              .baseline = "baseline",
                              .target = "candidate",
                              .units = {"u1", "u2"},
                              .local_only = true};
  d.batch_target = "runKey R1";
  Evaluation e;
  e.series_fingerprint = "f00d";
  e.series_label = "job appWallClockMs";
  e.identity = {{"subject", "job"}, {"environment.cluster", "c1"}, {"Zeta", "upper case sorts first"}};
  e.quantity = "appWallClockMs";
  e.unit = "ms";
  e.direction = "lower-is-better";
  e.deterministic = false;
  e.estimator = "median";
  e.unit_key = "u1";
  e.target = PointRef{.result_id = "t1",
                      .revision = "r9",
                      .value = 1200.0,
                      .status = "ok",
                      .native_order = 9,
                      .ancestry_distance = 0,
                      .continuity = {"a -> b"}};
  e.ordering = "ancestry";
  e.reference = {PointRef{.result_id = "p1",
                          .revision = "r8",
                          .value = std::numeric_limits<double>::quiet_NaN(),
                          .status = "ok",
                          .native_order = 8},
                 PointRef{.result_id = "p0", .revision = "r7", .status = "error\x01", .native_order = 7}};
  e.pairs = {{.round = 1, .baseline_result = "b1", .target_result = "c1", .baseline = 3.0, .target = 2.5}};
  e.boundaries = {{.kind = "reset", .at = "r5", .reason = "by hand", .points = 4}};
  e.exclusions = {{.result_id = "x1", .reason = "status-error"}};
  e.exclusions_not_listed = 2;
  e.caveats = {"short history"};
  e.outcome.reference_estimate = 1000;
  e.outcome.target_estimate = 1200;
  e.outcome.effect_measure = "relative";
  e.outcome.effect = 0.2;
  e.outcome.noise = 0.01;
  e.outcome.noise_source = "mad";
  e.outcome.provisional = true;
  e.outcome.threshold = 0.03;
  e.outcome.interval_low = 0.9;
  e.outcome.interval_high = 1.1;
  e.outcome.evidence_count = 6;
  e.outcome.verdict = results::Verdict::kRegressed;
  e.outcome.reason = "indicated";
  e.detail = "more";
  d.evaluations = {e, Evaluation{}};
  d.failed_invariants = {{.name = "two-sides", .unit_key = "u2", .detail = "one side"}};
  d.missing = {{.series_fingerprint = "beef", .series_label = "gone", .last_result_id = "p0"}};
  d.caveats = {"local only"};
  return d;
}

TEST(VerdictJson, IsItsOwnSortedParseAndDump) {
  for (const VerdictDocument& d : {everything(), VerdictDocument{}}) {
    const std::string text = verdict_json(d);
    Sorted parsed;
    ASSERT_NO_THROW(parsed = Sorted::parse(text)) << text;
    EXPECT_EQ(text, parsed.dump(2, ' ', false, Sorted::error_handler_t::replace) + "\n");
  }
}

TEST(VerdictJson, WritesTheMembersSomeDocumentsHaveOnlyWhenSet) {
  const Sorted full = Sorted::parse(verdict_json(everything()));
  EXPECT_EQ(full["batchTarget"], "runKey R1");
  EXPECT_EQ(full["run"]["units"].size(), 2u);
  EXPECT_EQ(full["method"]["config"]["k"].dump(), "3.0");  // a double stays a double
  const Sorted& e = full["evaluations"][0];
  EXPECT_EQ(e["unit"], "u1");  // the comparison unit, not the series' unit
  EXPECT_EQ(e["series"]["unit"], "ms");
  EXPECT_EQ(e["target"]["ancestryDistance"], 0);
  EXPECT_TRUE(e["reference"][0]["value"].is_null());  // NaN
  EXPECT_FALSE(e["reference"][0].contains("ancestryDistance"));
  EXPECT_FALSE(e["reference"][0].contains("continuity"));
  EXPECT_EQ(e["outcome"]["interval95"].dump(), "[0.9,1.1]");
  const Sorted& bare = full["evaluations"][1];
  EXPECT_FALSE(bare.contains("unit"));
  EXPECT_TRUE(bare["target"].is_null());
  EXPECT_TRUE(bare["outcome"]["interval95"].is_null());

  const Sorted empty = Sorted::parse(verdict_json(VerdictDocument{}));
  EXPECT_FALSE(empty.contains("run"));
  EXPECT_FALSE(empty.contains("batchTarget"));
  EXPECT_EQ(empty["schemaVersion"], 1);
  EXPECT_EQ(empty["kind"], "sparkforensics.verdict");
}

}  // namespace
}  // namespace sf::report
