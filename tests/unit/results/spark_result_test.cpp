// Results from Spark event logs: the quantities the model yields, and stage keys that do not
// depend on ids that change between runs.
#include "results/spark_result.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "analysis/economics/cost.h"
#include "loggen/log_generator.h"
#include "model/load.h"
#include "results/result_json.h"
#include "results/stage_key.h"

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
  const analysis::Analysis analyzed = analysis::analyze(app);
  const ResultDocument result = result_from_app_model(app, analyzed, context);
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
  const ResultDocument priced = result_from_app_model(app, analyzed, context);
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
  EXPECT_EQ(result_to_json(result_from_app_model(a, analysis::analyze(a), context)),
            result_to_json(result_from_app_model(b, analysis::analyze(b), context)));
}

// The analysis's reading of the run: the leading "Fix these first" group's recoverable range (as
// the reports and the dashboard choose it) and a count per finding type.
TEST(SparkResult, AnalysisQuantitiesAreTheRollupsLeadAndTheFindingsPerType) {
  const model::AppModel app = generated_model(1);
  const analysis::Analysis analyzed = analysis::analyze(app);
  const SparkResultContext defaults;
  const ResultDocument result = result_from_app_model(app, analyzed, defaults);
  const analysis::RollupGroup* lead = analysis::leading_fix_first_group(analyzed.rollup);
  ASSERT_NE(lead, nullptr) << "the generated log has something worth fixing first";
  // The first time group marked fix-first, in the rollup's order: what "Fix these first" shows.
  const auto first = std::find_if(analyzed.rollup.groups.begin(), analyzed.rollup.groups.end(),
                                  [](const auto& g) { return g.tier == analysis::RollupTier::kTime && g.fix_first; });
  EXPECT_EQ(lead, &*first);
  ASSERT_NE(result.quantity("analysis:fixFirstRecoverableHighMs"), nullptr);
  EXPECT_EQ(result.quantity("analysis:fixFirstRecoverableHighMs")->value, lead->recoverable_high_ms);
  EXPECT_EQ(result.quantity("analysis:fixFirstRecoverableLowMs")->value, lead->recoverable_low_ms);
  EXPECT_EQ(result.quantity("analysis:fixFirstRecoverableHighMs")->unit, "ms");
  EXPECT_GT(lead->recoverable_high_ms, 0);

  std::map<std::string, int> per_type;
  for (const analysis::Finding& f : analyzed.findings) ++per_type[f.type];
  ASSERT_FALSE(per_type.empty());
  size_t finding_quantities = 0;
  for (const Quantity& q : result.quantities) {
    if (!q.name.starts_with("analysis:findings:")) continue;
    ++finding_quantities;
    const std::string type = q.name.substr(std::string_view("analysis:findings:").size());
    EXPECT_EQ(q.value, per_type[type]) << type;
    EXPECT_EQ(q.unit, "count");
    EXPECT_EQ(q.direction, Direction::kLowerIsBetter);
  }
  EXPECT_EQ(finding_quantities, per_type.size());
}

// Nothing worth fixing first: the range is 0 (the series goes on), and no finding type is listed
// that was not found.
TEST(SparkResult, NothingToFixFirstIsZeroRecoverable) {
  const model::AppModel app = generated_model(1);
  analysis::Analysis nothing;  // no findings, no rollup groups
  const SparkResultContext defaults;
  const ResultDocument result = result_from_app_model(app, nothing, defaults);
  EXPECT_EQ(result.quantity("analysis:fixFirstRecoverableLowMs")->value, 0);
  EXPECT_EQ(result.quantity("analysis:fixFirstRecoverableHighMs")->value, 0);
  EXPECT_EQ(std::count_if(result.quantities.begin(), result.quantities.end(),
                          [](const Quantity& q) { return q.name.starts_with("analysis:findings:"); }),
            0);
}

// A result's id leaves the analysis quantities out: the log ingested again by a program that
// reads more (or other) analysis quantities from it is the same result, and a document without
// them (every one stored before they existed) keeps its id.
TEST(SparkResult, TheIdIgnoresTheAnalysisQuantities) {
  const model::AppModel app = generated_model(1);
  // A named context: GCC 12 takes a temporary's strings for uninitialized here (-Werror).
  const SparkResultContext defaults;
  const ResultDocument with = result_from_app_model(app, analysis::analyze(app), defaults);
  ResultDocument without = with;
  std::erase_if(without.quantities, [](const Quantity& q) { return is_analysis_quantity(q.name); });
  ASSERT_LT(without.quantities.size(), with.quantities.size());
  EXPECT_NE(result_to_json(with), result_to_json(without));
  EXPECT_EQ(result_id(with), result_id(without));
  ResultDocument other_reading = with;
  for (Quantity& q : other_reading.quantities) {
    if (is_analysis_quantity(q.name)) q.value += 1;
  }
  EXPECT_EQ(result_id(other_reading), result_id(with));
  // A measurement still changes the id.
  ResultDocument slower = with;
  for (Quantity& q : slower.quantities) {
    if (q.name == "appWallClockMs") q.value += 1;
  }
  EXPECT_NE(result_id(slower), result_id(with));
}

// What store ingest, the Python package and the MCP tool store for a log: the cost at the rate
// card given, the origin naming the source, and the reason a status is not ok.
TEST(SparkResult, ALogsResultIsPricedAtTheCardGivenAndSaysWhyItIsNotOk) {
  const model::AppModel app = generated_model(1);
  analysis::RateCard euros = analysis::default_rate_card();
  euros.currency = "EUR";
  SparkResultContext context;
  const analysis::Analysis analyzed = analysis::analyze(app);
  const LogResult from_log = result_of_log(app, analyzed, context, euros, "runs/a.zstd", "--status");
  EXPECT_EQ(from_log.document.origin, event_log_origin("runs/a.zstd", app.app.id));
  const auto cost = std::find_if(from_log.document.quantities.begin(), from_log.document.quantities.end(),
                                 [](const Quantity& q) { return q.name == "cost"; });
  ASSERT_NE(cost, from_log.document.quantities.end());
  EXPECT_EQ(cost->unit, "EUR");
  EXPECT_EQ(from_log.status_reason, status_of_log(app).reason);

  context.status = RunStatus::kCensored;
  EXPECT_EQ(result_of_log(app, analyzed, context, euros, "a", "--status").status_reason, "as --status says");
  context.status = RunStatus::kOk;
  EXPECT_EQ(result_of_log(app, analyzed, context, euros, "a", "--status").status_reason, "");
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
