#include "mcp/stdio_server.h"

#include <fmt/format.h>

#include <string>

#include "mcp/protocol_server.h"

namespace sf::mcp {

int run_stdio_server(ServerOptions options, std::FILE* in, std::FILE* out) {
  ProtocolServer server(std::move(options), [out](const std::string& line) {
    std::fwrite(line.data(), 1, line.size(), out);
    std::fputc('\n', out);
    std::fflush(out);
  });
  std::string line;
  bool too_long = false;
  for (int c = std::fgetc(in);; c = std::fgetc(in)) {
    if (c == EOF || c == '\n') {
      if (too_long) {
        server.refuse_line(fmt::format("Parse error: a message longer than {} bytes was skipped", kMaxMessageBytes));
      } else if (!line.empty()) {
        server.handle_line(line);
      }
      line.clear();
      too_long = false;
      if (c == EOF) break;
      continue;
    }
    if (too_long) continue;
    if (line.size() >= kMaxMessageBytes) {
      too_long = true;
      line.clear();
      line.shrink_to_fit();
      continue;
    }
    line.push_back(static_cast<char>(c));
  }
  server.wait_for_calls();
  return 0;
}

}  // namespace sf::mcp
