#!/usr/bin/env bash
# ctest entry for the MCP SDK client test: skips (exit 77, with the reason) when node, npm or the
# installed SDK are missing; `make test` and .ci/run install them with `npm ci`.
# Usage: run.sh SPARKFORENSICS SF_LOGGEN
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v node >/dev/null; then echo "SKIP: node is not installed (the MCP client test needs node 18+)"; exit 77; fi
if [[ ! -d "$here/node_modules/@modelcontextprotocol/sdk" ]]; then
  echo "SKIP: $here/node_modules is missing: run npm ci --prefix tests/mcp-client (make test does)"
  exit 77
fi
exec node "$here/client_test.mjs" "$1" "$2" "${SF_CORPUS_DIR:-$here/../../../shared/corpus}"
