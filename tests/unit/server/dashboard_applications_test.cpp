// The dashboard's application list over the log directory and what the server read itself: an
// upload joins it once its parse is done (first, newest first, with its source), is searched and
// paged with the directory's logs, and leaves it when evicted; a file that is not a log never
// joins it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "catalog/log_catalog.h"
#include "loggen/log_generator.h"
#include "server/dashboard/dashboard_api.h"

namespace sf::server {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Query parameters or headers, one value each.
QueryParams params(std::initializer_list<std::pair<std::string, std::string>> values) {
  QueryParams out;
  for (const auto& [key, value] : values) out[key].push_back(value);
  return out;
}

// What the dashboard's page sends with a POST.
QueryParams page_headers() { return params({{"X-SparkForensics", "1"}}); }

class DashboardApplicationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sf-dashboard-apps-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "logs");
    fs::create_directories(dir_ / "elsewhere");
    log_dir_log_ = generate("app-20240101000000-0001", "directory_job", dir_ / "logs");

    catalog::CatalogOptions options;
    options.root = *io::PathConfinement::to((dir_ / "logs").string());
    logs_ = std::make_unique<catalog::LogCatalog>(options);
    ASSERT_TRUE(logs_->rescan().has_value());
    tasks_ = std::make_unique<StageTaskCache>(StageTaskCacheOptions{});
    DashboardOptions dashboard;
    dashboard.upload_parent = dir_;
    dashboard.uploads.max_uploads = 3;
    api_ = std::move(*DashboardApi::create(*logs_, *tasks_, dashboard));
  }
  void TearDown() override {
    api_.reset();
    fs::remove_all(dir_);
  }

  static fs::path generate(const std::string& app_id, const std::string& name, const fs::path& out) {
    loggen::GeneratorConfig config = loggen::GeneratorConfig::small();
    config.app_id = app_id;
    config.app_name = name;
    config.actions = 2;
    config.tasks_per_stage = 8;
    return loggen::write_event_log(config, {}, out, nullptr).path;
  }

  static std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }

  // Uploads `bytes` as `name` as the page does: the log's name ("~u1").
  std::string upload(const std::string& name, const std::string& bytes) {
    auto handling =
        api_->accept_body("POST", "/api/sf/v1/uploads", params({{"name", name}}), page_headers(), bytes.size());
    EXPECT_TRUE(handling && handling->body) << (handling ? handling->refusal.body : "no handling");
    if (!handling || !handling->body) return "";
    EXPECT_FALSE(handling->body->write(bytes).has_value());
    const RestResponse done = handling->body->finish();
    EXPECT_EQ(done.status, 201) << done.body;
    return json::parse(done.body).at("log").get<std::string>();
  }

  // Parses `log` and waits for the end: its final state.
  std::string parse(const std::string& log) {
    RestResponse r = api_->handle("POST", "/api/sf/v1/parses", params({{"log", log}}), page_headers());
    EXPECT_EQ(r.status, 202) << r.body;
    json p = json::parse(r.body);
    for (int i = 0; i < 600 && p["state"] != "done" && p["state"] != "failed"; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      p = json::parse(api_->handle("GET", "/api/sf/v1/parses/" + p["id"].get<std::string>(), {}).body);
    }
    return p["state"].get<std::string>();
  }

  json applications(const QueryParams& query = {}) {
    const RestResponse r = api_->handle("GET", "/api/sf/v1/applications", query);
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body);
  }

  static std::vector<std::string> logs_of(const json& answer) {
    std::vector<std::string> out;
    for (const json& row : answer["applications"]) out.push_back(row["log"].get<std::string>());
    return out;
  }

  fs::path dir_;
  fs::path log_dir_log_;
  std::unique_ptr<catalog::LogCatalog> logs_;
  std::unique_ptr<StageTaskCache> tasks_;
  std::unique_ptr<DashboardApi> api_;
};

TEST_F(DashboardApplicationsTest, AnUploadReadAsALogIsListedFirstWithItsSourceAndAnalysis) {
  const std::string log_dir_name = log_dir_log_.filename().string();
  EXPECT_EQ(logs_of(applications()), std::vector<std::string>{log_dir_name});
  EXPECT_EQ(applications()["applications"][0]["source"], "log-dir");

  const fs::path uploaded = generate("app-20240202000000-0002", "uploaded_job", dir_ / "elsewhere");
  const std::string log = upload("my-upload.log", read_file(uploaded));
  ASSERT_EQ(log, "~u1");
  EXPECT_EQ(applications()["total"], 1) << "not listed before it is read";
  ASSERT_EQ(parse(log), "done");

  const json answer = applications();
  EXPECT_EQ(answer["total"], 2);
  ASSERT_EQ(logs_of(answer), (std::vector<std::string>{"~u1", log_dir_name}));
  const json& row = answer["applications"][0];
  EXPECT_EQ(row["source"], "upload");
  EXPECT_EQ(row["fileName"], "my-upload.log");
  EXPECT_EQ(row["appId"], "app-20240202000000-0002");
  EXPECT_EQ(row["name"], "uploaded_job");
  EXPECT_EQ(row["completed"], true);
  EXPECT_TRUE(row["durationMs"].is_number());
  EXPECT_EQ(row["storedBytes"], fs::file_size(uploaded));
  EXPECT_TRUE(row["analysis"].is_object()) << "the parse left it in memory: " << row;
  EXPECT_TRUE(answer["applications"][1]["analysis"].is_null());

  // Searched and paged with the directory's logs.
  EXPECT_EQ(logs_of(applications(params({{"q", "UPLOADED_job"}}))), std::vector<std::string>{"~u1"});
  EXPECT_EQ(logs_of(applications(params({{"q", "my-upload"}}))), std::vector<std::string>{"~u1"});
  EXPECT_EQ(logs_of(applications(params({{"q", "~u1"}}))), std::vector<std::string>{"~u1"});
  EXPECT_EQ(logs_of(applications(params({{"q", "directory_job"}}))), std::vector<std::string>{log_dir_name});
  const json second = applications(params({{"offset", "1"}, {"limit", "1"}}));
  EXPECT_EQ(second["total"], 2);
  EXPECT_EQ(logs_of(second), std::vector<std::string>{log_dir_name});

  // Opened as before, by its name.
  EXPECT_EQ(api_->handle("GET", "/api/sf/v1/logs/~u1/analysis", {}).status, 200);
}

TEST_F(DashboardApplicationsTest, AFileThatIsNotALogIsNeverListed) {
  const std::string log = upload("notes.txt", "this is not an event log\nat all\n");
  ASSERT_EQ(parse(log), "failed");
  const json answer = applications();
  EXPECT_EQ(answer["total"], 1);
  EXPECT_EQ(answer["applications"][0]["source"], "log-dir");
}

TEST_F(DashboardApplicationsTest, UploadsAreNewestFirstAndLeaveTheListWhenEvicted) {
  std::vector<std::string> names;
  for (int i = 1; i <= 4; ++i) {
    const fs::path file = generate("app-2024030" + std::to_string(i) + "000000-000" + std::to_string(i), "job",
                                   dir_ / "elsewhere" / std::to_string(i));
    const std::string log = upload("log" + std::to_string(i), read_file(file));
    ASSERT_EQ(parse(log), "done");
    names.push_back(log);
  }
  // At most 3 kept (max_uploads): the first upload is gone, from the disk and the list.
  const json answer = applications();
  EXPECT_EQ(answer["total"], 4);
  const std::string log_dir_name = log_dir_log_.filename().string();
  EXPECT_EQ(logs_of(answer), (std::vector<std::string>{names[3], names[2], names[1], log_dir_name}));
  EXPECT_EQ(api_->handle("GET", "/api/sf/v1/logs/" + names[0] + "/analysis", {}).status, 404);
}

TEST_F(DashboardApplicationsTest, AnUploadRemovedBehindTheServersBackIsNotListed) {
  const fs::path file = generate("app-20240404000000-0004", "job", dir_ / "elsewhere");
  const std::string log = upload("gone.log", read_file(file));
  ASSERT_EQ(parse(log), "done");
  EXPECT_EQ(applications()["total"], 2);
  fs::remove(api_->uploads().directory() / "u1" / "gone.log");
  EXPECT_EQ(applications()["total"], 1);
}

}  // namespace
}  // namespace sf::server
