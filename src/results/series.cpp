#include "results/series.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <nlohmann/json.hpp>

namespace sf::results {

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

namespace {

// "2nd", "3rd", "11th": the repeat count a "~N" key suffix stands for.
std::string ordinal(std::string_view digits) {
  const std::string n(digits);
  const bool teen = n.size() >= 2 && n[n.size() - 2] == '1';
  const char last = n.empty() ? '0' : n.back();
  const char* suffix = teen ? "th" : last == '1' ? "st" : last == '2' ? "nd" : last == '3' ? "rd" : "th";
  return n + suffix;
}

// "1295dda33512f46b~2" -> "1295dd, 2nd"; "noplan" -> "no plan".
std::string short_fingerprint(std::string_view kind, std::string_view fingerprint_and_repeat) {
  std::string_view fingerprint = fingerprint_and_repeat;
  std::string repeat;
  if (const size_t tilde = fingerprint.rfind('~'); tilde != std::string_view::npos) {
    repeat = ", " + ordinal(fingerprint.substr(tilde + 1));
    fingerprint = fingerprint.substr(0, tilde);
  }
  if (fingerprint == "noplan") return "no plan" + repeat;
  return fmt::format("{}{}{}{}", kind, kind.empty() ? "" : " ", fingerprint.substr(0, 6), repeat);
}

}  // namespace

std::string readable_quantity(std::string_view quantity) {
  const bool stage = quantity.starts_with("stage:");
  const bool sql = quantity.starts_with("sql:");
  const size_t metric_at = quantity.rfind(':');
  if ((!stage && !sql) || metric_at == std::string_view::npos) return std::string(quantity);
  const std::string_view key = quantity.substr(0, metric_at).substr(stage ? 6 : 4);
  const std::string_view metric = quantity.substr(metric_at + 1);
  if (stage) {
    // <name>|<nodes|plan|site>:<fingerprint>[~N]
    const size_t bar = key.rfind('|');
    const size_t colon = key.find(':', bar == std::string_view::npos ? 0 : bar);
    if (bar == std::string_view::npos || colon == std::string_view::npos) return std::string(quantity);
    return fmt::format("stage \"{}\" ({}) {}", key.substr(0, bar),
                       short_fingerprint(key.substr(bar + 1, colon - bar - 1), key.substr(colon + 1)), metric);
  }
  // <description>@<fingerprint|noplan>[~N]
  const size_t at = key.rfind('@');
  if (at == std::string_view::npos) return std::string(quantity);
  const std::string_view description = key.substr(0, at);
  const std::string plan = short_fingerprint("plan", key.substr(at + 1));
  if (description.empty()) return fmt::format("SQL ({}) {}", plan, metric);
  return fmt::format("SQL \"{}\" ({}) {}", description, plan, metric);
}

std::string series_label(const Coordinates& identity, std::string_view quantity, const Coordinates& omitted) {
  auto subject = identity.find("subject");
  auto omitted_subject = omitted.find("subject");
  std::string label;
  if (omitted_subject == omitted.end() || subject == identity.end() || omitted_subject->second != subject->second) {
    label = (subject != identity.end() ? subject->second : std::string("?")) + " ";
  }
  label += readable_quantity(quantity);
  std::string rest;
  for (const auto& [path, value] : identity) {
    if (path == "subject") continue;
    if (auto it = omitted.find(path); it != omitted.end() && it->second == value) continue;
    rest += fmt::format("{}{}={}", rest.empty() ? "" : ", ", path, value);
  }
  if (!rest.empty()) label += " {" + rest + "}";
  return label;
}

std::string series_label(const SeriesPoint& point) { return series_label(point.identity, point.quantity); }

}  // namespace sf::results
