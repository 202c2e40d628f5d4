// The comparison normalizer rewrites only what differs between two runs of one job, and the
// caller's patterns see the text as Spark printed it.
#include "compare/normalize.h"

#include <gtest/gtest.h>

namespace sf::compare {
namespace {

TEST(StagingDirectories, MixedCaseOrAlphanumericSegmentsOfSixToEightAreRewritten) {
  EXPECT_EQ(replace_staging_directories("s3://b/tmp/aB3xY9/part-0"), "s3://b/tmp/<dir>/part-0");
  EXPECT_EQ(replace_staging_directories("/out/qWeRtYu/x"), "/out/<dir>/x");
  // A real directory that mixes letters and digits is rewritten too, as documented.
  EXPECT_EQ(replace_staging_directories("/data/output01"), "/data/<dir>");
  EXPECT_EQ(replace_staging_directories("/x/.spark-staging-0c7f1d2e-1b2c-4d5e-8f90-123456789abc/y"),
            "/x/.spark-staging-<dir>/y");
}

TEST(StagingDirectories, OrdinaryPathSegmentsStay) {
  for (const char* path : {"/user/hive/warehouse/sales", "/data/ABCDEF/x", "/tables/sales_2024/p", "/a/b1/c",
                           "/lake/customers/region=eu", "/data/abcdefghij1"}) {
    EXPECT_EQ(replace_staging_directories(path), path) << path;
  }
}

TEST(Dates, CalendarDatesAndTimestampsAreRewritten) {
  EXPECT_EQ(replace_dates("(dt#3 = 2024-01-15)"), "(dt#3 = <date>)");
  EXPECT_EQ(replace_dates("ts >= 2024-01-15 03:04:05.123"), "ts >= <date>");
  EXPECT_EQ(replace_dates("ts >= 2024-01-15T03:04:05Z and"), "ts >= <date> and");
  EXPECT_EQ(replace_dates("since 1704067200000 ms"), "since <date> ms");
}

TEST(Dates, OtherNumbersStay) {
  for (const char* text : {"limit 2024", "x = 12024-01-15", "2024-13-01", "9999-01-01", "id 123456789012"}) {
    EXPECT_EQ(replace_dates(text), text) << text;
  }
}

TEST(InLists, InAndInsetListsCollapse) {
  EXPECT_EQ(replace_in_lists("Filter id#1 IN (1,2,3)"), "Filter id#1 IN (<list>)");
  EXPECT_EQ(replace_in_lists("Filter (id#1 IN (f(1),2) AND x#2)"), "Filter (id#1 IN (<list>) AND x#2)");
  EXPECT_EQ(replace_in_lists("Filter (id#1 INSET 1, 2, 3)"), "Filter (id#1 INSET <list>)");
  EXPECT_EQ(replace_in_lists("PushedFilters: [In(id, [1,2,3]), IsNotNull(id)]"),
            "PushedFilters: [In(id, [<list>]), IsNotNull(id)]");
  // A word that merely contains IN is not a list.
  EXPECT_EQ(replace_in_lists("JOIN (a)"), "JOIN (a)");
}

TEST(FileIndexCounts, CountsAreRewritten) {
  EXPECT_EQ(replace_file_index_counts("DeltaLogFileIndex(4 paths)[s3://t/_delta_log]"),
            "DeltaLogFileIndex(# paths)[s3://t/_delta_log]");
  EXPECT_EQ(replace_file_index_counts("InMemoryFileIndex(1 path)"), "InMemoryFileIndex(# path)");
  EXPECT_EQ(replace_file_index_counts("Project (4 columns)"), "Project (4 columns)");
}

TEST(CodegenIds, ThePlaceOfACodegenSubtreeIsRewritten) {
  EXPECT_EQ(replace_codegen_ids("WholeStageCodegen (12)"), "WholeStageCodegen (#)");
  EXPECT_EQ(replace_codegen_ids("WholeStageCodegen (1) WholeStageCodegen (2)"),
            "WholeStageCodegen (#) WholeStageCodegen (#)");
  // Only the codegen node's own number: other parenthesized numbers stay.
  EXPECT_EQ(replace_codegen_ids("Project (4 columns)"), "Project (4 columns)");
  EXPECT_EQ(replace_codegen_ids("WholeStageCodegen (x)"), "WholeStageCodegen (x)");
}

TEST(ComparisonNormalizer, DoesNotStripNumbersOrPathsInGeneral) {
  const ComparisonNormalizer normalizer;
  EXPECT_NE(normalizer.normalize("Filter (x#1 = 2)"), normalizer.normalize("Filter (x#1 = 3)"));
  EXPECT_NE(normalizer.normalize("Location: [s3://lake/sales]"), normalizer.normalize("Location: [s3://lake/costs]"));
  // Expression and plan ids do go: they differ between any two runs.
  EXPECT_EQ(normalizer.normalize("Exchange hashpartitioning(id#12, 200), [plan_id=4]"),
            normalizer.normalize("Exchange hashpartitioning(id#99, 200), [plan_id=17]"));
}

TEST(ComparisonNormalizer, UserPatternsApplyFirstToTheRawText) {
  const auto normalizer = ComparisonNormalizer::with_patterns({"variant_(a|b)", "id#4\\b"});
  ASSERT_TRUE(normalizer.has_value());
  EXPECT_EQ(normalizer->normalize("/out/variant_a/daily"), normalizer->normalize("/out/variant_b/daily"));
  // "id#4" only exists before expression ids are removed.
  EXPECT_EQ(normalizer->normalize("x id#4 y"), "x " + std::string(kUserPatternToken) + " y");
  EXPECT_EQ(normalizer->patterns().size(), 2u);
  EXPECT_NE(ComparisonNormalizer().normalize("/out/variant_a/daily"),
            ComparisonNormalizer().normalize("/out/variant_b/daily"));
}

TEST(ComparisonNormalizer, AnInvalidPatternIsAnErrorNamingIt) {
  const auto normalizer = ComparisonNormalizer::with_patterns({"ok", "(unclosed"});
  ASSERT_FALSE(normalizer.has_value());
  EXPECT_EQ(normalizer.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(normalizer.error().message().find("(unclosed"), std::string::npos);
}

TEST(ComparisonNormalizer, PatternsRunInLinearTime) {
  // (.*a){25} backtracks exponentially in ECMAScript engines on a line of a's without a match at
  // the end; RE2 answers in one pass over the text. The test finishing is the assertion.
  const auto normalizer = ComparisonNormalizer::with_patterns({"(.*a){25}b"});
  ASSERT_TRUE(normalizer.has_value());
  const std::string line(5000, 'a');
  EXPECT_EQ(normalizer->normalize(line), line);
  EXPECT_EQ(normalizer->normalize(std::string(30, 'a') + "b"), kUserPatternToken);
}

TEST(ComparisonNormalizer, WhatRe2CannotRunIsRefusedWithItsReason) {
  for (const std::string& pattern :
       std::vector<std::string>{"(a)\\1", "foo(?=bar)", std::string(kMaxNormalizePatternBytes + 1, 'x')}) {
    const auto normalizer = ComparisonNormalizer::with_patterns({pattern});
    ASSERT_FALSE(normalizer.has_value()) << pattern;
    EXPECT_EQ(normalizer.error().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(normalizer.error().message().find("invalid --normalize-path pattern"), std::string::npos);
  }
  // A copy shares the compiled patterns and normalizes the same.
  const auto normalizer = ComparisonNormalizer::with_patterns({"run-[0-9]+"});
  ASSERT_TRUE(normalizer.has_value());
  const ComparisonNormalizer copy = *normalizer;
  EXPECT_EQ(copy.normalize("/out/run-42/x"), normalizer->normalize("/out/run-7/x"));
}

TEST(StageNames, DigitsAndHexIdsCollapse) {
  EXPECT_EQ(normalize_stage_name("count at Foo.scala:42"), "count at foo.scala:#");
  EXPECT_EQ(normalize_stage_name("run job 3f2a9c1b77e0 at x"), "run job # at x");
  EXPECT_EQ(normalize_stage_name("$anonfun$apply$2 at Ingest.scala:17"), "$anonfun$apply$# at ingest.scala:#");
}

TEST(TextTokens, AreLowercaseSortedAndDistinct) {
  EXPECT_EQ(text_tokens("Scan parquet sales, SCAN x#1"),
            (std::vector<std::string>{"1", "parquet", "sales", "scan", "x"}));
}

}  // namespace
}  // namespace sf::compare
