// sparkforensics thresholds: every detector threshold --config may set, with its default, unit
// and meaning (docs/detectors.md explains where each comes from).
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/settings/thresholds.h"
#include "cli/commands.h"
#include "cli/output.h"

namespace sf::cli {

namespace {

struct ThresholdsOptions {
  std::string format;
  std::string output;
};

int run_thresholds(const ThresholdsOptions& options) {
  const analysis::Thresholds defaults;
  std::string out;
  if (options.format == "json") {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& info : analysis::threshold_registry()) {
      list.push_back({{"name", info.name},
                      {"default", defaults.*(info.field)},
                      {"unit", info.unit},
                      {"description", info.description}});
    }
    out = list.dump(2) + "\n";
  } else {
    out =
        "Detector thresholds: set any of them in a --config file, "
        "{\"thresholds\": {\"skew.maxToMedianRatio\": 4}}\n\n";
    for (const auto& info : analysis::threshold_registry()) {
      out += fmt::format("{:<48} {:>14g} {:<9} {}\n", info.name, defaults.*(info.field), info.unit, info.description);
    }
  }
  return write_output(options.output, out) ? kExitOk : kExitFailed;
}

}  // namespace

void register_thresholds(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ThresholdsOptions>();
  CLI::App* cmd =
      app.add_subcommand("thresholds", "List the detector thresholds a --config file may set, with defaults");
  add_format_option(*cmd, options->format, {"text", "json"}, "A table, or a JSON array");
  add_output_option(*cmd, options->output);
  cmd->callback([options, &exit_code] { exit_code = run_thresholds(*options); });
}

}  // namespace sf::cli
