#!/usr/bin/env bash
# End-to-end checks of the sparkforensics command line: exit codes, formats, stdin, errors a
# user sees, and byte-for-byte determinism. Usage: cli_test.sh SPARKFORENSICS SF_LOGGEN
source "$(dirname "$0")/e2e_checks.sh" "$@"

log=$("$loggen" --preset small --codec zstd --layout file --out "$work" 2>/dev/null)
check "generator wrote a log" test -s "$log"

"$sf" analyze --no-progress "$log" >"$work/report.txt" 2>"$work/stderr.txt"
check "analyze exits 0" test $? -eq 0
check "text report names the application" grep -q "^Application" "$work/report.txt"
check "text report lists top stages" grep -q "Top .* stages by duration" "$work/report.txt"

"$sf" analyze -q --format json "$log" >"$work/a.json"
check "json report is valid JSON" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['schemaVersion']==1" "$work/a.json"
"$sf" analyze -q --format json "$log" >"$work/b.json"
check "json report is byte-for-byte deterministic" cmp -s "$work/a.json" "$work/b.json"

check "text report says where the time and the money go" grep -q "^Where the time and the money go" "$work/report.txt"
check "json economics: critical path within the wall-clock, a what-if curve, a cost" python3 -c "
import json,sys
e=json.load(open(sys.argv[1]))['economics']
p=e['criticalPath']; assert p['driverOnlyMs'] <= p['lengthMs'] <= p['wallClockMs'], p
assert len(e['whatIf']['curve']) >= 3 and e['cost']['total'] > 0 and e['cost']['rateCard']['currency'] == 'USD'" "$work/a.json"
printf '{"rateCard": {"name": "ours", "currency": "EUR", "perCoreHour": 1, "perGibHour": 0}}' >"$work/rates.json"
"$sf" analyze -q --format json --config "$work/rates.json" "$log" >"$work/priced.json"
check "--config rateCard prices the cost: core-hours at 1 EUR each" python3 -c "
import json,sys
c=json.load(open(sys.argv[1]))['economics']['cost']
assert c['rateCard']['currency'] == 'EUR' and abs(c['total'] - c['coreHours']) < 1e-6 * c['total'], c" "$work/priced.json"
printf '{"rateCard": {"preset": "nowhere"}}' >"$work/bad-rates.json"
"$sf" analyze -q --config "$work/bad-rates.json" "$log" >/dev/null 2>"$work/bad-rates.txt"
check "an unknown rate card preset exits 2 naming the file" test $? -eq 2
check "the preset error lists the presets" grep -q "bad-rates.json: rateCard \"preset\" must be one of gcp-n2-us-central1" "$work/bad-rates.txt"

"$sf" analyze -q --format json --output "$work/c.json" "$log"
check "--output writes the file" cmp -s "$work/a.json" "$work/c.json"

"$sf" analyze -q --format json - <"$log" >"$work/stdin.json"
check "stdin (-) gives the same model" python3 -c "
import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
a.pop('source'); b.pop('source'); assert a==b" "$work/a.json" "$work/stdin.json"

"$sf" analyze "$work/does-not-exist" >/dev/null 2>"$work/err.txt"
check "missing file exits 2" test $? -eq 2
check "missing file error names the path" grep -q "does-not-exist: no such file" "$work/err.txt"
check "no stack trace on error" test "$(wc -l <"$work/err.txt")" -eq 1

printf '\x00\x01\x02garbage' >"$work/garbage.bin"
"$sf" analyze "$work/garbage.bin" >/dev/null 2>"$work/err2.txt"
check "binary garbage exits 2" test $? -eq 2
check "binary garbage gets a clear error" grep -q "garbage.bin: unknown format" "$work/err2.txt"

"$sf" analyze --format yaml "$log" >/dev/null 2>&1
check "bad flag value exits 2" test $? -eq 2
"$sf" >/dev/null 2>&1
check "no subcommand exits 2" test $? -eq 2
"$sf" analyze --help >"$work/help.txt" 2>&1
check "analyze --help documents the formats" grep -q -- "--format" "$work/help.txt"

# Findings: text leads with the rollup, Markdown for pull requests, JSON carries findings.
check "text report leads with Fix these first" test "$(head -n 1 "$work/report.txt")" = "Fix these first"
"$sf" analyze -q --format markdown "$log" >"$work/report.md"
check "markdown report has the rollup table" grep -q "^### Fix these first" "$work/report.md"
check "json report carries findings, rollup and thresholds" python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert isinstance(d['findings'], list) and isinstance(d['rollup'], list)
assert len(d['analysisConfig']['thresholds']) > 50
for f in d['findings']:
    assert f['impactEstimate']['basis'] in ('serial','contended','resourceOnly','informational')" "$work/a.json"

# Threshold overrides: applied and named; a mistake is a usage error naming the file and key.
echo '{"thresholds": {"failures.minFailedTasks": 1000000}}' >"$work/quiet.json"
"$sf" analyze -q --format json --config "$work/quiet.json" "$log" >"$work/quiet-report.json"
check "--config overrides a threshold" python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert not [f for f in d['findings'] if f['type']=='failures'], 'failures should be silenced'
t=[t for t in d['analysisConfig']['thresholds'] if t['name']=='failures.minFailedTasks'][0]
assert t['overridden'] and t['value']==1000000" "$work/quiet-report.json"
echo '{"thresholds": {"no.such.threshold": 1}}' >"$work/typo.json"
"$sf" analyze -q --config "$work/typo.json" "$log" >/dev/null 2>"$work/typo-err.txt"
check "unknown threshold exits 2" test $? -eq 2
check "unknown threshold error names the key" grep -q "no.such.threshold" "$work/typo-err.txt"

# A directory of logs: one summary line per application, in name order; subdirectories that
# hold logs are searched; whatever is skipped is named on stderr; errors never reach stdout.
mkdir -p "$work/many/nested/deeper" "$work/many/empty"
"$loggen" --preset small --seed 7 --codec none --layout file --out "$work/many" >/dev/null 2>&1
"$loggen" --preset small --seed 8 --codec lz4 --layout rolling --out "$work/many" >/dev/null 2>&1
"$loggen" --preset small --seed 9 --codec zstd --layout file --out "$work/many/nested/deeper" >/dev/null 2>&1
echo "notes about these runs" >"$work/many/README.txt"
"$sf" analyze --jobs 2 "$work/many" >"$work/batch.txt" 2>"$work/batch-err.txt"
check "directory of logs exits 0" test $? -eq 0
check "one summary line per application, a nested one included" test "$(grep -c " finding" "$work/batch.txt")" -eq 3
check "the nested log is analyzed" grep -q "^$work/many/nested/deeper/.*finding" "$work/batch.txt"
check "a file that is no log is named as skipped" grep -q "skipped $work/many/README.txt: unknown format" "$work/batch-err.txt"
check "an empty subdirectory is named as skipped" grep -q "skipped $work/many/empty: a directory with no event log" "$work/batch-err.txt"
check "nothing but summary lines on stdout" test "$(grep -vc " finding" "$work/batch.txt")" -eq 0

"$sf" analyze -q -f json "$work/many" >"$work/batch.json" 2>/dev/null
check "-f json on a directory writes an array of analysis documents, in name order" python3 -c "
import json,sys
docs=json.load(open(sys.argv[1]))
assert isinstance(docs, list) and len(docs)==3, docs
assert all(d['schemaVersion']==1 and d['findings'] is not None for d in docs)
paths=[d['source']['path'] for d in docs]
assert paths==sorted(paths), paths" "$work/batch.json"
"$sf" analyze -q -f json "$log" "$work/many/nested" >"$work/two.json"
check "-f json on several logs is the same array form" python3 -c "
import json,sys
docs=json.load(open(sys.argv[1]))
assert [d['source']['path'] for d in docs]==[sys.argv[2], sys.argv[3]], docs" "$work/two.json" "$log" \
  "$(ls -d "$work"/many/nested/deeper/*.zstd)"
"$sf" analyze -q -f markdown "$work/many" >"$work/batch.md"
check "-f markdown on a directory writes one document per log" test "$(grep -c "^## SparkForensics: " "$work/batch.md")" -eq 3
check "... separated by rules" test "$(grep -c "^---$" "$work/batch.md")" -eq 2
"$sf" analyze -q -f json -o "$work/batch-out.json" "$work/many"
check "-o writes the array to the file" cmp -s "$work/batch.json" "$work/batch-out.json"

"$sf" analyze -q -f json "$log" "$work/does-not-exist" >"$work/partial.json" 2>"$work/partial-err.txt"
check "one unreadable log among several exits 2" test $? -eq 2
check "... after analyzing the others" python3 -c "
import json,sys; assert len(json.load(open(sys.argv[1])))==1" "$work/partial.json"
check "... and says why on stderr" grep -q "does-not-exist: no such file" "$work/partial-err.txt"
mkdir -p "$work/nothing"
"$sf" analyze "$work/nothing" >/dev/null 2>"$work/nothing-err.txt"
check "a directory without logs exits 2" test $? -eq 2
check "... and says so" grep -q "no event logs in $work/nothing" "$work/nothing-err.txt"

# The progress line covers directory mode (a terminal on stderr: script gives one).
if command -v script >/dev/null; then
  script -qc "'$sf' analyze -o /dev/null '$work/many'" /dev/null >"$work/tty.txt" 2>&1
  check "directory mode draws a progress line on a terminal" grep -q "3 of 4 logs analyzed" "$work/tty.txt"
  script -qc "'$sf' analyze --no-progress -o /dev/null '$work/many'" /dev/null >"$work/tty-quiet.txt" 2>&1
  check "--no-progress turns it off" bash -c "! grep -q 'logs analyzed' '$work/tty-quiet.txt'"
else
  echo "skip progress checks: no script(1)"
fi

finish CLI
