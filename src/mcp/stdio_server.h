// `sparkforensics mcp`: the MCP server over standard input and output.
//
// Reads newline-delimited JSON-RPC messages from stdin and writes one message per line to
// stdout (nothing else ever goes there; diagnostics go to stderr). A line longer than
// kMaxMessageBytes is answered with a parse error and skipped without being held in memory.
// At the end of input it waits for the calls still running to answer, then returns 0.
#pragma once

#include <cstddef>
#include <cstdio>

#include "mcp/session.h"

namespace sf::mcp {

inline constexpr size_t kMaxMessageBytes = size_t{16} << 20;

int run_stdio_server(ServerOptions options, std::FILE* in = stdin, std::FILE* out = stdout);

}  // namespace sf::mcp
