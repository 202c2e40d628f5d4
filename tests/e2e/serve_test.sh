#!/usr/bin/env bash
# End-to-end checks of `sparkforensics serve`: it starts on a free port over a directory of
# generated logs, answers the REST API over real HTTP (status codes, content, errors), picks up a
# log added while it runs, logs one line per request, and exits 0 on SIGTERM.
# Usage: serve_test.sh SPARKFORENSICS SF_LOGGEN
source "$(dirname "$0")/e2e_checks.sh" "$@"

mkdir -p "$work/logs" "$work/later"
"$loggen" --preset small --codec zstd --layout file --out "$work/logs" >"$work/first.txt" 2>/dev/null
"$loggen" --preset demo --codec none --layout file --out "$work/later" >"$work/second.txt" 2>/dev/null
check "generator wrote two logs" test -s "$(cat "$work/first.txt")" -a -s "$(cat "$work/second.txt")"

# Port 0: the server picks a free port and prints it on stdout.
start_serve "$work/stdout.txt" "$work/stderr.txt" --log-dir "$work/logs" --rescan-interval 1
check "serve prints the port it listens on" test -n "$port"
base="http://127.0.0.1:$port/api/v1"

# GET URL -> prints "STATUS" on the first line and the body after it.
get() {
  python3 - "$1" <<'PY'
import sys, urllib.request, urllib.error
try:
    with urllib.request.urlopen(sys.argv[1], timeout=60) as r:
        status, body = r.status, r.read()
except urllib.error.HTTPError as e:
    status, body = e.code, e.read()
sys.stdout.write(f"{status}\n")
sys.stdout.buffer.write(body)
PY
}
status_of() { head -n1 "$1"; }
body_of() { tail -n +2 "$1"; }

get "$base/applications" >"$work/apps.txt"
check "applications answers 200" test "$(status_of "$work/apps.txt")" = 200
app_id=$(body_of "$work/apps.txt" | python3 -c "import json,sys; a=json.load(sys.stdin); assert len(a)==1, a; print(a[0]['id'])")
check "applications lists the one log's application" test -n "$app_id"

get "$base/applications/$app_id/stages" >"$work/stages.txt"
check "stages answers 200" test "$(status_of "$work/stages.txt")" = 200
check "stages is a non-empty list of stages" python3 -c "
import json,sys; s=json.loads(sys.stdin.read()); assert s and all('stageId' in x and 'status' in x for x in s)" < <(body_of "$work/stages.txt")
stage=$(body_of "$work/stages.txt" | python3 -c "import json,sys; s=json.load(sys.stdin); print(s[-1]['stageId'])")

get "$base/applications/$app_id/stages/$stage/0/taskList?length=5&sortBy=-runtime" >"$work/tasks.txt"
check "taskList answers 200" test "$(status_of "$work/tasks.txt")" = 200
check "taskList honours length and sortBy" python3 -c "
import json,sys; t=json.loads(sys.stdin.read()); r=[x['taskMetrics']['executorRunTime'] for x in t]
assert 0 < len(t) <= 5 and r == sorted(r, reverse=True), r" < <(body_of "$work/tasks.txt")

get "$base/applications/$app_id/stages/$stage/0/taskSummary?quantiles=0.5" >"$work/summary.txt"
check "taskSummary answers one quantile" python3 -c "
import json,sys; s=json.loads(sys.stdin.read()); assert s['quantiles']==[0.5] and len(s['duration'])==1" < <(body_of "$work/summary.txt")

get "$base/applications/$app_id/jobs?status=succeeded" >"$work/jobs.txt"
check "jobs?status=succeeded lists succeeded jobs only" python3 -c "
import json,sys; j=json.loads(sys.stdin.read()); assert all(x['status']=='SUCCEEDED' for x in j)" < <(body_of "$work/jobs.txt")

get "$base/applications/no-such-app/jobs" >"$work/missing.txt"
check "an unknown application is 404" test "$(status_of "$work/missing.txt")" = 404
check "the 404 names the application" grep -q "no such app: no-such-app" "$work/missing.txt"
get "$base/applications/$app_id/stages/999999" >"$work/nostage.txt"
check "an unknown stage is 404" test "$(status_of "$work/nostage.txt")" = 404
get "$base/applications/$app_id/jobs?status=bogus" >"$work/badparam.txt"
check "a bad parameter is 400 naming it" test "$(status_of "$work/badparam.txt")" = 400 -a -n "$(grep status "$work/badparam.txt")"
get "$base/applications/$app_id/stages/$stage/0/taskSummary?quantiles=x" >"$work/badq.txt"
check "a quantile that is no number is 400" test "$(status_of "$work/badq.txt")" = 400

get "$base/applications/$app_id/logs" >"$work/zip.txt"
check "logs answers a zip" python3 -c "
import io,sys,zipfile; data=open(sys.argv[1],'rb').read(); body=data[data.index(b'\n')+1:]
assert zipfile.ZipFile(io.BytesIO(body)).namelist()" "$work/zip.txt"

# A log added while the server runs is listed after the next rescan.
cp "$(cat "$work/second.txt")" "$work/logs/"
count=1
for _ in $(seq 1 50); do
  count=$(get "$base/applications" | tail -n +2 | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")
  [[ "$count" == 2 ]] && break
  sleep 0.2
done
check "a log added while running is listed" test "$count" = 2

check "one log line per request" test "$(grep -c ' GET /api/v1/' "$work/stderr.txt")" -ge 10

# A second serve on the port the first listens on must not start beside it (with SO_REUSEPORT it
# did, silently, and took half the connections).
timeout 20 "$sf" serve --log-dir "$work/logs" --port "$port" >"$work/second-out.txt" 2>"$work/second-err.txt"
second_status=$?
check "a second serve on a port in use exits with an error" test "$second_status" -ne 0 -a "$second_status" -ne 124
check "and says the port is in use" grep -q "cannot listen on 127.0.0.1:$port" "$work/second-err.txt"

kill -TERM "$server_pid"
wait "$server_pid"
status=$?
server_pid=""
check "SIGTERM stops the server with exit 0" test "$status" -eq 0
check "the server says it stopped" grep -q "stopped" "$work/stderr.txt"

start_serve "$work/stdout2.txt" "$work/stderr2.txt" --log-dir "$work/logs" --host 0.0.0.0
kill -INT "$server_pid"
wait "$server_pid"
status=$?
server_pid=""
check "another host than 127.0.0.1 prints a warning" grep -q "warning: listening on 0.0.0.0" "$work/stderr2.txt"
check "SIGINT stops the server with exit 0" test "$status" -eq 0

# A relative --log-dir: every log in it is listed (they were all "not listed: no such file").
(cd "$work" && start_serve "$work/stdout3.txt" "$work/stderr3.txt" --log-dir logs
 get "http://127.0.0.1:$port/api/v1/applications" >"$work/relative.txt"
 kill -TERM "$server_pid"; wait "$server_pid")
check "a relative --log-dir lists its logs" test "$(body_of "$work/relative.txt" | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")" -ge 2
check "and says nothing is missing" bash -c "! grep -q 'not listed' '$work/stderr3.txt'"

"$sf" serve --log-dir "$work/does-not-exist" >/dev/null 2>&1
check "a missing log directory is a usage error" test $? -eq 2

finish serve "$work/stderr.txt"
