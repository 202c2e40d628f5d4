// Run-independent keys for a Spark application's stages and SQL executions, so their durations
// form series across runs.
//
// A stage key is the normalized stage name joined with the plan identity of the SQL execution
// that ran it: the plan nodes attributed to this stage when there are any (so a self-join's two
// Exchange stages stay apart), else the whole plan's structural fingerprint, else none. This is
// the one place the key is made, so it can be swapped for the comparison layer's exact stage
// identity (src/compare) when that lands.
#pragma once

#include <string>

#include "model/app_model.h"

namespace sf::history {

// Lowercased, digit runs and long hex ids collapsed to '#'.
std::string normalized_stage_name(std::string_view name);

// "<normalized name>@<12 hex digits of the plan identity>" or "<normalized name>@noplan".
std::string stage_key(const model::StageAttempt& stage, const model::AppModel& app);

// "<normalized description>@<12 hex digits of the final plan's fingerprint>".
std::string sql_execution_key(const model::SqlExecution& execution);

}  // namespace sf::history
