#include "results/result_json.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

namespace sf::results {

namespace {

using nlohmann::json;

// Reads one JSON object field by field, remembering the path for error messages.
class FieldReader {
 public:
  FieldReader(const json& object, std::string path) : object_(object), path_(std::move(path)) {}

  Status check_known(std::initializer_list<std::string_view> known) const {
    for (const auto& [key, value] : object_.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        return Status::InvalidArgument(fmt::format("{}: unknown field", where(key)));
      }
    }
    return {};
  }

  std::string where(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }
  const json* find(std::string_view key) const {
    auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }

 private:
  const json& object_;
  std::string path_;
};

Status expect(bool condition, const std::string& where, std::string_view what) {
  return condition ? Status() : Status::InvalidArgument(fmt::format("{}: expected {}", where, what));
}

Status read_string(const FieldReader& reader, std::string_view key, bool required, std::string& out) {
  const json* value = reader.find(key);
  if (value == nullptr) return required ? Status::InvalidArgument(reader.where(key) + ": missing") : Status();
  if (Status s = expect(value->is_string(), reader.where(key), "a string"); !s.ok()) return s;
  out = value->get<std::string>();
  return {};
}

Status read_coordinates(const FieldReader& reader, std::string_view key, Coordinates& out) {
  const json* value = reader.find(key);
  if (value == nullptr) return {};
  if (Status s = expect(value->is_object(), reader.where(key), "an object of strings"); !s.ok()) return s;
  for (const auto& [name, item] : value->items()) {
    const std::string where = reader.where(key) + "." + name;
    if (name.empty()) return Status::InvalidArgument(where + ": empty key");
    // Numbers and booleans are accepted and kept as their JSON text, so "scale": 100 works.
    if (item.is_string()) {
      out[name] = item.get<std::string>();
    } else if (item.is_number() || item.is_boolean()) {
      out[name] = item.dump();
    } else {
      return Status::InvalidArgument(where + ": expected a string, number or boolean");
    }
  }
  return {};
}

Status read_optional_int(const FieldReader& reader, std::string_view key, std::optional<int64_t>& out) {
  const json* value = reader.find(key);
  if (value == nullptr || value->is_null()) return {};
  if (Status s = expect(value->is_number_integer(), reader.where(key), "an integer"); !s.ok()) return s;
  out = value->get<int64_t>();
  return {};
}

Status read_revision(const FieldReader& top, Revision& out) {
  const json* value = top.find("revision");
  if (value == nullptr) return {};
  if (Status s = expect(value->is_object(), "revision", "an object"); !s.ok()) return s;
  FieldReader reader(*value, "revision");
  if (Status s = reader.check_known({"tree", "parents", "benchmarkTree", "clean"}); !s.ok()) return s;
  if (Status s = read_string(reader, "tree", false, out.tree); !s.ok()) return s;
  if (Status s = read_string(reader, "benchmarkTree", false, out.benchmark_tree); !s.ok()) return s;
  if (const json* parents = reader.find("parents")) {
    if (Status s = expect(parents->is_array(), "revision.parents", "an array of tree ids"); !s.ok()) return s;
    for (size_t i = 0; i < parents->size(); ++i) {
      const json& parent = (*parents)[i];
      if (!parent.is_string() || parent.get<std::string>().empty()) {
        return Status::InvalidArgument(fmt::format("revision.parents[{}]: expected a non-empty string", i));
      }
      out.parents.push_back(parent.get<std::string>());
    }
    if (!out.parents.empty() && out.tree.empty()) {
      return Status::InvalidArgument("revision.parents: given without revision.tree");
    }
  }
  if (const json* clean = reader.find("clean")) {
    if (Status s = expect(clean->is_boolean(), "revision.clean", "true or false"); !s.ok()) return s;
    out.clean = clean->get<bool>();
  }
  return {};
}

Status read_procedure(const FieldReader& top, Procedure& out) {
  const json* value = top.find("procedure");
  if (value == nullptr) return {};
  if (Status s = expect(value->is_object(), "procedure", "an object"); !s.ok()) return s;
  FieldReader reader(*value, "procedure");
  if (Status s = reader.check_known({"runKey", "round", "slot"}); !s.ok()) return s;
  if (Status s = read_string(reader, "runKey", false, out.run_key); !s.ok()) return s;
  if (Status s = read_optional_int(reader, "round", out.round); !s.ok()) return s;
  return read_optional_int(reader, "slot", out.slot);
}

Status read_quantity(const json& value, size_t index, Quantity& out) {
  const std::string path = fmt::format("quantities[{}]", index);
  if (Status s = expect(value.is_object(), path, "an object"); !s.ok()) return s;
  FieldReader reader(value, path);
  if (Status s = reader.check_known({"name", "value", "unit", "direction", "deterministic"}); !s.ok()) return s;
  if (Status s = read_string(reader, "name", true, out.name); !s.ok()) return s;
  if (out.name.empty()) return Status::InvalidArgument(path + ".name: empty");
  const json* number = reader.find("value");
  if (number == nullptr) return Status::InvalidArgument(path + ".value: missing");
  if (Status s = expect(number->is_number(), path + ".value", "a number"); !s.ok()) return s;
  out.value = number->get<double>();
  if (!std::isfinite(out.value)) return Status::InvalidArgument(path + ".value: not finite");
  if (Status s = read_string(reader, "unit", true, out.unit); !s.ok()) return s;
  std::string direction = "lower";
  if (Status s = read_string(reader, "direction", false, direction); !s.ok()) return s;
  auto parsed = parse_direction(direction);
  if (!parsed) return Status::InvalidArgument(path + ".direction: expected one of lower, higher, none");
  out.direction = *parsed;
  if (const json* deterministic = reader.find("deterministic")) {
    if (Status s = expect(deterministic->is_boolean(), path + ".deterministic", "true or false"); !s.ok()) return s;
    out.deterministic = deterministic->get<bool>();
  }
  return {};
}

Status read_document(const json& root, ResultDocument& out) {
  if (!root.is_object()) return Status::InvalidArgument("expected a JSON object");
  FieldReader reader(root, "");
  if (Status s = reader.check_known({"schema", "subject", "revision", "parameters", "environment", "procedure",
                                     "status", "origin", "quantities"});
      !s.ok()) {
    return s;
  }
  std::string schema;
  if (Status s = read_string(reader, "schema", true, schema); !s.ok()) return s;
  if (schema != kResultSchema)
    return Status::InvalidArgument(fmt::format("schema: expected \"{}\", got \"{}\"", kResultSchema, schema));
  if (Status s = read_string(reader, "subject", true, out.subject); !s.ok()) return s;
  if (out.subject.empty()) return Status::InvalidArgument("subject: empty");
  if (Status s = read_revision(reader, out.revision); !s.ok()) return s;
  if (Status s = read_coordinates(reader, "parameters", out.parameters); !s.ok()) return s;
  if (Status s = read_coordinates(reader, "environment", out.environment); !s.ok()) return s;
  if (Status s = read_procedure(reader, out.procedure); !s.ok()) return s;
  std::string status = "ok";
  if (Status s = read_string(reader, "status", false, status); !s.ok()) return s;
  auto parsed = parse_run_status(status);
  if (!parsed) return Status::InvalidArgument("status: expected one of ok, partial, censored, error, skipped");
  out.status = *parsed;
  if (Status s = read_string(reader, "origin", false, out.origin); !s.ok()) return s;
  const json* quantities = reader.find("quantities");
  if (quantities == nullptr) return Status::InvalidArgument("quantities: missing");
  if (Status s = expect(quantities->is_array(), "quantities", "an array"); !s.ok()) return s;
  std::set<std::string> names;
  for (size_t i = 0; i < quantities->size(); ++i) {
    Quantity quantity;
    if (Status s = read_quantity((*quantities)[i], i, quantity); !s.ok()) return s;
    if (!names.insert(quantity.name).second) {
      return Status::InvalidArgument(fmt::format("quantities[{}].name: duplicate \"{}\"", i, quantity.name));
    }
    out.quantities.push_back(std::move(quantity));
  }
  std::sort(out.quantities.begin(), out.quantities.end(),
            [](const Quantity& a, const Quantity& b) { return a.name < b.name; });
  return {};
}

}  // namespace

Result<ResultDocument> parse_result_json(std::string_view text, std::string_view source) {
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return fail(Status::InvalidArgument(fmt::format("{}: not valid JSON", source)));
  ResultDocument document;
  if (Status s = read_document(root, document); !s.ok()) return fail(s.with_context(source));
  return document;
}

std::string result_to_json(const ResultDocument& result) {
  json root;
  root["schema"] = kResultSchema;
  root["subject"] = result.subject;
  json revision;
  revision["tree"] = result.revision.tree;
  revision["parents"] = result.revision.parents;
  revision["benchmarkTree"] = result.revision.benchmark_tree;
  revision["clean"] = result.revision.clean;
  root["revision"] = revision;
  root["parameters"] = result.parameters;
  root["environment"] = result.environment;
  json procedure;
  procedure["runKey"] = result.procedure.run_key;
  procedure["round"] = result.procedure.round ? json(*result.procedure.round) : json(nullptr);
  procedure["slot"] = result.procedure.slot ? json(*result.procedure.slot) : json(nullptr);
  root["procedure"] = procedure;
  root["status"] = to_string(result.status);
  root["origin"] = result.origin;
  json quantities = json::array();
  for (const Quantity& q : result.quantities) {
    quantities.push_back({{"name", q.name},
                          {"value", q.value},
                          {"unit", q.unit},
                          {"direction", to_string(q.direction)},
                          {"deterministic", q.deterministic}});
  }
  root["quantities"] = quantities;
  return root.dump();
}

std::string result_id(const ResultDocument& result) {
  // Without its analysis quantities, a document hashes the bytes it always did: ids of results
  // stored before those quantities existed do not change.
  ResultDocument measured = result;
  std::erase_if(measured.quantities, [](const Quantity& q) { return is_analysis_quantity(q.name); });
  const std::string canonical = result_to_json(measured);
  const XXH128_hash_t hash = XXH3_128bits(canonical.data(), canonical.size());
  return fmt::format("r-{:016x}{:016x}", hash.high64, hash.low64);
}

}  // namespace sf::results
