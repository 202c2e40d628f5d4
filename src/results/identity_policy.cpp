#include "results/identity_policy.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace sf::results {

namespace {

using nlohmann::json;

Status invalid(std::string_view where, std::string_view what) {
  return Status::InvalidArgument(fmt::format("{}: {}", where, what));
}

bool is_coordinate_path(std::string_view path) {
  return path == "subject" || (path.starts_with("parameters.") && path.size() > 11) ||
         (path.starts_with("environment.") && path.size() > 12);
}

Status read_strings(const json& value, std::string_view where, std::vector<std::string>& out) {
  if (!value.is_array()) return invalid(where, "expected an array of strings");
  for (const json& item : value) {
    if (!item.is_string()) return invalid(where, "expected an array of strings");
    out.push_back(item.get<std::string>());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return {};
}

std::string string_field(const json& object, std::string_view key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Status read_boundaries(const json& list, std::string_view kind, std::vector<HistoryBoundary>& out) {
  if (!list.is_array()) return invalid(kind, "expected an array");
  for (size_t i = 0; i < list.size(); ++i) {
    const json& item = list[i];
    const std::string where = fmt::format("{}[{}]", kind, i);
    if (!item.is_object()) return invalid(where, "expected an object");
    for (const auto& [key, value] : item.items()) {
      if (key != "match" && key != "quantity" && key != "atRevision" && key != "atResult" && key != "reason") {
        return invalid(where + "." + key, "unknown field");
      }
      if (key != "match" && !value.is_string()) return invalid(where + "." + key, "expected a string");
    }
    HistoryBoundary boundary;
    boundary.kind = kind == "resets" ? "reset" : "accepted-change-point";
    boundary.quantity = string_field(item, "quantity");
    boundary.at_revision = string_field(item, "atRevision");
    boundary.at_result = string_field(item, "atResult");
    boundary.reason = string_field(item, "reason");
    if (boundary.at_revision.empty() == boundary.at_result.empty()) {
      return invalid(where, "needs exactly one of atRevision and atResult");
    }
    if (auto match = item.find("match"); match != item.end()) {
      if (!match->is_object()) return invalid(where + ".match", "expected an object of coordinate -> value");
      for (const auto& [path, value] : match->items()) {
        if (!is_coordinate_path(path)) return invalid(where + ".match." + path, "not a coordinate path");
        if (!value.is_string()) return invalid(where + ".match." + path, "expected a string");
        boundary.match[path] = value.get<std::string>();
      }
    }
    out.push_back(std::move(boundary));
  }
  return {};
}

Status read_policy(const json& root, IdentityPolicy& policy) {
  if (!root.is_object()) return Status::InvalidArgument("expected a JSON object");
  for (const auto& [key, value] : root.items()) {
    if (key != "schema" && key != "version" && key != "identity" && key != "continuity" && key != "resets" &&
        key != "acceptedChangePoints") {
      return invalid(key, "unknown field");
    }
  }
  if (string_field(root, "schema") != kIdentityPolicySchema) {
    return invalid("schema", fmt::format("expected \"{}\"", kIdentityPolicySchema));
  }
  auto version = root.find("version");
  if (version == root.end() || !version->is_number_integer() || version->get<int64_t>() < 1) {
    return invalid("version", "expected an integer >= 1");
  }
  policy.version = version->get<int64_t>();
  if (auto identity = root.find("identity"); identity != root.end()) {
    if (!identity->is_object()) return invalid("identity", "expected an object");
    for (const auto& [key, value] : identity->items()) {
      if (key == "parameters") {
        if (value.is_string() && value.get<std::string>() == "*") {
          policy.all_parameters = true;
        } else {
          policy.all_parameters = false;
          if (Status s = read_strings(value, "identity.parameters", policy.parameters); !s.ok()) return s;
        }
      } else if (key == "environment") {
        policy.environment.clear();
        if (Status s = read_strings(value, "identity.environment", policy.environment); !s.ok()) return s;
      } else {
        return invalid("identity." + key, "unknown field");
      }
    }
  }
  if (auto continuity = root.find("continuity"); continuity != root.end()) {
    if (!continuity->is_array()) return invalid("continuity", "expected an array");
    for (size_t i = 0; i < continuity->size(); ++i) {
      const json& item = (*continuity)[i];
      const std::string where = fmt::format("continuity[{}]", i);
      if (!item.is_object()) return invalid(where, "expected an object");
      ContinuityMapping mapping{string_field(item, "coordinate"), string_field(item, "from"), string_field(item, "to"),
                                string_field(item, "reason")};
      if (!is_coordinate_path(mapping.coordinate)) return invalid(where + ".coordinate", "not a coordinate path");
      if (mapping.from.empty() || mapping.to.empty()) return invalid(where, "needs non-empty from and to");
      if (mapping.from == mapping.to) return invalid(where, "from and to are the same");
      policy.continuity.push_back(std::move(mapping));
    }
  }
  if (auto resets = root.find("resets"); resets != root.end()) {
    if (Status s = read_boundaries(*resets, "resets", policy.boundaries); !s.ok()) return s;
  }
  if (auto accepted = root.find("acceptedChangePoints"); accepted != root.end()) {
    if (Status s = read_boundaries(*accepted, "acceptedChangePoints", policy.boundaries); !s.ok()) return s;
  }
  return {};
}

std::optional<std::string> identity_value(const ResultDocument& result, std::string_view path,
                                          const IdentityPolicy& policy,
                                          std::vector<const ContinuityMapping*>* applied) {
  std::optional<std::string> value = coordinate_value(result, path);
  if (!value) return value;
  // Follow mappings transitively (a machine replaced twice), bounded so a cycle cannot hang.
  for (size_t hops = 0; hops <= policy.continuity.size(); ++hops) {
    auto it = std::find_if(policy.continuity.begin(), policy.continuity.end(),
                           [&](const ContinuityMapping& m) { return m.coordinate == path && m.from == *value; });
    if (it == policy.continuity.end()) break;
    if (applied != nullptr) applied->push_back(&*it);
    value = it->to;
  }
  return value;
}

}  // namespace

std::string IdentityPolicy::schema_label() const { return std::string(kIdentityPolicySchema); }

Result<IdentityPolicy> parse_identity_policy(std::string_view text, std::string_view source) {
  json root = json::parse(text, nullptr, false);
  if (root.is_discarded()) return fail(Status::InvalidArgument(fmt::format("{}: not valid JSON", source)));
  IdentityPolicy policy;
  if (Status s = read_policy(root, policy); !s.ok()) return fail(s.with_context(source));
  return policy;
}

std::string identity_policy_to_json(const IdentityPolicy& policy) {
  json root;
  root["schema"] = kIdentityPolicySchema;
  root["version"] = policy.version;
  json identity;
  identity["parameters"] = policy.all_parameters ? json("*") : json(policy.parameters);
  identity["environment"] = policy.environment;
  root["identity"] = identity;
  json continuity = json::array();
  for (const auto& m : policy.continuity) {
    continuity.push_back({{"coordinate", m.coordinate}, {"from", m.from}, {"to", m.to}, {"reason", m.reason}});
  }
  root["continuity"] = continuity;
  json resets = json::array();
  json accepted = json::array();
  for (const auto& b : policy.boundaries) {
    json item = {{"match", b.match}, {"quantity", b.quantity}, {"reason", b.reason}};
    if (!b.at_revision.empty()) item["atRevision"] = b.at_revision;
    if (!b.at_result.empty()) item["atResult"] = b.at_result;
    (b.kind == "reset" ? resets : accepted).push_back(item);
  }
  root["resets"] = resets;
  root["acceptedChangePoints"] = accepted;
  return root.dump(2);
}

Coordinates comparison_identity(const ResultDocument& result, const IdentityPolicy& policy,
                                std::vector<const ContinuityMapping*>* applied) {
  Coordinates identity;
  auto add = [&](const std::string& path) {
    if (auto value = identity_value(result, path, policy, applied)) identity[path] = *value;
  };
  add("subject");
  if (policy.all_parameters) {
    for (const auto& [key, value] : result.parameters) add("parameters." + key);
  } else {
    for (const auto& key : policy.parameters) add("parameters." + key);
  }
  for (const auto& key : policy.environment) add("environment." + key);
  return identity;
}

bool in_identity(const IdentityPolicy& policy, std::string_view path) {
  if (path == "subject") return true;
  if (path.starts_with("parameters.")) {
    const std::string key(path.substr(11));
    return policy.all_parameters || std::binary_search(policy.parameters.begin(), policy.parameters.end(), key);
  }
  if (path.starts_with("environment.")) {
    const std::string key(path.substr(12));
    return std::binary_search(policy.environment.begin(), policy.environment.end(), key);
  }
  return false;
}

}  // namespace sf::results
