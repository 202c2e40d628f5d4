// The text and Markdown reports say counts, units and lists the way a person reads them: what
// ran apart from what was skipped, one noun in the singular, resource costs in core-hours and
// GiB-hours, a finding of no measurable wall-clock counted rather than listed, long lists cut
// with their total, and per-band counts of the groups under "Also".
#include <gtest/gtest.h>

#include <string>

#include "common/units.h"
#include "report/analysis_markdown.h"
#include "report/analysis_text.h"
#include "report/finding_text.h"

namespace sf::report {
namespace {

using analysis::Finding;
using analysis::ImpactBand;
using analysis::RollupGroup;
using analysis::RollupTier;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

model::StageAttempt stage(int64_t id, model::StageStatus status) {
  model::StageAttempt s;
  s.stage_id = id;
  s.status = status;
  if (status != model::StageStatus::kSkipped && status != model::StageStatus::kPending) {
    s.submission_time_ms = 1000;
    s.completion_time_ms = 2000;
    s.tasks_succeeded = 1;
  }
  return s;
}

model::AppModel one_of_each() {
  model::AppModel m;
  m.app.id = "app-1";
  m.app.name = "one of each";
  m.app.start_time_ms = 0;
  m.app.end_time_ms = 60000;
  m.app.finished = true;
  m.peak_concurrent_cores = 1;
  m.peak_concurrent_executors = 1;
  m.executors.push_back({});
  m.jobs.push_back({});
  m.jobs.back().status = model::JobStatus::kSucceeded;
  m.sql.push_back({});
  m.stages = {stage(0, model::StageStatus::kComplete), stage(1, model::StageStatus::kSkipped)};
  return m;
}

Finding finding(std::string id, std::string type, ImpactBand band, std::optional<double> wall_clock_ms) {
  Finding f;
  f.id = std::move(id);
  f.type = std::move(type);
  f.title = "title of " + f.id;
  f.band = band;
  if (wall_clock_ms) {
    f.impact.basis = analysis::Basis::kSerial;
    f.impact.wall_clock = analysis::WallClockRange{*wall_clock_ms, *wall_clock_ms};
  }
  return f;
}

TEST(AnalysisText, SaysWhatRanApartFromWhatWasSkippedAndUsesTheSingular) {
  const model::AppModel m = one_of_each();
  const std::string text = analysis_text(m, nullptr);
  EXPECT_TRUE(contains(text, "1 job · 1 stage attempt ran, 1 skipped · 1 task · 1 SQL execution")) << text;
  EXPECT_TRUE(contains(text, "1 executor seen, 0 removed · peak 1 core on 1 executor")) << text;
}

TEST(AnalysisText, CountsStagesThatNeverStartedApart) {
  model::AppModel m = one_of_each();
  m.stages = {stage(0, model::StageStatus::kComplete), stage(1, model::StageStatus::kFailed),
              stage(2, model::StageStatus::kSkipped), stage(3, model::StageStatus::kSkipped),
              stage(4, model::StageStatus::kPending)};
  const std::string text = analysis_text(m, nullptr);
  EXPECT_TRUE(contains(text, "2 stage attempts ran (1 failed), 2 skipped, 1 never started")) << text;
}

TEST(AnalysisText, ListsNoFindingOfNoMeasurableWallClockAndCountsIt) {
  analysis::Analysis a;
  a.findings = {finding("real", "skew", ImpactBand::kLow, 1200), finding("nothing", "skew", ImpactBand::kLow, 0.3)};
  const std::string text = analysis_text(one_of_each(), &a);
  EXPECT_TRUE(contains(text, "title of real -- about 1.2s of wall-clock")) << text;
  EXPECT_FALSE(contains(text, "title of nothing")) << text;
  EXPECT_FALSE(contains(text, "about 0 ms")) << text;
  EXPECT_TRUE(contains(text, "1 more finding with no measurable wall-clock to recover is not listed")) << text;
  const std::string markdown = analysis_markdown(one_of_each(), a);
  EXPECT_FALSE(contains(markdown, "title of nothing")) << markdown;
  EXPECT_TRUE(contains(markdown, "1 finding with no measurable wall-clock to recover is not listed")) << markdown;
}

TEST(AnalysisText, CutsALongFindingListAndSaysHowManyMore) {
  analysis::Analysis a;
  for (int i = 0; i < 30; ++i) {
    std::string id = "f";
    id += std::to_string(i);  // not "f" + ...: g++ 12 takes that for an overlapping copy (-Wrestrict)
    a.findings.push_back(finding(id, "gc", ImpactBand::kLow, std::nullopt));
  }
  TextOptions options;
  options.top_findings = 20;
  const std::string text = analysis_text(one_of_each(), &a, options);
  EXPECT_TRUE(contains(text, "Findings (30)")) << text;
  EXPECT_TRUE(contains(text, "title of f19")) << text;
  EXPECT_FALSE(contains(text, "title of f20")) << text;
  EXPECT_TRUE(contains(text, "... and 10 more (--top-findings 0 lists every one")) << text;
  options.top_findings = 0;
  EXPECT_TRUE(contains(analysis_text(one_of_each(), &a, options), "title of f29"));
}

TEST(AnalysisText, AlsoCountsEachGroupsFindingsByBand) {
  analysis::Analysis a;
  a.findings = {finding("s1", "stageFailed", ImpactBand::kHigh, std::nullopt),
                finding("s2", "stageFailed", ImpactBand::kLow, std::nullopt)};
  RollupGroup group;
  group.type = "stageFailed";
  group.tier = RollupTier::kCount;
  group.band_counts = {{ImpactBand::kHigh, 1}, {ImpactBand::kLow, 1}};
  group.finding_ids = {"s1", "s2"};
  group.best_finding_id = "s1";
  a.rollup.groups.push_back(group);
  const std::string text = analysis_text(one_of_each(), &a);
  EXPECT_TRUE(contains(text, "Also: stageFailed (1 high, 1 low)")) << text;
}

TEST(AnalysisText, ResourceCostsAreInCoreHoursAndGiBHours) {
  EXPECT_EQ(raw_waste_phrase({3.0 * 3'600'000.0 + 1'800'000.0, analysis::WasteUnit::kCoreMs}), "3.50 core-hours");
  // The memory detectors' MB-seconds are MiB held for seconds: 16,052,708 of them are 4.35 GiB-hours.
  EXPECT_EQ(raw_waste_phrase({16052708, analysis::WasteUnit::kMbSeconds}), "4.35 GiB-hours");
  EXPECT_EQ(raw_waste_phrase({2.5, analysis::WasteUnit::kCoreHours}), "2.50 core-hours");
}

TEST(Units, CountsTakeTheirNounInTheRightNumber) {
  EXPECT_EQ(units::format_counted(1, "executor"), "1 executor");
  EXPECT_EQ(units::format_counted(0, "executor"), "0 executors");
  EXPECT_EQ(units::format_counted(3047, "task"), "3,047 tasks");
  EXPECT_EQ(units::format_counted(2, "series", "series"), "2 series");
}

TEST(Units, ResourceHoursKeepTheirDigits) {
  EXPECT_EQ(units::format_resource_hours(1204.4, "GiB-hours"), "1,204 GiB-hours");
  EXPECT_EQ(units::format_resource_hours(3.574, "core-hours"), "3.57 core-hours");
  EXPECT_EQ(units::format_resource_hours(0.0042, "core-hours"), "0.0042 core-hours");
  EXPECT_EQ(units::format_resource_hours(0, "core-hours"), "0 core-hours");
  EXPECT_EQ(units::format_resource_hours(0.00001, "core-hours"), "under 0.0001 core-hours");
}

}  // namespace
}  // namespace sf::report
