#include "mcp/stdio_server.h"

#include <fmt/format.h>
#include <poll.h>

#include <chrono>
#include <cstdio>
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
  // At the end of input the calls still running answer as usual, for a client that sent its
  // last request and closed its side: unless nobody reads the answers any more. A pipe whose
  // reader is gone reports an error to poll(), and the calls are cancelled at once rather than
  // left to finish (a download from a stalled History Server could hold the process for minutes).
  const int out_fd = ::fileno(out);
  while (!server.wait_for_calls(std::chrono::milliseconds(200))) {
    pollfd watch{out_fd, 0, 0};
    if (::poll(&watch, 1, 0) > 0 && (watch.revents & (POLLERR | POLLHUP)) != 0) {
      server.cancel_calls();
      server.wait_for_calls();
      break;
    }
  }
  return 0;
}

}  // namespace sf::mcp
