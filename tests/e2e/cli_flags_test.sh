#!/usr/bin/env bash
# One command line, whichever command: the same flags mean the same thing in every command that
# has them, defaults are shown one way in every --help, an unreadable log exits 2 everywhere, a
# mistyped command is named, and every command an error message points at exists.
# Usage: cli_flags_test.sh SPARKFORENSICS SF_LOGGEN
source "$(dirname "$0")/e2e_checks.sh" "$@"
src_dir="$(cd "$(dirname "$0")/../../src" && pwd)"

log=$("$loggen" --preset small --codec zstd --layout file --out "$work" 2>/dev/null)
check "generator wrote a log" test -s "$log"

commands=("analyze" "compare" "store ingest" "store list" "store show" "store policy" "verdict history"
          "verdict run" "verdict batch" "serve" "mcp" "thresholds")
for command in "${commands[@]}"; do
  # shellcheck disable=SC2086  # the command is two words for store and verdict
  "$sf" $command --help >"$work/help-${command// /-}.txt" 2>&1
done
help_of() { echo "$work/help-${1// /-}.txt"; }
has_flag() { grep -q -- "$2" "$(help_of "$1")"; }

# --- Defaults: shown as CLI11 shows them (=VALUE after the type), never in the prose -----------
for command in "${commands[@]}"; do
  check "$command --help states no default in a description" bash -c "! grep -qi '(default' '$(help_of "$command")'"
done
check "a computed default is shown the same way (--store)" grep -q -- '--store PATH|URL=\$SPARKFORENSICS_STORE' "$(help_of "store list")"
check "a limit's default is shown the same way (--max-line-bytes)" grep -q -- '--max-line-bytes UINT=1073741824' "$(help_of analyze)"

# --- The same flags on every command that reads logs ---------------------------------------------
for command in "analyze" "compare" "store ingest" "serve" "mcp"; do
  for flag in --config --max-line-bytes --max-decompression-ratio --max-open-tasks; do
    check "$command has $flag" has_flag "$command" " $flag "
  done
done
for command in "analyze" "compare" "store ingest" "mcp"; do
  check "$command has --threads (decoding threads)" grep -q -- "--threads UINT=0 *Threads decoding one log" "$(help_of "$command")"
done
for command in "analyze" "compare" "store ingest"; do
  check "$command has --no-progress" has_flag "$command" " --no-progress "
done
for command in "analyze" "compare" "store ingest" "verdict history" "verdict run" "verdict batch"; do
  check "$command has -q,--quiet" has_flag "$command" " -q,--quiet "
done
for command in "analyze" "compare" "verdict history" "verdict run" "verdict batch" "store list" "thresholds"; do
  check "$command has -f,--format" has_flag "$command" " -f,--format "
done
for command in "analyze" "compare" "verdict history" "store list" "store show" "store policy" "thresholds"; do
  check "$command has -o,--output FILE" has_flag "$command" " -o,--output FILE "
done
check "serve's request threads are --request-threads" grep -q -- "--request-threads UINT" "$(help_of serve)"
check "serve's old --threads is listed as deprecated" grep -A2 -q "^Deprecated:" "$(help_of serve)"

# --- One exit code for an unreadable log: 2, the file named -----------------------------------
missing="$work/no-such-log"
"$sf" analyze "$missing" >/dev/null 2>"$work/e1.txt"; code=$?
check "analyze: an unreadable log exits 2" test $code -eq 2
"$sf" compare "$missing" "$log" >/dev/null 2>"$work/e2.txt"; code=$?
check "compare: an unreadable baseline exits 2" test $code -eq 2
"$sf" compare "$log" "$missing" >/dev/null 2>"$work/e3.txt"; code=$?
check "compare: an unreadable candidate exits 2" test $code -eq 2
"$sf" store ingest --store "$work/s.db" "$missing" >/dev/null 2>"$work/e4.txt"; code=$?
check "store ingest: an unreadable log exits 2" test $code -eq 2
for file in e1 e2 e3 e4; do
  check "$file names the log" grep -q "no-such-log: no such file" "$work/$file.txt"
done
check "compare's budget gate is exit 1, distinct from that" bash -c \
  "'$sf' compare -q '$log' '$log' --budget wallClock=-50% >/dev/null; test \$? -eq 1"

# --- --config: thresholds and read limits, for every command that reads logs --------------------
echo '{"limits": {"maxLineBytes": 200}}' >"$work/short-lines.json"
"$sf" analyze -q -f json --config "$work/short-lines.json" "$log" >"$work/short.json"
check "--config limits apply (long lines become malformed)" python3 -c "
import json,sys; assert len(json.load(open(sys.argv[1]))['diagnostics']['malformedLines']) > 0" "$work/short.json"
"$sf" analyze -q -f json --config "$work/short-lines.json" --max-line-bytes 1073741824 "$log" >"$work/long.json"
check "a flag wins over --config" python3 -c "
import json,sys; assert len(json.load(open(sys.argv[1]))['diagnostics']['malformedLines']) == 0" "$work/long.json"
"$sf" store ingest --store "$work/limits.db" --config "$work/short-lines.json" "$log" >/dev/null 2>"$work/ingest-limits.txt"
check "store ingest reads with --config's limits (and warns of the partial read)" grep -q "malformed line" "$work/ingest-limits.txt"
# --- --compact: the same analysis document on one line ---------------------------------------------
"$sf" analyze -q -f json "$log" >"$work/pretty.json"
"$sf" analyze -q -f json --compact "$log" >"$work/compact.json"
check "analyze --compact writes the document on one line" test "$(wc -l <"$work/compact.json")" -eq 1
check "analyze --compact is the pretty document without its spaces" python3 -c "
import json,sys; assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))" "$work/pretty.json" "$work/compact.json"
check "analyze --compact is smaller" test "$(stat -c %s "$work/compact.json")" -lt "$(stat -c %s "$work/pretty.json")"
"$sf" analyze -q -f json --threads 1 "$log" >"$work/one-thread.json"
"$sf" analyze -q -f json --threads 2 "$log" >"$work/two-threads.json"
check "analyze -f json: the same bytes whether the model's part is written beside the analysis or after it" \
  cmp -s "$work/one-thread.json" "$work/two-threads.json"
check "analyze -f json: the same bytes as the default's" cmp -s "$work/pretty.json" "$work/two-threads.json"
"$sf" analyze -q -f json --compact "$log" "$log" >"$work/compact-batch.json"
check "analyze --compact of two logs: an array with one document per line" python3 -c "
import json,sys; lines = open(sys.argv[1]).read().splitlines(); docs = json.loads(''.join(lines))
assert len(lines) == 4 and lines[0] == '[' and lines[3] == ']' and len(docs) == 2, lines[:1]" "$work/compact-batch.json"

echo '{"limits": {"maxLineByte": 200}}' >"$work/typo.json"
for command in "analyze" "compare" "store ingest"; do
  extra=("$log"); [[ $command == compare ]] && extra=("$log" "$log")
  # shellcheck disable=SC2086
  "$sf" $command --config "$work/typo.json" "${extra[@]}" >/dev/null 2>"$work/typo-err.txt"; code=$?
  check "$command: a bad --config exits 2" test $code -eq 2
  check "$command: ... naming the key" grep -q 'unknown limit "maxLineByte"' "$work/typo-err.txt"
done
timeout 60 "$sf" mcp --config "$work/typo.json" </dev/null >/dev/null 2>"$work/mcp-typo.txt"; code=$?
check "mcp: a bad --config exits 2" test $code -eq 2
timeout 60 "$sf" serve --log-dir "$work" --port 0 --config "$work/typo.json" >/dev/null 2>"$work/serve-typo.txt"; code=$?
check "serve: a bad --config exits 2" test $code -eq 2

# serve --threads still works, with a note saying what it is called now.
mkdir -p "$work/logs" && cp "$log" "$work/logs/"
start_serve "$work/serve-out.txt" "$work/serve-err.txt" --log-dir "$work/logs" --threads 2
check "serve --threads (deprecated) still starts the server" test -n "$port"
check "... and says it is spelled --request-threads now" grep -q "deprecated: it is spelled --request-threads" "$work/serve-err.txt"
kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; server_pid=""

# --- Commands: a mistyped one is named; every command an error points at exists ---------------
"$sf" analyse "$log" >/dev/null 2>"$work/typo-cmd.txt"; code=$?
check "an unknown command exits 2" test $code -eq 2
check "... says it is unknown and what was meant" grep -q "unknown command 'analyse' (did you mean 'analyze'?)" "$work/typo-cmd.txt"
"$sf" store lst >/dev/null 2>"$work/typo-sub.txt"; code=$?
check "an unknown store command exits 2 and is named" bash -c "test $code -eq 2 && grep -q \"unknown command 'lst'\" '$work/typo-sub.txt'"
"$sf" --help >"$work/help.txt"
pointed=$(grep -rhoE '`sparkforensics [a-z]+' "$src_dir" | sed 's/`sparkforensics //' | sort -u)
check "error messages point at some command" test -n "$pointed"
for name in $pointed; do
  check "\`sparkforensics $name\`, pointed at in src/, exists" grep -qE "^  $name " "$work/help.txt"
done
echo '{"thresholds": {"skew.maxToMedianRatoi": 4}}' >"$work/bad-threshold.json"
"$sf" analyze --config "$work/bad-threshold.json" "$log" >/dev/null 2>"$work/bad-threshold.txt"
check "an unknown threshold points at \`sparkforensics thresholds\`" grep -q '`sparkforensics thresholds` lists them' "$work/bad-threshold.txt"
"$sf" thresholds >"$work/thresholds.txt"
check "sparkforensics thresholds lists them, with defaults" grep -qE "^skew.maxToMedianRatio +5 +ratio" "$work/thresholds.txt"
"$sf" thresholds -f json >"$work/thresholds.json"
"$sf" analyze -q -f json "$log" >"$work/a.json"
check "... every threshold analyze knows, in JSON too" python3 -c "
import json,sys
listed={t['name']: t['default'] for t in json.load(open(sys.argv[1]))}
known={t['name']: t['default'] for t in json.load(open(sys.argv[2]))['analysisConfig']['thresholds']}
assert listed==known" "$work/thresholds.json" "$work/a.json"

finish "command line"
