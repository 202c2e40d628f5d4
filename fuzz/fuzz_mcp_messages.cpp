// The MCP server's message loop over arbitrary bytes: each input is a session, one message per
// line, given to a fresh server confined to a log directory with one small event log. Whatever
// arrives, the server must answer with well-formed JSON lines only, never stop, and finish or
// cancel every tool call it started when the session ends.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "mcp/protocol_server.h"

namespace {

const sf::mcp::ServerOptions& server_options() {
  static const sf::mcp::ServerOptions options = [] {
    sf::mcp::ServerOptions o;
    auto confined = sf::io::PathConfinement::to(sf::fuzz::small_log_directory().string());
    if (!confined) __builtin_trap();
    o.catalog = sf::mcp::make_log_catalog(std::move(*confined));  // shared by every input, as by sessions
    return o;
  }();
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using sf::mcp::Json;
  sf::mcp::ProtocolServer server(server_options(), [](const std::string& line) {
    if (line.find('\n') != std::string::npos) __builtin_trap();  // one message, one line
    if (!Json::accept(line)) __builtin_trap();
  });
  std::string_view input(reinterpret_cast<const char*>(data), size);
  while (!input.empty()) {
    const size_t end = input.find('\n');
    server.handle_line(input.substr(0, end));
    if (end == std::string_view::npos) break;
    input.remove_prefix(end + 1);
  }
  server.wait_for_calls();
  return 0;
}
