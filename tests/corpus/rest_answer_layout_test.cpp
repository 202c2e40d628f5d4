// The History Server REST answers of every corpus log are written by a streaming writer
// (history_server/history_server_json.h) with no tree in between. Their bytes must be what they were when
// they were nlohmann::json trees: what nlohmann::json gives when it parses the answer and dumps it
// again, compact, every object's members sorted by name ("10" before "9" in a stage's tasks).
// Every endpoint kind the router answers, for the log's application: one case per log, served
// from a folder of its own (several corpus logs share an application id with their neighbours).
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "catalog/log_catalog.h"
#include "corpus/corpus_catalog.h"
#include "corpus/json_structural_diff.h"
#include "history_server/rest_router.h"
#include "support/corpus.h"

namespace sf::corpus_testing {
namespace {

using nlohmann::json;

namespace fs = std::filesystem;

// A copy of one log in a folder of its own, removed with it.
class LogFolder {
 public:
  explicit LogFolder(const fs::path& log)
      : dir_(fs::path(::testing::TempDir()) / ("rest-layout-" + log_test_name(log.string()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy(log, dir_ / log.filename(), fs::copy_options::recursive);
  }
  ~LogFolder() { fs::remove_all(dir_); }
  LogFolder(const LogFolder&) = delete;
  LogFolder& operator=(const LogFolder&) = delete;
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
};

// The log's application and attempt as the REST API names them: "applications/<id>[/<attempt>]".
std::string rest_base_of(const catalog::ApplicationListing& app) {
  std::string base = "applications/" + app.id;
  if (app.attempts.front().attempt_id) base.append("/").append(*app.attempts.front().attempt_id);
  return base;
}

class RestAnswerLayout : public ::testing::TestWithParam<CorpusLog> {
 protected:
  // Asks for `target`; an answer other than 200 is not checked (a log without SQL has no
  // execution to show). Returns the parsed answer, null when there is none.
  json checked(const history_server::RestRouter& router, const std::string& target) {
    const history_server::RestResponse response = router.handle("GET", target);
    if (response.status != 200) return nullptr;
    json parsed;
    EXPECT_NO_THROW(parsed = json::parse(response.body)) << target << ": the answer is not JSON";
    const std::string reparsed = parsed.dump();
    EXPECT_TRUE(response.body == reparsed) << target << " " << first_difference(response.body, reparsed);
    ++checked_answers_;
    return parsed;
  }

  size_t checked_answers_ = 0;
};

TEST_P(RestAnswerLayout, IsNlohmannsSortedCompactDump) {
  const CorpusLog& log = GetParam();
  SF_REQUIRE_CORPUS_FILE(path, std::string(log.path));
  const LogFolder folder(path);
  catalog::CatalogOptions options;
  auto root = io::PathConfinement::to(folder.dir().string());
  ASSERT_TRUE(root.has_value()) << root.error().message();
  options.root = std::move(*root);
  catalog::LogCatalog logs(options);
  ASSERT_TRUE(logs.rescan().has_value());
  ASSERT_EQ(logs.applications().size(), 1u) << log.path;
  const std::string base = rest_base_of(logs.applications().front());
  history_server::RestRouter router(logs);

  checked(router, "version");
  checked(router, "applications");
  ASSERT_TRUE(checked(router, base).is_object()) << base;
  for (const char* resource :
       {"stages?details=true&withSummaries=true&quantiles=0.1,0.5,0.9",
        "stages?details=true&taskStatus=SUCCESS&taskStatus=FAILED", "executors", "allexecutors", "environment",
        "allmiscellaneousprocess", "sql?details=true&planDescription=true",
        "sql/sqlTable?draw=1&order%5B0%5D%5Bcolumn%5D=0&columns%5B0%5D%5Bname%5D=duration&length=-1"}) {
    checked(router, base + "/" + resource);
  }
  const json jobs = checked(router, base + "/jobs");
  if (!jobs.empty()) checked(router, base + "/jobs/" + std::to_string(jobs[0]["jobId"].get<int64_t>()));
  const json rdds = checked(router, base + "/storage/rdd");
  if (!rdds.empty()) checked(router, base + "/storage/rdd/" + std::to_string(rdds[0]["id"].get<int64_t>()));
  const json executions = checked(router, base + "/sql?details=false");
  if (!executions.empty()) checked(router, base + "/sql/" + std::to_string(executions[0]["id"].get<int64_t>()));

  // The stage with the most tasks: its task map, summaries and lists are the largest documents.
  const json stages = checked(router, base + "/stages");
  const json* largest = nullptr;
  for (const json& stage : stages) {
    if (largest == nullptr || stage["numTasks"].get<int64_t>() > (*largest)["numTasks"].get<int64_t>()) {
      largest = &stage;
    }
  }
  if (largest != nullptr) {
    const std::string id = std::to_string((*largest)["stageId"].get<int64_t>());
    const std::string attempt = base + "/stages/" + id + "/" + std::to_string((*largest)["attemptId"].get<int64_t>());
    checked(router, base + "/stages/" + id);
    for (const char* resource :
         {"", "?withSummaries=true", "?taskStatus=FAILED", "/taskSummary", "/taskSummary?quantiles=0.01,0.5,0.99",
          "/taskList?length=100000", "/taskList?sortBy=-runtime&status=success",
          "/taskTable?numTasks=100000&columnNameToSort=Duration&order%5B0%5D%5Bdir%5D=desc&start=0&length=100000",
          "/taskTable?numTasks=100000&columnNameToSort=Index&start=0&length=20&search%5Bvalue%5D=1"}) {
      checked(router, attempt + resource);
    }
  }
  std::cout << "[rest-layout] " << log.path << ": " << checked_answers_ << " answers\n";
}

INSTANTIATE_TEST_SUITE_P(Corpus, RestAnswerLayout, ::testing::ValuesIn(corpus_logs()),
                         [](const ::testing::TestParamInfo<CorpusLog>& param_info) {
                           return log_test_name(param_info.param.path);
                         });

}  // namespace
}  // namespace sf::corpus_testing
