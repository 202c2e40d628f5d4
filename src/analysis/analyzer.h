// analyze(): the model -> findings with impact estimates, bands and the rollup.
//
// Runs every detector family, estimates each finding's impact with the occupancy model, sets
// its band, flags the skew/straggler overlap, checks the regression guard, orders the findings
// (band, then recoverable wall-clock, then id) and builds the rollup. Pure: same model and
// thresholds, same analysis.
#pragma once

#include <string>
#include <vector>

#include "analysis/economics/connect_cost.h"
#include "analysis/economics/economics.h"
#include "analysis/economics/rate_card.h"
#include "analysis/findings/finding.h"
#include "analysis/models/streaming_summary.h"
#include "analysis/rollup.h"
#include "analysis/settings/thresholds.h"
#include "model/app_model.h"

namespace sf::analysis {

struct AnalysisOptions {
  Thresholds thresholds;
  std::vector<std::string> overridden_thresholds;  // names set by a config file
  RateCard rate_card = default_rate_card();        // what costs are priced with
  // Threads the what-if simulation may use, the calling one among them: the same analysis
  // whatever the count. A front end answering several requests at once keeps 1.
  unsigned threads = 1;
};

struct Analysis {
  std::vector<Finding> findings;
  Rollup rollup;
  Thresholds thresholds;
  std::vector<std::string> overridden_thresholds;
  // Findings that break the regression guard (a real waste on a stage that ran alone reported
  // as no wall-clock); empty unless the estimator has a bug. Reported, never hidden.
  std::vector<std::string> guard_violations;
  // Where the time and the money go (economics.h).
  Economics economics;
  // Each Structured Streaming query run's figures (streaming_summary.h), in the model's order.
  std::vector<StreamingQuerySummary> streaming;
  // What each Spark Connect operation cost (connect_cost.h), in the model's order.
  std::vector<ConnectOperationSummary> connect;

  const Finding* finding(std::string_view id) const;
};

Analysis analyze(const model::AppModel& model, const AnalysisOptions& options = {});

}  // namespace sf::analysis
