#include "mcp/tool_parameters.h"

#include <fmt/format.h>

#include <algorithm>

namespace sf::mcp {

namespace {

Json parameter_schema(const Parameter& p) {
  Json schema;
  switch (p.type) {
    case ParameterType::kString:
      schema["type"] = "string";
      if (!p.allowed.empty()) schema["enum"] = p.allowed;
      break;
    case ParameterType::kInteger:
      schema["type"] = "integer";
      if (p.minimum) schema["minimum"] = *p.minimum;
      if (p.maximum) schema["maximum"] = *p.maximum;
      break;
    case ParameterType::kBoolean: schema["type"] = "boolean"; break;
    case ParameterType::kStringList:
      schema = {{"type", "array"}, {"items", {{"type", "string"}}}};
      if (!p.allowed.empty()) schema["items"]["enum"] = p.allowed;
      break;
    case ParameterType::kStringMap:
      schema = {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}};
      break;
    case ParameterType::kObject: schema = input_schema(p.fields); break;
  }
  schema["description"] = p.description;
  return schema;
}

std::string expectation(const Parameter& p) {
  switch (p.type) {
    case ParameterType::kString: {
      if (p.allowed.empty()) return "a string";
      std::string values;
      for (const auto& v : p.allowed) values += (values.empty() ? "" : ", ") + v;
      return "one of " + values;
    }
    case ParameterType::kInteger:
      if (p.minimum && p.maximum) return fmt::format("an integer from {} to {}", *p.minimum, *p.maximum);
      if (p.minimum) return fmt::format("an integer of at least {}", *p.minimum);
      return "an integer";
    case ParameterType::kBoolean: return "true or false";
    case ParameterType::kStringList: {
      if (p.allowed.empty()) return "an array of strings";
      std::string values;
      for (const auto& v : p.allowed) values += (values.empty() ? "" : ", ") + v;
      return "an array of strings, each one of " + values;
    }
    case ParameterType::kStringMap: return "an object whose values are strings";
    case ParameterType::kObject: return "an object";
  }
  return "";
}

bool is_allowed(const Parameter& p, const std::string& value) {
  return p.allowed.empty() || std::find(p.allowed.begin(), p.allowed.end(), value) != p.allowed.end();
}

bool value_fits(const Parameter& p, const Json& value) {
  switch (p.type) {
    case ParameterType::kString: return value.is_string() && is_allowed(p, value.get<std::string>());
    case ParameterType::kInteger: {
      if (!value.is_number_integer() && !value.is_number_unsigned()) return false;
      if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return false;
      const int64_t n = value.get<int64_t>();
      return (!p.minimum || n >= *p.minimum) && (!p.maximum || n <= *p.maximum);
    }
    case ParameterType::kBoolean: return value.is_boolean();
    case ParameterType::kStringList:
      if (!value.is_array()) return false;
      for (const auto& item : value) {
        if (!item.is_string() || !is_allowed(p, item.get<std::string>())) return false;
      }
      return true;
    case ParameterType::kStringMap:
      if (!value.is_object()) return false;
      for (const auto& item : value.items()) {
        if (!item.value().is_string()) return false;
      }
      return true;
    case ParameterType::kObject: return value.is_object();
  }
  return false;
}

Status check_object(const std::vector<Parameter>& parameters, const Json& arguments, const std::string& prefix) {
  if (!arguments.is_null() && !arguments.is_object()) {
    return Status::InvalidArgument(prefix.empty() ? "the arguments must be an object" : prefix + " must be an object");
  }
  if (arguments.is_object()) {
    for (const auto& item : arguments.items()) {
      bool known = false;
      for (const auto& p : parameters) known = known || p.name == item.key();
      if (known) continue;
      std::string names;
      for (const auto& p : parameters) names += (names.empty() ? "" : ", ") + p.name;
      return Status::InvalidArgument(fmt::format("unknown argument \"{}{}\" (accepted: {})",
                                                 prefix.empty() ? "" : prefix + ".", item.key(), names));
    }
  }
  for (const auto& p : parameters) {
    const std::string name = prefix.empty() ? p.name : prefix + "." + p.name;
    if (!arguments.is_object() || !arguments.contains(p.name)) {
      if (p.required)
        return Status::InvalidArgument(fmt::format("argument \"{}\" is required: {}", name, p.description));
      continue;
    }
    const Json& value = arguments[p.name];
    if (!value_fits(p, value)) {
      return Status::InvalidArgument(fmt::format("argument \"{}\": expected {}", name, expectation(p)));
    }
    if (p.type == ParameterType::kObject) {
      if (Status s = check_object(p.fields, value, name); !s.ok()) return s;
    }
  }
  return {};
}

}  // namespace

namespace {

Parameter parameter_of(std::string name, ParameterType type, std::string description, bool required) {
  Parameter p;
  p.name = std::move(name);
  p.type = type;
  p.description = std::move(description);
  p.required = required;
  return p;
}

}  // namespace

Parameter text_parameter(std::string name, std::string description, bool required) {
  return parameter_of(std::move(name), ParameterType::kString, std::move(description), required);
}

Parameter choice_parameter(std::string name, std::string description, std::vector<std::string> allowed, bool required) {
  Parameter p = parameter_of(std::move(name), ParameterType::kString, std::move(description), required);
  p.allowed = std::move(allowed);
  return p;
}

Parameter integer_parameter(std::string name, std::string description, std::optional<int64_t> minimum,
                            std::optional<int64_t> maximum, bool required) {
  Parameter p = parameter_of(std::move(name), ParameterType::kInteger, std::move(description), required);
  p.minimum = minimum;
  p.maximum = maximum;
  return p;
}

Parameter flag_parameter(std::string name, std::string description) {
  return parameter_of(std::move(name), ParameterType::kBoolean, std::move(description), false);
}

Parameter list_parameter(std::string name, std::string description, std::vector<std::string> allowed) {
  Parameter p = parameter_of(std::move(name), ParameterType::kStringList, std::move(description), false);
  p.allowed = std::move(allowed);
  return p;
}

Parameter map_parameter(std::string name, std::string description) {
  return parameter_of(std::move(name), ParameterType::kStringMap, std::move(description), false);
}

Parameter object_parameter(std::string name, std::string description, std::vector<Parameter> fields, bool required) {
  Parameter p = parameter_of(std::move(name), ParameterType::kObject, std::move(description), required);
  p.fields = std::move(fields);
  return p;
}

Json input_schema(const std::vector<Parameter>& parameters) {
  Json properties = Json::object();
  Json required = Json::array();
  for (const auto& p : parameters) {
    properties[p.name] = parameter_schema(p);
    if (p.required) required.push_back(p.name);
  }
  Json schema = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

Status check_arguments(const std::vector<Parameter>& parameters, const Json& arguments) {
  return check_object(parameters, arguments, "");
}

std::string ToolArguments::string(const std::string& name, const std::string& fallback) const {
  return has(name) ? arguments_[name].get<std::string>() : fallback;
}

std::optional<std::string> ToolArguments::optional_string(const std::string& name) const {
  if (!has(name)) return std::nullopt;
  return arguments_[name].get<std::string>();
}

int64_t ToolArguments::integer(const std::string& name, int64_t fallback) const {
  return has(name) ? arguments_[name].get<int64_t>() : fallback;
}

std::optional<int64_t> ToolArguments::optional_integer(const std::string& name) const {
  if (!has(name)) return std::nullopt;
  return arguments_[name].get<int64_t>();
}

bool ToolArguments::boolean(const std::string& name, bool fallback) const {
  return has(name) ? arguments_[name].get<bool>() : fallback;
}

std::vector<std::string> ToolArguments::string_list(const std::string& name) const {
  if (!has(name)) return {};
  return arguments_[name].get<std::vector<std::string>>();
}

std::vector<std::pair<std::string, std::string>> ToolArguments::string_map(const std::string& name) const {
  std::vector<std::pair<std::string, std::string>> out;
  if (!has(name)) return out;
  for (const auto& item : arguments_[name].items()) out.emplace_back(item.key(), item.value().get<std::string>());
  return out;
}

ToolArguments ToolArguments::object(const std::string& name) const {
  return ToolArguments(has(name) ? arguments_[name] : Json::object());
}

}  // namespace sf::mcp
