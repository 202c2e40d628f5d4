// The dashboard's static files and upload folder: content types and caching, paths that try to
// climb, the SPA's pages; upload names, limits and what a refused or abandoned upload leaves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "report/web_assets.h"
#include "server/dashboard/static_files.h"
#include "server/dashboard/upload_store.h"

namespace sf::server {
namespace {

namespace fs = std::filesystem;

std::string header(const RestResponse& r, const std::string& name) {
  for (const auto& [key, value] : r.headers) {
    if (key == name) return value;
  }
  return "";
}

TEST(StaticFiles, ContentTypesByExtension) {
  EXPECT_EQ(content_type_for("assets/index-1a.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type_for("assets/style-1a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(content_type_for("index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type_for("x.svg"), "image/svg+xml");
  EXPECT_EQ(content_type_for("x.unknown"), "application/octet-stream");
}

TEST(StaticFiles, PathsThatClimbAreNotFound) {
  for (const char* path : {"/assets/../../etc/passwd", "/../index.html", "/assets/./x.js", "/logs/../../x",
                           "/assets\\..\\x", "/..", "/assets/.."}) {
    EXPECT_EQ(static_file(path).status, 404) << path;
  }
  EXPECT_EQ(static_file("/etc/passwd").status, 404);
  EXPECT_EQ(static_file("/assets/nothing.js").status, 404);
}

TEST(StaticFiles, PagesAreTheIndexAndAssetsAreCachedForAYear) {
  const RestResponse root = static_file("/");
  EXPECT_EQ(root.status, 200);
  if (report::find_web_asset("index.html") == nullptr) {
    GTEST_SKIP() << "built without the dashboard (SF_WEB=OFF): / says so in text";
  }
  EXPECT_EQ(root.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(header(root, "Cache-Control"), "no-cache");
  EXPECT_NE(header(root, "Content-Security-Policy").find("script-src 'self'"), std::string::npos);
  EXPECT_EQ(static_file("/logs/app-1/findings").body, root.body);
  for (const report::WebAsset& asset : report::web_assets()) {
    if (asset.path.rfind("assets/", 0) != 0) continue;
    const RestResponse answer = static_file("/" + std::string(asset.path));
    EXPECT_EQ(answer.status, 200) << asset.path;
    EXPECT_EQ(answer.body.size(), asset.bytes.size());
    EXPECT_NE(header(answer, "Cache-Control").find("immutable"), std::string::npos);
  }
}

class UploadStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    parent_ = fs::temp_directory_path() / ("sf-upload-test-" + std::to_string(::getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(parent_);
    UploadLimits limits;
    limits.max_upload_bytes = 1000;
    limits.max_uploads = 2;
    store_ = std::move(*UploadStore::create(parent_, limits));
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(parent_);
  }
  static size_t files_under(const fs::path& dir) {
    size_t n = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) n += entry.is_regular_file() ? 1 : 0;
    return n;
  }
  fs::path parent_;
  std::unique_ptr<UploadStore> store_;
};

TEST_F(UploadStoreTest, AFileIsWrittenAsItComesAndNamedOnceWhole) {
  BodyHandling h = store_->receive("app-1.log", "", "", 6);
  ASSERT_NE(h.body, nullptr);
  EXPECT_FALSE(h.body->write("abc").has_value());
  EXPECT_FALSE(h.body->write("def").has_value());
  EXPECT_FALSE(store_->path("u1").has_value()) << "not a log until it is whole";
  const RestResponse done = h.body->finish();
  EXPECT_EQ(done.status, 201);
  ASSERT_TRUE(store_->path("u1").has_value());
  std::ifstream in(*store_->path("u1"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "abcdef");
}

TEST_F(UploadStoreTest, NamesThatCouldLeaveTheFolderAreRefused) {
  for (const char* name : {"../x", ".hidden", "a/b", "", "..", "a\\b", "a b"}) {
    BodyHandling h = store_->receive(name, "", "", 1);
    EXPECT_EQ(h.body, nullptr) << name;
    EXPECT_EQ(h.refusal.status, 400) << name;
  }
  EXPECT_EQ(store_->receive("events_1_x", "not_rolling", "", 1).refusal.status, 400);
  EXPECT_EQ(store_->receive("events_1_x", "eventlog_v2_x/..", "", 1).refusal.status, 400);
}

TEST_F(UploadStoreTest, PastTheLimitIsRefusedAndLeavesNothing) {
  EXPECT_EQ(store_->receive("big.log", "", "", 1001).refusal.status, 413) << "declared too big";
  BodyHandling h = store_->receive("chunked.log", "", "", std::nullopt);
  ASSERT_NE(h.body, nullptr);
  EXPECT_FALSE(h.body->write(std::string(600, 'x')).has_value());
  auto refused = h.body->write(std::string(600, 'x'));
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->status, 413);
  h.body.reset();  // the HTTP layer drops it
  EXPECT_EQ(files_under(store_->directory()), 0u);
  EXPECT_FALSE(store_->path("u1").has_value());
}

TEST_F(UploadStoreTest, AFolderUploadIsOneLogAndTheOldestUploadGoesFirst) {
  BodyHandling first = store_->receive("events_1_app-1", "eventlog_v2_app-1", "", 2);
  ASSERT_NE(first.body, nullptr);
  first.body->write("{}");
  first.body->finish();
  BodyHandling second = store_->receive("events_2_app-1", "eventlog_v2_app-1", "u1", 2);
  ASSERT_NE(second.body, nullptr);
  second.body->write("{}");
  second.body->finish();
  EXPECT_EQ(store_->path("u1")->filename(), "eventlog_v2_app-1");
  EXPECT_EQ(store_->receive("x", "eventlog_v2_other", "u1", 1).refusal.status, 404) << "another folder";
  EXPECT_TRUE(store_->reserve_download("local-1").has_value());
  EXPECT_TRUE(store_->reserve_download("local-2").has_value());
  EXPECT_FALSE(store_->path("u1").has_value()) << "two kept: the oldest was removed";
}

TEST_F(UploadStoreTest, MessagesDoNotNameTheServersFolder) {
  const std::string message = store_->directory().string() + "/u7/notes.txt: unknown format";
  EXPECT_EQ(store_->without_directory(message), "notes.txt: unknown format");
}

}  // namespace
}  // namespace sf::server
