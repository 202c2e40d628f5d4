# What every end-to-end script shares, sourced with the script's arguments:
#   source "$(dirname "$0")/e2e_checks.sh" "$@"
# sets sf (the sparkforensics binary) and loggen (sf-loggen) from them, makes a scratch
# directory $work removed at exit, and defines check and finish.
set -uo pipefail
sf="$1"
loggen="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

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
