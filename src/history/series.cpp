#include "history/series.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <nlohmann/json.hpp>

namespace sf::history {

std::string series_fingerprint(const Coordinates& identity, std::string_view quantity, std::string_view estimator,
                               std::string_view policy_schema) {
  nlohmann::json key;
  key["identity"] = identity;
  key["quantity"] = quantity;
  key["estimator"] = estimator;
  key["policy"] = policy_schema;
  const std::string text = key.dump();
  return fmt::format("s-{:016x}", XXH3_64bits(text.data(), text.size()));
}

SeriesPoint series_point(const StoredResult& result, std::string_view quantity, const IdentityPolicy& policy) {
  SeriesPoint point;
  point.result_id = result.id;
  point.native_order = result.order;
  point.policy_schema = policy.schema_label();
  point.estimator = kResultValueEstimator;
  std::vector<const ContinuityMapping*> applied;
  point.identity = comparison_identity(result.document, policy, &applied);
  for (const ContinuityMapping* m : applied)
    point.continuity.push_back(fmt::format("{}: {} -> {}", m->coordinate, m->from, m->to));
  point.quantity = quantity;
  point.fingerprint = series_fingerprint(point.identity, quantity, point.estimator, point.policy_schema);
  if (const Quantity* q = result.document.quantity(quantity)) {
    point.unit = q->unit;
    point.direction = q->direction;
    point.deterministic = q->deterministic;
    point.value = q->value;
  }
  point.status = result.document.status;
  point.revision = result.document.revision.tree;
  point.document = &result.document;
  return point;
}

std::string series_label(const SeriesPoint& point) {
  std::string label;
  auto subject = point.identity.find("subject");
  label += subject != point.identity.end() ? subject->second : std::string("?");
  label += " " + point.quantity;
  std::string rest;
  for (const auto& [path, value] : point.identity) {
    if (path == "subject") continue;
    rest += fmt::format("{}{}={}", rest.empty() ? "" : ", ", path, value);
  }
  if (!rest.empty()) label += " {" + rest + "}";
  return label;
}

}  // namespace sf::history
