#include "service/verdicts.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "report/verdict_json.h"
#include "results/store.h"
#include "trend_fixture.h"

namespace sf::service {
namespace {

using results::testing::History;
using results::testing::ResultBuilder;

TEST(MethodConfig, EachModeHasItsDefault) {
  EXPECT_EQ(method_config(VerdictMode::kTrend)->name, results::kDispersionScaled);
  EXPECT_EQ(method_config(VerdictMode::kBatch)->name, results::kDispersionScaled);
  EXPECT_EQ(method_config(VerdictMode::kRun)->name, results::kPairedRatio);
}

// `verdict run --method-config F` used to take dispersion-scaled from a file that did not name a
// method at all: the file's defaults replaced the mode's.
TEST(MethodConfig, ADocumentChangesOnlyTheKeysItNames) {
  MethodChoice choice;
  choice.config_text = R"({"minPoints": 3})";
  auto run = method_config(VerdictMode::kRun, choice);
  ASSERT_TRUE(run) << run.error().message();
  EXPECT_EQ(run->name, results::kPairedRatio);
  EXPECT_EQ(run->min_points, 3);
  EXPECT_EQ(run->k, results::MethodConfig{}.k);
}

TEST(MethodConfig, AnOverrideWinsOverTheDocument) {
  MethodChoice choice;
  choice.config_text = R"({"k": 2, "window": 8})";
  choice.k = 4.5;
  auto config = method_config(VerdictMode::kTrend, choice);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->k, 4.5);
  EXPECT_EQ(config->window, 8);
}

TEST(MethodConfig, AnInvalidChoiceIsAnErrorNamingWhereItCameFrom) {
  MethodChoice bad_document;
  bad_document.config_text = R"({"windows": 8})";
  bad_document.config_source = "method.json";
  auto parsed = method_config(VerdictMode::kTrend, bad_document);
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().message().find("method.json"), std::string::npos) << parsed.error().message();
  MethodChoice bad_name;
  bad_name.name = "t-test";
  EXPECT_FALSE(method_config(VerdictMode::kTrend, bad_name));
}

StoreContents store_of(const History& history) {
  StoreContents store;
  store.description = "sqlite:test.db";
  store.results = history.results();
  return store;
}

TEST(Verdicts, HistoryAsksForTheTargetsTheNameResolvesTo) {
  History history;
  for (double value : results::testing::noisy_values(100, 0.02, 8)) history.add(ResultBuilder().duration(value));
  history.add(ResultBuilder().duration(160));
  const StoreContents store = store_of(history);
  auto doc = verdict_trend(store, *method_config(VerdictMode::kTrend), {"latest", "", {}});
  ASSERT_TRUE(doc) << doc.error().message();
  ASSERT_EQ(doc->evaluations.size(), 1u);
  EXPECT_EQ(doc->evaluations[0].outcome.verdict, results::Verdict::kRegressed);
  // The same question by id gives the same document.
  auto by_id = verdict_trend_of(store, *method_config(VerdictMode::kTrend), {history.last_id()}, {});
  ASSERT_TRUE(by_id);
  EXPECT_EQ(by_id->evaluations[0].outcome.verdict, doc->evaluations[0].outcome.verdict);
}

TEST(Verdicts, AnUnansweredQuestionNamesTheStore) {
  History history;
  history.add(ResultBuilder().duration(100));
  const StoreContents store = store_of(history);
  auto history_doc = verdict_trend(store, *method_config(VerdictMode::kTrend), {"no-such-target", "", {}});
  ASSERT_FALSE(history_doc);
  EXPECT_EQ(history_doc.error().code(), StatusCode::kNotFound);
  EXPECT_NE(history_doc.error().message().find("(store sqlite:test.db)"), std::string::npos)
      << history_doc.error().message();
  auto run_doc = verdict_run(store, *method_config(VerdictMode::kRun), {"no-such-run", "variants", "", "baseline"});
  ASSERT_FALSE(run_doc);
  EXPECT_NE(run_doc.error().message().find("(store sqlite:test.db)"), std::string::npos) << run_doc.error().message();
  auto batch_doc = verdict_batch(store, *method_config(VerdictMode::kBatch), {"no-such-tree", "", {}});
  ASSERT_FALSE(batch_doc);
  EXPECT_EQ(batch_doc.error().code(), StatusCode::kNotFound);
}

// The CLI and Python ask the store itself; every mode's document is the one over the store read
// into memory, and an unanswered question names the store as well.
TEST(Verdicts, AskingTheStoreGivesTheDocumentsOfReadingIt) {
  const std::string path = ::testing::TempDir() + "/service-asked-store.db";
  std::remove(path.c_str());
  {
    auto writer = results::open_store(path);
    ASSERT_TRUE(writer) << writer.error().message();
    const std::vector<double> values = results::testing::noisy_values(100, 0.02, 8);
    for (size_t i = 0; i < values.size(); ++i) {
      const std::string tree = "c" + std::to_string(i);
      const std::vector<std::string> parents =
          i == 0 ? std::vector<std::string>{} : std::vector<std::string>{"c" + std::to_string(i - 1)};
      ASSERT_TRUE((*writer)->ingest(ResultBuilder().tree(tree, parents).duration(values[i]).document()));
      ASSERT_TRUE((*writer)->ingest(ResultBuilder("other").tree(tree, parents).duration(values[i] * 2).document()));
    }
    for (int64_t round = 1; round <= 5; ++round) {
      ASSERT_TRUE((*writer)->ingest(
          ResultBuilder().param("role", "baseline").run("run-1", round, 2 * round).duration(100 + round).document()));
      ASSERT_TRUE((*writer)->ingest(ResultBuilder()
                                        .param("role", "candidate")
                                        .run("run-1", round, 2 * round + 1)
                                        .duration(90 + round)
                                        .document()));
    }
  }
  auto contents = read_store(path);
  ASSERT_TRUE(contents) << contents.error().message();
  auto store = open_store_to_ask(path);
  ASSERT_TRUE(store) << store.error().message();
  const results::MethodConfig trend = *method_config(VerdictMode::kTrend);
  for (const std::string& target : {std::string("latest"), std::string("c7"), contents->results[3].id.substr(0, 10)}) {
    auto expected = verdict_trend(*contents, trend, {target, "", {}});
    auto actual = verdict_trend(**store, trend, {target, "", {}});
    ASSERT_TRUE(expected && actual) << target;
    EXPECT_EQ(report::verdict_json(*actual), report::verdict_json(*expected)) << target;
  }
  const results::RunRequest run{"run-1", "variants", "", "baseline"};
  auto expected_run = verdict_run(*contents, *method_config(VerdictMode::kRun), run);
  auto actual_run = verdict_run(**store, *method_config(VerdictMode::kRun), run);
  ASSERT_TRUE(expected_run && actual_run);
  EXPECT_EQ(report::verdict_json(*actual_run), report::verdict_json(*expected_run));
  const results::BatchRequest batch{"c7", "", {}};
  auto expected_batch = verdict_batch(*contents, trend, batch);
  auto actual_batch = verdict_batch(**store, trend, batch);
  ASSERT_TRUE(expected_batch && actual_batch);
  EXPECT_EQ(report::verdict_json(*actual_batch), report::verdict_json(*expected_batch));
  auto missing = verdict_trend(**store, trend, {"no-such-target", "", {}});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.error().message().find("(store " + path + ")"), std::string::npos) << missing.error().message();
  std::remove(path.c_str());
}

TEST(Verdicts, ReadingAStoreThatIsNotThereCreatesNone) {
  const std::string path = ::testing::TempDir() + "/service-no-store.db";
  std::remove(path.c_str());
  auto store = read_store(path);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code(), StatusCode::kNotFound);
  EXPECT_FALSE(std::ifstream(path).good());
}

}  // namespace
}  // namespace sf::service
