#include "cli/log_reading.h"

#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/analysis_config.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "common/units.h"

namespace sf::cli {

namespace {

// The "limits" object of a config file, the names as in the JSON documents (camelCase).
struct ConfigLimits {
  std::optional<uint64_t> max_line_bytes, max_decompression_ratio, max_open_tasks;
};

Result<ConfigLimits> read_config_limits(const std::string& path) {
  std::ifstream in(path);
  if (!in) return fail(Status::NotFound(path + ": cannot open the config file"));
  // Parse errors are the thresholds loader's to report, with the byte they happened at.
  const nlohmann::json config = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  ConfigLimits limits;
  if (!config.is_object() || !config.contains("limits")) return limits;
  const nlohmann::json& entries = config["limits"];
  if (!entries.is_object()) return fail(Status::InvalidArgument(path + ": \"limits\" must be an object"));
  for (const auto& [key, value] : entries.items()) {
    std::optional<uint64_t>* target = key == "maxLineBytes"            ? &limits.max_line_bytes
                                      : key == "maxDecompressionRatio" ? &limits.max_decompression_ratio
                                      : key == "maxOpenTasks"          ? &limits.max_open_tasks
                                                                       : nullptr;
    if (target == nullptr) {
      return fail(Status::InvalidArgument(
          fmt::format("{}: unknown limit \"{}\" (expected maxLineBytes, maxDecompressionRatio or maxOpenTasks)", path, key)));
    }
    if (!value.is_number_unsigned()) {
      return fail(Status::InvalidArgument(fmt::format("{}: limit \"{}\" must be a whole number, 0 or more", path, key)));
    }
    *target = value.get<uint64_t>();
  }
  return limits;
}

}  // namespace

void add_log_read_flags(CLI::App& cmd, LogReadFlags& flags, const std::string& threads_note, bool with_threads) {
  const model::LoadOptions defaults;
  cmd.add_option("--config", flags.config_path,
                 "JSON file of detector thresholds, read limits and the rate card costs are priced with: {\"thresholds\": "
                 "{\"skew.maxToMedianRatio\": 4}, \"limits\": {\"maxLineBytes\": 16777216}, \"rateCard\": {\"preset\": "
                 "\"gcp-n2-us-central1\"}} (`sparkforensics thresholds` lists the thresholds; docs/economics.md the rate cards)")
      ->type_name("FILE");
  if (with_threads) {
    cmd.add_option("--threads", flags.threads,
                   "Threads decoding one log; 0: the cores, at most 2" +
                       (threads_note.empty() ? "" : " (" + threads_note + ")"))
        ->capture_default_str();
  }
  cmd.add_option("--max-line-bytes", flags.max_line_bytes, "Lines longer than this are skipped and reported as malformed")
      ->default_str(std::to_string(defaults.max_line_bytes));
  cmd.add_option("--max-decompression-ratio", flags.max_decompression_ratio,
                 "Stop reading a compressed part whose output passes this many times its input (0: no limit)")
      ->default_str(std::to_string(defaults.decompress_limits.max_ratio));
  cmd.add_option("--max-open-tasks", flags.max_open_tasks,
                 "Successful tasks whose values running stages may hold for exact quantiles; past it, a stage's "
                 "quantiles are left out and the report says so")
      ->default_str(std::to_string(defaults.builder_limits.max_open_task_values));
}

Result<LogReadSettings> log_read_settings(const LogReadFlags& flags) {
  LogReadSettings settings;
  ConfigLimits from_config;
  if (!flags.config_path.empty()) {
    auto analysis_options = analysis::load_analysis_options(flags.config_path);
    if (!analysis_options) return fail(analysis_options.error());
    settings.analysis = std::move(*analysis_options);
    auto limits = read_config_limits(flags.config_path);
    if (!limits) return fail(limits.error());
    from_config = *limits;
  }
  model::LoadOptions& load = settings.load;
  load.threads = flags.threads;
  if (auto v = flags.max_line_bytes ? flags.max_line_bytes : from_config.max_line_bytes) load.max_line_bytes = *v;
  if (auto v = flags.max_decompression_ratio ? flags.max_decompression_ratio : from_config.max_decompression_ratio)
    load.decompress_limits.max_ratio = *v;
  if (auto v = flags.max_open_tasks ? flags.max_open_tasks : from_config.max_open_tasks)
    load.builder_limits.max_open_task_values = *v;
  return settings;
}

Result<model::AppModel> load_log(const std::string& path, const model::LoadOptions& options, bool show_progress) {
  ProgressLine progress(path, show_progress);
  model::LoadOptions load_options = options;
  load_options.on_progress = [&progress](const model::LoadProgress& p) { progress.update(p); };
  auto loaded = model::load_event_log(path, load_options);
  progress.clear();
  return loaded;
}

void warn_about_partial_load(const std::string& source, const model::AppModel& model) {
  const auto& d = model.diagnostics;
  const std::string where = source.empty() ? "" : source + ": ";
  if (d.read_error) print_error(fmt::format("warning: {}partial load: {}", where, *d.read_error));
  if (d.malformed_lines > 0) {
    print_error(fmt::format("warning: {}{} skipped (first: {} line {}: {})", where,
                            units::format_counted(static_cast<int64_t>(d.malformed_lines), "malformed line"),
                            d.malformed.front().part, d.malformed.front().line_number, d.malformed.front().reason));
  }
}

}  // namespace sf::cli
