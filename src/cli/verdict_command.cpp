// sparkforensics verdict history|run|batch: did performance change, beyond noise?
//
// Reads the results and the identity policy from the store (never creating one), evaluates with
// the configured method (history and batch: dispersion-scaled; run: paired-ratio, unless
// --method says otherwise) and prints the reviewer summary (text, Markdown) or the comparison
// document (JSON). A history target is a result id (or prefix), a revision or "latest".
// --fail-on regressed (and/or changed, indeterminate, missing) turns findings into exit code 1
// for CI gates: an unusable target is indeterminate, which fails only with --fail-on
// indeterminate. Anything that stops the comparison (bad usage, no such store, target or run)
// exits 2.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/store_location.h"
#include "common/text_file.h"
#include "report/verdict_json.h"
#include "report/verdict_summary.h"
#include "service/verdicts.h"

namespace sf::cli {

namespace {

using results::MethodConfig;
using results::VerdictDocument;

struct VerdictOptions {
  std::string store;
  std::string format;
  std::string output;
  bool quiet = false;
  std::vector<std::string> fail_on;
  std::string method_config;  // a JSON method configuration file; the choice's flags override it
  service::MethodChoice method;
  service::TrendRequest history;
  results::RunRequest run;
  results::BatchRequest batch;
};

Result<MethodConfig> method_from_flags(const VerdictOptions& o, service::VerdictMode mode) {
  service::MethodChoice choice = o.method;
  if (!o.method_config.empty()) {
    auto text = read_text_file(o.method_config);
    if (!text) return fail(text.error());
    choice.config_text = std::move(*text);
    choice.config_source = o.method_config;
  }
  return service::method_config(mode, choice);
}

// `store` names where the results came from (results::Store::description: no password).
int finish(const VerdictOptions& o, const VerdictDocument& doc, const std::string& store) {
  const report::VerdictSummaryOptions summary{store};
  const std::string rendered = o.format == "json"       ? report::verdict_json(doc)
                               : o.format == "markdown" ? report::verdict_markdown(doc, summary)
                                                        : report::verdict_text(doc, summary);
  if (!write_output(o.output, rendered)) return kExitFailed;
  int64_t failing = 0;
  bool fail_on_indeterminate = false;
  for (const std::string& what : o.fail_on) {
    if (what == "regressed") failing += report::count_verdict(doc, results::Verdict::kRegressed);
    if (what == "changed") failing += report::count_verdict(doc, results::Verdict::kChanged);
    if (what == "indeterminate") {
      failing += report::count_verdict(doc, results::Verdict::kIndeterminate);
      fail_on_indeterminate = true;
    }
    if (what == "missing") failing += static_cast<int64_t>(doc.missing.size());
  }
  if (!o.quiet) {
    // Said on stderr as well, so a JSON reader or a CI log shows it too.
    for (const std::string& line : report::unusable_targets(doc)) {
      print_error(fmt::format("warning: {} unusable: its evaluations are indeterminate{}", line,
                              fail_on_indeterminate ? "" : " (--fail-on indeterminate makes that fail)"));
    }
  }
  return failing > 0 ? kExitCheckFailed : kExitOk;
}

template <class Evaluate>
int run_verdict(const VerdictOptions& o, service::VerdictMode mode, Evaluate evaluate) {
  auto method = method_from_flags(o, mode);
  if (!method) return report_error(method.error().message(), kExitFailed);
  // Asked of the store itself: it answers in SQL and the verdict reads only the rows it uses.
  auto store = service::open_store_to_ask(o.store);
  if (!store) return report_error(store.error().message(), kExitFailed);
  Result<VerdictDocument> doc = evaluate(**store, *method);
  if (!doc) return report_error(doc.error().message(), kExitFailed);
  return finish(o, *doc, (*store)->description());
}

void add_common(CLI::App& cmd, VerdictOptions& o, std::string_view default_method) {
  const MethodConfig defaults;
  add_store_option(cmd, o.store);
  add_format_option(cmd, o.format, {"text", "markdown", "json"},
                    "text or markdown (the reviewer summary), or json (the verdict document)");
  add_output_option(cmd, o.output);
  cmd.add_flag("-q,--quiet", o.quiet, "No warnings on stderr (errors still)");
  cmd.add_option("--fail-on", o.fail_on,
                 "Exit 1 when any evaluation is regressed (or changed, indeterminate, missing); repeatable")
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"regressed", "changed", "indeterminate", "missing"}));
  cmd.add_option("--method-config", o.method_config,
                 "JSON method configuration (docs/comparator.md); flags below override it")
      ->type_name("FILE");
  cmd.add_option("--method", o.method.name, "dispersion-scaled or paired-ratio")
      ->check(CLI::IsMember({"dispersion-scaled", "paired-ratio"}))
      ->default_str(std::string(default_method));
  cmd.add_option("--k", o.method.k, "dispersion-scaled: indicated when |effect| > k x noise")
      ->default_str(fmt::format("{:g}", defaults.k));
  cmd.add_option("--window", o.method.window, "history: at most this many nearest reference points")
      ->default_str(std::to_string(defaults.window));
  cmd.add_option("--min-points", o.method.min_points, "reference points (history) or paired rounds (run) needed")
      ->default_str(std::to_string(defaults.min_points));
  cmd.add_option("--min-effect", o.method.min_effect, "paired-ratio: |ratio - 1| below this is no change")
      ->default_str(fmt::format("{:g}", defaults.min_effect));
  cmd.add_option(
      "--provisional-noise", o.method.provisional_noise,
      "history: relative noise assumed for a short history (provisional); unset: a short history is indeterminate");
  cmd.add_option("--ordering", o.method.ordering, "ancestry-or-native, ancestry, or native")
      ->check(CLI::IsMember({"ancestry-or-native", "ancestry", "native"}))
      ->default_str(defaults.ordering);
  cmd.add_option("--duplicates", o.method.duplicates, "reject or mean: several points of one revision")
      ->check(CLI::IsMember({"reject", "mean"}))
      ->default_str(defaults.duplicates);
}

}  // namespace

void register_verdict(CLI::App& app, int& exit_code) {
  CLI::App* verdict =
      app.add_subcommand("verdict", "Did performance change beyond noise? (history, run or batch comparison)");
  verdict->require_subcommand(1);

  auto history_options = std::make_shared<VerdictOptions>();
  CLI::App* history_cmd =
      verdict->add_subcommand("history", "Evaluate a target result against the preceding points of its series");
  add_common(*history_cmd, *history_options, results::kDispersionScaled);
  history_cmd
      ->add_option("--target", history_options->history.target,
                   "What to evaluate: a result id (or a unique prefix), a revision (its results), or latest (the "
                   "last result of each subject)")
      ->required();
  history_cmd->add_option("--subject", history_options->history.subject, "Only the targets of this subject");
  history_cmd->add_option("--quantity", history_options->history.quantities, "Only these quantities; repeatable")
      ->default_str("all of the target's")
      ->allow_extra_args(false);
  history_cmd->callback([history_options, &exit_code] {
    const VerdictOptions& o = *history_options;
    exit_code = run_verdict(o, service::VerdictMode::kTrend, [&](auto& store, const auto& method) {
      return service::verdict_trend(store, method, o.history);
    });
  });

  auto run_options = std::make_shared<VerdictOptions>();
  CLI::App* run_cmd = verdict->add_subcommand("run", "Compare the two sides of one planned run (paired by round)");
  add_common(*run_cmd, *run_options, results::kPairedRatio);
  run_cmd->add_option("--run-key", run_options->run.run_key, "The run")->required();
  run_cmd->add_option("--profile", run_options->run.profile, "revisions, variants or environments")
      ->required()
      ->check(CLI::IsMember({"revisions", "variants", "environments"}));
  run_cmd->add_option("--coordinate", run_options->run.coordinate, "The varying coordinate")
      ->default_str("revision.tree for revisions, parameters.role for variants");
  run_cmd->add_option("--baseline", run_options->run.baseline, "The baseline side's value of the coordinate")
      ->required();
  run_cmd->callback([run_options, &exit_code] {
    const VerdictOptions& o = *run_options;
    exit_code = run_verdict(o, service::VerdictMode::kRun, [&](auto& store, const auto& method) {
      return service::verdict_run(store, method, o.run);
    });
  });

  auto batch_options = std::make_shared<VerdictOptions>();
  CLI::App* batch_cmd =
      verdict->add_subcommand("batch", "Evaluate every series of a target revision or run; report missing ones");
  add_common(*batch_cmd, *batch_options, results::kDispersionScaled);
  auto* revision = batch_cmd->add_option("--revision", batch_options->batch.revision, "The target revision's tree id");
  auto* run_key = batch_cmd->add_option("--run-key", batch_options->batch.run_key, "The target run");
  revision->excludes(run_key);
  batch_cmd
      ->add_option("--expect", batch_options->batch.expected, "A series fingerprint the target must cover; repeatable")
      ->default_str("the series of the previous revision or run")
      ->allow_extra_args(false);
  batch_cmd->callback([batch_options, &exit_code] {
    const VerdictOptions& o = *batch_options;
    exit_code = run_verdict(o, service::VerdictMode::kBatch, [&](auto& store, const auto& method) {
      return service::verdict_batch(store, method, o.batch);
    });
  });
}

}  // namespace sf::cli
