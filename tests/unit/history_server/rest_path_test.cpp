// REST paths, query strings and the History Server's dates.
#include "history_server/rest_path.h"

#include <gtest/gtest.h>

namespace sf::history_server {
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
  EXPECT_FALSE(parse_history_server_date_param("").has_value());
}

// Found by fuzz_rest_requests under UBSan: year 299999015 overflowed the milliseconds. Beyond
// 100,000,000 days of 1970 a date is refused (a 400 naming the parameter), at any field width.
TEST(HistoryServerTime, DateParametersFarFromAnyYearAnyoneMeansAreRefused) {
  EXPECT_FALSE(parse_history_server_date_param("299999015-03-16").has_value());
  EXPECT_FALSE(
      parse_history_server_date_param("999999999-12-31T999999999:999999999:999999999.999999999GMT").has_value());
  EXPECT_FALSE(parse_history_server_date_param("2015-01-999999999").has_value());
  EXPECT_EQ(parse_history_server_date_param("275000-01-01"), 8615994624000000);
}

// Every expected value is what Spark's SimpleDateParam (java.text.SimpleDateFormat, Java 17)
// made of the same text.
TEST(HistoryServerTime, DateParametersInEveryZoneFormJavaParses) {
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T08:42:40.000PST"), 1422981760000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T08:42:40.000PDT"), 1422978160000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.000UTC"), 1422981760000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.000gmt"), 1422981760000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.000 GMT"), 1422981760000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T17:42:40.000GMT+01:00"), 1422981760000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.000GMT-8:00"), 1423010560000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T17:42:40.000+0100"), 1422981760000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.000-0800"), 1423010560000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.000CET"), 1422978160000);
  EXPECT_EQ(parse_history_server_date_param("2015-07-03T16:42:40.000CET"), 1435938160000);  // no summer time
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.000IST"), 1422974560000);  // Israel's
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.000GMTjunk"), 1422981760000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.5GMT"), 1422981760005);
}

TEST(HistoryServerTime, DateParametersRollOverAndFallBackToTheDay) {
  EXPECT_EQ(parse_history_server_date_param("2015-13-01"), 1451606400000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-30"), 1425254400000);
  EXPECT_EQ(parse_history_server_date_param("2015-00-10"), 1418169600000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-00"), 1422662400000);
  EXPECT_EQ(parse_history_server_date_param("2015-2-3"), 1422921600000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T25:42:40.000GMT"), 1423014160000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T1:2:3.4GMT"), 1422925323004);
  // A time the first form does not take is read as its day, at midnight GMT.
  EXPECT_EQ(parse_history_server_date_param("2015-02-10T12:00"), 1423526400000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40GMT"), 1422921600000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T17:42:40.000GMT+0100"), 1422921600000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T17:42:40.000+01:00"), 1422921600000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-03T16:42:40.000Z"), 1422921600000);
  EXPECT_EQ(parse_history_server_date_param("2015-02-10junk"), 1423526400000);
}

}  // namespace
}  // namespace sf::history_server
