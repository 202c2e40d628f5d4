// sparkforensics store ingest|list|show|policy: put results in the result store and look at them.
//
// ingest reads Spark event logs (one result per log, quantities from the model) or JSON result
// files in the documented schema (--result), and stores each in its own transaction, printing
// each result's id and status. Exit codes (README.md): bad input (an unreadable log, an invalid
// result file, a malformed flag) or a store that cannot be opened or written is exit 2, naming
// the file and the problem; nothing of a command with bad input is stored. list, show and policy
// without --set only read: they never create a store.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/log_reading.h"
#include "cli/output.h"
#include "cli/store_location.h"
#include "common/text_file.h"
#include "results/identity_policy.h"
#include "results/result_json.h"
#include "results/spark_result.h"
#include "results/store.h"
#include "service/log_analysis.h"

namespace sf::cli {

namespace {

using results::ResultDocument;

struct IngestOptions {
  std::string store;
  std::vector<std::string> logs;
  std::vector<std::string> result_files;
  std::string subject;
  std::string revision;
  std::vector<std::string> parents;
  std::string benchmark_tree;
  bool dirty = false;
  std::string variant;
  std::vector<std::string> params;
  std::vector<std::string> env;
  std::string run_key;
  std::optional<int64_t> round;
  std::optional<int64_t> slot;
  std::string status;
  bool quiet = false;
  bool no_progress = false;
  LogReadFlags read;
};

int usage_error(const std::string& message) { return report_error(message, kExitFailed); }

results::StoreOptions read_only() {
  results::StoreOptions options;
  options.create_if_missing = false;
  return options;
}

// The context the flags describe, checked before anything is read.
Result<results::SparkResultContext> context_from_flags(const IngestOptions& o) {
  results::IngestDescription run;
  run.subject = o.subject;
  run.revision = o.revision;
  run.parents = o.parents;
  run.benchmark_tree = o.benchmark_tree;
  run.dirty = o.dirty;
  run.variant = o.variant;
  run.run_key = o.run_key;
  run.round = o.round;
  run.slot = o.slot;
  run.status = o.status;
  std::string key, value;
  for (const std::string& p : o.params) {
    if (!split_key_value(p, key, value))
      return fail(Status::InvalidArgument(fmt::format("--param {}: expected KEY=VALUE", p)));
    run.parameters[key] = value;
  }
  for (const std::string& e : o.env) {
    if (!split_key_value(e, key, value))
      return fail(Status::InvalidArgument(fmt::format("--env {}: expected KEY=VALUE", e)));
    run.environment[key] = value;
  }
  return results::context_of(run, "--status");
}

// One document to store, and what to tell the user about its status.
struct Ingestible {
  std::string path;
  ResultDocument document;
  std::string status_reason;  // why a log's result is not ok; "" otherwise
};

int run_ingest(const IngestOptions& o) {
  if (o.logs.empty() && o.result_files.empty())
    return usage_error("store ingest: give event logs or --result FILE.json");
  auto context = context_from_flags(o);
  if (!context) return usage_error(context.error().message());
  auto settings = log_read_settings(o.read);
  if (!settings) return usage_error(settings.error().message());

  // Read and validate everything before writing anything: a bad third file stores nothing.
  std::vector<Ingestible> documents;
  for (const std::string& path : o.result_files) {
    auto text = read_text_file(path);
    if (!text) return usage_error(text.error().message());
    auto document = results::parse_result_json(*text, path);
    if (!document) return usage_error(document.error().message());
    documents.push_back({path, std::move(*document), ""});
  }
  for (const std::string& path : o.logs) {
    auto model = load_log(path, *settings, !o.quiet && !o.no_progress);
    if (!model) return usage_error(model.error().message());
    if (!o.quiet) warn_about_partial_load(path, *model);
    const analysis::Analysis analysis = service::analyze(*model, *settings);  // its "analysis:" quantities
    auto [document, reason] =
        results::result_of_log(*model, analysis, *context, settings->analysis.rate_card, path, "--status");
    documents.push_back({path, std::move(document), std::move(reason)});
  }

  auto store = results::open_store(o.store);
  if (!store) return report_error(store.error().message(), kExitFailed);
  for (const auto& [path, document, status_reason] : documents) {
    auto outcome = (*store)->ingest(document);
    if (!outcome) return report_error(fmt::format("{}: {}", path, outcome.error().message()), kExitFailed);
    if (o.quiet) continue;
    const std::string_view status = results::to_string(document.status);
    std::printf("%s %s (status %.*s%s, %zu quantities) from %s\n",
                outcome->already_present ? "already present" : "ingested", outcome->id.c_str(),
                static_cast<int>(status.size()), status.data(),
                status_reason.empty() ? "" : (": " + status_reason).c_str(), document.quantities.size(), path.c_str());
    if (document.status != results::RunStatus::kOk) {
      print_error(
          fmt::format("warning: {} is stored as {}: verdicts take only ok results as targets (and, by "
                      "default, as references)",
                      outcome->id, status));
    }
  }
  return kExitOk;
}

std::string describe_procedure(const results::Procedure& p) {
  if (p.run_key.empty()) return "-";
  std::string text = p.run_key;
  if (p.round) text += fmt::format(" r{}", *p.round);
  if (p.slot) text += fmt::format(" s{}", *p.slot);
  return text;
}

struct ReadOptions {  // list, show, policy
  std::string store;
  std::string format;
  std::string output;
  std::string id;        // show
  std::string set_path;  // policy --set
};

int run_list(const ReadOptions& o) {
  auto store = results::open_store(o.store, read_only());
  if (!store) return report_error(store.error().message(), kExitFailed);
  auto results = (*store)->results();
  if (!results) return report_error(results.error().message(), kExitFailed);
  std::string out;
  if (o.format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : *results) {
      list.push_back({{"order", r.order},
                      {"id", r.id},
                      {"subject", r.document.subject},
                      {"revision", r.document.revision.tree},
                      {"runKey", r.document.procedure.run_key},
                      {"status", results::to_string(r.document.status)},
                      {"quantities", r.document.quantities.size()}});
    }
    out = list.dump(2) + "\n";
  } else {
    out = fmt::format("{:<6} {:<34} {:<24} {:<14} {:<16} {:<9} {}\n", "ORDER", "ID", "SUBJECT", "REVISION", "PROCEDURE",
                      "STATUS", "QUANTITIES");
    for (const auto& r : *results) {
      out += fmt::format("{:<6} {:<34} {:<24} {:<14} {:<16} {:<9} {}\n", r.order, r.id, r.document.subject,
                         r.document.revision.tree.empty() ? "-" : r.document.revision.tree,
                         describe_procedure(r.document.procedure), results::to_string(r.document.status),
                         r.document.quantities.size());
    }
  }
  return write_output(o.output, out) ? kExitOk : kExitFailed;
}

// The document exactly as stored, so `store show ID > r.json` and `store ingest --result r.json`
// give back the same result (its id is the hash of this text).
int run_show(const ReadOptions& o) {
  auto store = results::open_store(o.store, read_only());
  if (!store) return report_error(store.error().message(), kExitFailed);
  auto found = (*store)->find(o.id);
  if (!found) return report_error(found.error().message(), kExitFailed);
  if (!*found) return report_error(fmt::format("no result {} in {}", o.id, (*store)->description()), kExitFailed);
  const std::string shown = nlohmann::json::parse(results::result_to_json((*found)->document)).dump(2) + "\n";
  return write_output(o.output, shown) ? kExitOk : kExitFailed;
}

int run_policy(const ReadOptions& o) {
  results::StoreOptions store_options = o.set_path.empty() ? read_only() : results::StoreOptions{};
  std::optional<results::IdentityPolicy> next;
  if (!o.set_path.empty()) {  // read before the store is touched, as ingest does
    auto text = read_text_file(o.set_path);
    if (!text) return usage_error(text.error().message());
    auto policy = results::parse_identity_policy(*text, o.set_path);
    if (!policy) return usage_error(policy.error().message());
    next = std::move(*policy);
  }
  auto store = results::open_store(o.store, store_options);
  if (!store) return report_error(store.error().message(), kExitFailed);
  if (next) {
    if (Status s = (*store)->set_identity_policy(*next); !s.ok()) {
      return report_error(fmt::format("{}: {}", o.set_path, s.message()), kExitFailed);
    }
  }
  auto policy = (*store)->identity_policy();
  if (!policy) return report_error(policy.error().message(), kExitFailed);
  return write_output(o.output, results::identity_policy_to_json(*policy) + "\n") ? kExitOk : kExitFailed;
}

// A store command that reads (and prints): its options, --store, -o and its callback.
std::pair<CLI::App*, std::shared_ptr<ReadOptions>> add_reader(CLI::App& store, const char* name,
                                                              const char* description, int (*run)(const ReadOptions&),
                                                              int& exit_code) {
  auto options = std::make_shared<ReadOptions>();
  CLI::App* cmd = store.add_subcommand(name, description);
  add_store_option(*cmd, options->store);
  add_output_option(*cmd, options->output);
  cmd->callback([options, run, &exit_code] { exit_code = run(*options); });
  return {cmd, options};
}

}  // namespace

void register_store(CLI::App& app, int& exit_code) {
  CLI::App* store = app.add_subcommand("store", "Keep measured runs in a result store (SQLite file or PostgreSQL)");
  store->require_subcommand(1);

  auto ingest = std::make_shared<IngestOptions>();
  CLI::App* cmd = store->add_subcommand("ingest", "Store Spark event logs or JSON result files as result documents");
  add_store_option(*cmd, ingest->store);
  cmd->add_option("logs", ingest->logs, "Spark event logs: one result per log");
  cmd->add_option("--result", ingest->result_files, "A JSON result file (docs/result-schema.md); repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false);
  cmd->add_option("--subject", ingest->subject, "The job or benchmark measured")->default_str("the application name");
  cmd->add_option("--revision", ingest->revision, "The revision's tree id");
  cmd->add_option("--parent", ingest->parents, "A parent tree id of --revision; repeatable")->allow_extra_args(false);
  cmd->add_option("--benchmark-tree", ingest->benchmark_tree, "The tree id of a separately recorded benchmark");
  cmd->add_flag("--dirty", ingest->dirty, "Built from uncommitted changes (comparisons are local-only)");
  cmd->add_option("--variant", ingest->variant, "The variant role (parameters.role), e.g. baseline or candidate");
  cmd->add_option("--param", ingest->params, "A parameter KEY=VALUE; repeatable")->allow_extra_args(false);
  cmd->add_option("--env", ingest->env, "An environment fact KEY=VALUE (cluster, executorShape, ...); repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--run-key", ingest->run_key, "The planned run this attempt belongs to");
  cmd->add_option("--round", ingest->round, "The round within the run (attempts of a round are paired)");
  cmd->add_option("--slot", ingest->slot, "The execution position within the run");
  cmd->add_option("--status", ingest->status, "ok, partial, censored, error or skipped")
      ->check(CLI::IsMember({"ok", "partial", "censored", "error", "skipped"}))
      ->default_str("from the log");
  cmd->add_flag("-q,--quiet", ingest->quiet, "Print nothing on success, and no warnings (errors still)");
  cmd->add_flag("--no-progress", ingest->no_progress, "No progress line on stderr");
  add_log_read_flags(*cmd, ingest->read);
  cmd->callback([ingest, &exit_code] { exit_code = run_ingest(*ingest); });

  auto [list_cmd, list] =
      add_reader(*store, "list", "List the stored results in native (ingest) order", run_list, exit_code);
  add_format_option(*list_cmd, list->format, {"text", "json"}, "A table, or a JSON array");
  auto [show_cmd, show] = add_reader(
      *store, "show", "Print one stored result document, as store ingest --result reads it", run_show, exit_code);
  show_cmd->add_option("id", show->id, "Result id or a unique prefix")->required();
  auto [policy_cmd, policy] = add_reader(
      *store, "policy", "Print the store's identity policy, or store its next version (--set)", run_policy, exit_code);
  policy_cmd->add_option("--set", policy->set_path, "An identity-policy JSON file whose version is the current one + 1")
      ->type_name("FILE");
}

}  // namespace sf::cli
