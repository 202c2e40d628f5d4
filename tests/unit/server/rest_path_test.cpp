// REST paths, query strings and the History Server's dates.
#include "server/rest_path.h"

#include <gtest/gtest.h>

namespace sf::server {
namespace {

TEST(RestPath, SplitsApplicationAttemptAndResource) {
  const RestPath p = parse_rest_path("/api/v1/applications/app-1/2/stages/3/0/taskList?offset=1&length=2");
  EXPECT_EQ(p.app_id, "app-1");
  ASSERT_TRUE(p.attempt_id.has_value());
  EXPECT_EQ(*p.attempt_id, "2");
  EXPECT_EQ(p.resource, (std::vector<std::string>{"stages", "3", "0", "taskList"}));
  EXPECT_EQ(p.query.at("offset"), std::vector<std::string>{"1"});
  EXPECT_EQ(p.query.at("length"), std::vector<std::string>{"2"});
}

TEST(RestPath, AResourceNameRightAfterTheIdIsNotAnAttempt) {
  const RestPath p = parse_rest_path("applications/app-1/jobs/0");
  EXPECT_FALSE(p.attempt_id.has_value());
  EXPECT_EQ(p.resource, (std::vector<std::string>{"jobs", "0"}));
  EXPECT_TRUE(parse_rest_path("applications").app_id.empty());
  EXPECT_TRUE(parse_rest_path("version").app_id.empty());
}

TEST(RestPath, QueryValuesArePercentDecodedAndRepeatable) {
  const QueryParams q = parse_query_string("status=succeeded&status=failed&name=a%20b+c&empty&bad=%zz");
  EXPECT_EQ(q.at("status"), (std::vector<std::string>{"succeeded", "failed"}));
  EXPECT_EQ(q.at("name"), std::vector<std::string>{"a b c"});
  EXPECT_EQ(q.at("empty"), std::vector<std::string>{""});
  EXPECT_EQ(q.at("bad"), std::vector<std::string>{"%zz"});
}

TEST(HistoryServerTime, FormatsAndParsesTheSameInstant) {
  EXPECT_EQ(format_history_server_time(1422981780767), "2015-02-03T16:43:00.767GMT");
  EXPECT_EQ(format_history_server_time(0), "1970-01-01T00:00:00.000GMT");
  // An unfinished application's end, as the History Server shows it.
  EXPECT_EQ(format_history_server_time(-1), "1969-12-31T23:59:59.999GMT");
  for (int64_t ms : {int64_t{0}, int64_t{-1}, int64_t{951782400000}, int64_t{4102444799999}}) {
    EXPECT_EQ(parse_history_server_time(format_history_server_time(ms)), ms) << ms;
  }
}

TEST(HistoryServerTime, DateParametersTakeADayOrAFullTime) {
  EXPECT_EQ(parse_history_server_date_param("2015-02-10"), 1423526400000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.000GMT"), 1422981760000);
  EXPECT_FALSE(parse_history_server_date_param("yesterday").has_value());
  EXPECT_FALSE(parse_history_server_date_param("2015-13-01").has_value());
  EXPECT_FALSE(parse_history_server_date_param("").has_value());
}

}  // namespace
}  // namespace sf::server
