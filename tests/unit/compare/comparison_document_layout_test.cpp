// The comparison document and the plan diffs beside it are written by a streaming writer
// (common/json_writer.h). Their layout is the one their first writer, nlohmann::ordered_json,
// gave them: the bytes equal nlohmann's dump of the parsed document (pretty and compact), and
// every object's members come in the order docs/comparison-schema.md lists them.
#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "compare/budget.h"
#include "compare/run_comparison.h"
#include "generated_model.h"
#include "report/comparison_json.h"
#include "report/document_kind.h"
#include "report/plan_diff_json.h"

namespace sf::compare {
namespace {

using Json = nlohmann::ordered_json;
using KeyOrders = std::map<std::string, std::string>;

model::AppModel generated_run(uint64_t seed, int scale) {
  loggen::GeneratorConfig config = loggen::GeneratorConfig::small();
  config.seed = seed;
  config.scale = scale;
  config.tasks_per_stage = 24;
  return test_logs::generated_model(config, "layout");
}

// nlohmann's bytes for the same document, as the old tree writer produced them.
std::string reparsed(const std::string& text, int indent) {
  return Json::parse(text).dump(indent, ' ', false, Json::error_handler_t::replace);
}

// The members of every object, by path ("/stagePairs[]"): objects at one path agree.
void collect_key_orders(const Json& v, const std::string& path, KeyOrders& out) {
  if (v.is_object()) {
    std::string keys;
    for (const auto& [key, member] : v.items()) {
      keys += keys.empty() ? key : " " + key;
      collect_key_orders(member, path + "/" + key, out);
    }
    const auto [it, added] = out.emplace(path, keys);
    EXPECT_EQ(it->second, keys) << path;
  } else if (v.is_array()) {
    for (const auto& item : v) collect_key_orders(item, path + "[]", out);
  }
}

KeyOrders key_orders(const std::string& text) {
  KeyOrders out;
  collect_key_orders(Json::parse(text), "", out);
  return out;
}

// A run that does its work twice against one that does it once (unmatched stages, low
// confidence), with budgets, a normalizing pattern, and the blocks generated runs leave empty
// filled by hand: a setting difference, a replanned group, a collision, NaN and unset values.
Comparison everything(const model::AppModel& base, const model::AppModel& cand) {
  CompareOptions options;
  options.alignment.normalizer = *ComparisonNormalizer::with_patterns({"/tmp/[a-z0-9]+"});
  Comparison c = compare_runs(base, cand, options);
  c.normalize_patterns = {"/tmp/[a-z0-9]+"};
  c.budgets = evaluate_budgets({*parse_budget("wallClock=+5%"), *parse_budget("spill=0"), *parse_budget("gcTime=+10%")},
                               c.metric_deltas);
  c.configuration.push_back({.key = "spark.sql.shuffle.partitions",
                             .baseline = "20",
                             .candidate = std::nullopt,
                             .baseline_effective = "20",
                             .candidate_effective = "200",
                             .same_in_effect = false});
  c.alignment.replanned.push_back({.base_execution_id = 1,
                                   .cand_execution_id = 2,
                                   .base_stage_ids = {3, 4},
                                   .cand_stage_ids = {5},
                                   .base_totals = {.executor_run_time_ms = 10},
                                   .cand_totals = {.task_skew = 1.5}});
  c.collision_identities = {"stage \x01 collision"};
  c.banner = "runs differ";
  if (!c.metric_deltas.empty()) c.metric_deltas[0].baseline = std::numeric_limits<double>::quiet_NaN();
  return c;
}

const KeyOrders& comparison_key_orders() {
  static const std::string totals =
      "executorRunTimeMs executorCpuTimeMs taskTimeMs durationMs jvmGcTimeMs inputBytes outputBytes "
      "shuffleReadBytes shuffleWriteBytes memorySpillBytes diskSpillBytes tasks failedTasks taskSkew";
  static const std::string run = "label path appId appName sparkVersion durationMs";
  static const std::string pair =
      "baselineStageId candidateStageId baselineExecutionId candidateExecutionId method byPosition score quality "
      "ambiguous ambiguousWith";
  static const std::string side = "stageId name executionId totals";
  static const std::string category = "rule band baseline candidate";
  static const KeyOrders orders = {
      {"",
       "kind schemaVersion comparisonSchemaVersion baseline candidate confidence banner runtimeCoverage "
       "matchedCoverage comparable "
       "configurationDifferences metricDeltas executionDeltas findingsDelta executionAlignment stagePairs unmatched "
       "replanned deltaBookkeeping runTime stageDeltas stageSkewDeltas collisionIdentities baseStages candStages "
       "normalizePatterns budgets"},
      {"/baseline", run},
      {"/candidate", run},
      {"/configurationDifferences[]", "key baseline candidate baselineEffective candidateEffective sameInEffect"},
      {"/metricDeltas[]", "name unit baseline candidate delta relativeChange direction noise unavailableReason"},
      {"/executionDeltas[]",
       "baselineExecutionId candidateExecutionId description baselineDurationMs candidateDurationMs deltaMs noiseMs "
       "direction"},
      {"/findingsDelta", "categories introduced resolved"},
      {"/findingsDelta/categories[]", category},
      {"/findingsDelta/introduced[]", category},
      {"/executionAlignment", "baselineExecutions candidateExecutions paired agreement accepted bounded pairs"},
      {"/executionAlignment/pairs[]", "baselineExecutionId candidateExecutionId score"},
      {"/stagePairs[]", pair},
      {"/stagePairs[]/ambiguousWith", "baseline candidate"},
      {"/unmatched", "baseline candidate"},
      {"/replanned[]",
       "baselineExecutionId candidateExecutionId baselineStageIds candidateStageIds baselineTotals candidateTotals"},
      {"/replanned[]/baselineTotals", totals},
      {"/replanned[]/candidateTotals", totals},
      {"/deltaBookkeeping", "baseline candidate"},
      {"/runTime", "pairedMs replannedMs totalMs replannedCountsTowardCoverage"},
      {"/stageDeltas[]", "pair baseline candidate executorRunTimeDeltaMs"},
      {"/stageDeltas[]/pair", pair},
      {"/stageDeltas[]/pair/ambiguousWith", "baseline candidate"},
      {"/stageDeltas[]/baseline", side},
      {"/stageDeltas[]/baseline/totals", totals},
      {"/stageDeltas[]/candidate", side},
      {"/stageDeltas[]/candidate/totals", totals},
      {"/stageSkewDeltas[]", "baselineStageId candidateStageId baselineSkew candidateSkew"},
      {"/baseStages[]", side},
      {"/baseStages[]/totals", totals},
      {"/candStages[]", side},
      {"/candStages[]/totals", totals},
      {"/budgets[]", "budget metric kind limit allowed candidate exceeded uncheckedReason"},
  };
  return orders;
}

class DocumentLayout : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    base_ = new model::AppModel(generated_run(11, 1));
    cand_ = new model::AppModel(generated_run(12, 2));
  }
  static void TearDownTestSuite() {
    delete base_;
    delete cand_;
  }
  static model::AppModel* base_;
  static model::AppModel* cand_;
};
model::AppModel* DocumentLayout::base_ = nullptr;
model::AppModel* DocumentLayout::cand_ = nullptr;

TEST_F(DocumentLayout, TheComparisonIsNlohmannsDumpOfItselfPrettyAndCompact) {
  const Comparison c = everything(*base_, *cand_);
  for (int indent : {2, -1}) {
    const std::string text = report::comparison_json(c, indent);
    ASSERT_EQ(text, reparsed(text, indent) + "\n") << "indent " << indent;
  }
  const Json doc = Json::parse(report::comparison_json(c, -1));
  EXPECT_TRUE(doc["metricDeltas"][0]["baseline"].is_null());  // NaN
  EXPECT_TRUE(doc["configurationDifferences"][0]["candidate"].is_null());
  EXPECT_TRUE(doc["baseline"]["durationMs"].is_number_integer());
  EXPECT_TRUE(doc["matchedCoverage"].is_number_float());
  EXPECT_EQ(doc["kind"], "sparkforensics.comparison");
  EXPECT_EQ(doc["schemaVersion"], report::kComparisonDocument.schema_version);
  EXPECT_EQ(doc["comparisonSchemaVersion"], report::kComparisonDocument.schema_version);
}

TEST_F(DocumentLayout, TheComparisonsMembersComeInTheSchemasOrder) {
  const KeyOrders written = key_orders(report::comparison_json(everything(*base_, *cand_), -1));
  for (const auto& [path, keys] : comparison_key_orders()) {
    const auto it = written.find(path);
    ASSERT_NE(it, written.end()) << "no object at " << path;
    EXPECT_EQ(it->second, keys) << path;
  }
  for (const auto& [path, keys] : written) {
    // The resolved categories are absent when nothing was resolved: not a path of its own.
    if (path != "/findingsDelta/resolved[]") {
      EXPECT_TRUE(comparison_key_orders().count(path)) << "unlisted " << path;
    }
  }
}

TEST_F(DocumentLayout, ThePlanDiffsAreNlohmannsDumpOfThemselvesInTheirOrder) {
  const Comparison c = compare_runs(*base_, *cand_);
  const std::string text = report::plan_diffs_json(c, *base_, *cand_, {}, 3);
  ASSERT_EQ(text, reparsed(text, -1));
  ASSERT_EQ(Json::parse(text).size(), 3u);
  const std::string node = "nodeId nodeName simpleString children stageIds change counterpart";
  const KeyOrders expected = {
      {"[]", "baselineExecutionId candidateExecutionId description counts baseline candidate"},
      {"[]/counts", "same changed removed added"},
      {"[]/baseline", "executionId durationMs nodes"},
      {"[]/baseline/nodes[]", node},
      {"[]/candidate", "executionId durationMs nodes"},
      {"[]/candidate/nodes[]", node},
  };
  EXPECT_EQ(key_orders(text), expected);

  const auto& pair = c.alignment.executions.pairs.front();
  const std::string one = report::plan_diff_json(*base_->sql_execution(pair.base_execution_id),
                                                 *cand_->sql_execution(pair.cand_execution_id));
  EXPECT_EQ(one, reparsed(one, -1));
  // The dashboard's one diff is a document of its own: a list's entry with its kind in front.
  Json as_document = Json::parse(one);
  EXPECT_EQ(as_document["kind"], "sparkforensics.planDiff");
  EXPECT_EQ(as_document["schemaVersion"], 1);
  as_document.erase("kind");
  as_document.erase("schemaVersion");
  EXPECT_EQ(as_document.dump(), Json::parse(text)[0].dump());
  EXPECT_EQ(report::plan_diffs_json(c, *base_, *cand_, {}, 0), "[]");
}

}  // namespace
}  // namespace sf::compare
