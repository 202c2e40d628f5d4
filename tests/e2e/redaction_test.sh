#!/usr/bin/env bash
# Secrets in a log never leave the program, whichever front end asks: a log holding secrets in
# every place Spark can write one (Spark, Hadoop and system properties, a value that merely
# contains one, a key only the application's own spark.redaction.regex names, a SQL execution's
# modified configs, a plan string the application's spark.sql.redaction.string.regex names) is
# read through analyze (text, JSON, Markdown), compare, serve's REST API (every endpoint that
# carries properties or plans, and the raw log download), mcp's tools and the result store, and no output holds a secret
# while the values that are not secret are still there.
# Usage: redaction_test.sh SPARKFORENSICS SF_LOGGEN
source "$(dirname "$0")/e2e_checks.sh" "$@"

mkdir -p "$work/logs" "$work/out"
app_id="app-20240301120000-0007"
log="$work/logs/$app_id"
python3 - "$log" "$app_id" <<'PY'
import json, sys
path, app_id = sys.argv[1], sys.argv[2]
t0 = 1709294400000
plan = ("== Physical Plan ==\n*(1) Scan JDBCRelation(orders) [numPartitions=1] "
        "PushedFilters: [], ReadSchema: struct<id:int>, jdbc-password=plan-secret-value\n")
events = [
    {"Event": "SparkListenerLogStart", "Spark Version": "3.5.1"},
    {"Event": "SparkListenerEnvironmentUpdate",
     "JVM Information": {"Java Version": "17.0.9 (Eclipse Adoptium)"},
     "Spark Properties": {
         "spark.app.id": app_id,
         "spark.app.name": "redaction",
         "spark.master": "local[2]",
         "spark.executor.memory": "4g",
         "spark.db.password": "hunter2-spark-value",
         "spark.mycorp.apikey": "corp-key-value",
         "spark.redaction.regex": "(?i)secret|password|mycorp",
         "spark.sql.redaction.string.regex": "jdbc-password=[^ ,\\n]*",
         "spark.hadoop.fs.s3a.access.key": "AKIAEXAMPLEVALUE"},
     "Hadoop Properties": {"fs.s3a.secret.key": "s3-secret-value", "fs.defaultFS": "file:///"},
     "System Properties": {
         "sun.java.command": "org.apache.spark.deploy.SparkSubmit --conf spark.x.password=cmdline-value app.py",
         "user.timezone": "UTC"},
     "Metrics Properties": {"*.sink.servlet.token": "metrics-token-value"},
     "Classpath Entries": {}},
    {"Event": "SparkListenerApplicationStart", "App Name": "redaction", "App ID": app_id,
     "Timestamp": t0, "User": "e2e"},
    {"Event": "SparkListenerExecutorAdded", "Timestamp": t0 + 100, "Executor ID": "driver",
     "Executor Info": {"Host": "localhost", "Total Cores": 2, "Log Urls": {}}},
    {"Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart", "executionId": 0,
     "description": "select * from orders where token='sql-text-token'", "details": "details",
     "physicalPlanDescription": plan,
     "sparkPlanInfo": {"nodeName": "Scan JDBCRelation(orders)",
                       "simpleString": "Scan JDBCRelation(orders) jdbc-password=node-secret-value",
                       "children": [], "metadata": {}, "metrics": []},
     "time": t0 + 1000,
     "modifiedConfigs": {"spark.sql.catalog.x.token": "catalog-token-value", "spark.sql.shuffle.partitions": "8"}},
    {"Event": "SparkListenerJobStart", "Job ID": 0, "Submission Time": t0 + 1100,
     "Stage Infos": [{"Stage ID": 0, "Stage Attempt ID": 0, "Stage Name": "collect", "Number of Tasks": 1,
                      "RDD Info": [], "Parent IDs": [], "Details": "", "Accumulables": []}],
     "Stage IDs": [0], "Properties": {"spark.sql.execution.id": "0"}},
    {"Event": "SparkListenerStageSubmitted",
     "Stage Info": {"Stage ID": 0, "Stage Attempt ID": 0, "Stage Name": "collect", "Number of Tasks": 1,
                    "RDD Info": [], "Parent IDs": [], "Details": "", "Submission Time": t0 + 1100,
                    "Accumulables": []},
     "Properties": {"spark.sql.execution.id": "0"}},
    {"Event": "SparkListenerTaskStart", "Stage ID": 0, "Stage Attempt ID": 0,
     "Task Info": {"Task ID": 0, "Index": 0, "Attempt": 0, "Launch Time": t0 + 1200, "Executor ID": "driver",
                   "Host": "localhost", "Locality": "PROCESS_LOCAL", "Speculative": False,
                   "Getting Result Time": 0, "Finish Time": 0, "Failed": False, "Killed": False,
                   "Accumulables": []}},
    {"Event": "SparkListenerTaskEnd", "Stage ID": 0, "Stage Attempt ID": 0, "Task Type": "ResultTask",
     "Task End Reason": {"Reason": "Success"},
     "Task Info": {"Task ID": 0, "Index": 0, "Attempt": 0, "Launch Time": t0 + 1200, "Executor ID": "driver",
                   "Host": "localhost", "Locality": "PROCESS_LOCAL", "Speculative": False,
                   "Getting Result Time": 0, "Finish Time": t0 + 3200, "Failed": False, "Killed": False,
                   "Accumulables": []},
     "Task Metrics": {"Executor Deserialize Time": 5, "Executor Deserialize CPU Time": 1000000,
                      "Executor Run Time": 1900, "Executor CPU Time": 1500000000, "Result Size": 1000,
                      "JVM GC Time": 10, "Result Serialization Time": 0, "Memory Bytes Spilled": 0,
                      "Disk Bytes Spilled": 0,
                      "Shuffle Read Metrics": {"Remote Blocks Fetched": 0, "Local Blocks Fetched": 0,
                                               "Fetch Wait Time": 0, "Remote Bytes Read": 0,
                                               "Local Bytes Read": 0, "Total Records Read": 0},
                      "Shuffle Write Metrics": {"Shuffle Bytes Written": 0, "Shuffle Write Time": 0,
                                                "Shuffle Records Written": 0},
                      "Input Metrics": {"Bytes Read": 1000, "Records Read": 10},
                      "Output Metrics": {"Bytes Written": 0, "Records Written": 0}}},
    {"Event": "SparkListenerStageCompleted",
     "Stage Info": {"Stage ID": 0, "Stage Attempt ID": 0, "Stage Name": "collect", "Number of Tasks": 1,
                    "RDD Info": [], "Parent IDs": [], "Details": "", "Submission Time": t0 + 1100,
                    "Completion Time": t0 + 3300, "Accumulables": []}},
    {"Event": "SparkListenerJobEnd", "Job ID": 0, "Completion Time": t0 + 3400,
     "Job Result": {"Result": "JobSucceeded"}},
    {"Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd", "executionId": 0,
     "time": t0 + 3500, "errorMessage": ""},
    {"Event": "SparkListenerApplicationEnd", "Timestamp": t0 + 4000},
]
with open(path, "w") as out:
    for e in events:
        out.write(json.dumps(e) + "\n")
PY
check "the log holds the secrets to begin with" grep -q "hunter2-spark-value" "$log"

secrets=(hunter2-spark-value corp-key-value AKIAEXAMPLEVALUE s3-secret-value cmdline-value metrics-token-value
         catalog-token-value plan-secret-value node-secret-value)
# no_secret FILE: none of the secrets is in FILE (named on failure).
no_secret() {
  local found=0
  for secret in "${secrets[@]}"; do
    if grep -q -- "$secret" "$1"; then echo "  $(basename "$1") holds $secret"; found=1; fi
  done
  return $found
}

# The CLI.
"$sf" analyze --no-progress "$log" >"$work/out/analyze.txt" 2>&1
"$sf" analyze --no-progress -f json "$log" >"$work/out/analyze.json" 2>&1
"$sf" analyze --no-progress -f markdown "$log" >"$work/out/analyze.md" 2>&1
"$sf" compare -f json "$log" "$log" >"$work/out/compare.json" 2>&1
"$sf" compare "$log" "$log" >"$work/out/compare.txt" 2>&1
for f in analyze.txt analyze.json analyze.md compare.json compare.txt; do
  check "analyze/compare: $f holds no secret" no_secret "$work/out/$f"
done
check "analyze -f json still shows the settings that are not secret" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
p = d['environment']['sparkProperties']
assert p['spark.executor.memory'] == '4g', p
assert p['spark.db.password'] == '*********(redacted)', p
assert p['spark.mycorp.apikey'] == '*********(redacted)', p
assert d['environment']['systemProperties']['user.timezone'] == 'UTC'
assert d['environment']['systemProperties']['sun.java.command'] == '*********(redacted)'
assert d['sql'][0]['modifiedConfigs']['spark.sql.shuffle.partitions'] == '8'
assert 'ReadSchema: struct<id:int>, *********(redacted)' in d['sql'][0]['physicalPlanDescription']
" "$work/out/analyze.json"

# The result store.
"$sf" store ingest --store "$work/store.db" --revision r1 --env cluster=e2e "$log" >"$work/out/ingest.txt" 2>&1
id=$(grep -o "r-[0-9a-f]\{32\}" "$work/out/ingest.txt" | head -n 1)
check "store: ingest stored a result" test -n "$id"
"$sf" store show --store "$work/store.db" "$id" >"$work/out/store-show.json" 2>&1
check "store: the stored result holds no secret" no_secret "$work/out/store-show.json"
check "store: the whole store file holds no secret" no_secret "$work/store.db"

# serve's REST API.
start_serve "$work/serve-stdout.txt" "$work/serve-stderr.txt" --log-dir "$work/logs"
check "serve prints the port it listens on" test -n "$port"
base="http://127.0.0.1:$port/api/v1/applications/$app_id"
for endpoint in "" /environment /sql "/sql?details=true" /sql/0 /jobs /stages /executors /allexecutors; do
  name="serve${endpoint//[\/?=]/_}"
  python3 - "$base$endpoint" >"$work/out/$name.json" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=60) as r:
    sys.stdout.buffer.write(r.read())
PY
  check "serve: $base$endpoint answers" test -s "$work/out/$name.json"
  check "serve: $endpoint holds no secret" no_secret "$work/out/$name.json"
done
check "serve: the environment shows the redacted value and the plain ones" python3 -c "
import json, sys
env = json.load(open(sys.argv[1]))
props = dict(env['sparkProperties'])
assert props['spark.db.password'] == '*********(redacted)', props
assert props['spark.executor.memory'] == '4g', props
assert dict(env['hadoopProperties'])['fs.defaultFS'] == 'file:///'
" "$work/out/serve_environment.json"
# The raw log download is the log with its secrets redacted, and still a log.
python3 - "$base/logs" "$work/out/download.zip" "$work/out/download.txt" <<'PY'
import sys, urllib.request, zipfile
with urllib.request.urlopen(sys.argv[1], timeout=60) as r:
    open(sys.argv[2], "wb").write(r.read())
with zipfile.ZipFile(sys.argv[2]) as z, open(sys.argv[3], "wb") as out:
    for name in z.namelist():
        out.write(z.read(name))
PY
check "serve: /logs downloads a zip of the log" test -s "$work/out/download.txt"
check "serve: the /logs download holds no secret" no_secret "$work/out/download.txt"
"$sf" analyze --no-progress -f json "$work/out/download.zip" >"$work/out/download.json" 2>&1
check "serve: the download analyzes as the same application" python3 -c "
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a['app'] == b['app'], (a['app'], b['app'])
assert a['environment'] == b['environment']
assert a['stages'] == b['stages'] and a['sql'] == b['sql']
" "$work/out/analyze.json" "$work/out/download.json"
kill -TERM "$server_pid"
wait "$server_pid"
server_pid=""

# mcp's tools.
{
  printf '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}\n'
  printf '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
  printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_applications","arguments":{}}}\n'
  printf '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"analyze_event_log","arguments":{"path":"%s"}}}\n' "$app_id"
  printf '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_sql_execution","arguments":{"path":"%s","executionId":0,"includePhysicalPlan":true}}}\n' "$app_id"
  printf '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_findings","arguments":{"path":"%s"}}}\n' "$app_id"
  printf '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"compare_runs","arguments":{"baseline":{"path":"%s"},"candidate":{"path":"%s"}}}}\n' "$app_id" "$app_id"
} >"$work/mcp-in.txt"
timeout 300 "$sf" mcp --log-dir "$work/logs" --store "$work/mcp-store.db" <"$work/mcp-in.txt" >"$work/out/mcp.jsonl" 2>"$work/mcp-err.txt"
check "mcp: every call answered" python3 -c "
import json, sys
answers = {m.get('id'): m for m in map(json.loads, open(sys.argv[1]))}
for i in range(2, 7):
    assert i in answers and 'result' in answers[i], (i, answers.get(i))
assert not answers[4]['result'].get('isError'), answers[4]
" "$work/out/mcp.jsonl"
check "mcp: no answer holds a secret" no_secret "$work/out/mcp.jsonl"
check "mcp: the SQL plan is there, redacted" grep -qF 'Scan JDBCRelation(orders) *********(redacted)' "$work/out/mcp.jsonl"

finish "redaction" "$work/serve-stderr.txt" "$work/mcp-err.txt"
