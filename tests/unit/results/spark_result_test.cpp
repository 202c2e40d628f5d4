// Results from Spark event logs: the quantities the model yields, and stage keys that do not
// depend on ids that change between runs.
#include "results/spark_result.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "analysis/cost.h"
#include "results/result_json.h"
#include "results/stage_key.h"
#include "loggen/log_generator.h"
#include "model/load.h"

namespace sf::results {
namespace {

namespace fs = std::filesystem;

model::AppModel generated_model(uint64_t seed) {
  loggen::GeneratorConfig config = loggen::GeneratorConfig::small();
  config.seed = seed;
  const fs::path path =
      fs::temp_directory_path() / ("sf-spark-result-" + std::to_string(getpid()) + "-" + std::to_string(seed) + ".log");
  {
    std::ofstream out(path, std::ios::binary);
    loggen::generate(
        config, [&](std::string_view line) { out.write(line.data(), static_cast<std::streamsize>(line.size())); },
        nullptr);
  }
  auto loaded = model::load_event_log(path.string());
  fs::remove(path);
  EXPECT_TRUE(loaded.has_value());
  return loaded ? std::move(*loaded) : model::AppModel{};
}

TEST(StageKey, TheSameApplicationKeysItsStagesAlikeAcrossRuns) {
  // Two runs of one application (different seeds: different timings and sizes): the stage
  // series continue from one run to the next.
  const model::AppModel first = generated_model(1);
  const model::AppModel second = generated_model(2);
  const auto keys = stage_keys(first);
  ASSERT_FALSE(keys.empty());
  std::set<std::string> a, b;
  for (const auto& [id, key] : keys) a.insert(key);
  for (const auto& [id, key] : stage_keys(second)) b.insert(key);
  // A stage whose tasks reported no SQL metric in one run falls back to its whole plan there;
  // every other stage keeps its key.
  std::vector<std::string> shared;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(shared));
  EXPECT_GE(shared.size() * 10, a.size() * 9) << shared.size() << " of " << a.size() << " keys shared";
  EXPECT_EQ(a.size(), b.size());
  for (const model::StageAttempt& stage : first.stages) {
    if (stage.duration_ms()) {
      EXPECT_TRUE(keys.count(stage.stage_id)) << "stage " << stage.stage_id << " ran";
    }
  }
}

TEST(SparkResult, QuantitiesFromTheModel) {
  const model::AppModel app = generated_model(1);
  SparkResultContext context;
  context.revision.tree = "abc";
  context.environment["cluster"] = "test";
  const ResultDocument result = result_from_app_model(app, context);
  EXPECT_EQ(result.subject, app.app.name);
  EXPECT_EQ(result.environment.at("cluster"), "test");
  EXPECT_EQ(result.environment.at("sparkVersion"), app.app.spark_version);
  for (const char* name :
       {"appWallClockMs", "executorRunTimeMs", "executorCpuTimeMs", "jvmGcTimeMs", "shuffleReadBytes",
        "shuffleWriteBytes", "spillDiskBytes", "inputBytes", "failedTasks", "coreHours"}) {
    EXPECT_NE(result.quantity(name), nullptr) << name;
  }
  EXPECT_TRUE(result.quantity("inputBytes")->deterministic);
  EXPECT_EQ(result.quantity("appWallClockMs")->value, static_cast<double>(*app.app.duration_ms()));
  int64_t run_time = 0;
  for (const auto& s : app.stages) run_time += s.metric(model::TaskMetric::kExecutorRunTimeMs);
  EXPECT_EQ(result.quantity("executorRunTimeMs")->value, static_cast<double>(run_time));
  EXPECT_GT(result.quantity("coreHours")->value, 0);
  // The cost at the context's rate card, in its currency: the analysis' own figure.
  ASSERT_NE(result.quantity("cost"), nullptr);
  EXPECT_EQ(result.quantity("cost")->unit, "USD");
  EXPECT_DOUBLE_EQ(result.quantity("cost")->value, analysis::application_cost(app, analysis::default_rate_card()));
  context.rate_card = {"ours", "EUR", 1, 0, "test", "2025-01"};
  const ResultDocument priced = result_from_app_model(app, context);
  EXPECT_EQ(priced.quantity("cost")->unit, "EUR");
  EXPECT_DOUBLE_EQ(priced.quantity("cost")->value, analysis::application_cost(app, context.rate_card));
  EXPECT_GT(priced.quantity("cost")->value, 0);

  // One duration per stage (latest attempt) and per SQL execution, names unique.
  std::set<int64_t> stage_ids;
  for (const auto& s : app.stages) {
    if (s.duration_ms()) stage_ids.insert(s.stage_id);
  }
  size_t stage_quantities = 0, sql_quantities = 0;
  for (const Quantity& q : result.quantities) {
    stage_quantities += q.name.starts_with("stage:");
    sql_quantities += q.name.starts_with("sql:");
  }
  EXPECT_EQ(stage_quantities, stage_ids.size());
  EXPECT_GT(sql_quantities, 0u);
  // A valid document: it survives its own JSON form.
  auto parsed = parse_result_json(result_to_json(result), "generated");
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message();
}

TEST(SparkResult, SameLogSameDocument) {
  const model::AppModel a = generated_model(3);
  const model::AppModel b = generated_model(3);
  // A named context: GCC 12 reads a braced temporary's strings as maybe-uninitialized.
  const SparkResultContext context;
  EXPECT_EQ(result_to_json(result_from_app_model(a, context)), result_to_json(result_from_app_model(b, context)));
}

// What store ingest, the Python package and the MCP tool store for a log: the cost at the rate
// card given, the origin naming the source, and the reason a status is not ok.
TEST(SparkResult, ALogsResultIsPricedAtTheCardGivenAndSaysWhyItIsNotOk) {
  const model::AppModel app = generated_model(1);
  analysis::RateCard euros = analysis::default_rate_card();
  euros.currency = "EUR";
  SparkResultContext context;
  const LogResult from_log = result_of_log(app, context, euros, "runs/a.zstd", "--status");
  EXPECT_EQ(from_log.document.origin, event_log_origin("runs/a.zstd", app.app.id));
  const auto cost = std::find_if(from_log.document.quantities.begin(), from_log.document.quantities.end(),
                                 [](const Quantity& q) { return q.name == "cost"; });
  ASSERT_NE(cost, from_log.document.quantities.end());
  EXPECT_EQ(cost->unit, "EUR");
  EXPECT_EQ(from_log.status_reason, status_of_log(app).reason);

  context.status = RunStatus::kCensored;
  EXPECT_EQ(result_of_log(app, context, euros, "a", "--status").status_reason, "as --status says");
  context.status = RunStatus::kOk;
  EXPECT_EQ(result_of_log(app, context, euros, "a", "--status").status_reason, "");
}

// store ingest's flags, the MCP tool's arguments and the Python package's keyword arguments all
// become a context here: the variant is parameters.role unless the parameters name a role, a
// status must be one of the five and an error names it as the front end does, and an
// inconsistent context (a round without its run) is refused.
TEST(IngestDescription, BecomesTheContextEveryFrontEndStores) {
  IngestDescription run;
  run.subject = "nightly";
  run.revision = "abc";
  run.parents = {"p1"};
  run.dirty = true;
  run.variant = "candidate";
  run.parameters = {{"shuffle", "200"}};
  run.environment = {{"cluster", "c1"}};
  run.run_key = "r";
  run.round = 2;
  run.status = "censored";
  auto c = context_of(run, "status");
  ASSERT_TRUE(c.has_value()) << c.error().message();
  EXPECT_EQ(c->subject, "nightly");
  EXPECT_EQ(c->revision.tree, "abc");
  EXPECT_EQ(c->revision.parents, std::vector<std::string>{"p1"});
  EXPECT_FALSE(c->revision.clean);
  EXPECT_EQ(c->parameters, (Coordinates{{"role", "candidate"}, {"shuffle", "200"}}));
  EXPECT_EQ(c->environment, (Coordinates{{"cluster", "c1"}}));
  EXPECT_EQ(c->procedure.run_key, "r");
  EXPECT_EQ(c->procedure.round, 2);
  EXPECT_EQ(c->status, RunStatus::kCensored);

  run.parameters["role"] = "baseline";
  EXPECT_EQ(context_of(run, "status")->parameters.at("role"), "baseline");

  run.status = "fine";
  auto bad_status = context_of(run, "--status");
  ASSERT_FALSE(bad_status.has_value());
  EXPECT_EQ(bad_status.error().message(), "--status fine: expected ok, partial, censored, error or skipped");

  run.status = "";
  run.run_key = "";
  EXPECT_FALSE(context_of(run, "status").has_value());
}

}  // namespace
}  // namespace sf::results
