// Run-independent keys for a Spark application's stages and SQL executions, so their durations
// form series across runs.
//
// They are the comparison layer's keys (src/compare), so a series and an A/B comparison name a
// stage alike: a stage's exact key is its normalized name joined with the fingerprint of the
// plan nodes attributed to it, else of its SQL execution's whole plan, else of its call site;
// the comparison normalizer's targeted patches (staging directories, dates, IN lists, file-index
// counts) keep run-to-run noise out of them.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "model/app_model.h"

namespace sf::results {

// Stage id -> key, for every stage that ran.
std::map<int64_t, std::string> stage_keys(const model::AppModel& app);

// "<normalized description>@<fingerprint of the final plan>" (or "@noplan").
std::string sql_execution_key(const model::SqlExecution& execution);

}  // namespace sf::results
