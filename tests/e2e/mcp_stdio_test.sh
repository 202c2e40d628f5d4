#!/usr/bin/env bash
# End-to-end checks of `sparkforensics mcp` as a process on a pipe: bad bytes in get JSON-RPC
# errors out and the server carries on; end of input ends it with exit 0 after every answer.
# (The protocol itself is tested in tests/unit/mcp, and by the SDK client in tests/mcp-client.)
# Usage: mcp_stdio_test.sh SPARKFORENSICS SF_LOGGEN
source "$(dirname "$0")/e2e_checks.sh" "$@"

mkdir -p "$work/logs"
log=$("$loggen" --preset small --codec zstd --layout file --out "$work/logs" 2>/dev/null)
check "generator wrote a log" test -s "$log"

{
  printf 'not json at all\n'
  head -c 3000 /dev/urandom | tr -d '\n'; printf '\n'
  printf '\x00\xff\xfe{"jsonrpc":\n'
  printf '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'
  printf '{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}\n'
  printf '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
  printf '{"jsonrpc":"2.0","id":3,"method":"no/such/method"}\n'
  printf '[1,2,3]\n'
  printf '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"analyze_event_log","arguments":{"path":"%s"}}}\n' "$(basename "$log")"
  printf '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"analyze_event_log","arguments":{"path":"/etc/passwd"}}}\n'
} >"$work/in.txt"

timeout 300 "$sf" mcp --log-dir "$work/logs" <"$work/in.txt" >"$work/out.txt" 2>"$work/err.txt"
check "mcp exits 0 at the end of its input" test $? -eq 0
python3 - "$work/out.txt" >"$work/checks.txt" <<'PY'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
messages = [json.loads(line) for line in lines]  # every line written is one JSON message
by_id = {m.get("id"): m for m in messages if "id" in m}
errors = [m["error"]["code"] for m in messages if "error" in m and m.get("id") is None]
print("parse-errors", errors.count(-32700))
print("before-init", by_id[1]["error"]["code"])
print("initialized", by_id[2]["result"]["protocolVersion"])
print("unknown-method", by_id[3]["error"]["code"])
print("analyzed", by_id[4]["result"].get("isError", False), by_id[4]["result"]["structuredContent"]["app"]["id"] != "")
print("outside", by_id[5]["result"]["isError"])
PY
check "every line written is JSON" test $? -eq 0
check "three bad lines get three parse errors" grep -qx "parse-errors 3" "$work/checks.txt"
check "a request before initialize is refused" grep -qx "before-init -32600" "$work/checks.txt"
check "initialize still succeeds after bad input" grep -qx "initialized 2025-06-18" "$work/checks.txt"
check "an unknown method is method-not-found" grep -qx "unknown-method -32601" "$work/checks.txt"
check "a tool call after all that analyzes the log" grep -qx "analyzed False True" "$work/checks.txt"
check "a path outside --log-dir is a tool error" grep -qx "outside True" "$work/checks.txt"

finish "mcp on a pipe" "$work/out.txt" "$work/err.txt"
