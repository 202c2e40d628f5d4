# What every end-to-end script shares, sourced with the script's arguments:
#   source "$(dirname "$0")/e2e_checks.sh" "$@"
# sets sf (the sparkforensics binary) and loggen (sf-loggen) from them, makes a scratch
# directory $work removed at exit, and defines check, finish and start_serve.
set -uo pipefail
sf="$1"
loggen="$2"
work=$(mktemp -d)
failures=0
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# start_serve STDOUT STDERR ARGS...: `sparkforensics serve ARGS --port 0` in the background, its
# output in the two files; sets server_pid, and port once it listens ("" if it never does).
# A server still running at exit is stopped.
start_serve() {
  local out="$1" err="$2"; shift 2
  "$sf" serve "$@" --port 0 >"$out" 2>"$err" &
  server_pid=$!
  port=""
  for _ in $(seq 1 100); do
    port=$(sed -n 's|^listening on http://[0-9.]*:\([0-9]*\)/.*|\1|p' "$out")
    [[ -n "$port" ]] && break
    sleep 0.1
  done
}

check() {  # check NAME CONDITION-COMMAND...
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}

# finish WHAT [FILE...]: exit 1 when a check failed, showing FILEs (a server's output, ...).
finish() {
  local what="$1"; shift
  if [[ $failures -gt 0 ]]; then
    echo "$failures check(s) failed"
    for file in "$@"; do echo "--- $file"; cat "$file"; done
    exit 1
  fi
  echo "all $what checks passed"
}
