// The reviewer summary of a comparison: readable series names, what every line shares said once,
// an unusable target said once with its reason, Markdown cells escaped.
#include <gtest/gtest.h>

#include <string>

#include "report/verdict_summary.h"
#include "results/series.h"

namespace sf::report {
namespace {

using results::Evaluation;
using results::Verdict;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Evaluation evaluation(std::string quantity, Verdict verdict) {
  Evaluation e;
  e.identity = {{"subject", "etl"}, {"environment.cluster", "prod"}};
  e.quantity = std::move(quantity);
  e.outcome.verdict = verdict;
  e.target = results::PointRef{.result_id = "r-0123456789abcdef", .revision = "c6"};
  return e;
}

TEST(ReadableQuantity, NamesStagesAndSqlExecutionsByTheirNames) {
  EXPECT_EQ(results::readable_quantity("stage:parquet at x.scala:#|nodes:1295dda33512f46b:durationMs"),
            "stage \"parquet at x.scala:#\" (nodes 1295dd) durationMs");
  EXPECT_EQ(results::readable_quantity("stage:count at y.py:#|site:de7edaeeb84f3225~2:durationMs"),
            "stage \"count at y.py:#\" (site de7eda, 2nd) durationMs");
  EXPECT_EQ(results::readable_quantity("sql:daily totals@28871bebec0136ea:durationMs"),
            "SQL \"daily totals\" (plan 28871b) durationMs");
  EXPECT_EQ(results::readable_quantity("sql:@noplan~3:durationMs"), "SQL (no plan, 3rd) durationMs");
  EXPECT_EQ(results::readable_quantity("appWallClockMs"), "appWallClockMs");
}

TEST(VerdictSummary, SaysWhatEverySeriesSharesOnceAndNamesTheStore) {
  results::VerdictDocument d;
  d.mode = "history";
  d.evaluations = {evaluation("appWallClockMs", Verdict::kNoChangeDetected),
                   evaluation("stage:map at z.scala:#|site:0011223344556677:durationMs", Verdict::kNoChangeDetected)};
  const std::string text = verdict_text(d, {.store = "results.db"});
  EXPECT_TRUE(contains(text, "results from the store results.db\n")) << text;
  EXPECT_TRUE(contains(text, "every series: environment.cluster=prod, subject=etl\n")) << text;
  EXPECT_TRUE(contains(text, "  appWallClockMs @ c6: ")) << text;
  EXPECT_TRUE(contains(text, "  stage \"map at z.scala:#\" (site 001122) durationMs @ c6: ")) << text;
  EXPECT_FALSE(contains(text, "cluster=prod}")) << text;
}

TEST(VerdictSummary, SaysOnceThatATargetIsUnusableAndWhy) {
  results::VerdictDocument d;
  d.mode = "history";
  for (const char* q : {"a", "b", "c"}) {
    Evaluation e = evaluation(q, Verdict::kIndeterminate);
    e.outcome.reason = "target-unusable";
    e.detail = "target status is partial";
    d.evaluations.push_back(e);
  }
  const std::string text = verdict_text(d);
  EXPECT_TRUE(contains(
      text, "Indeterminate (3):\n  3 series: target-unusable: target c6 (r-0123456789): target status is partial\n"))
      << text;
  ASSERT_EQ(unusable_targets(d).size(), 1u);
  EXPECT_EQ(unusable_targets(d)[0], "target c6 (r-0123456789): target status is partial (3 series)");
}

TEST(VerdictSummary, MarkdownCellsEscapePipes) {
  results::VerdictDocument d;
  d.mode = "history";
  Evaluation e = evaluation("latency|p95", Verdict::kIndeterminate);
  e.outcome.reason = "no-reference";
  d.evaluations = {e};
  const std::string markdown = verdict_markdown(d);
  EXPECT_TRUE(contains(markdown, "| etl latency\\|p95 {environment.cluster=prod} @ c6 | no-reference |")) << markdown;
}

}  // namespace
}  // namespace sf::report
