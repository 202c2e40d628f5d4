#include "cli/log_reading.h"

#include <fmt/format.h>

#include "analysis/analysis_config.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "common/units.h"

namespace sf::cli {

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
  analysis::ConfigLimits from_config;
  if (!flags.config_path.empty()) {
    auto config = analysis::read_analysis_config(flags.config_path);
    if (!config) return fail(config.error());
    settings.analysis = std::move(config->analysis);
    from_config = config->limits;
  }
  settings.load.threads = flags.threads;
  const analysis::ConfigLimits from_flags{flags.max_line_bytes, flags.max_decompression_ratio, flags.max_open_tasks};
  analysis::apply_read_limits(from_config, from_flags, settings.load);
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
