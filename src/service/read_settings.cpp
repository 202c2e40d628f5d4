#include "service/read_settings.h"

#include "analysis/analysis_config.h"

namespace sf::service {

Result<ReadSettings> read_settings(const ConfigDocument& config, const ReadFlags& flags) {
  ReadSettings settings;
  analysis::ConfigLimits from_config;
  if (config.text || !config.path.empty()) {
    auto document = config.text ? analysis::parse_analysis_config(*config.text, config.text_source)
                                : analysis::read_analysis_config(config.path);
    if (!document) return fail(document.error());
    settings.analysis = std::move(document->analysis);
    from_config = document->limits;
  }
  settings.load.threads = flags.threads;
  const analysis::ConfigLimits from_flags{flags.max_line_bytes, flags.max_decompression_ratio, flags.max_open_tasks};
  analysis::apply_read_limits(from_config, from_flags, settings.load);
  return settings;
}

}  // namespace sf::service
