#!/usr/bin/env bash
# make bench-serve (and the end of make bench): the REST API of `sparkforensics serve` on a cold
# ~1 GB generated log. Prints, in one run: the application list (from the log's first events
# only), the time to first response of applications/<id>/stages (the model loaded on demand),
# the same request again (cached), a task list of the largest stage cold and warm (task-level
# data read on demand), requests/s on warm endpoints from a second process over loopback, and
# the server's peak resident memory. Nothing is asserted; the figures are for a person to read.
# Usage: bench/serve.sh BUILD_DIR   (SF_BENCH_SERVE_SCALE: log size, ~18 MB a unit; default 56)
set -euo pipefail
build="${1:-build}"
scale="${SF_BENCH_SERVE_SCALE:-56}"
sf="$build/src/cli/sparkforensics"
# The same log as bench/compare.sh's baseline, generated once for both.
source "$(dirname "$0")/compare_logs.sh"
out=$(generate_compare_logs "$build" "$scale")
# Drop the log's pages from the page cache when allowed, so "cold" includes reading the disk;
# otherwise cold means "not loaded by the server" (the usual case right after a restart).
log=$(ls "$out"/base/*)
python3 - "$log" <<'PY' || true
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)
PY

python3 - "$sf" "$out/base" <<'PY'
import http.client, json, os, re, subprocess, sys, threading, time

sf, log_dir = sys.argv[1], sys.argv[2]
size_mb = sum(os.path.getsize(os.path.join(log_dir, f)) for f in os.listdir(log_dir)) / 1e6
start = time.perf_counter()
server = subprocess.Popen([sf, "serve", "--log-dir", log_dir, "--port", "0", "--rescan-interval", "0"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
line = server.stdout.readline()
port = int(re.search(r":(\d+)/", line).group(1))
listening_s = time.perf_counter() - start

def get(path, connection=None):
    own = connection is None
    c = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    t = time.perf_counter()
    c.request("GET", "/api/v1/" + path)
    r = c.getresponse()
    body = r.read()
    seconds = time.perf_counter() - t
    if own:
        c.close()
    if r.status != 200:
        sys.exit(f"GET {path}: {r.status} {body[:200]!r}")
    return seconds, body

def peak_rss_mib():
    with open(f"/proc/{server.pid}/status") as f:
        for l in f:
            if l.startswith("VmHWM:"):
                return int(l.split()[1]) / 1024
    return float("nan")

try:
    list_s, body = get("applications")
    app = json.loads(body)[0]["id"]
    cold_s, body = get(f"applications/{app}/stages")
    stages = json.loads(body)
    rss_after_model = peak_rss_mib()
    warm_s, _ = get(f"applications/{app}/stages")
    big = max(stages, key=lambda s: s["numTasks"])
    task_path = f"applications/{app}/stages/{big['stageId']}/{big['attemptId']}/taskList?length=100&sortBy=-runtime"
    tasks_cold_s, _ = get(task_path)
    tasks_warm_s, _ = get(task_path)

    warm_paths = [f"applications/{app}/jobs", f"applications/{app}/executors",
                  f"applications/{app}/stages/{big['stageId']}/{big['attemptId']}?details=false",
                  f"applications/{app}/environment", "applications"]
    duration_s, clients = 3.0, 4
    counts = [0] * clients
    def client(i):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        end = time.perf_counter() + duration_s
        n = 0
        while time.perf_counter() < end:
            get(warm_paths[n % len(warm_paths)], c)
            n += 1
        counts[i] = n
        c.close()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads: t.start()
    for t in threads: t.join()
    rps = sum(counts) / duration_s
    rss = peak_rss_mib()
finally:
    server.terminate()
    server.wait(timeout=60)

print(f"serve: one generated log of {size_mb:,.0f} MB ({len(stages)} stages; largest {big['numTasks']:,} tasks)")
print(f"  listening (log directory listed, first events only)  {listening_s:8.3f} s")
print(f"  GET applications                                     {list_s * 1000:8.1f} ms")
print(f"  GET applications/<id>/stages, cold (model loaded)    {cold_s:8.3f} s  ({size_mb / cold_s:,.0f} MB/s)")
print(f"  the same request again (model cached)                {warm_s * 1000:8.1f} ms  ({cold_s / warm_s:,.0f}x faster)")
print(f"  taskList of the largest stage, cold (log re-read)    {tasks_cold_s:8.3f} s")
print(f"  the same taskList again (tasks cached)               {tasks_warm_s * 1000:8.1f} ms")
print(f"  warm endpoints, {clients} keep-alive clients, one process  {rps:8.0f} requests/s")
print(f"  server peak RSS: {rss_after_model:,.0f} MiB after the model load, {rss:,.0f} MiB at the end "
      f"({rss / size_mb * 1000:,.0f} MiB per GB of log)")
PY
