#!/usr/bin/env bash
# End-to-end checks of `sparkforensics store` and `sparkforensics verdict`: ingesting logs and
# JSON results, errors a user sees, the reviewer summary, exit codes for CI gates, and
# byte-for-byte reproducibility. Usage: history_cli_test.sh SPARKFORENSICS SF_LOGGEN
# With SF_TEST_POSTGRES_URL set (and psql installed), the store checks run on PostgreSQL too.
source "$(dirname "$0")/e2e_checks.sh" "$@"
unset SPARKFORENSICS_STORE

# result FILE SUBJECT TREE PARENT VALUE [ROLE RUNKEY ROUND SLOT STATUS]: a result document.
result() {
  python3 - "$@" <<'PY'
import json, sys
path, subject, tree, parent, value = sys.argv[1:6]
extra = sys.argv[6:]
doc = {"schema": "sparkforensics.result/1", "subject": subject,
       "revision": {"tree": tree, "parents": [parent] if parent else []},
       "environment": {"cluster": "e2e"},
       "quantities": [{"name": "durationMs", "value": float(value), "unit": "ms", "direction": "lower"},
                      {"name": "rowsOut", "value": 42, "unit": "rows", "direction": "none", "deterministic": True}]}
if extra:
    role, run_key, rnd, slot, status = extra
    doc["parameters"] = {"role": role}
    doc["procedure"] = {"runKey": run_key, "round": int(rnd), "slot": int(slot)}
    doc["status"] = status
json.dump(doc, open(path, "w"))
PY
}

store="$work/results.db"

# --- Ingest from an event log -----------------------------------------------------------------
log=$("$loggen" --preset small --codec zstd --layout file --out "$work" 2>/dev/null)
"$sf" store ingest --store "$store" --revision abc --env cluster=e2e "$log" >"$work/ingest.txt" 2>&1
check "ingest of an event log exits 0" test $? -eq 0
check "ingest names the new result and its status" grep -q "^ingested r-[0-9a-f]\{32\} (status ok, [0-9]* quantities) from $log" "$work/ingest.txt"
check "the store file was created" test -s "$store"
id=$(grep -o "r-[0-9a-f]\{32\}" "$work/ingest.txt" | head -n 1)
"$sf" store ingest --store "$store" --revision abc --env cluster=e2e "$log" >"$work/again.txt" 2>&1
check "ingesting the same log again stores nothing new" grep -q "^already present $id" "$work/again.txt"
"$sf" store list --store "$store" >"$work/list.txt"
check "list shows the one result" test "$(grep -c "^[0-9]" "$work/list.txt")" -eq 1
"$sf" store show --store "$store" "${id:0:10}" >"$work/show.json"
check "show by id prefix prints the document with Spark quantities" python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
names={q['name'] for q in d['quantities']}
assert {'appWallClockMs','executorRunTimeMs','executorCpuTimeMs','jvmGcTimeMs','shuffleReadBytes','shuffleWriteBytes',
        'spillDiskBytes','inputBytes','failedTasks','coreHours','cost'} <= names, names
cost=next(q for q in d['quantities'] if q['name']=='cost')
assert cost['unit']=='USD' and cost['value'] > 0 and cost['direction']=='lower', cost
assert any(n.startswith('stage:') for n in names) and any(n.startswith('sql:') for n in names)
assert d['revision']['tree']=='abc' and d['environment']['cluster']=='e2e'" "$work/show.json"

"$sf" store ingest --store "$store" --subject etl --variant candidate --param scale=10 --run-key k1 --round 1 --slot 2 \
  --status censored "$log" >"$work/ingest2.txt" 2>&1
id2=$(grep -o "r-[0-9a-f]\{32\}" "$work/ingest2.txt" | head -n 1)
"$sf" store show --store "$store" "$id2" >"$work/show2.json"
check "ingest records subject, variant role, parameters, procedure and status" python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert d['subject']=='etl' and d['status']=='censored'
assert d['parameters']=={'role':'candidate','scale':'10'}
assert d['procedure']=={'runKey':'k1','round':1,'slot':2}" "$work/show2.json"
printf '{"rateCard": {"name": "ours", "currency": "EUR", "perCoreHour": 0.05, "perGibHour": 0.005}}' >"$work/rates.json"
"$sf" store ingest --store "$store" --config "$work/rates.json" --subject priced "$log" >"$work/ingest3.txt" 2>&1
id3=$(grep -o "r-[0-9a-f]\{32\}" "$work/ingest3.txt" | head -n 1)
"$sf" store show --store "$store" "$id3" >"$work/show3.json"
check "ingest --config prices the cost quantity with its rate card" python3 -c "
import json,sys
cost=next(q for q in json.load(open(sys.argv[1]))['quantities'] if q['name']=='cost')
assert cost['unit']=='EUR' and cost['value'] > 0, cost" "$work/show3.json"
"$sf" store ingest --store "$store" --round 3 "$log" >/dev/null 2>"$work/round-err.txt"
check "--round without --run-key exits 2" test $? -eq 2

# --- Bad input: exit 2, the file and the problem named; nothing stored ---------------------------
echo '{"schema": "sparkforensics.result/1", "subject": "s", "quantities": [{"name": "a", "value": "fast", "unit": "ms"}]}' >"$work/bad.json"
"$sf" store ingest --store "$store" --result "$work/bad.json" >/dev/null 2>"$work/bad-err.txt"
check "an invalid result file exits 2" test $? -eq 2
check "the error names the file and the field" grep -q "bad.json: quantities\[0\].value: expected a number" "$work/bad-err.txt"
"$sf" store ingest --store "$store" "$work/no-such.log" >/dev/null 2>"$work/missing-err.txt"
check "a missing log exits 2" test $? -eq 2
check "the error names the missing log" grep -q "no-such.log" "$work/missing-err.txt"
"$sf" store ingest --store "$store" --env cluster "$log" >/dev/null 2>"$work/env-err.txt"
check "a malformed --env exits 2" test $? -eq 2
check "the --env error says what is expected" grep -q "expected KEY=VALUE" "$work/env-err.txt"
check "nothing was stored by the failed commands" test "$("$sf" store list --store "$store" --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" -eq 3

# --- History mode from JSON results ----------------------------------------------------------
hstore="$work/history.db"
parent=""
i=0
for v in 100.2 99.8 100.2 99.8 100.2 99.8 100.2 99.8; do
  i=$((i + 1))
  result "$work/h$i.json" sort "c$i" "$parent" "$v"
  parent="c$i"
done
args=()
for n in 1 2 3 4 5 6 7 8; do args+=(--result "$work/h$n.json"); done
"$sf" store ingest -q --store "$hstore" "${args[@]}"
check "eight results ingested in one command" test $? -eq 0
result "$work/target.json" sort t c8 103
target=$("$sf" store ingest --store "$hstore" --result "$work/target.json" | grep -o "r-[0-9a-f]\{32\}")
"$sf" verdict history --store "$hstore" --target "$target" >"$work/verdict.txt"
check "verdict history exits 0 without --fail-on" test $? -eq 0
check "the summary lists the regression" grep -q "^Regressed (1):" "$work/verdict.txt"
check "the regression line carries effect and noise" grep -q "^  durationMs @ t: +3.00% (noise 0.21%" "$work/verdict.txt"
check "the deterministic quantity shows no change" bash -c "grep -A1 '^No change detected (1):' '$work/verdict.txt' | grep -q '  rowsOut @ t'"
check "what every series shares is said once" grep -q "^every series: environment.cluster=e2e, subject=sort$" "$work/verdict.txt"
check "... and on no line" bash -c "! grep -q '^  .*cluster=e2e' '$work/verdict.txt'"
check "the summary names the store it read" grep -q "^results from the store $hstore$" "$work/verdict.txt"
"$sf" verdict history --store "$hstore" --target "$target" --fail-on regressed >/dev/null
check "--fail-on regressed exits 1" test $? -eq 1
"$sf" verdict history --store "$hstore" --target "$target" --k 20 --fail-on regressed >/dev/null
check "a larger k clears the gate" test $? -eq 0
"$sf" verdict history --store "$hstore" --target "$target" --format markdown >"$work/verdict.md"
check "markdown has the sections" grep -q "^### Regressed (1)" "$work/verdict.md"
"$sf" verdict history --store "$hstore" --target "$target" --format json >"$work/before.json"
check "the JSON document records inputs, method and verdict" python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert d['schemaVersion']==1 and d['mode']=='history'
assert d['method']['name']=='dispersion-scaled' and d['method']['config']['k']==3
e=[e for e in d['evaluations'] if e['series']['quantity']=='durationMs'][0]
assert e['verdict']=='regressed' and e['ordering']=='ancestry' and len(e['reference'])==8
assert e['reference'][0]['revision']=='c8' and e['outcome']['noise']['provisional'] is False" "$work/before.json"
result "$work/newer.json" sort u t 500
"$sf" store ingest -q --store "$hstore" --result "$work/newer.json"
"$sf" verdict history --store "$hstore" --target "$target" --format json >"$work/after.json"
check "the document is byte-for-byte the same after newer points arrive" cmp -s "$work/before.json" "$work/after.json"
"$sf" verdict history --store "$hstore" --target r-0000 >/dev/null 2>"$work/unknown.txt"
check "an unknown target exits 2" test $? -eq 2
check "... saying what a target can be" grep -q "give a result id (or a unique prefix), a revision, or latest" "$work/unknown.txt"
"$sf" verdict history --store "$hstore" --target t --format json >"$work/by-revision.json"
check "a target named by its revision is the same document" cmp -s "$work/before.json" "$work/by-revision.json"
"$sf" verdict history --store "$hstore" --target latest --subject sort --format json >"$work/by-latest.json"
"$sf" verdict history --store "$hstore" --target u --format json >"$work/newest.json"
check "a target named latest is the subject's last result" cmp -s "$work/newest.json" "$work/by-latest.json"

# --- Status, unusable targets, round trips, read-only commands ---------------------------------
sstore="$work/status.db"
mkdir -p "$work/unfinished"
unfinished=$("$loggen" --preset small --seed 5 --unfinished --codec none --layout file --out "$work/unfinished" 2>/dev/null)
"$sf" analyze -q -f json "$log" >"$work/log.json"
check "the generated log has a failed job in a finished run" python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
assert d['app']['finished'] and any(j['status']=='FAILED' for j in d['jobs'])" "$work/log.json"
"$sf" store ingest --store "$sstore" --revision s1 "$log" >"$work/s1.txt" 2>"$work/s1-err.txt"
check "a failed job inside a complete run is status ok" grep -q "(status ok, " "$work/s1.txt"
check "... with no warning" test ! -s "$work/s1-err.txt"
"$sf" store ingest --store "$sstore" --revision s2 --parent s1 "$unfinished" >"$work/s2.txt" 2>"$work/s2-err.txt"
check "an unfinished log is stored as partial, saying why" grep -q "(status partial: the log has no application end" "$work/s2.txt"
check "... and warns that verdicts will not use it" grep -q "warning: r-[0-9a-f]* is stored as partial" "$work/s2-err.txt"
"$sf" verdict history --store "$sstore" --target s2 >"$work/unusable.txt" 2>"$work/unusable-err.txt"
check "an unusable target exits 0 without --fail-on" test $? -eq 0
check "the summary says once that the target is unusable and why" test "$(grep -c "target-unusable: target s2 (r-[0-9a-f]*): target status is partial" "$work/unusable.txt")" -eq 1
check "... and so does stderr, naming the flag that fails on it" grep -q "unusable: its evaluations are indeterminate (--fail-on indeterminate makes that fail)" "$work/unusable-err.txt"
"$sf" verdict history --store "$sstore" --target s2 --fail-on indeterminate >/dev/null 2>&1
check "--fail-on indeterminate makes an unusable target fail" test $? -eq 1
"$sf" verdict history --store "$sstore" --target s2 --fail-on regressed >/dev/null 2>&1
check "--fail-on regressed alone does not" test $? -eq 0
"$sf" store ingest --store "$sstore" --revision s3 --parent s1 "$log" --env cluster=other >/dev/null 2>&1
"$sf" verdict history --store "$sstore" --target latest >"$work/labels.txt" 2>&1
check "stage series are named by their stage" grep -q '^  stage "parquet at enrichorders.scala:#" (nodes [0-9a-f]\{6\}) durationMs @ s3' "$work/labels.txt"
check "SQL series by their description" grep -q '^  SQL "compute daily sales aggregates" (plan [0-9a-f]\{6\}) durationMs @ s3' "$work/labels.txt"

id1=$(grep -o "r-[0-9a-f]\{32\}" "$work/s1.txt")
"$sf" store show --store "$sstore" "$id1" >"$work/shown.json"
"$sf" store ingest --store "$sstore" --result "$work/shown.json" >"$work/round-trip.txt" 2>&1
check "store show's output is read back by --result as the same result" grep -q "^already present $id1 " "$work/round-trip.txt"

for command in "store list" "store show r-0" "store policy" "verdict history --target latest" "verdict batch --revision x"; do
  # shellcheck disable=SC2086
  "$sf" $command --store "$work/never.db" >/dev/null 2>"$work/never-err.txt"; code=$?
  check "$command on a missing store exits 2" test $code -eq 2
  check "$command creates no store file" test ! -e "$work/never.db"
done
check "... and says where it looked" grep -q "never.db: no result store there (store ingest creates it)" "$work/never-err.txt"

# A '|' in a series name does not break a Markdown table.
python3 - "$work/pipe.json" <<'PY'
import json, sys
json.dump({"schema": "sparkforensics.result/1", "subject": "a|b",
           "quantities": [{"name": "latency|p95", "value": 1, "unit": "ms", "direction": "lower"}]}, open(sys.argv[1], "w"))
PY
"$sf" store ingest -q --store "$work/pipe.db" --result "$work/pipe.json"
"$sf" verdict history --store "$work/pipe.db" --target latest --format markdown >"$work/pipe.md"
check "Markdown table cells escape |" grep -qF '| a\|b latency\|p95 @ r-' "$work/pipe.md"
check "... so every row has its two columns" python3 -c "
import sys
rows=[l for l in open(sys.argv[1]) if l.startswith('|')]
assert rows and all(r.replace(chr(92) + '|', '').count('|')==3 for r in rows), rows" "$work/pipe.md"

# --- Identity policy: a renamed benchmark joined by continuity --------------------------------
result "$work/renamed.json" sort-v2 t2 c8 100.1
renamed=$("$sf" store ingest --store "$hstore" --result "$work/renamed.json" | grep -o "r-[0-9a-f]\{32\}")
"$sf" verdict history --store "$hstore" --target "$renamed" --quantity durationMs >"$work/renamed-before.txt"
check "a renamed benchmark has no reference" grep -q "no-reference" "$work/renamed-before.txt"
cat >"$work/policy.json" <<'JSON'
{"schema": "sparkforensics.identity-policy/1", "version": 1,
 "continuity": [{"coordinate": "subject", "from": "sort", "to": "sort-v2", "reason": "renamed"}]}
JSON
"$sf" store policy --store "$hstore" --set "$work/policy.json" >/dev/null
check "policy --set stores version 1" test $? -eq 0
"$sf" store policy --store "$hstore" --set "$work/policy.json" >/dev/null 2>"$work/policy-err.txt"
check "the same version again is refused with exit 2" test $? -eq 2
"$sf" verdict history --store "$hstore" --target "$renamed" --quantity durationMs --format json >"$work/renamed.json.out"
check "with the mapping the history continues, the join shown" python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
e=d['evaluations'][0]
assert d['identityPolicy']['version']==1
assert e['verdict']=='no-change-detected', e['verdict']
assert e['boundaries'][0]['kind']=='continuity' and e['boundaries'][0]['at']=='subject: sort -> sort-v2'" "$work/renamed.json.out"

# --- Run mode ---------------------------------------------------------------------------------
rstore="$work/run.db"
args=()
for r in 1 2 3 4 5 6; do
  result "$work/b$r.json" q1 "" "" "$((100 + r))" baseline pr-1 "$r" "$((2 * r - 1))" ok
  result "$work/c$r.json" q1 "" "" "$(python3 -c "print((100 + $r) * 1.08)")" candidate pr-1 "$r" "$((2 * r))" ok
  args+=(--result "$work/b$r.json" --result "$work/c$r.json")
done
"$sf" store ingest -q --store "$rstore" "${args[@]}"
"$sf" verdict run --store "$rstore" --run-key pr-1 --profile variants --baseline baseline >"$work/run.txt"
check "verdict run finds the slower variant" grep -q "^Regressed (1):" "$work/run.txt"
check "verdict run reports the paired ratio" grep -q "ratio 1.0800 \[" "$work/run.txt"
"$sf" verdict run --store "$rstore" --run-key pr-1 --profile variants --baseline nobody >/dev/null 2>"$work/run-err.txt"
check "a baseline that is not a side exits 2" test $? -eq 2
check "the error lists the sides" grep -q "baseline, candidate" "$work/run-err.txt"
args=()
for r in 1 2 3 4 5 6; do  # all baselines first, then all candidates: not interleaved
  result "$work/nb$r.json" q1 "" "" 100 baseline pr-2 "$r" "$r" ok
  result "$work/nc$r.json" q1 "" "" 120 candidate pr-2 "$r" "$((6 + r))" ok
  args+=(--result "$work/nb$r.json" --result "$work/nc$r.json")
done
"$sf" store ingest -q --store "$rstore" "${args[@]}"
"$sf" verdict run --store "$rstore" --run-key pr-2 --profile variants --baseline baseline >"$work/run2.txt"
check "a run that is not interleaved fails its invariant, no verdicts" bash -c "grep -q 'interleaved' '$work/run2.txt' && ! grep -q 'Regressed' '$work/run2.txt'"

# --- Batch: one series missing ------------------------------------------------------------------
bstore="$work/batch.db"
args=()
for n in 1 2 3 4 5 6; do
  p=""; [[ $n -gt 1 ]] && p="c$((n - 1))"
  for s in etl-a etl-b; do result "$work/$s-$n.json" "$s" "c$n" "$p" "$((100 + n % 2))"; args+=(--result "$work/$s-$n.json"); done
done
result "$work/etl-a-t.json" etl-a t c6 100
args+=(--result "$work/etl-a-t.json")
"$sf" store ingest -q --store "$bstore" "${args[@]}"
"$sf" verdict batch --store "$bstore" --revision t >"$work/batch.txt"
check "batch reports both series of the absent benchmark as missing" grep -q "^Missing (2):" "$work/batch.txt"
check "the missing series are named" bash -c "grep -q '  etl-b durationMs' '$work/batch.txt' && grep -q '  etl-b rowsOut' '$work/batch.txt'"
check "the present benchmark is still evaluated" grep -q "^  durationMs @ t" "$work/batch.txt"
"$sf" verdict batch --store "$bstore" --revision t --fail-on missing >/dev/null
check "--fail-on missing exits 1" test $? -eq 1

# --- The same on PostgreSQL ---------------------------------------------------------------------
if [[ -n "${SF_TEST_POSTGRES_URL:-}" ]] && command -v psql >/dev/null; then
  schema="sf_e2e_$$"
  psql -q "$SF_TEST_POSTGRES_URL" -c "CREATE SCHEMA $schema" >/dev/null
  pg="${SF_TEST_POSTGRES_URL}&options=-csearch_path%3D$schema"
  "$sf" store ingest -q --store "$pg" "${args[@]}"
  check "postgres: ingest exits 0" test $? -eq 0
  "$sf" verdict batch --store "$pg" --revision t --format json >"$work/pg-batch.json"
  "$sf" verdict batch --store "$bstore" --revision t --format json >"$work/sqlite-batch.json"
  check "postgres and sqlite give the same document" cmp -s "$work/pg-batch.json" "$work/sqlite-batch.json"
  psql -q "$SF_TEST_POSTGRES_URL" -c "SET client_min_messages TO warning" -c "DROP SCHEMA $schema CASCADE" >/dev/null
else
  echo "skip postgres: SF_TEST_POSTGRES_URL is not set"
fi

finish "store and verdict"
