// The finding-type registry (analysis/findings/finding_types.h): whole rows, each type and rule once, every
// finding of generated applications registered (every detector test's scenario is checked too,
// by analyze_scenario), the evidence keys other code reads written by the detectors, and
// docs/detectors.md's "Finding types" table written from it (SF_UPDATE_GOLDEN=1 rewrites it,
// review the diff).
#include "analysis/findings/finding_types.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "unit/analysis/analysis_fixture.h"
#include "unit/analysis/generated_apps.h"

namespace sf::analysis {
namespace {

using sf::testing::ScenarioLog;
using sf::testing::StageSpec;

const std::filesystem::path kSourceDir = SF_SOURCE_DIR;

std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FindingTypes, EveryRowIsWholeAndEachRuleIsRegisteredOnce) {
  std::set<std::pair<std::string_view, std::string_view>> type_rules;
  std::set<std::string_view> types_with_log_rules;
  std::set<std::string_view> finished_types;  // types whose rows are behind us: one type's rows are adjacent
  std::string_view previous;
  for (const FindingTypeInfo& info : finding_type_registry()) {
    SCOPED_TRACE(std::string(info.type));
    EXPECT_FALSE(info.type.empty());
    EXPECT_FALSE(info.rules.empty()) << "a type without a rule lists finding_rule::kNone";
    EXPECT_FALSE(info.scopes.empty());
    EXPECT_FALSE(info.basis.empty());
    EXPECT_FALSE(info.method.empty());
    EXPECT_FALSE(info.reference_title.empty());
    EXPECT_FALSE(info.reference.empty());
    for (std::string_view rule : info.rules) {
      EXPECT_TRUE(type_rules.insert({info.type, rule}).second) << "rule \"" << rule << "\" is registered twice";
      EXPECT_EQ(find_finding_type(info.type, rule), &info) << rule;
    }
    if (!info.rules_from_log.empty()) {
      EXPECT_TRUE(types_with_log_rules.insert(info.type).second) << "two rows take the log's rules";
    }
    if (info.type != previous) {
      EXPECT_EQ(finished_types.count(info.type), 0u) << "the rows of one type are apart";
      finished_types.insert(previous);
    }
    previous = info.type;
  }
  EXPECT_EQ(find_finding_type("noSuchType", ""), nullptr);
  EXPECT_EQ(find_finding_type(finding_type::kSkew, "noSuchRule"), nullptr);
  // A rule the log names is registered where the type takes the log's rules, and nowhere else.
  EXPECT_NE(find_finding_type(finding_type::kFailures, "ExceptionFailure"), nullptr);
  EXPECT_EQ(find_finding_type(finding_type::kFailures, finding_rule::kNone), nullptr);
}

TEST(FindingTypes, EvidenceKeysAreUnique) {
  std::set<std::string_view> keys;
  for (std::string_view key : evidence_keys()) {
    EXPECT_FALSE(key.empty());
    EXPECT_TRUE(keys.insert(key).second) << key;
  }
}

// GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens.
std::string anchor_of(std::string_view heading) {
  std::string anchor;
  for (char c : heading) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '_') {
      anchor += static_cast<char>(std::tolower(u));
    } else if (c == ' ') {
      anchor += '-';
    }
  }
  return anchor;
}

std::set<std::string> anchors_of(const std::string& page) {
  std::set<std::string> anchors;
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with('#')) continue;
    const size_t text = line.find_first_not_of('#');
    if (text == std::string::npos || line[text] != ' ') continue;
    anchors.insert(anchor_of(std::string_view(line).substr(text + 1)));
  }
  return anchors;
}

TEST(FindingTypes, EveryReferenceIsAHeadingOfItsPage) {
  for (const FindingTypeInfo& info : finding_type_registry()) {
    const std::string reference(info.reference);
    const size_t hash = reference.find('#');
    const std::filesystem::path page = kSourceDir / "docs" / reference.substr(0, hash);
    ASSERT_TRUE(std::filesystem::is_regular_file(page)) << info.type << ": " << page << " does not exist";
    if (hash == std::string::npos) continue;
    const std::set<std::string> anchors = anchors_of(text_of(page));
    EXPECT_EQ(anchors.count(reference.substr(hash + 1)), 1u)
        << info.type << ": no heading of " << page << " has the anchor " << reference.substr(hash + 1);
  }
}

TEST(FindingTypes, AnUnregisteredTypeRuleOrScopeFailsTheAnalysisTests) {
  Analysis analysis;
  Finding unknown_type;
  unknown_type.id = "renamedSkew//stage-1.0";
  unknown_type.type = "renamedSkew";
  analysis.findings.push_back(unknown_type);
  EXPECT_NONFATAL_FAILURE(testing::expect_registered(analysis), "is not in the finding-type registry");

  Finding unknown_rule;
  unknown_rule.id = "skew/renamedRule/stage-1.0";
  unknown_rule.type = finding_type::kSkew;
  unknown_rule.rule = "renamedRule";
  Finding folding;  // the unregistered finding folded into a registered one's entry
  folding.type = finding_type::kStraggler;
  folding.also_answers.push_back({unknown_rule, "the same longest task"});
  analysis.findings = {folding};
  EXPECT_NONFATAL_FAILURE(testing::expect_registered(analysis), "is not in the finding-type registry");

  Finding wrong_scope;
  wrong_scope.type = finding_type::kSkew;
  wrong_scope.rule = finding_rule::kDurationMax;
  wrong_scope.scope = Scope::kApp;
  analysis.findings = {wrong_scope};
  EXPECT_NONFATAL_FAILURE(testing::expect_registered(analysis), "scope app is not one");
}

// One of two jobs failed of its one stage: jobFailureRate, which reads failedJobs and
// cancelledByShutdown, and which no generated application triggers.
ScenarioLog failed_job_log() {
  ScenarioLog log;
  log.start(0).finished(1000000);
  log.executor("1", "host-a", 4, 100).executor("2", "host-b", 4, 100);
  auto stage = [](int64_t id, int64_t start) {
    StageSpec s;
    s.stage_id = id;
    s.submit_ms = start;
    s.tasks = ScenarioLog::uniform_tasks(40, start, 10000, {"1", "2"}, 4);
    s.complete_ms = start + 50000;
    return s;
  };
  StageSpec doomed = stage(0, 1000);
  doomed.failure_reason = "Job aborted due to stage failure: Task 3 in stage 0.0 failed 4 times";
  log.job({.job_id = 0, .submit_ms = 1000, .end_ms = 51000, .succeeded = false, .stages = {doomed}});
  log.job({.job_id = 1, .submit_ms = 60000, .end_ms = 110000, .stages = {stage(1, 60000)}});
  return log;
}

void collect(const Analysis& analysis, std::set<std::string>& evidence_names,
             std::set<const FindingTypeInfo*>& rows_seen) {
  auto take = [&](const Finding& f) {
    for (const Evidence& e : f.evidence) evidence_names.insert(e.name);
    rows_seen.insert(find_finding_type(f.type, f.rule));
  };
  for (const Finding& f : analysis.findings) {
    take(f);
    for (const AnsweredFinding& a : f.also_answers) take(a.finding);
  }
}

TEST(FindingTypes, EveryFindingOfGeneratedLogsIsRegisteredAndWritesTheEvidenceKeys) {
  std::set<std::string> evidence_names;
  std::set<const FindingTypeInfo*> rows_seen;
  AnalysisOptions options;
  options.thresholds = testing::detector_thresholds();
  for (const loggen::GeneratorConfig& config : testing::varied_generated_configs()) {
    SCOPED_TRACE("seed " + std::to_string(config.seed));
    const model::AppModel model = testing::generated_model(config);
    const Analysis analysis = analyze(model, options);
    testing::expect_registered(analysis);
    collect(analysis, evidence_names, rows_seen);
  }
  const testing::Analyzed failed_job = testing::analyze_scenario(failed_job_log());  // checks registration
  ASSERT_FALSE(failed_job.detected(finding_type::kJobFailureRate).empty());
  collect(failed_job.analysis, evidence_names, rows_seen);

  // Each key some code reads is written under that name by the detector.
  for (std::string_view key : evidence_keys()) {
    EXPECT_EQ(evidence_names.count(std::string(key)), 1u) << "no finding wrote evidence " << key;
  }
  rows_seen.erase(nullptr);  // an unregistered finding failed above
  std::printf("[finding types] %zu of %zu registry rows seen on %zu generated logs\n", rows_seen.size(),
              finding_type_registry().size(), testing::varied_generated_configs().size() + 1);
}

// tests/corpus/findings_summary.txt: per corpus log, the type/rule of each finding that keeps
// an entry of its own ("spark-events/local-1: stageFailed x1, skew/durationMax x2").
std::map<std::string, std::set<std::pair<std::string, std::string>>> corpus_summary() {
  std::map<std::string, std::set<std::pair<std::string, std::string>>> logs;
  std::istringstream lines(text_of(kSourceDir / "tests" / "corpus" / "findings_summary.txt"));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.starts_with('#')) continue;
    const size_t colon = line.rfind(": ");
    if (colon == std::string::npos) {
      ADD_FAILURE() << "findings_summary.txt: no \": \" in " << line;
      continue;
    }
    auto& findings = logs[line.substr(0, colon)];
    std::istringstream items(line.substr(colon + 2));
    for (std::string item; std::getline(items, item, ',');) {
      item.erase(0, item.find_first_not_of(' '));
      if (item == "(none)") continue;
      const std::string key = item.substr(0, item.rfind(" x"));
      const size_t slash = key.find('/');
      findings.insert(slash == std::string::npos ? std::pair{key, std::string()}
                                                 : std::pair{key.substr(0, slash), key.substr(slash + 1)});
    }
  }
  return logs;
}

TEST(FindingTypes, TheCorpusSummaryNamesOnlyRegisteredFindings) {
  const auto logs = corpus_summary();
  EXPECT_FALSE(logs.empty());
  for (const auto& [log, findings] : logs) {
    for (const auto& [type, rule] : findings) {
      EXPECT_NE(find_finding_type(type, rule), nullptr) << log << ": " << type << "/" << rule << " is not registered";
    }
  }
}

std::string rules_cell(const FindingTypeInfo& info) {
  std::string rules;
  for (std::string_view rule : info.rules) {
    if (!rules.empty()) rules.append(", ");
    rules.append(rule.empty() ? std::string("—") : fmt::format("`{}`", rule));
  }
  if (!info.variant.empty()) rules.append(fmt::format(" ({})", info.variant));
  return info.rules_from_log.empty() ? rules : fmt::format("{}; {}", info.rules_from_log, rules);
}

std::string scope_cell(const FindingTypeInfo& info) {
  std::string scopes;
  for (Scope scope : info.scopes) {
    if (!scopes.empty()) scopes.append(" or ");
    scopes.append(to_string(scope));
  }
  return scopes;
}

std::string corpus_cell(size_t logs, std::string_view note) {
  std::string cell = logs == 0 ? "none" : logs == 1 ? "1 log" : fmt::format("{} logs", logs);
  if (!note.empty()) cell.append(fmt::format(" ({})", note));
  return cell;
}

// The table, from the registry and the corpus summary.
std::string finding_types_table() {
  std::map<const FindingTypeInfo*, size_t> logs_per_row;
  for (const auto& [log, findings] : corpus_summary()) {
    std::set<const FindingTypeInfo*> rows;
    for (const auto& [type, rule] : findings) rows.insert(find_finding_type(type, rule));
    for (const FindingTypeInfo* row : rows) ++logs_per_row[row];
  }
  std::string table =
      "| type | rules / variants | scope | basis | method | reference | on the corpus |\n"
      "|---|---|---|---|---|---|---|\n";
  for (const FindingTypeInfo& info : finding_type_registry()) {
    table.append(fmt::format("| `{}` | {} | {} | {} | {} | [{}]({}) | {} |\n", info.type, rules_cell(info),
                             scope_cell(info), info.basis, info.method, info.reference_title, info.reference,
                             corpus_cell(logs_per_row[&info], info.corpus_note)));
  }
  return table;
}

constexpr std::string_view kTableStart =
    "<!-- finding types: written from src/analysis/findings/finding_types.cpp by "
    "FindingTypes.TheDetectorReferenceTableIsTheRegistry; SF_UPDATE_GOLDEN=1 rewrites it -->\n";
constexpr std::string_view kTableEnd = "<!-- end of finding types -->\n";

TEST(FindingTypes, TheDetectorReferenceTableIsTheRegistry) {
  const std::filesystem::path page = kSourceDir / "docs" / "detectors.md";
  const std::string text = text_of(page);
  const size_t start = text.find(kTableStart);
  ASSERT_NE(start, std::string::npos) << page << " lacks the line that opens the generated table:\n" << kTableStart;
  const size_t table = start + kTableStart.size();
  const size_t end = text.find(kTableEnd, table);
  ASSERT_NE(end, std::string::npos) << page << " lacks the line that closes the generated table:\n" << kTableEnd;
  const std::string expected = finding_types_table();
  if (const char* update = std::getenv("SF_UPDATE_GOLDEN"); update != nullptr && std::string(update) == "1") {
    std::string rewritten = text;
    rewritten.replace(table, end - table, expected);
    std::ofstream(page) << rewritten;
    GTEST_SKIP() << "rewrote the finding types table of " << page << ": review the diff";
  }
  // Row by row, so a failure names the row that differs.
  std::istringstream want(expected), got(text.substr(table, end - table));
  for (size_t row = 1;; ++row) {
    std::string want_line, got_line;
    const bool have_want = static_cast<bool>(std::getline(want, want_line));
    const bool have_got = static_cast<bool>(std::getline(got, got_line));
    if (!have_want && !have_got) break;
    if (got_line == want_line) continue;
    ADD_FAILURE() << page << ": line " << row << " of the finding types table is not what the registry "
                  << "(src/analysis/findings/finding_types.cpp) and tests/corpus/findings_summary.txt give; "
                  << "SF_UPDATE_GOLDEN=1 rewrites the table.\n  in the page: " << got_line
                  << "\n  generated:   " << want_line;
    break;
  }
}

}  // namespace
}  // namespace sf::analysis
