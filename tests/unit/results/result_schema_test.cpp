// The result document's JSON form and the identity policy's: round trips, content ids, and
// errors that name the field.
#include <gtest/gtest.h>

#include "results/identity_policy.h"
#include "results/result_json.h"
#include "results/series.h"
#include "trend_fixture.h"

namespace sf::results {
namespace {

constexpr const char* kValid = R"({
  "schema": "sparkforensics.result/1",
  "subject": "tpcds-q64",
  "revision": {"tree": "abc123", "parents": ["def456"], "benchmarkTree": "b1", "clean": true},
  "parameters": {"role": "candidate", "scale": 100},
  "environment": {"cluster": "ci-large", "sparkVersion": "3.5.1"},
  "procedure": {"runKey": "pr-17", "round": 2, "slot": 4},
  "status": "censored",
  "quantities": [
    {"name": "wallClockMs", "value": 1234.5, "unit": "ms", "direction": "lower"},
    {"name": "rowsOut", "value": 42, "unit": "rows", "direction": "none", "deterministic": true}
  ]
})";

TEST(ResultJson, ParsesEveryField) {
  auto doc = parse_result_json(kValid, "r.json");
  ASSERT_TRUE(doc.has_value()) << doc.error().message();
  EXPECT_EQ(doc->subject, "tpcds-q64");
  EXPECT_EQ(doc->revision.parents, std::vector<std::string>{"def456"});
  EXPECT_EQ(doc->parameters.at("scale"), "100");
  EXPECT_EQ(doc->procedure.round, 2);
  EXPECT_EQ(doc->status, RunStatus::kCensored);
  ASSERT_EQ(doc->quantities.size(), 2u);
  EXPECT_EQ(doc->quantities[0].name, "rowsOut");  // sorted
  EXPECT_TRUE(doc->quantities[0].deterministic);
  EXPECT_EQ(doc->quantity("wallClockMs")->direction, Direction::kLowerIsBetter);
}

TEST(ResultJson, RoundTripsCanonicallyAndIdsFollowContent) {
  auto doc = parse_result_json(kValid, "r.json");
  const std::string canonical = result_to_json(*doc);
  auto again = parse_result_json(canonical, "canonical");
  ASSERT_TRUE(again.has_value()) << again.error().message();
  EXPECT_EQ(result_to_json(*again), canonical);
  EXPECT_EQ(result_id(*again), result_id(*doc));
  again->quantities[1].value += 1;
  EXPECT_NE(result_id(*again), result_id(*doc));
  EXPECT_EQ(result_id(*doc).size(), 34u);
}

TEST(ResultJson, ErrorsNameTheSourceAndTheField) {
  struct Case {
    std::string json;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"{", "r.json: not valid JSON"},
      {R"({"schema": "x", "subject": "s", "quantities": []})", "r.json: schema: expected"},
      {R"({"schema": "sparkforensics.result/1", "quantities": []})", "r.json: subject: missing"},
      {R"({"schema": "sparkforensics.result/1", "subject": "s", "quantities": [], "colour": 1})",
       "r.json: colour: unknown field"},
      {R"({"schema": "sparkforensics.result/1", "subject": "s", "quantities": [{"name": "a", "value": "1", "unit": "ms"}]})",
       "r.json: quantities[0].value: expected a number"},
      {R"({"schema": "sparkforensics.result/1", "subject": "s", "quantities": [{"name": "a", "value": 1, "unit": "ms", "direction": "up"}]})",
       "r.json: quantities[0].direction: expected one of lower, higher, none"},
      {R"({"schema": "sparkforensics.result/1", "subject": "s", "quantities": [{"name": "a", "value": 1, "unit": "ms"}, {"name": "a", "value": 2, "unit": "ms"}]})",
       "r.json: quantities[1].name: duplicate \"a\""},
      {R"({"schema": "sparkforensics.result/1", "subject": "s", "status": "fine", "quantities": []})",
       "r.json: status: expected one of"},
      {R"({"schema": "sparkforensics.result/1", "subject": "s", "procedure": {"round": 1.5}, "quantities": []})",
       "r.json: procedure.round: expected an integer"},
      {R"({"schema": "sparkforensics.result/1", "subject": "s", "revision": {"parents": ["a"]}, "quantities": []})",
       "r.json: revision.parents: given without revision.tree"},
  };
  for (const Case& c : cases) {
    auto doc = parse_result_json(c.json, "r.json");
    ASSERT_FALSE(doc.has_value()) << c.json;
    EXPECT_EQ(doc.error().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(doc.error().message().rfind(c.expected, 0), 0u) << doc.error().message();
  }
}

TEST(IdentityPolicy, ParsesAndRoundTrips) {
  auto policy = parse_identity_policy(R"({
    "schema": "sparkforensics.identity-policy/1", "version": 4,
    "identity": {"parameters": ["role", "scale"], "environment": ["cluster"]},
    "continuity": [{"coordinate": "subject", "from": "q64-old", "to": "q64", "reason": "renamed"}],
    "resets": [{"atRevision": "abc", "reason": "new disks"}],
    "acceptedChangePoints": [{"match": {"subject": "q64"}, "quantity": "wallClockMs", "atResult": "r-1", "reason": "accepted"}]
  })",
                                      "p.json");
  ASSERT_TRUE(policy.has_value()) << policy.error().message();
  EXPECT_EQ(policy->version, 4);
  EXPECT_FALSE(policy->all_parameters);
  EXPECT_EQ(policy->boundaries.size(), 2u);
  auto again = parse_identity_policy(identity_policy_to_json(*policy), "again");
  ASSERT_TRUE(again.has_value()) << again.error().message();
  EXPECT_EQ(identity_policy_to_json(*again), identity_policy_to_json(*policy));
}

TEST(IdentityPolicy, ErrorsNameTheField) {
  EXPECT_EQ(parse_identity_policy(R"({"schema": "sparkforensics.identity-policy/1"})", "p.json").error().message(),
            "p.json: version: expected an integer >= 1");
  EXPECT_EQ(parse_identity_policy(R"({"schema": "sparkforensics.identity-policy/1", "version": 1,
      "continuity": [{"coordinate": "colour", "from": "a", "to": "b"}]})",
                                  "p.json")
                .error()
                .message(),
            "p.json: continuity[0].coordinate: not a coordinate path");
  EXPECT_EQ(parse_identity_policy(R"({"schema": "sparkforensics.identity-policy/1", "version": 1,
      "resets": [{"reason": "?"}]})",
                                  "p.json")
                .error()
                .message(),
            "p.json: resets[0]: needs exactly one of atRevision and atResult");
}

TEST(IdentityPolicy, ProjectionChoosesTheSeries) {
  using testing::ResultBuilder;
  const ResultDocument a = ResultBuilder()
                               .param("role", "x")
                               .param("seed", "1")
                               .env("cluster", "c")
                               .env("kernel", "5")
                               .duration(1)
                               .document();
  const ResultDocument b = ResultBuilder()
                               .param("role", "x")
                               .param("seed", "2")
                               .env("cluster", "c")
                               .env("kernel", "6")
                               .duration(1)
                               .document();
  IdentityPolicy all;
  EXPECT_NE(comparison_identity(a, all), comparison_identity(b, all));  // every parameter counts
  IdentityPolicy some;
  some.all_parameters = false;
  some.parameters = {"role"};
  EXPECT_EQ(comparison_identity(a, some), comparison_identity(b, some));  // kernel is not identity by default
  EXPECT_EQ(series_fingerprint(comparison_identity(a, some), "q", kResultValueEstimator, some.schema_label()),
            series_fingerprint(comparison_identity(b, some), "q", kResultValueEstimator, some.schema_label()));
  EXPECT_NE(series_fingerprint(comparison_identity(a, some), "q", kResultValueEstimator, some.schema_label()),
            series_fingerprint(comparison_identity(a, some), "q", "median/2", some.schema_label()));
}

}  // namespace
}  // namespace sf::results
