#include "mcp/json_rpc.h"

namespace sf::mcp {

namespace {

std::string dump_line(const Json& message) { return message.dump(-1, ' ', false, Json::error_handler_t::replace); }

bool is_valid_id(const Json& id) { return id.is_string() || id.is_number_integer() || id.is_number_unsigned(); }

ParsedMessage invalid(int code, std::string message, Json id = nullptr) {
  return {std::nullopt, MessageError{code, std::move(message), std::move(id)}};
}

}  // namespace

ParsedMessage parse_message(std::string_view line) {
  Json doc = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return invalid(kParseError, "Parse error: the line is not valid JSON");
  if (doc.is_array()) return invalid(kInvalidRequest, "Invalid Request: JSON-RPC batches are not supported");
  if (!doc.is_object()) return invalid(kInvalidRequest, "Invalid Request: a message is a JSON object");

  Json id = doc.contains("id") ? doc["id"] : Json(nullptr);
  const Json readable_id = is_valid_id(id) ? id : Json(nullptr);
  if (!doc.contains("jsonrpc") || doc["jsonrpc"] != "2.0") {
    return invalid(kInvalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\"", readable_id);
  }
  if (!doc.contains("method")) {
    if (doc.contains("result") || doc.contains("error")) return {Message{MessageKind::kResponse, id, "", nullptr}, {}};
    return invalid(kInvalidRequest, "Invalid Request: no \"method\"", readable_id);
  }
  if (!doc["method"].is_string()) {
    return invalid(kInvalidRequest, "Invalid Request: \"method\" must be a string", readable_id);
  }
  Json params = doc.contains("params") ? doc["params"] : Json(nullptr);
  if (!params.is_null() && !params.is_object()) {
    // MCP's params are always by name.
    return invalid(kInvalidParams, "Invalid params: \"params\" must be an object", readable_id);
  }
  Message message;
  message.method = doc["method"].get<std::string>();
  message.params = std::move(params);
  if (!doc.contains("id")) {
    message.kind = MessageKind::kNotification;
    return {std::move(message), {}};
  }
  if (!is_valid_id(id)) {
    return invalid(kInvalidRequest, "Invalid Request: \"id\" must be a string or an integer");
  }
  message.kind = MessageKind::kRequest;
  message.id = std::move(id);
  return {std::move(message), {}};
}

std::string response_line(const Json& id, Json result) {
  Json message;
  message["jsonrpc"] = "2.0";
  message["id"] = id;
  message["result"] = std::move(result);
  return dump_line(message);
}

std::string error_line(const Json& id, int code, std::string_view text) {
  Json message;
  message["jsonrpc"] = "2.0";
  message["id"] = id;
  message["error"] = {{"code", code}, {"message", std::string(text)}};
  return dump_line(message);
}

std::string notification_line(std::string_view method, Json params) {
  Json message;
  message["jsonrpc"] = "2.0";
  message["method"] = std::string(method);
  message["params"] = std::move(params);
  return dump_line(message);
}

}  // namespace sf::mcp
