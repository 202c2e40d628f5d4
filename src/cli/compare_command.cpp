// sparkforensics compare BASE CAND: did the candidate get better than the baseline, where, and
// can the stage pairing be trusted?
//
// Exit codes: 0 when no budget is exceeded (or none was given), 1 when a --budget is exceeded,
// 2 for bad usage or an input that cannot be read (the error names the file). The comparison's
// confidence never changes the exit code: it is reported, and a CI gate decides what to do.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "analysis/analysis_config.h"
#include "cli/commands.h"
#include "compare/budget.h"
#include "compare/run_comparison.h"
#include "model/load.h"
#include "report/comparison_json.h"
#include "report/comparison_markdown.h"
#include "report/comparison_text.h"

namespace sf::cli {

namespace {

inline constexpr int kExitBudgetExceeded = 1;

struct CompareCliOptions {
  std::string base_path;
  std::string cand_path;
  std::vector<std::string> normalize_patterns;
  std::vector<std::string> budgets;
  std::string format = "text";
  std::string output_path;
  std::string config_path;
  size_t top_stages = 10;
  bool replanned_not_covered = false;
  bool quiet = false;
};

bool write_text(const std::string& path, const std::string& text) {
  FILE* out = path.empty() || path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (out == nullptr) {
    std::fprintf(stderr, "sparkforensics: cannot write %s\n", path.c_str());
    return false;
  }
  const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  if (out != stdout) {
    if (std::fclose(out) != 0 || !ok) {
      std::fprintf(stderr, "sparkforensics: cannot write %s\n", path.c_str());
      return false;
    }
  }
  std::fflush(stdout);
  return ok;
}

std::optional<model::AppModel> load(const std::string& path, bool quiet) {
  auto loaded = model::load_event_log(path);
  if (!loaded) {
    print_error(loaded.error().message());
    return std::nullopt;
  }
  if (!quiet && loaded->diagnostics.read_error) {
    std::fprintf(stderr, "sparkforensics: warning: partial load: %s\n", loaded->diagnostics.read_error->c_str());
  }
  return std::move(*loaded);
}

int run_compare(const CompareCliOptions& options) {
  // Everything the user typed is checked before the (possibly long) loads.
  std::vector<compare::Budget> budgets;
  for (const auto& text : options.budgets) {
    auto budget = compare::parse_budget(text);
    if (!budget) {
      print_error(budget.error().message());
      return kExitUsage;
    }
    budgets.push_back(*budget);
  }
  auto normalizer = compare::ComparisonNormalizer::with_patterns(options.normalize_patterns);
  if (!normalizer) {
    print_error(normalizer.error().message());
    return kExitUsage;
  }
  compare::CompareOptions compare_options;
  if (!options.config_path.empty()) {
    auto loaded = analysis::load_analysis_options(options.config_path);
    if (!loaded) {
      print_error(loaded.error().message());
      return kExitUsage;
    }
    compare_options.analysis = std::move(*loaded);
  }

  const auto base = load(options.base_path, options.quiet);
  if (!base) return kExitUsage;
  const auto cand = load(options.cand_path, options.quiet);
  if (!cand) return kExitUsage;

  compare_options.alignment.normalizer = std::move(*normalizer);
  compare_options.alignment.replanned_counts_toward_coverage = !options.replanned_not_covered;
  compare::Comparison comparison = compare::compare_runs(*base, *cand, compare_options);
  comparison.budgets = compare::evaluate_budgets(budgets, comparison.metric_deltas);

  std::string rendered;
  if (options.format == "json") {
    rendered = report::comparison_json(comparison);
  } else if (options.format == "markdown") {
    rendered = report::comparison_markdown(comparison, options.top_stages);
  } else {
    rendered = report::comparison_text(comparison, {.top_stages = options.top_stages});
  }
  if (!write_text(options.output_path, rendered)) return kExitUsage;
  return compare::any_exceeded(comparison.budgets) ? kExitBudgetExceeded : kExitOk;
}

}  // namespace

void register_compare(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CompareCliOptions>();
  CLI::App* cmd = app.add_subcommand("compare", "Compare a baseline run with a candidate run of the same job");
  cmd->add_option("baseline", options->base_path, "The baseline run's event log (any form analyze reads)")->required();
  cmd->add_option("candidate", options->cand_path, "The candidate run's event log")->required();
  cmd->add_option("--normalize-path", options->normalize_patterns,
                  "Regular expression (RE2 syntax) whose matches are rewritten to one token before stages are "
                  "paired, e.g. an output directory named after the run; repeatable; affects pairing only")
      ->take_last()
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--budget", options->budgets,
                  "METRIC=LIMIT, e.g. wallClock=+5%, spill=0, gcTime=+10%, executorRunTime=+30s; exit code 1 when "
                  "one is exceeded; repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--format,-f", options->format, "Output format")
      ->check(CLI::IsMember({"text", "json", "markdown"}))
      ->capture_default_str();
  cmd->add_option("--output,-o", options->output_path, "Write the comparison to FILE instead of stdout");
  cmd->add_option("--config", options->config_path,
                  "Analysis config (JSON): thresholds of both runs' findings and the rate card the cost is priced with");
  cmd->add_option("--top-stages", options->top_stages, "How many per-stage changes to list")->capture_default_str();
  cmd->add_flag("--replanned-not-covered", options->replanned_not_covered,
                "Count replanned stages' run time in the coverage's denominator only");
  cmd->add_flag("--quiet,-q", options->quiet, "No warnings on stderr");
  cmd->callback([options, &exit_code] { exit_code = run_compare(*options); });
}

}  // namespace sf::cli
