#include "model/line_redaction.h"

#include <array>
#include <vector>

#include <nlohmann/json.hpp>

namespace sf::model {

namespace {

using Json = nlohmann::ordered_json;

// The events whose JSON carries properties or plan text (JsonProtocol's and the SQL listener's
// field names).
constexpr std::string_view kEnvironmentUpdate = "SparkListenerEnvironmentUpdate";
constexpr std::array<std::string_view, 5> kPropertyGroups = {"JVM Information", "Spark Properties", "Hadoop Properties",
                                                             "System Properties", "Metrics Properties"};
constexpr std::array<std::string_view, 5> kCarriers = {kEnvironmentUpdate, "SparkListenerJobStart",
                                                       "SparkListenerStageSubmitted", "SparkListenerSQLExecutionStart",
                                                       "SparkListenerSQLAdaptiveExecutionUpdate"};

bool may_carry_secrets(std::string_view line) {
  for (std::string_view name : kCarriers) {
    if (line.find(name) != std::string_view::npos) return true;
  }
  return false;
}

// {key: value} objects of strings; true when a value was replaced.
bool redact_object(Json& object, const Redaction& redaction) {
  if (!object.is_object()) return false;
  bool changed = false;
  for (auto& [key, value] : object.items()) {
    if (!value.is_string()) continue;
    if (redaction.sensitive(key, value.get_ref<const std::string&>())) {
      value = std::string(kRedactedValue);
      changed = true;
    }
  }
  return changed;
}

bool redact_text(Json& value, const Redaction& redaction) {
  if (!value.is_string()) return false;
  std::string text = value.get<std::string>();
  redaction.redact_text(text);
  if (text == value.get_ref<const std::string&>()) return false;
  value = std::move(text);
  return true;
}

bool redact_plan_info(Json& node, const Redaction& redaction) {
  if (!node.is_object()) return false;
  bool changed = false;
  if (auto it = node.find("simpleString"); it != node.end()) changed |= redact_text(*it, redaction);
  if (auto it = node.find("metadata"); it != node.end() && it->is_object()) {
    for (auto& [key, value] : it->items()) changed |= redact_text(value, redaction);
  }
  if (auto it = node.find("children"); it != node.end() && it->is_array()) {
    for (Json& child : *it) changed |= redact_plan_info(child, redaction);
  }
  return changed;
}

KeyValues key_values(const Json& object) {
  KeyValues out;
  if (!object.is_object()) return out;
  for (const auto& [key, value] : object.items()) {
    if (value.is_string()) out.emplace_back(key, value.get<std::string>());
  }
  return out;
}

}  // namespace

std::string_view LineRedaction::redact(std::string_view line, std::string& scratch) {
  if (!may_carry_secrets(line)) return line;
  Json event = Json::parse(line.begin(), line.end(), nullptr, false);
  if (event.is_discarded() || !event.is_object()) return line;
  const auto name = event.find("Event");
  if (name == event.end() || !name->is_string()) return line;
  const std::string& event_name = name->get_ref<const std::string&>();

  bool changed = false;
  if (event_name.ends_with(kEnvironmentUpdate)) {
    if (auto spark = event.find("Spark Properties"); spark != event.end()) {
      std::vector<std::string> notes;  // the model's load says it; a download has nowhere to
      redaction_ = Redaction::for_application(key_values(*spark), notes);
    }
    for (std::string_view group : kPropertyGroups) {
      if (auto it = event.find(std::string(group)); it != event.end()) changed |= redact_object(*it, redaction_);
    }
  }
  if (auto it = event.find("Properties"); it != event.end()) changed |= redact_object(*it, redaction_);
  if (auto it = event.find("modifiedConfigs"); it != event.end()) changed |= redact_object(*it, redaction_);
  for (const char* text : {"description", "details", "physicalPlanDescription"}) {
    if (auto it = event.find(text); it != event.end()) changed |= redact_text(*it, redaction_);
  }
  if (auto it = event.find("sparkPlanInfo"); it != event.end()) changed |= redact_plan_info(*it, redaction_);
  if (!changed) return line;
  scratch = event.dump(-1, ' ', false, Json::error_handler_t::replace);
  return scratch;
}

}  // namespace sf::model
