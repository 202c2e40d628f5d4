// The History Server API's kept answers: handed out only for the version of the log they were
// written from, and never more bytes kept than the bound.
#include "history_server/response_cache.h"

#include <gtest/gtest.h>

#include <string>

namespace sf::history_server {
namespace {

catalog::LogFileIdentity version(uint64_t bytes) {
  catalog::LogFileIdentity v;
  v.files.push_back({"/logs/app-1", bytes, 1});
  return v;
}

TEST(ResponseCache, AnAnswerIsHandedOutOnlyForTheVersionOfTheLogItWasWrittenFrom) {
  ResponseCache cache(1 << 20);
  cache.keep("app-1\njobs", version(100), "[1,2]");
  auto kept = cache.find("app-1\njobs", version(100));
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(*kept, "[1,2]");
  EXPECT_EQ(cache.find("app-1\nstages", version(100)), nullptr);
  // The log grew: the old answer is dropped, not handed out.
  EXPECT_EQ(cache.find("app-1\njobs", version(200)), nullptr);
  EXPECT_EQ(cache.find("app-1\njobs", version(100)), nullptr);
  EXPECT_EQ(cache.bytes(), 0u);
}

TEST(ResponseCache, TheBytesKeptStayUnderTheBoundTheLeastRecentlyUsedDroppedFirst) {
  const size_t bound = 10'000;
  ResponseCache cache(bound);
  const std::string body(1'000, 'x');
  for (int i = 0; i < 50; ++i) {
    cache.keep("key" + std::to_string(i), version(1), body);
    ASSERT_NE(cache.find("key0", version(1)), nullptr) << "used after every keep, so never the least recent";
    EXPECT_LE(cache.bytes(), bound);
  }
  EXPECT_EQ(cache.find("key1", version(1)), nullptr);
  EXPECT_NE(cache.find("key49", version(1)), nullptr);
  // An answer of more than a quarter of the bound is not kept at all.
  cache.keep("big", version(1), std::string(bound / 4 + 1, 'y'));
  EXPECT_EQ(cache.find("big", version(1)), nullptr);
}

}  // namespace
}  // namespace sf::history_server
