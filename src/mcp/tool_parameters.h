// A tool's parameters, declared once: the same list gives the tool's inputSchema (what the
// client sees) and checks the arguments of a call (what the tool reads), so the two never
// disagree. A call with an unknown argument, a missing required one, or one of the wrong type
// or out of range is refused with a message naming the argument and what it should be.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "mcp/json_rpc.h"

namespace sf::mcp {

enum class ParameterType {
  kString,
  kInteger,
  kBoolean,
  kStringList,  // an array of strings
  kStringMap,   // an object whose values are strings
  kObject,      // an object with its own parameters (`fields`)
};

struct Parameter {
  std::string name;
  ParameterType type = ParameterType::kString;
  std::string description;
  bool required = false;
  std::vector<std::string> allowed;  // kString, kStringList: the only values accepted, when not empty
  std::optional<int64_t> minimum;    // kInteger
  std::optional<int64_t> maximum;    // kInteger
  std::vector<Parameter> fields;     // kObject
};

// Parameters of each type, named for what they hold.
Parameter text_parameter(std::string name, std::string description, bool required = false);
Parameter choice_parameter(std::string name, std::string description, std::vector<std::string> allowed,
                           bool required = false);
Parameter integer_parameter(std::string name, std::string description, std::optional<int64_t> minimum,
                            std::optional<int64_t> maximum, bool required = false);
Parameter flag_parameter(std::string name, std::string description);
Parameter list_parameter(std::string name, std::string description, std::vector<std::string> allowed = {});
Parameter map_parameter(std::string name, std::string description);
Parameter object_parameter(std::string name, std::string description, std::vector<Parameter> fields,
                           bool required = false);

// The JSON Schema (type object) of a parameter list.
Json input_schema(const std::vector<Parameter>& parameters);

// Checks `arguments` (an object, or null for none) against the list; the message names the
// argument: "argument \"limit\": expected an integer from 1 to 100".
Status check_arguments(const std::vector<Parameter>& parameters, const Json& arguments);

// Typed reads of checked arguments; absent arguments give the fallback or nullopt.
class ToolArguments {
 public:
  explicit ToolArguments(Json arguments) : arguments_(arguments.is_object() ? std::move(arguments) : Json::object()) {}

  bool has(const std::string& name) const { return arguments_.contains(name); }
  std::string string(const std::string& name, const std::string& fallback = "") const;
  std::optional<std::string> optional_string(const std::string& name) const;
  int64_t integer(const std::string& name, int64_t fallback) const;
  std::optional<int64_t> optional_integer(const std::string& name) const;
  bool boolean(const std::string& name, bool fallback) const;
  std::vector<std::string> string_list(const std::string& name) const;
  std::vector<std::pair<std::string, std::string>> string_map(const std::string& name) const;
  ToolArguments object(const std::string& name) const;

 private:
  Json arguments_;
};

}  // namespace sf::mcp
