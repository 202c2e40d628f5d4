// Words and figures for findings, shared by the text and Markdown reports so both say the same
// thing the same way: an impact as a range, a cost in its unit, a group's figure with its label.
#pragma once

#include <string>

#include "analysis/finding.h"
#include "analysis/rollup.h"

namespace sf::report {

// "1m 02s to 4m 10s of wall-clock" / "about 40.0s of wall-clock" / "cost: 3.20 core-hours" / "".
std::string impact_phrase(const analysis::Finding& finding);
// A raw figure in its unit: "3.20 core-hours", "1.50 GiB", "2h 10m of core time", "120,000 MB-seconds".
std::string raw_waste_phrase(const analysis::RawWaste& raw);
// A group's headline figure: "up to 4m 10s recoverable (at least 1m 02s)" or
// "resource-cost projection: 3.20 core-hours".
std::string rollup_figure(const analysis::RollupGroup& group);
// "spark.sql.shuffle.partitions=800 (now 200)" for every setting, joined with "; ".
std::string settings_phrase(const analysis::Finding& finding);

}  // namespace sf::report
