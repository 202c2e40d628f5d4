// The --config document: detector thresholds and read limits in one JSON object, read the same
// way by every front end (the command line, the Python package):
//
//   {"thresholds": {"skew.maxToMedianRatio": 4}, "limits": {"maxLineBytes": 16777216}}
//
// The read limits stay optional here: a front end's own flags win over the document, and the
// document over model::LoadOptions' defaults (the front end applies them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/analyzer.h"
#include "common/status.h"

namespace sf::analysis {

struct ConfigLimits {
  std::optional<uint64_t> max_line_bytes, max_decompression_ratio, max_open_tasks;
};

struct ConfigFile {
  AnalysisOptions analysis;  // the defaults with the document's thresholds applied
  ConfigLimits limits;
};

// `source` is what messages name: the file, or where the text came from. An invalid document is
// an InvalidArgument naming `source` and the key.
Result<ConfigFile> parse_config(std::string_view text, const std::string& source);
// The file at `path`; one that cannot be read is NotFound naming it.
Result<ConfigFile> read_config_file(const std::string& path);

}  // namespace sf::analysis
