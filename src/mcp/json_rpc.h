// JSON-RPC 2.0 as MCP uses it over stdio: one message per line, no batches.
//
// parse_message() sorts a line into a request, a notification or a response (the client's
// answer to a server request, which this server never sends, so responses are ignored), or
// says why it is none of them with the JSON-RPC error code to answer with. The builders make
// the three kinds of message this server writes. Everything here is pure and thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace sf::mcp {

using Json = nlohmann::ordered_json;

// The JSON-RPC 2.0 error codes this server answers with.
inline constexpr int kParseError = -32700;      // the line is not JSON
inline constexpr int kInvalidRequest = -32600;  // JSON, but not a request (or not allowed now)
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

enum class MessageKind { kRequest, kNotification, kResponse };

struct Message {
  MessageKind kind = MessageKind::kRequest;
  Json id;  // string or integer for a request; null otherwise
  std::string method;
  Json params;  // an object, or null when absent
};

struct MessageError {
  int code = kInvalidRequest;
  std::string message;
  Json id;  // the request's id when it could be read, else null
};

// One line from the client. Never throws.
struct ParsedMessage {
  std::optional<Message> message;
  std::optional<MessageError> error;
};
ParsedMessage parse_message(std::string_view line);

// One line each, without the newline; invalid UTF-8 in strings is replaced, never fatal.
std::string response_line(const Json& id, Json result);
std::string error_line(const Json& id, int code, std::string_view message);
std::string notification_line(std::string_view method, Json params);

}  // namespace sf::mcp
