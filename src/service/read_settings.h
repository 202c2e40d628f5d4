// How every front end reads logs: the analysis config document (--config FILE on the command
// line, config= in Python, the server's --config) and the read flags a front end has of its own,
// added up by one rule: a flag wins over the document, the document over the defaults.
//
//   {"thresholds": {"skew.maxToMedianRatio": 4}, "limits": {"maxLineBytes": 16777216},
//    "rateCard": {"preset": "gcp-n2-us-central1"}}
//
// analysis/analysis_config.h reads the document; this is the one place its parts meet the flags.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "analysis/analyzer.h"
#include "common/status.h"
#include "model/load.h"

namespace sf::service {

// Where the config document comes from: a file, or text a caller holds (its messages then name
// `text_source`). Neither: the defaults.
struct ConfigDocument {
  std::string path;
  std::optional<std::string> text;
  std::string text_source = "config";

  static ConfigDocument file(std::string path) {
    ConfigDocument d;
    d.path = std::move(path);
    return d;
  }
  static ConfigDocument of_text(std::string text, std::string source = "config") {
    ConfigDocument d;
    d.text = std::move(text);
    d.text_source = std::move(source);
    return d;
  }
};

// A front end's own read flags, each unset unless given.
struct ReadFlags {
  std::optional<size_t> max_line_bytes;
  std::optional<uint64_t> max_decompression_ratio;
  std::optional<uint64_t> max_open_tasks;
  unsigned threads = 0;  // threads decoding one log; 0: the loader's default (the cores, at most 2)
};

// What the document and the flags add up to.
struct ReadSettings {
  model::LoadOptions load;             // limits and threads; a caller adds progress and confinement
  analysis::AnalysisOptions analysis;  // thresholds and rate card
};

// An unreadable or invalid document is NotFound or InvalidArgument naming the file (or
// `text_source`) and the key.
Result<ReadSettings> read_settings(const ConfigDocument& config, const ReadFlags& flags = {});

}  // namespace sf::service
