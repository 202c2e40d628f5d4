// sparkforensics compare BASE CAND: did the candidate get better than the baseline, where, and
// can the stage pairing be trusted?
//
// Exit codes (README.md): 0 when no budget is exceeded (or none was given), 1 when a --budget is
// exceeded, 2 for bad usage or a log that cannot be read (the error names the file). The
// comparison's confidence never changes the exit code: it is reported, and a CI gate decides
// what to do.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/leave_to_exit.h"
#include "cli/log_reading.h"
#include "cli/output.h"
#include "compare/budget.h"
#include "compare/run_comparison.h"
#include "report/comparison_json.h"
#include "report/comparison_markdown.h"
#include "report/comparison_text.h"
#include "report/dashboard_page.h"
#include "report/plan_diff_json.h"
#include "service/log_analysis.h"

namespace sf::cli {

namespace {

// A self-contained page carries the plan diffs of at most this many execution pairs (a job of
// thousands of queries would otherwise make a page of hundreds of MB); the page says when the
// diff of a pair is not in the file.
constexpr size_t kHtmlPlanDiffs = 200;

struct CompareCliOptions {
  std::string base_path;
  std::string cand_path;
  service::ComparisonRequest request;
  std::string format;
  std::string output_path;
  size_t top_stages = 10;
  bool quiet = false;
  bool no_progress = false;
  LogReadFlags read;
};

std::optional<model::AppModel> load(const std::string& path, const CompareCliOptions& options,
                                    const service::ReadSettings& settings) {
  auto loaded = load_log(path, settings, !options.quiet && !options.no_progress);
  if (!loaded) {
    print_error(loaded.error().message());
    return std::nullopt;
  }
  if (!options.quiet) warn_about_partial_load("", *loaded);
  return std::move(*loaded);
}

int run_compare(const CompareCliOptions& options) {
  // Everything the user typed is checked before the (possibly long) loads.
  auto settings = log_read_settings(options.read);
  if (!settings) return report_error(settings.error().message(), kExitFailed);
  auto plan = service::plan_comparison(options.request, settings->analysis);
  if (!plan) return report_error(plan.error().message(), kExitFailed);

  auto base = load(options.base_path, options, *settings);
  if (!base) return kExitFailed;
  auto cand = load(options.cand_path, options, *settings);
  if (!cand) return kExitFailed;
  auto compared = service::compare_models(*base, *cand, *plan);
  if (!compared) return report_error(compared.error().message(), kExitFailed);
  compare::Comparison& comparison = *compared;
  const compare::ComparisonNormalizer& normalizer = plan->options.alignment.normalizer;

  std::string rendered;
  if (options.format == "json") {
    rendered = report::comparison_json(comparison);
  } else if (options.format == "html") {
    // The plan diffs go in whole (up to kHtmlPlanDiffs pairs) so the page opens them offline.
    auto html = report::comparison_html(report::comparison_json(comparison, -1),
                                        report::plan_diffs_json(comparison, *base, *cand, normalizer, kHtmlPlanDiffs));
    if (!html) return report_error(html.error().message(), kExitFailed);
    rendered = std::move(*html);
  } else if (options.format == "markdown") {
    rendered = report::comparison_markdown(comparison, options.top_stages);
  } else {
    rendered = report::comparison_text(comparison, {.top_stages = options.top_stages});
  }
  if (!write_output(options.output_path, rendered)) return kExitFailed;
  const int exit_code = compare::any_exceeded(comparison.budgets) ? kExitCheckFailed : kExitOk;
  leave_to_exit(std::move(*base));
  leave_to_exit(std::move(*cand));
  leave_to_exit(std::move(comparison));
  return exit_code;
}

}  // namespace

void register_compare(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CompareCliOptions>();
  CLI::App* cmd = app.add_subcommand("compare", "Compare a baseline run with a candidate run of the same job");
  cmd->add_option("baseline", options->base_path, "The baseline run's event log (any form analyze reads)")->required();
  cmd->add_option("candidate", options->cand_path, "The candidate run's event log")->required();
  cmd->add_option("--normalize-path", options->request.normalize_patterns,
                  "Regular expression (RE2 syntax) whose matches are rewritten to one token before stages are "
                  "paired, e.g. an output directory named after the run; repeatable; affects pairing only")
      ->take_last()
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--budget", options->request.budgets,
                  "METRIC=LIMIT, e.g. wallClock=+5%, spill=0, gcTime=+10%, executorRunTime=+30s; exit code 1 when "
                  "one is exceeded; repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--pin", options->request.pins,
                  "BASELINE_STAGE:CANDIDATE_STAGE, a pair of stages made by hand before the others are paired "
                  "(method pinned); repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  add_format_option(*cmd, options->format, {"text", "json", "markdown", "html"},
                    "The comparison as text, JSON, Markdown, or html (the dashboard's compare page as one "
                    "self-contained file)");
  add_output_option(*cmd, options->output_path);
  cmd->add_flag("-q,--quiet", options->quiet, "No progress line and no warnings on stderr (errors still)");
  cmd->add_flag("--no-progress", options->no_progress, "No progress line on stderr");
  add_log_read_flags(*cmd, options->read);
  cmd->add_option("--top-stages", options->top_stages, "How many per-stage changes to list")->capture_default_str();
  cmd->add_flag("--replanned-not-covered", options->request.replanned_not_covered,
                "Count replanned stages' run time in the coverage's denominator only");
  cmd->callback([options, &exit_code] { exit_code = run_compare(*options); });
}

}  // namespace sf::cli
