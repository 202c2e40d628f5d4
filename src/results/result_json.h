// The JSON form of a ResultDocument (docs/result-schema.md) and a result's content id.
//
// Parsing is strict: an unknown field, a wrong type, a non-finite value or a duplicate quantity
// name is an InvalidArgument naming the source and the field ("r.json: quantities[2].unit:
// expected a string"), because a typo in a result silently splitting a series is worse than a
// refused ingest. Writing is canonical (keys sorted, one float format), so equal documents are
// equal bytes and the id below is a function of the content alone.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "results/result.h"

namespace sf::results {

inline constexpr std::string_view kResultSchema = "sparkforensics.result/1";

// `source` names the input in error messages (a file path).
Result<ResultDocument> parse_result_json(std::string_view text, std::string_view source);

// Canonical JSON, one line, no trailing newline.
std::string result_to_json(const ResultDocument& result);

// "r-" and 32 hex digits of a 128-bit hash of the canonical JSON without the analysis
// quantities (result.h: is_analysis_quantity): identical documents are one result, so ingesting
// the same file twice stores it once; and a log ingested again by a program that reads more
// analysis quantities from it (or reads them with other thresholds) is "already present", the
// document first stored kept as it was.
std::string result_id(const ResultDocument& result);

}  // namespace sf::results
