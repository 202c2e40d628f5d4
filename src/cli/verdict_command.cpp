// sparkforensics verdict history|run|batch: did performance change, beyond noise?
//
// Reads the results and the identity policy from the store, evaluates with the configured
// method (history and batch: dispersion-scaled; run: paired-ratio, unless --method says
// otherwise) and prints the reviewer summary (text, Markdown) or the comparison document (JSON).
// --fail-on regressed (and/or changed, indeterminate, missing) turns findings into exit code 1
// for CI gates. Usage errors, an unknown id or run included, exit 2.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/store_location.h"
#include "history/comparison_method.h"
#include "history/history_comparison.h"
#include "history/run_evaluation.h"
#include "history/store.h"
#include "report/verdict_json.h"
#include "report/verdict_summary.h"

namespace sf::cli {

namespace {

using history::ComparisonDocument;
using history::MethodConfig;

struct VerdictOptions {
  std::string store;
  std::string format = "text";
  std::string output;
  std::vector<std::string> fail_on;
  // Method
  std::string method_config;
  std::string method;
  std::optional<double> k;
  std::optional<int64_t> window;
  std::optional<int64_t> min_points;
  std::optional<double> min_effect;
  std::optional<double> provisional_noise;
  std::string ordering;
  std::string duplicates;
  // history
  std::string target;
  std::vector<std::string> quantities;
  // run
  std::string run_key;
  std::string profile;
  std::string coordinate;
  std::string baseline;
  // batch
  std::string revision;
  std::vector<std::string> expected;
};

Result<MethodConfig> method_from_flags(const VerdictOptions& o, const std::string& default_method) {
  MethodConfig config;
  config.name = default_method;
  if (!o.method_config.empty()) {
    std::ifstream in(o.method_config, std::ios::binary);
    if (!in) return fail(Status::NotFound(o.method_config + ": cannot read"));
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = history::parse_method_config(text.str(), o.method_config);
    if (!parsed) return parsed;
    config = *parsed;
  }
  if (!o.method.empty()) config.name = o.method;
  if (o.k) config.k = *o.k;
  if (o.window) config.window = *o.window;
  if (o.min_points) config.min_points = *o.min_points;
  if (o.min_effect) config.min_effect = *o.min_effect;
  if (o.provisional_noise) config.provisional_relative_noise = *o.provisional_noise;
  if (!o.ordering.empty()) config.ordering = o.ordering;
  if (!o.duplicates.empty()) config.duplicates = o.duplicates;
  if (Status s = history::validate(config); !s.ok()) return fail(s);
  return config;
}

int finish(const VerdictOptions& o, const ComparisonDocument& doc) {
  std::string rendered = o.format == "json"       ? report::verdict_json(doc)
                         : o.format == "markdown" ? report::verdict_markdown(doc)
                                                  : report::verdict_text(doc);
  if (o.output.empty() || o.output == "-") {
    std::fwrite(rendered.data(), 1, rendered.size(), stdout);
  } else {
    std::ofstream out(o.output, std::ios::binary | std::ios::trunc);
    out << rendered;
    if (!out) return report_error("cannot write " + o.output, kExitError);
  }
  int64_t failing = 0;
  for (const std::string& what : o.fail_on) {
    if (what == "regressed") failing += report::count_verdict(doc, history::Verdict::kRegressed);
    if (what == "changed") failing += report::count_verdict(doc, history::Verdict::kChanged);
    if (what == "indeterminate") failing += report::count_verdict(doc, history::Verdict::kIndeterminate);
    if (what == "missing") failing += static_cast<int64_t>(doc.missing.size());
  }
  return failing > 0 ? kExitError : kExitOk;
}

template <class Evaluate>
int run_verdict(const VerdictOptions& o, const std::string& default_method, Evaluate evaluate) {
  auto method = method_from_flags(o, default_method);
  if (!method) return report_error(method.error().message(), kExitUsage);
  auto store = history::open_store(o.store);
  if (!store) return report_error(store.error().message(), kExitError);
  auto policy = (*store)->identity_policy();
  if (!policy) return report_error(policy.error().message(), kExitError);
  auto results = (*store)->results();
  if (!results) return report_error(results.error().message(), kExitError);
  Result<ComparisonDocument> doc = evaluate(*results, *policy, *method);
  if (!doc) {
    const bool usage =
        doc.error().code() == StatusCode::kNotFound || doc.error().code() == StatusCode::kInvalidArgument;
    return report_error(doc.error().message(), usage ? kExitUsage : kExitError);
  }
  return finish(o, *doc);
}

void add_common(CLI::App& cmd, VerdictOptions& o) {
  add_store_option(cmd, o.store);
  cmd.add_option("--format,-f", o.format, "text or markdown (the reviewer summary), or json (the comparison document)")
      ->check(CLI::IsMember({"text", "markdown", "json"}))
      ->capture_default_str();
  cmd.add_option("--output,-o", o.output, "Write to FILE instead of stdout");
  cmd.add_option("--fail-on", o.fail_on,
                 "Exit 1 when any evaluation is regressed (or changed, indeterminate, missing); repeatable")
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"regressed", "changed", "indeterminate", "missing"}));
  cmd.add_option("--method-config", o.method_config,
                 "JSON method configuration (docs/comparator.md); flags below override it");
  cmd.add_option("--method", o.method, "dispersion-scaled or paired-ratio")
      ->check(CLI::IsMember({"dispersion-scaled", "paired-ratio"}));
  cmd.add_option("--k", o.k, "dispersion-scaled: indicated when |effect| > k x noise (default 3)");
  cmd.add_option("--window", o.window, "history: at most this many nearest reference points (default 20)");
  cmd.add_option("--min-points", o.min_points, "reference points (history) or paired rounds (run) needed (default 5)");
  cmd.add_option("--min-effect", o.min_effect, "paired-ratio: |ratio - 1| below this is no change (default 0.01)");
  cmd.add_option("--provisional-noise", o.provisional_noise,
                 "history: relative noise assumed for a short history (provisional)");
  cmd.add_option("--ordering", o.ordering, "ancestry-or-native (default), ancestry, or native")
      ->check(CLI::IsMember({"ancestry-or-native", "ancestry", "native"}));
  cmd.add_option("--duplicates", o.duplicates, "reject (default) or mean: several points of one revision")
      ->check(CLI::IsMember({"reject", "mean"}));
}

}  // namespace

void register_verdict(CLI::App& app, int& exit_code) {
  CLI::App* verdict =
      app.add_subcommand("verdict", "Did performance change beyond noise? (history, run or batch comparison)");
  verdict->require_subcommand(1);

  auto history_options = std::make_shared<VerdictOptions>();
  CLI::App* history_cmd =
      verdict->add_subcommand("history", "Evaluate a target result against the preceding points of its series");
  add_common(*history_cmd, *history_options);
  history_cmd->add_option("--target", history_options->target, "The target result id (or a unique prefix)")->required();
  history_cmd
      ->add_option("--quantity", history_options->quantities,
                   "Only these quantities; repeatable (default: all of the target's)")
      ->allow_extra_args(false);
  history_cmd->callback([history_options, &exit_code] {
    const VerdictOptions& o = *history_options;
    exit_code =
        run_verdict(o, "dispersion-scaled",
                    [&](const auto& results, const auto& policy, const auto& method) -> Result<ComparisonDocument> {
                      auto target = history::resolve_result_id(results, o.target);
                      if (!target) return fail(target.error());
                      return history::compare_history(results, policy, method, *target, o.quantities);
                    });
  });

  auto run_options = std::make_shared<VerdictOptions>();
  CLI::App* run_cmd = verdict->add_subcommand("run", "Compare the two sides of one planned run (paired by round)");
  add_common(*run_cmd, *run_options);
  run_cmd->add_option("--run-key", run_options->run_key, "The run")->required();
  run_cmd->add_option("--profile", run_options->profile, "revisions, variants or environments")
      ->required()
      ->check(CLI::IsMember({"revisions", "variants", "environments"}));
  run_cmd->add_option("--coordinate", run_options->coordinate,
                      "The varying coordinate (default: revision.tree for revisions, parameters.role for variants)");
  run_cmd->add_option("--baseline", run_options->baseline, "The baseline side's value of the coordinate")->required();
  run_cmd->callback([run_options, &exit_code] {
    const VerdictOptions& o = *run_options;
    exit_code = run_verdict(o, "paired-ratio", [&](const auto& results, const auto& policy, const auto& method) {
      return history::evaluate_run({o.run_key, o.profile, o.coordinate, o.baseline}, results, policy, method);
    });
  });

  auto batch_options = std::make_shared<VerdictOptions>();
  CLI::App* batch_cmd =
      verdict->add_subcommand("batch", "Evaluate every series of a target revision or run; report missing ones");
  add_common(*batch_cmd, *batch_options);
  auto* revision = batch_cmd->add_option("--revision", batch_options->revision, "The target revision's tree id");
  auto* run_key = batch_cmd->add_option("--run-key", batch_options->run_key, "The target run");
  revision->excludes(run_key);
  batch_cmd
      ->add_option("--expect", batch_options->expected,
                   "A series fingerprint the target must cover; repeatable (default: the series of the previous "
                   "revision or run)")
      ->allow_extra_args(false);
  batch_cmd->callback([batch_options, &exit_code] {
    const VerdictOptions& o = *batch_options;
    exit_code = run_verdict(o, "dispersion-scaled", [&](const auto& results, const auto& policy, const auto& method) {
      return history::compare_batch(results, policy, method, {o.revision, o.run_key, o.expected});
    });
  });
}

}  // namespace sf::cli
