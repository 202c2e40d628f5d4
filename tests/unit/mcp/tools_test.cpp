// The tools on generated logs: what each answers agrees with the model and analysis the library
// gives for the same log, paths stay inside --log-dir, and a cancelled long parse stops.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "analysis/analyzer.h"
#include "eventlog/events.h"
#include "loggen/log_generator.h"
#include "mcp/session.h"
#include "mcp_harness.h"
#include "model/load.h"
#include "report/streaming_json.h"
#include "results/store.h"
#include "support/corpus.h"

namespace sf::mcp {
namespace {

namespace fs = std::filesystem;
using testing::McpHarness;

class McpTools : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = new fs::path(fs::temp_directory_path() / ("sf-mcp-tools-" + std::to_string(::getpid())));
    fs::remove_all(*root_);
    fs::create_directories(*root_ / "logs");
    fs::create_directories(*root_ / "outside");
    auto config = loggen::GeneratorConfig::small();
    small_ = new fs::path(loggen::write_event_log(config, {}, *root_ / "logs", nullptr).path);
    config.seed += 1;
    config.app_id = "app-20240101000000-0002";
    loggen::LogWriteOptions zstd;
    zstd.codec = io::Codec::kZstd;
    second_ = new fs::path(loggen::write_event_log(config, zstd, *root_ / "logs", nullptr).path);
    config.app_id = "app-20240101000000-0666";
    outside_ = new fs::path(loggen::write_event_log(config, {}, *root_ / "outside", nullptr).path);
    fs::create_symlink(*outside_, *root_ / "logs" / "link-to-outside");
    // A rolling log inside whose part is a symlink to the log outside.
    const fs::path rolling = *root_ / "logs" / "eventlog_v2_app-20240101000000-0667";
    fs::create_directories(rolling);
    std::ofstream(rolling / "appstatus_app-20240101000000-0667").flush();
    fs::create_symlink(*outside_, rolling / "events_1_app-20240101000000-0667");
  }
  static void TearDownTestSuite() {
    fs::remove_all(*root_);
    delete root_;
    delete small_;
    delete second_;
    delete outside_;
  }

  static ServerOptions confined_options() {
    ServerOptions options;
    options.catalog = make_log_catalog(*io::PathConfinement::to((*root_ / "logs").string()));
    options.store_location = (*root_ / ("store-" + std::to_string(++stores_) + ".db")).string();
    return options;
  }

  static std::string text_of(const Json& result) { return result["content"][0]["text"].get<std::string>(); }

  static fs::path* root_;
  static fs::path* small_;
  static fs::path* second_;
  static fs::path* outside_;
  static int stores_;
};

fs::path* McpTools::root_ = nullptr;
fs::path* McpTools::small_ = nullptr;
fs::path* McpTools::second_ = nullptr;
fs::path* McpTools::outside_ = nullptr;
int McpTools::stores_ = 0;

TEST_F(McpTools, AnalyzeAgreesWithTheLibraryAndFollowUpsUseItsId) {
  McpHarness harness(confined_options());
  harness.initialize();
  const Json analyzed = harness.call_tool("analyze_event_log", {{"path", small_->filename().string()}});
  ASSERT_FALSE(analyzed.value("isError", true)) << analyzed.dump();
  const Json& out = analyzed["structuredContent"];

  auto model = model::load_event_log(small_->string());
  ASSERT_TRUE(model.has_value());
  const auto analysis = analysis::analyze(*model);
  EXPECT_EQ(out["app"]["id"], model->app.id);
  EXPECT_EQ(out["counts"]["stageAttempts"], model->stages.size());
  EXPECT_EQ(out["counts"]["findings"], analysis.findings.size());
  ASSERT_FALSE(analysis.findings.empty());
  EXPECT_EQ(out["topFindings"][0]["id"], analysis.findings.front().id);
  const std::string id = out["analysisId"];
  EXPECT_NE(text_of(analyzed).find(model->app.id), std::string::npos);

  // Findings, paged: two pages of 2 hold the first four findings, in the analysis' order.
  const Json page1 = harness.call_tool("get_findings", {{"analysisId", id}, {"limit", 2}});
  const Json page2 = harness.call_tool("get_findings", {{"analysisId", id}, {"limit", 2}, {"offset", 2}});
  ASSERT_EQ(page1["structuredContent"]["findings"].size(), std::min<size_t>(2, analysis.findings.size()));
  EXPECT_EQ(page1["structuredContent"]["page"]["total"], analysis.findings.size());
  if (analysis.findings.size() > 2) {
    EXPECT_EQ(page1["structuredContent"]["page"]["nextOffset"], 2);
    EXPECT_EQ(page2["structuredContent"]["findings"][0]["id"], analysis.findings[2].id);
  }
  // A band filter keeps exactly the findings of that band.
  const std::string band(analysis::to_string(analysis.findings.front().band));
  const Json banded = harness.call_tool("get_findings", {{"analysisId", id}, {"impactBand", {band}}, {"limit", 100}});
  size_t in_band = 0;
  for (const auto& f : analysis.findings) in_band += analysis::to_string(f.band) == band ? 1 : 0;
  EXPECT_EQ(banded["structuredContent"]["findings"].size(), in_band);
  for (const auto& f : banded["structuredContent"]["findings"]) EXPECT_EQ(f["impactBand"], band);

  // explain_finding: the recommendation is the finding's.
  const auto& first = analysis.findings.front();
  const Json explained = harness.call_tool("explain_finding", {{"analysisId", id}, {"findingId", first.id}});
  EXPECT_EQ(explained["structuredContent"]["recommendation"], first.recommendation);
  EXPECT_EQ(explained["structuredContent"]["finding"]["id"], first.id);
  EXPECT_TRUE(harness.call_tool("explain_finding", {{"analysisId", id}, {"findingId", "nope"}})["isError"]);

  // get_economics: the library's figures, and only the `limit` costliest of each list, costliest first.
  const Json economics = harness.call_tool("get_economics", {{"analysisId", id}, {"limit", 2}});
  ASSERT_FALSE(economics.value("isError", true)) << economics.dump();
  const Json& e = economics["structuredContent"];
  EXPECT_DOUBLE_EQ(e["cost"]["total"].get<double>(), analysis.economics.cost.total);
  EXPECT_EQ(e["counts"]["stages"], analysis.economics.cost.stages.size());
  ASSERT_EQ(e["costliest"]["stages"].size(), std::min<size_t>(2, analysis.economics.cost.stages.size()));
  if (e["costliest"]["stages"].size() == 2) {
    EXPECT_GE(e["costliest"]["stages"][0]["cost"].get<double>(), e["costliest"]["stages"][1]["cost"].get<double>());
  }
  ASSERT_TRUE(e["criticalPath"].is_object());
  EXPECT_LE(e["criticalPath"]["lengthMs"].get<double>(), e["criticalPath"]["wallClockMs"].get<double>());
  const size_t on_path = analysis.economics.critical_path->stages.size();
  EXPECT_EQ(e["criticalPath"]["stages"].size(), std::min<size_t>(2, on_path));
  if (on_path > 2) {
    EXPECT_EQ(e["criticalPath"]["stagesOnPath"], on_path);
  }
  EXPECT_NE(text_of(economics).find("What-if"), std::string::npos) << text_of(economics);

  // get_slowest stages: the model's longest stage first.
  const Json slowest = harness.call_tool("get_slowest", {{"analysisId", id}, {"kind", "stages"}, {"limit", 3}});
  const auto& items = slowest["structuredContent"]["items"];
  ASSERT_EQ(items.size(), 3u);
  int64_t longest = 0;
  for (const auto& s : model->stages) longest = std::max(longest, s.duration_ms().value_or(0));
  EXPECT_EQ(items[0]["durationMs"], longest);
  EXPECT_GE(items[0]["durationMs"].get<int64_t>(), items[1]["durationMs"].get<int64_t>());
  for (const char* kind : {"jobs", "sql"}) {
    const Json listed = harness.call_tool("get_slowest", {{"analysisId", id}, {"kind", kind}});
    EXPECT_FALSE(listed["structuredContent"]["items"].empty()) << kind;
  }

  // get_stage of the slowest stage: its quantiles and hosts, and no executor rows unless asked.
  const int64_t stage_id = items[0]["stageIds"][0];
  const Json stage = harness.call_tool("get_stage", {{"analysisId", id}, {"stageId", stage_id}});
  ASSERT_FALSE(stage["isError"].get<bool>()) << stage.dump();
  EXPECT_EQ(stage["structuredContent"]["stage"]["stageId"], stage_id);
  EXPECT_TRUE(stage["structuredContent"]["stage"]["quantiles"].contains("durationMs"));
  EXPECT_FALSE(stage["structuredContent"]["stage"].contains("executors"));
  const Json with_executors =
      harness.call_tool("get_stage", {{"analysisId", id}, {"stageId", stage_id}, {"includeExecutors", true}});
  EXPECT_FALSE(with_executors["structuredContent"]["stage"]["executors"].empty());
  EXPECT_TRUE(harness.call_tool("get_stage", {{"analysisId", id}, {"stageId", 999999}})["isError"]);

  // get_sql_execution of the first execution: its plan and its stages.
  ASSERT_FALSE(model->sql.empty());
  const auto& sql = model->sql.front();
  const Json execution =
      harness.call_tool("get_sql_execution", {{"analysisId", id}, {"executionId", sql.execution_id}});
  ASSERT_FALSE(execution["isError"].get<bool>()) << execution.dump();
  EXPECT_EQ(execution["structuredContent"]["execution"]["plan"].size(), sql.plan.nodes.size());
  EXPECT_EQ(execution["structuredContent"]["planVersions"], sql.earlier_plans.size() + 1);
  EXPECT_FALSE(execution["structuredContent"]["execution"].contains("physicalPlanDescription"));
}

// streaming_queries on the corpus's Structured Streaming log (Spark 3.1, Kafka, 8 batches): the
// runs as the analysis summarizes them, one run's batches a page at a time; a batch log has none.
TEST_F(McpTools, StreamingQueriesListsRunsAndPagesBatches) {
  SF_REQUIRE_CORPUS_FILE(corpus_log, "apache__spark/sql/core/src/test/resources/spark-events/local-1596020211915");
  const fs::path dir = *root_ / "streaming";
  fs::create_directories(dir);
  fs::copy_file(corpus_log, dir / corpus_log.filename(), fs::copy_options::overwrite_existing);
  ServerOptions options;
  options.catalog = make_log_catalog(*io::PathConfinement::to(dir.string()));
  McpHarness harness(std::move(options));
  harness.initialize();

  auto model = model::load_event_log(corpus_log.string());
  ASSERT_TRUE(model.has_value());
  const auto analysis = analysis::analyze(*model);
  ASSERT_FALSE(analysis.streaming.empty());

  const Json listed = harness.call_tool("streaming_queries", {{"path", corpus_log.filename().string()}});
  ASSERT_FALSE(listed["isError"].get<bool>()) << listed.dump();
  const Json& runs = listed["structuredContent"]["runs"];
  ASSERT_EQ(runs.size(), analysis.streaming.size());
  const auto& s = analysis.streaming[0];
  const model::StreamingQuery& q = model->streaming_queries[s.query_index];
  EXPECT_EQ(runs[0]["run"]["runId"], q.run_id);
  EXPECT_EQ(runs[0]["run"]["status"], std::string(analysis::to_string(s.status)));
  EXPECT_EQ(runs[0]["run"]["batches"], s.batches);
  EXPECT_EQ(runs[0]["run"]["latestBatchId"], q.batches.back().batch_id);
  EXPECT_EQ(runs[0]["summary"]["durationMs"]["p50"], s.duration_p50_ms);
  EXPECT_EQ(runs[0]["summary"]["trigger"]["intervalMs"].is_null(), !s.trigger_interval_ms.has_value());
  EXPECT_NE(text_of(listed).find(q.run_id), std::string::npos) << text_of(listed);
  const std::string id = listed["structuredContent"]["analysisId"];

  // The run, three batches a page: the pages together are the model's batches, in order.
  std::vector<int64_t> batch_ids;
  Json next = 0;
  while (!next.is_null()) {
    const Json page = harness.call_tool("streaming_queries",
                                        {{"analysisId", id}, {"runId", q.run_id}, {"offset", next}, {"limit", 3}});
    ASSERT_FALSE(page["isError"].get<bool>()) << page.dump();
    const Json& out = page["structuredContent"];
    EXPECT_EQ(out["page"]["total"], q.batches.size());
    EXPECT_FALSE(out["query"].contains("batches"));
    EXPECT_EQ(out["summary"]["runId"], q.run_id);
    EXPECT_EQ(out["findingIds"].size(), report::streaming_run_findings(analysis, s).size());
    for (const auto& b : out["batches"]) batch_ids.push_back(b["batchId"].get<int64_t>());
    next = out["page"]["nextOffset"];
  }
  ASSERT_EQ(batch_ids.size(), q.batches.size());
  for (size_t i = 0; i < q.batches.size(); ++i) EXPECT_EQ(batch_ids[i], q.batches[i].batch_id);

  const Json unknown = harness.call_tool("streaming_queries", {{"analysisId", id}, {"runId", "no-such-run"}});
  EXPECT_TRUE(unknown["isError"].get<bool>());
  EXPECT_NE(text_of(unknown).find("without runId lists them"), std::string::npos) << text_of(unknown);

  // A batch application: no run.
  McpHarness batch(confined_options());
  batch.initialize();
  const Json none = batch.call_tool("streaming_queries", {{"path", small_->filename().string()}});
  ASSERT_FALSE(none["isError"].get<bool>()) << none.dump();
  EXPECT_EQ(none["structuredContent"]["page"]["total"], 0);
  EXPECT_NE(text_of(none).find("no Structured Streaming query"), std::string::npos);
}

TEST_F(McpTools, ListApplicationsReadsTheLogDirectoryAndPages) {
  McpHarness harness(confined_options());
  harness.initialize();
  const Json listed = harness.call_tool("list_applications", {{"limit", 100}});
  ASSERT_FALSE(listed["isError"].get<bool>()) << listed.dump();
  const Json& apps = listed["structuredContent"]["applications"];
  std::set<std::string> ids;
  for (const auto& app : apps) {
    if (app["status"] != "unreadable") ids.insert(app["appId"].get<std::string>());
  }
  EXPECT_TRUE(ids.count("app-20240101000000-0002")) << listed.dump();
  // Symlinks out of the directory are named as refused, never read: no id, name or version.
  EXPECT_FALSE(ids.count("app-20240101000000-0666")) << listed.dump();
  EXPECT_EQ(listed.dump().find("0666"), std::string::npos) << listed.dump();
  const Json& refused = listed["structuredContent"]["refused"];
  ASSERT_EQ(refused.size(), 2u) << listed.dump();
  EXPECT_NE(refused[0].get<std::string>().find("eventlog_v2_app-20240101000000-0667"), std::string::npos);
  EXPECT_NE(refused[1].get<std::string>().find("link-to-outside"), std::string::npos);
  EXPECT_EQ(listed["structuredContent"]["page"]["total"], apps.size());
  const Json first = harness.call_tool("list_applications", {{"limit", 1}});
  EXPECT_EQ(first["structuredContent"]["applications"].size(), 1u);
  EXPECT_EQ(first["structuredContent"]["page"]["nextOffset"], 1);
}

// Issue 21: a log with a 1 GB Spark version broke every list_applications page that held it (the
// answer passed its 256 KiB). Names are kept cut at eventlog::kMaxNameBytes, so it lists.
TEST(McpHugeStrings, AHugeVersionOrNameIsListedCut) {
  const fs::path dir = fs::temp_directory_path() / ("sf-mcp-huge-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "logs");
  const std::string huge(size_t{4} << 20, 'v');
  std::ofstream(dir / "logs" / "app-huge") << R"({"Event":"SparkListenerLogStart","Spark Version":")" << huge << "\"}\n"
                                           << R"({"Event":"SparkListenerApplicationStart","App Name":")" << huge
                                           << R"(","App ID":"app-huge","Timestamp":900,"User":"u"})"
                                           << "\n"
                                           << R"({"Event":"SparkListenerApplicationEnd","Timestamp":1000})"
                                           << "\n";
  loggen::write_event_log(loggen::GeneratorConfig::small(), {}, dir / "logs", nullptr);
  ServerOptions options;
  options.catalog = make_log_catalog(*io::PathConfinement::to((dir / "logs").string()));
  options.store_location = (dir / "store.db").string();
  {
    McpHarness harness(options);
    harness.initialize();
    const Json listed = harness.call_tool("list_applications", {{"limit", 100}});
    ASSERT_FALSE(listed["isError"].get<bool>()) << listed.dump().substr(0, 500);
    const Json& apps = listed["structuredContent"]["applications"];
    ASSERT_EQ(apps.size(), 2u) << listed.dump().substr(0, 500);
    bool seen = false;
    for (const Json& app : apps) {
      if (app["appId"] != "app-huge") continue;
      seen = true;
      const std::string mark = " [cut: " + std::to_string(huge.size()) + " bytes in all]";
      EXPECT_EQ(app["sparkVersion"].get<std::string>(), huge.substr(0, eventlog::kMaxNameBytes) + mark);
      EXPECT_EQ(app["appName"].get<std::string>(), huge.substr(0, eventlog::kMaxNameBytes) + mark);
    }
    EXPECT_TRUE(seen);
  }
  fs::remove_all(dir);
}

TEST_F(McpTools, PathsOutsideTheLogDirectoryAreRefused) {
  McpHarness harness(confined_options());
  harness.initialize();
  for (const std::string& path :
       {outside_->string(), "../outside/" + outside_->filename().string(), std::string("link-to-outside"),
        std::string("/etc/passwd"), std::string("eventlog_v2_app-20240101000000-0667")}) {
    const Json result = harness.call_tool("analyze_event_log", {{"path", path}});
    EXPECT_TRUE(result["isError"].get<bool>()) << path;
    EXPECT_NE(text_of(result).find("outside the log directory"), std::string::npos) << path << ": " << text_of(result);
  }
  const Json missing = harness.call_tool("analyze_event_log", {{"path", "no-such-log"}});
  EXPECT_TRUE(missing["isError"].get<bool>());
  EXPECT_NE(text_of(missing).find("no such file"), std::string::npos) << text_of(missing);
  // The directory of list_applications is confined the same way.
  EXPECT_TRUE(harness.call_tool("list_applications", {{"directory", "../outside"}})["isError"].get<bool>());
}

TEST_F(McpTools, CompareRunsOfOneLogWithItselfIsConfident) {
  McpHarness harness(confined_options());
  harness.initialize();
  const Json compared = harness.call_tool("compare_runs", {{"baseline", {{"path", small_->filename().string()}}},
                                                           {"candidate", {{"path", small_->filename().string()}}},
                                                           {"normalizePath", {"/tmp/[a-z]+"}},
                                                           {"budgets", {"wallClock=+5%"}},
                                                           {"limit", 3}});
  ASSERT_FALSE(compared["isError"].get<bool>()) << compared.dump();
  const Json& out = compared["structuredContent"];
  EXPECT_EQ(out["comparison"]["confidence"], "ok");
  EXPECT_FALSE(out["budgetExceeded"].get<bool>());
  EXPECT_LE(out["comparison"]["stagePairs"].size(), 3u);
  EXPECT_GT(out["listTotals"]["stagePairs"].get<size_t>(), 3u);
  EXPECT_EQ(out["baselineAnalysisId"], out["candidateAnalysisId"]);
  EXPECT_EQ(out["comparison"]["normalizePatterns"][0], "/tmp/[a-z]+");
  const Json bad_budget = harness.call_tool(
      "compare_runs", {{"baseline", {{"path", "a"}}}, {"candidate", {{"path", "b"}}}, {"budgets", {"speed=fast"}}});
  EXPECT_TRUE(bad_budget["isError"].get<bool>());
}

TEST_F(McpTools, StoreIngestThenVerdictHistory) {
  McpHarness harness(confined_options());
  harness.initialize();
  const Json ingested = harness.call_tool(
      "store_ingest", {{"path", small_->filename().string()}, {"revision", "r1"}, {"environment", {{"cluster", "t"}}}});
  ASSERT_FALSE(ingested["isError"].get<bool>()) << ingested.dump();
  const std::string result_id = ingested["structuredContent"]["resultId"];
  EXPECT_FALSE(ingested["structuredContent"]["alreadyPresent"].get<bool>());
  EXPECT_GT(ingested["structuredContent"]["quantities"].get<int64_t>(), 5);
  const Json again = harness.call_tool(
      "store_ingest", {{"path", small_->filename().string()}, {"revision", "r1"}, {"environment", {{"cluster", "t"}}}});
  EXPECT_TRUE(again["structuredContent"]["alreadyPresent"].get<bool>());
  EXPECT_EQ(again["structuredContent"]["resultId"], result_id);

  const Json verdict = harness.call_tool("verdict", {{"mode", "history"}, {"target", result_id.substr(0, 12)}});
  ASSERT_FALSE(verdict["isError"].get<bool>()) << verdict.dump();
  // One result has no history: every evaluation is indeterminate, none regressed.
  EXPECT_EQ(verdict["structuredContent"]["counts"]["regressed"], 0);
  EXPECT_GT(verdict["structuredContent"]["counts"]["indeterminate"].get<int64_t>(), 0);
  EXPECT_EQ(verdict["structuredContent"]["document"]["mode"], "history");

  const Json bad_context = harness.call_tool("store_ingest", {{"path", small_->filename().string()}, {"round", 2}});
  EXPECT_TRUE(bad_context["isError"].get<bool>());
  const Json run = harness.call_tool(
      "verdict", {{"mode", "run"}, {"runKey", "nope"}, {"profile", "variants"}, {"baseline", "baseline"}});
  EXPECT_TRUE(run["isError"].get<bool>());
}

// `mcp --config` with a rate card prices what store_ingest stores with it, as `store ingest
// --config` does: the cost's unit is the card's currency, not the default card's USD.
TEST_F(McpTools, StoreIngestPricesTheCostAtTheServersRateCard) {
  auto analysis = std::make_shared<analysis::AnalysisOptions>();
  analysis->rate_card.currency = "EUR";
  ServerOptions options = confined_options();
  options.catalog = make_log_catalog(*io::PathConfinement::to((*root_ / "logs").string()), {}, analysis);
  McpHarness harness(options);
  harness.initialize();
  const Json ingested = harness.call_tool("store_ingest", {{"path", small_->filename().string()}});
  ASSERT_FALSE(ingested["isError"].get<bool>()) << ingested.dump();

  auto store = results::open_store(options.store_location);
  ASSERT_TRUE(store.has_value()) << store.error().message();
  auto stored = (*store)->results();
  ASSERT_TRUE(stored.has_value() && stored->size() == 1u);
  const auto& quantities = stored->front().document.quantities;
  const auto cost = std::find_if(quantities.begin(), quantities.end(), [](const auto& q) { return q.name == "cost"; });
  ASSERT_NE(cost, quantities.end());
  EXPECT_EQ(cost->unit, "EUR");
}

TEST_F(McpTools, ProgressIsReportedAndLogMessagesFollowTheLevel) {
  McpHarness harness(confined_options());
  harness.initialize();
  harness.call("logging/setLevel", {{"level", "info"}});
  const Json analyzed = harness.call_tool("analyze_event_log", {{"path", second_->filename().string()}}, "tok-1");
  ASSERT_FALSE(analyzed["isError"].get<bool>());
  const auto progress = harness.notifications("notifications/progress");
  ASSERT_FALSE(progress.empty());
  double last = -1;
  for (const auto& p : progress) {
    EXPECT_EQ(p["params"]["progressToken"], "tok-1");
    EXPECT_GT(p["params"]["progress"].get<double>(), last);
    last = p["params"]["progress"].get<double>();
  }
  EXPECT_EQ(last, progress.back()["params"]["total"].get<double>());
  const auto logs = harness.notifications("notifications/message");
  ASSERT_FALSE(logs.empty());
  EXPECT_EQ(logs.front()["params"]["level"], "info");
}

// A client that sends many calls before reading any answer gets every answer: past
// kMaxRunningCalls the calls wait their turn instead of being refused. The log they all name is
// read once, however many of them ask for it at the same time.
TEST_F(McpTools, ManyCallsAtOnceAreAllAnsweredFromOneRead) {
  ServerOptions options = confined_options();
  const std::shared_ptr<catalog::LogCatalog> logs = options.catalog;
  McpHarness harness(options);
  harness.initialize();
  std::vector<int64_t> ids;
  for (int i = 0; i < 12; ++i) {
    ids.push_back(harness.request(
        "tools/call", {{"name", "get_slowest"},
                       {"arguments", {{"path", small_->filename().string()}, {"kind", "stages"}, {"limit", 1 + i}}}}));
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    auto answer = harness.response(ids[i]);
    ASSERT_TRUE(answer.has_value()) << i;
    EXPECT_FALSE((*answer)["result"]["isError"].get<bool>()) << answer->dump();
    EXPECT_EQ((*answer)["result"]["structuredContent"]["items"].size(), i + 1);
  }
  EXPECT_EQ(logs->logs_read(), 1u);
}

// A log rewritten after it was analyzed is read again by the next call that names it, by path
// or by its analysisId, and list_applications lists what it is now.
TEST_F(McpTools, AChangedLogIsReadAgain) {
  const fs::path dir = *root_ / "logs" / "changing";
  fs::create_directories(dir);
  auto config = loggen::GeneratorConfig::small();
  config.app_id = "app-20240101000000-0101";
  const fs::path log = loggen::write_event_log(config, {}, dir, nullptr).path;
  const std::string relative = fs::relative(log, *root_ / "logs").string();
  McpHarness harness(confined_options());
  harness.initialize();
  const Json before = harness.call_tool("analyze_event_log", {{"path", relative}});
  ASSERT_FALSE(before["isError"].get<bool>()) << before.dump();
  EXPECT_EQ(before["structuredContent"]["app"]["id"], "app-20240101000000-0101");
  const Json listed = harness.call_tool("list_applications", {{"directory", dir.string()}});
  EXPECT_EQ(listed["structuredContent"]["applications"][0]["appId"], "app-20240101000000-0101") << listed.dump();

  // Another application written over it (renamed into place, as a copy of a new log would be).
  config.app_id = "app-20240101000000-0102";
  config.actions = 4;
  const fs::path other = loggen::write_event_log(config, {}, *root_ / "outside", nullptr).path;
  fs::rename(other, log);
  fs::last_write_time(log, fs::last_write_time(log) + std::chrono::seconds(2));
  const Json after = harness.call_tool("analyze_event_log", {{"path", relative}});
  ASSERT_FALSE(after["isError"].get<bool>()) << after.dump();
  EXPECT_EQ(after["structuredContent"]["app"]["id"], "app-20240101000000-0102");
  EXPECT_EQ(after["structuredContent"]["analysisId"], before["structuredContent"]["analysisId"]);
  const Json by_id = harness.call_tool(
      "get_slowest", {{"analysisId", before["structuredContent"]["analysisId"]}, {"kind", "jobs"}, {"limit", 100}});
  EXPECT_EQ(by_id["structuredContent"]["items"].size(), after["structuredContent"]["counts"]["jobs"]) << by_id.dump();
  const Json relisted = harness.call_tool("list_applications", {{"directory", dir.string()}});
  EXPECT_EQ(relisted["structuredContent"]["applications"][0]["appId"], "app-20240101000000-0102");
  fs::remove_all(dir);
}

// A log big enough that its load reports progress several times before it ends.
TEST_F(McpTools, ACancelledLongParseStopsAndSendsNoAnswer) {
  const fs::path big_dir = *root_ / "logs" / "big";
  auto config = loggen::GeneratorConfig::demo();
  config.scale = 3;
  const fs::path big = loggen::write_event_log(config, {}, big_dir, nullptr).path;
  ASSERT_GT(fs::file_size(big), uint64_t{24} << 20);

  McpHarness harness(confined_options());
  harness.initialize();
  std::atomic<bool> cancel_sent{false};
  const int64_t call_id = 1000;
  // Cancel at the first progress notification, from inside it: the load cannot have finished.
  harness.on_message = [&](const Json& message) {
    if (message.value("method", "") != "notifications/progress" || cancel_sent.exchange(true)) return;
    harness.notify("notifications/cancelled", {{"requestId", call_id}, {"reason", "test"}});
  };
  const fs::path relative = fs::relative(big, *root_ / "logs");
  harness.send({{"jsonrpc", "2.0"},
                {"id", call_id},
                {"method", "tools/call"},
                {"params",
                 {{"name", "analyze_event_log"},
                  {"arguments", {{"path", relative.string()}}},
                  {"_meta", {{"progressToken", 5}}}}}});
  harness.wait_for_calls();
  harness.on_message = nullptr;
  ASSERT_TRUE(cancel_sent.load());
  EXPECT_FALSE(harness.response(call_id, std::chrono::seconds(0)).has_value()) << "a cancelled call was answered";
  // The server still answers, and the stopped load left nothing behind: the next call reads the
  // whole log again (it reports progress) instead of finding a finished analysis.
  EXPECT_TRUE(harness.call("ping").contains("result"));
  const size_t progress_before = harness.notifications("notifications/progress").size();
  const Json again = harness.call_tool("analyze_event_log", {{"path", relative.string()}}, "again");
  EXPECT_FALSE(again["isError"].get<bool>()) << again.dump();
  EXPECT_GT(harness.notifications("notifications/progress").size(), progress_before + 1);
  fs::remove_all(big_dir);
}

TEST(McpDownloads, StaleFoldersOfDeadSessionsAreRemovedAndNoOthers) {
  const fs::path temp = fs::temp_directory_path() / ("sf-stale-test-" + std::to_string(::getpid()));
  fs::create_directories(temp);
  // A process that has exited: its pid names no live process now.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  const fs::path dead = temp / ("sparkforensics-mcp-" + std::to_string(child) + "-aB3xYz");
  const fs::path alive = temp / ("sparkforensics-mcp-" + std::to_string(::getpid()) + "-aB3xYz");
  const fs::path unnamed = temp / "sparkforensics-mcp-aB3xYz";  // no pid in the name: not ours to judge
  const fs::path other = temp / "someone-elses-folder";
  for (const fs::path& dir : {dead, alive, unnamed, other}) {
    fs::create_directories(dir);
    std::ofstream(dir / "1-app.zip") << "zip";
  }
  remove_stale_download_dirs(temp);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(alive / "1-app.zip"));
  EXPECT_TRUE(fs::exists(unnamed));
  EXPECT_TRUE(fs::exists(other));
  fs::remove_all(temp);
}

}  // namespace
}  // namespace sf::mcp
