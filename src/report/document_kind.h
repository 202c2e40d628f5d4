// What every JSON document the program writes says it is: its kind and the version of its
// schema (docs/*-schema.md, schemas/), the first two fields a reader checks before it reads on.
// One table, so no two documents share a kind and a version moves in one place.
#pragma once

#include <string_view>

#include "common/json_writer.h"

namespace sf::report {

struct DocumentKind {
  std::string_view kind;
  int schema_version;
};

inline constexpr DocumentKind kAnalysisDocument{"sparkforensics.analysis", 1};
inline constexpr DocumentKind kComparisonDocument{"sparkforensics.comparison", 1};
inline constexpr DocumentKind kVerdictDocument{"sparkforensics.verdict", 1};
inline constexpr DocumentKind kTimelineDocument{"sparkforensics.timeline", 1};
inline constexpr DocumentKind kPlanDiffDocument{"sparkforensics.planDiff", 1};
inline constexpr DocumentKind kFleetSummaryDocument{"sparkforensics.fleetSummary", 1};

// "kind" and "schemaVersion", as the object's next two fields.
inline void write_document_kind(JsonWriter& w, const DocumentKind& document) {
  w.field("kind", document.kind);
  w.field("schemaVersion", document.schema_version);
}

}  // namespace sf::report
