#!/usr/bin/env bash
# End-to-end checks of `sparkforensics compare`: exit codes 0/1/2, budgets, formats, errors a
# user sees, and byte-for-byte determinism. Usage: compare_test.sh SPARKFORENSICS SF_LOGGEN
source "$(dirname "$0")/e2e_checks.sh" "$@"

mkdir -p "$work/a" "$work/b"
base=$("$loggen" --preset small --codec zstd --layout file --out "$work/a" 2>/dev/null)
cand=$("$loggen" --preset small --seed 8 --codec lz4 --layout rolling --out "$work/b" 2>/dev/null)
check "generator wrote two logs" test -e "$base" -a -e "$cand"

"$sf" compare "$base" "$base" >"$work/self.txt" 2>"$work/self.err"
check "self-comparison exits 0" test $? -eq 0
check "text leads with the confidence" test "$(head -n 1 "$work/self.txt")" = "Confidence: ok"
check "text shows metric deltas" grep -q "^Metric deltas" "$work/self.txt"
check "text shows findings introduced and resolved" grep -q "^Findings resolved" "$work/self.txt"
check "text shows per-stage changes with their method" grep -q "exact 1.00" "$work/self.txt"

"$sf" compare --format json "$base" "$base" >"$work/self.json"
check "self-comparison JSON: schema 1, ok, full coverage, all exact" python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert d['comparisonSchemaVersion']==1 and d['confidence']=='ok', d['confidence']
assert d['runtimeCoverage']==1.0
assert d['stagePairs'] and all(p['method']=='exact' for p in d['stagePairs'])
assert all(m['delta'] in (0, None) for m in d['metricDeltas'])" "$work/self.json"

"$sf" compare --format json "$base" "$cand" >"$work/ab1.json"
check "two runs of one job compare (exit 0)" test $? -eq 0
"$sf" compare --format json "$base" "$cand" >"$work/ab2.json"
check "comparison JSON is byte-for-byte deterministic" cmp -s "$work/ab1.json" "$work/ab2.json"
check "two runs of one job pair most stages" python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert d['executionAlignment']['accepted']
assert len(d['stagePairs']) > 0
assert d['runtimeCoverage'] > 0.5, d['runtimeCoverage']" "$work/ab1.json"

check "the cost delta is priced in the rate card's currency and is the analyses' cost difference" python3 -c "
import json,subprocess,sys
d=json.load(open(sys.argv[1]))
cost=next(m for m in d['metricDeltas'] if m['name']=='cost')
costs=[json.load(open(f))['economics']['cost']['total'] for f in sys.argv[2:]]
assert cost['unit']=='USD', cost
# The comparison document gives figures to 6 decimals.
assert abs(cost['baseline']-costs[0]) <= 1e-6 and abs(cost['candidate']-costs[1]) <= 1e-6, (cost, costs)" \
  "$work/ab1.json" <("$sf" analyze -q -f json "$base") <("$sf" analyze -q -f json "$cand")
printf '{"rateCard": {"preset": "aws-fargate-us-east-1"}}' >"$work/fargate.json"
"$sf" compare --config "$work/fargate.json" --budget cost=+1000% "$base" "$cand" >"$work/priced.txt"
check "compare --config prices with its rate card and a cost budget is met (exit 0)" test $? -eq 0
check "the text names the cost delta" grep -q "cost" "$work/priced.txt"

"$sf" compare --format markdown "$base" "$cand" >"$work/ab.md"
check "markdown has the metric table" grep -q "^| metric | baseline | candidate | change |" "$work/ab.md"

# Budgets: exit 1 when one is exceeded, 0 otherwise.
"$sf" compare --budget wallClock=+0% --budget gcTime=+10% "$base" "$base" >/dev/null
check "budgets met exit 0" test $? -eq 0
"$sf" compare --budget executorRunTime=-10% "$base" "$base" >"$work/budget.txt"
check "an exceeded budget exits 1" test $? -eq 1
check "the text names the exceeded budget" grep -q "executorRunTime=-10% .*EXCEEDED" "$work/budget.txt"
spill=$(python3 -c "import json,sys; print(int([m for m in json.load(open(sys.argv[1]))['metricDeltas'] if m['name']=='spill'][0]['candidate']))" "$work/ab1.json")
"$sf" compare --budget spill=0 "$base" "$cand" >/dev/null
status=$?
if [[ $spill -gt 0 ]]; then expected=1; else expected=0; fi
check "spill=0 exits $expected when the candidate spills $spill bytes" test $status -eq $expected
"$sf" compare --format json --budget wallClock=+5% "$base" "$cand" >"$work/budget.json"
check "budgets are in the JSON document" python3 -c "
import json,sys
b=json.load(open(sys.argv[1]))['budgets']
assert len(b)==1 and b[0]['metric']=='wallClock' and b[0]['kind']=='relative'" "$work/budget.json"

# Confidence never changes the exit code: an unrelated application compares with exit 0.
cat >"$work/other.json" <<'LOG'
{"Event":"SparkListenerLogStart","Spark Version":"3.5.1"}
{"Event":"SparkListenerApplicationStart","App Name":"something else","App ID":"app-other","Timestamp":1000,"User":"x"}
{"Event":"SparkListenerApplicationEnd","Timestamp":5000}
LOG
"$sf" compare --format json "$base" "$work/other.json" >"$work/other-cmp.json"
check "low confidence still exits 0" test $? -eq 0
check "an unrelated application is not ok" python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); assert d['confidence']!='ok' and d['banner']" "$work/other-cmp.json"

# --normalize-path is repeatable and recorded.
"$sf" compare --format json --normalize-path 'run-[0-9]+' --normalize-path 'tmp/[a-z]+' "$base" "$cand" >"$work/norm.json"
check "--normalize-path is repeatable" python3 -c "
import json,sys
assert json.load(open(sys.argv[1]))['normalizePatterns']==['run-[0-9]+','tmp/[a-z]+']" "$work/norm.json"

# Bad usage and unreadable input exit 2 with a clear error.
"$sf" compare --budget wallclock=+5% "$base" "$cand" >/dev/null 2>"$work/err1.txt"
check "unknown budget metric exits 2" test $? -eq 2
check "the error names the budget" grep -q "wallclock=+5%" "$work/err1.txt"
"$sf" compare --budget wallClock=soon "$base" "$cand" >/dev/null 2>&1
check "malformed budget exits 2" test $? -eq 2
"$sf" compare --normalize-path '(unclosed' "$base" "$cand" >/dev/null 2>"$work/err2.txt"
check "invalid --normalize-path exits 2" test $? -eq 2
check "the error names the pattern" grep -q "(unclosed" "$work/err2.txt"
"$sf" compare "$base" "$work/does-not-exist" >/dev/null 2>"$work/err3.txt"
check "missing candidate exits 2" test $? -eq 2
check "the error names the missing file" grep -q "does-not-exist" "$work/err3.txt"
printf '\x00\x01garbage' >"$work/garbage.bin"
"$sf" compare "$work/garbage.bin" "$base" >/dev/null 2>"$work/err4.txt"
check "unreadable baseline exits 2" test $? -eq 2
check "the error names the unreadable file" grep -q "garbage.bin" "$work/err4.txt"
"$sf" compare --format yaml "$base" "$base" >/dev/null 2>&1
check "bad format exits 2" test $? -eq 2
"$sf" compare "$base" >/dev/null 2>&1
check "a missing argument exits 2" test $? -eq 2

finish compare
