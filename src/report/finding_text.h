// Words and figures for findings, shared by the text and Markdown reports so both say the same
// thing the same way: an impact as a range, a cost in its unit, a group's figure with its label.
#pragma once

#include <string>

#include "analysis/findings/finding.h"
#include "analysis/rollup.h"

namespace sf::report {

// "1m 02s to 4m 10s of wall-clock" / "about 40.0s of wall-clock" / "cost: 3.20 core-hours" / "".
std::string impact_phrase(const analysis::Finding& finding);
// A raw figure in its unit, in units a person reads: "3.20 core-hours" (core time too),
// "1.50 GiB", "4.35 GiB-hours" (memory held: MB-seconds), "2m 10s".
std::string raw_waste_phrase(const analysis::RawWaste& raw);
// A group's headline figure: "up to 4m 10s recoverable (at least 1m 02s)" or
// "resource-cost projection: 3.20 core-hours".
std::string rollup_figure(const analysis::RollupGroup& group);
// "spark.sql.shuffle.partitions=800 (now 200)" for every setting, joined with "; ".
std::string settings_phrase(const analysis::Finding& finding);
// A group's findings by band, most severe first: "1 high, 3 low".
std::string band_counts_phrase(const analysis::RollupGroup& group);
// True for a finding with a wall-clock figure that rounds to nothing ("about 0 ms"): the reports
// leave it out of their lists and count it instead (the JSON keeps it).
bool recovers_nothing(const analysis::Finding& finding);

}  // namespace sf::report
