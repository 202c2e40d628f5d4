// Where the time and the money go: the time split between the driver and the executors (for the
// application, each job and each SQL execution), the critical path and the ideal time, the
// what-if curve of cluster sizes, and the cost at a rate card's prices. analyze() computes it
// with the findings; every output (JSON, text, Markdown, MCP) renders this one value.
// docs/economics.md explains each part and what it leaves out.
//
// Plain values; computing them is pure and thread-safe.
#pragma once

#include <optional>
#include <vector>

#include "analysis/economics/cost.h"
#include "analysis/economics/rate_card.h"
#include "analysis/findings/finding.h"
#include "analysis/models/critical_path.h"
#include "analysis/models/occupancy.h"
#include "analysis/models/time_split.h"
#include "analysis/models/what_if.h"
#include "analysis/settings/cluster_shape.h"
#include "model/app_model.h"

namespace sf::analysis {

struct Economics {
  ClusterShape cluster;
  std::optional<WindowSplit> time_split;  // nullopt without an application start
  std::vector<JobTimeSplit> jobs;
  std::vector<SqlTimeSplit> sql;
  std::optional<CriticalPath> critical_path;
  std::optional<WhatIf> what_if;
  Cost cost;
};

// Everything but the cost, which needs the findings: the model is all these read, so analyze()
// works them out beside its detectors. `threads`: what the what-if simulation may use (what_if.h).
Economics model_economics(const model::AppModel& model, unsigned threads = 1);

// The cost at `rates` (the application's, and each what-if size's) into `economics`.
void price_economics(Economics& economics, const model::AppModel& model, const std::vector<StageOccupancy>& occupancy,
                     const std::vector<Finding>& findings, const RateCard& rates);

}  // namespace sf::analysis
