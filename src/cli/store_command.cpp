// sparkforensics store ingest|list|show|policy: put results in the result store and look at them.
//
// ingest reads Spark event logs (one result per log, quantities from the model) or JSON result
// files in the documented schema (--result), and stores each in its own transaction. Bad input
// (an unreadable log, an invalid result file, a malformed flag) is a usage error naming the file
// and the problem, exit 2; a store that cannot be opened or written is exit 1.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/analysis_config.h"
#include "cli/commands.h"
#include "cli/store_location.h"
#include "history/identity_policy.h"
#include "history/result_json.h"
#include "history/spark_result.h"
#include "history/store.h"
#include "model/load.h"

namespace sf::cli {

namespace {

using history::ResultDocument;

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
  std::string config_path;  // the analysis config: its rate card prices "cost"
  bool quiet = false;
};

int usage_error(const std::string& message) {
  return report_error(message, kExitUsage);
}

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Status::NotFound(path + ": cannot read"));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The context the flags describe, checked before anything is read.
Result<history::SparkResultContext> context_from_flags(const IngestOptions& o) {
  history::SparkResultContext c;
  c.subject = o.subject;
  c.revision.tree = o.revision;
  c.revision.parents = o.parents;
  c.revision.benchmark_tree = o.benchmark_tree;
  c.revision.clean = !o.dirty;
  if (!o.variant.empty()) c.parameters[std::string(history::kVariantRoleParameter)] = o.variant;
  std::string key, value;
  for (const std::string& p : o.params) {
    if (!split_key_value(p, key, value))
      return fail(Status::InvalidArgument(fmt::format("--param {}: expected KEY=VALUE", p)));
    c.parameters[key] = value;
  }
  for (const std::string& e : o.env) {
    if (!split_key_value(e, key, value))
      return fail(Status::InvalidArgument(fmt::format("--env {}: expected KEY=VALUE", e)));
    c.environment[key] = value;
  }
  c.procedure = {o.run_key, o.round, o.slot};
  if (!o.status.empty()) {
    c.status = history::parse_run_status(o.status);
    if (!c.status)
      return fail(Status::InvalidArgument(
          fmt::format("--status {}: expected ok, partial, censored, error or skipped", o.status)));
  }
  if (!o.config_path.empty()) {
    auto options = analysis::load_analysis_options(o.config_path);
    if (!options) return fail(options.error());
    c.rate_card = options->rate_card;
  }
  if (Status s = history::validate(c); !s.ok()) return fail(s);
  return c;
}

int run_ingest(const IngestOptions& o) {
  if (o.logs.empty() && o.result_files.empty())
    return usage_error("store ingest: give event logs or --result FILE.json");
  auto context = context_from_flags(o);
  if (!context) return usage_error(context.error().message());

  // Read and validate everything before writing anything: a bad third file stores nothing.
  std::vector<std::pair<std::string, ResultDocument>> documents;
  for (const std::string& path : o.result_files) {
    auto text = read_file(path);
    if (!text) return usage_error(text.error().message());
    auto document = history::parse_result_json(*text, path);
    if (!document) return usage_error(document.error().message());
    documents.emplace_back(path, std::move(*document));
  }
  for (const std::string& path : o.logs) {
    auto model = model::load_event_log(path);
    if (!model) return usage_error(model.error().message());
    history::SparkResultContext c = *context;
    c.origin = history::event_log_origin(path, model->app.id);
    documents.emplace_back(path, history::result_from_app_model(*model, c));
  }

  auto store = history::open_store(o.store);
  if (!store) {
    print_error(store.error().message());
    return kExitError;
  }
  for (const auto& [path, document] : documents) {
    auto outcome = (*store)->ingest(document);
    if (!outcome) {
      std::fprintf(stderr, "sparkforensics: %s: %s\n", path.c_str(), outcome.error().message().c_str());
      return kExitError;
    }
    if (!o.quiet) {
      std::printf("%s %s (%zu quantities) from %s\n", outcome->already_present ? "already present" : "ingested",
                  outcome->id.c_str(), document.quantities.size(), path.c_str());
    }
  }
  return kExitOk;
}

std::string describe_procedure(const history::Procedure& p) {
  if (p.run_key.empty()) return "-";
  std::string text = p.run_key;
  if (p.round) text += fmt::format(" r{}", *p.round);
  if (p.slot) text += fmt::format(" s{}", *p.slot);
  return text;
}

int run_list(const std::string& location, const std::string& format) {
  auto store = history::open_store(location);
  if (!store) return report_error(store.error().message(), kExitError);
  auto results = (*store)->results();
  if (!results) return report_error(results.error().message(), kExitError);
  if (format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : *results) {
      list.push_back({{"order", r.order},
                      {"id", r.id},
                      {"subject", r.document.subject},
                      {"revision", r.document.revision.tree},
                      {"runKey", r.document.procedure.run_key},
                      {"status", history::to_string(r.document.status)},
                      {"quantities", r.document.quantities.size()}});
    }
    std::printf("%s\n", list.dump(2).c_str());
    return kExitOk;
  }
  std::printf("%-6s %-34s %-24s %-14s %-16s %-9s %s\n", "ORDER", "ID", "SUBJECT", "REVISION", "PROCEDURE", "STATUS",
              "QUANTITIES");
  for (const auto& r : *results) {
    std::printf("%-6lld %-34s %-24s %-14s %-16s %-9s %zu\n", static_cast<long long>(r.order), r.id.c_str(),
                r.document.subject.c_str(), r.document.revision.tree.empty() ? "-" : r.document.revision.tree.c_str(),
                describe_procedure(r.document.procedure).c_str(),
                std::string(history::to_string(r.document.status)).c_str(), r.document.quantities.size());
  }
  return kExitOk;
}

int run_show(const std::string& location, const std::string& id) {
  auto store = history::open_store(location);
  if (!store) return report_error(store.error().message(), kExitError);
  auto found = (*store)->find(id);
  if (!found) return report_error(found.error().message(), kExitUsage);
  if (!*found) return report_error(fmt::format("no result {} in {}", id, location), kExitUsage);
  nlohmann::json shown = nlohmann::json::parse(history::result_to_json((*found)->document));
  shown["id"] = (*found)->id;
  shown["order"] = (*found)->order;
  std::printf("%s\n", shown.dump(2).c_str());
  return kExitOk;
}

int run_policy(const std::string& location, const std::string& set_path) {
  auto store = history::open_store(location);
  if (!store) return report_error(store.error().message(), kExitError);
  if (!set_path.empty()) {
    auto text = read_file(set_path);
    if (!text) return usage_error(text.error().message());
    auto policy = history::parse_identity_policy(*text, set_path);
    if (!policy) return usage_error(policy.error().message());
    if (Status s = (*store)->set_identity_policy(*policy); !s.ok()) {
      std::fprintf(stderr, "sparkforensics: %s: %s\n", set_path.c_str(), s.message().c_str());
      return s.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitError;
    }
  }
  auto policy = (*store)->identity_policy();
  if (!policy) return report_error(policy.error().message(), kExitError);
  std::printf("%s\n", history::identity_policy_to_json(*policy).c_str());
  return kExitOk;
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
      ->allow_extra_args(false);
  cmd->add_option("--subject", ingest->subject, "The job or benchmark measured (default: the application name)");
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
  cmd->add_option("--config", ingest->config_path, "Analysis config (JSON) whose rate card prices the cost quantity");
  cmd->add_option("--status", ingest->status, "ok, partial, censored, error or skipped (default: from the log)");
  cmd->add_flag("--quiet,-q", ingest->quiet, "Print nothing on success");
  cmd->callback([ingest, &exit_code] { exit_code = run_ingest(*ingest); });

  auto list = std::make_shared<std::pair<std::string, std::string>>("", "text");
  CLI::App* list_cmd = store->add_subcommand("list", "List the stored results in native (ingest) order");
  add_store_option(*list_cmd, list->first);
  list_cmd->add_option("--format,-f", list->second, "text or json")->check(CLI::IsMember({"text", "json"}));
  list_cmd->callback([list, &exit_code] { exit_code = run_list(list->first, list->second); });

  auto show = std::make_shared<std::pair<std::string, std::string>>();
  CLI::App* show_cmd = store->add_subcommand("show", "Print one stored result document");
  add_store_option(*show_cmd, show->first);
  show_cmd->add_option("id", show->second, "Result id or a unique prefix")->required();
  show_cmd->callback([show, &exit_code] { exit_code = run_show(show->first, show->second); });

  auto policy = std::make_shared<std::pair<std::string, std::string>>();
  CLI::App* policy_cmd =
      store->add_subcommand("policy", "Print the store's identity policy, or store its next version (--set)");
  add_store_option(*policy_cmd, policy->first);
  policy_cmd->add_option("--set", policy->second, "An identity-policy JSON file whose version is the current one + 1");
  policy_cmd->callback([policy, &exit_code] { exit_code = run_policy(policy->first, policy->second); });
}

}  // namespace sf::cli
