#include "cli/log_reading.h"

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/progress.h"
#include "common/units.h"
#include "service/log_analysis.h"

namespace sf::cli {

void add_log_read_flags(CLI::App& cmd, LogReadFlags& flags, const std::string& threads_note, bool with_threads) {
  const model::LoadOptions defaults;
  cmd.add_option(
         "--config", flags.config_path,
         "JSON file of detector thresholds, read limits and the rate card costs are priced with: {\"thresholds\": "
         "{\"skew.maxToMedianRatio\": 4}, \"limits\": {\"maxLineBytes\": 16777216}, \"rateCard\": {\"preset\": "
         "\"gcp-n2-us-central1\"}} (`sparkforensics thresholds` lists the thresholds; docs/economics.md the rate "
         "cards)")
      ->type_name("FILE");
  if (with_threads) {
    cmd.add_option("--threads", flags.read.threads,
                   "Threads decoding one log; 0: the cores, at most 2" +
                       (threads_note.empty() ? "" : " (" + threads_note + ")"))
        ->capture_default_str();
  }
  cmd.add_option("--max-line-bytes", flags.read.max_line_bytes,
                 "Lines longer than this are skipped and reported as malformed")
      ->default_str(std::to_string(defaults.max_line_bytes));
  cmd.add_option("--max-decompression-ratio", flags.read.max_decompression_ratio,
                 "Stop reading a compressed part whose output passes this many times its input (0: no limit)")
      ->default_str(std::to_string(defaults.decompress_limits.max_ratio));
  cmd.add_option("--max-open-tasks", flags.read.max_open_tasks,
                 "Successful tasks whose values running stages may hold for exact quantiles; past it, a stage's "
                 "quantiles are left out and the report says so")
      ->default_str(std::to_string(defaults.builder_limits.max_open_task_values));
}

Result<service::ReadSettings> log_read_settings(const LogReadFlags& flags) {
  return service::read_settings(service::ConfigDocument::file(flags.config_path), flags.read);
}

Result<model::AppModel> load_log(const std::string& path, const service::ReadSettings& settings, bool show_progress) {
  ProgressLine progress(path, show_progress);
  auto loaded = service::load_log(path, settings, [&progress](const model::LoadProgress& p) { progress.update(p); });
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
