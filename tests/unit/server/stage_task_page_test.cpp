// The dashboard's page of a stage's tasks: ordered and paged as asked, and histograms that count
// every successful task once, over a generated log with failed and speculative tasks.
#include "server/dashboard/stage_task_page.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <numeric>

#include "loggen/log_generator.h"
#include "model/load.h"

namespace sf::server {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

class StageTaskPageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("sf_stage_task_page_tests_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    const std::string log = loggen::write_event_log(loggen::GeneratorConfig::small(), {}, *dir_, nullptr).path;
    auto model = model::load_event_log(log);
    ASSERT_TRUE(model) << model.error().message();
    // The stage attempt with the most tasks, and among those one with a task that did not succeed.
    const model::StageAttempt* chosen = nullptr;
    for (const model::StageAttempt& s : model->stages) {
      const auto key = [](const model::StageAttempt& a) {
        return std::pair(a.tasks_failed + a.tasks_killed > 0, a.tasks_started);
      };
      if (chosen == nullptr || key(s) > key(*chosen)) chosen = &s;
    }
    auto tasks = history_server::load_stage_tasks(log, chosen->stage_id, chosen->attempt_id);
    ASSERT_TRUE(tasks) << tasks.error().message();
    tasks_ = new StageTasks(std::move(*tasks));
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(*dir_, ec);
    delete dir_;
    delete tasks_;
  }

  static ordered_json page(TaskPageRequest request) {
    auto out = stage_task_page_json(*tasks_, request);
    EXPECT_TRUE(out) << out.error().message();
    return out ? ordered_json::parse(*out) : ordered_json();
  }

  static fs::path* dir_;
  static StageTasks* tasks_;
};

fs::path* StageTaskPageTest::dir_ = nullptr;
StageTasks* StageTaskPageTest::tasks_ = nullptr;

TEST_F(StageTaskPageTest, PagesFollowTheOrderAskedWithTiesByTaskId) {
  ASSERT_GE(tasks_->tasks.size(), 10u);
  for (bool descending : {true, false}) {
    TaskPageRequest request;
    request.sort_by = "jvmGcTimeMs";
    request.descending = descending;
    request.length = static_cast<int64_t>(tasks_->tasks.size());
    const ordered_json all = page(request)["tasks"];
    ASSERT_EQ(all.size(), tasks_->tasks.size());
    for (size_t i = 1; i < all.size(); ++i) {
      const auto previous = std::pair(all[i - 1]["jvmGcTimeMs"].get<int64_t>(), all[i - 1]["taskId"].get<int64_t>());
      const auto current = std::pair(all[i]["jvmGcTimeMs"].get<int64_t>(), all[i]["taskId"].get<int64_t>());
      EXPECT_TRUE(descending ? previous > current : previous < current) << "row " << i;
    }
    // Pages of 3 put together are the whole order.
    ordered_json joined = ordered_json::array();
    request.length = 3;
    for (request.offset = 0; request.offset < static_cast<int64_t>(all.size()); request.offset += 3) {
      const ordered_json one = page(request);
      EXPECT_EQ(one["total"], all.size());
      for (const ordered_json& row : one["tasks"]) joined.push_back(row);
    }
    EXPECT_EQ(joined, all);
  }
}

TEST_F(StageTaskPageTest, HistogramsCountEverySuccessfulTaskOnceBetweenTheirEdges) {
  TaskPageRequest request;
  request.bins = 9;
  const ordered_json h = page(request)["histograms"];
  std::vector<int64_t> durations;
  for (const TaskRecord& t : tasks_->tasks) {
    if (t.status == "SUCCESS" && t.has_metrics)
      durations.push_back(t.metrics[model::index_of(model::TaskMetric::kDurationMs)]);
  }
  ASSERT_FALSE(durations.empty());
  ASSERT_LT(durations.size(), tasks_->tasks.size()) << "the stage chosen has a task that did not succeed";
  const ordered_json& d = h["durationMs"];
  ASSERT_EQ(d["counts"].size(), 9u);
  ASSERT_EQ(d["edges"].size(), 10u);
  EXPECT_EQ(d["tasks"], durations.size());
  const auto counts = d["counts"].get<std::vector<int64_t>>();
  EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), int64_t{0}), static_cast<int64_t>(durations.size()));
  EXPECT_EQ(d["edges"].front().get<double>(),
            static_cast<double>(*std::min_element(durations.begin(), durations.end())));
  EXPECT_EQ(d["edges"].back().get<double>(),
            static_cast<double>(*std::max_element(durations.begin(), durations.end())));
  // Each bin holds the durations between its edges (the last one its upper edge too).
  const auto edges = d["edges"].get<std::vector<double>>();
  for (size_t b = 0; b < counts.size(); ++b) {
    const auto in_bin = std::count_if(durations.begin(), durations.end(), [&](int64_t v) {
      return v >= edges[b] && (v < edges[b + 1] || (b + 1 == counts.size() && v <= edges[b + 1]));
    });
    EXPECT_EQ(counts[b], in_bin) << "bin " << b;
  }
}

TEST_F(StageTaskPageTest, BadRequestsAreRefusedNamingWhatIsWrong) {
  TaskPageRequest unknown;
  unknown.sort_by = "runtime";
  auto out = stage_task_page_json(*tasks_, unknown);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message().find("\"runtime\""), std::string::npos);
  TaskPageRequest too_long;
  too_long.length = kMaxTaskPageLength + 1;
  EXPECT_FALSE(stage_task_page_json(*tasks_, too_long));
  TaskPageRequest no_bins;
  no_bins.bins = 0;
  EXPECT_FALSE(stage_task_page_json(*tasks_, no_bins));
}

}  // namespace
}  // namespace sf::server
