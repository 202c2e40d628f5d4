#!/usr/bin/env bash
# make bench-serve (and the end of make bench): `sparkforensics serve` beside Spark's own History
# Server (the pinned pyspark of .venv), on the same ~1 GB generated log directory, in one run. One
# server at a time, each started on a log dropped from the page cache, so they never compete for
# the two cores or the cache. For each: the time from the process's start until the application
# list answers, the time from sending the first applications/<id>/jobs until it answers (the
# History Server replays the whole log; serve loads its model), the same request again (cached), a
# task list of the largest stage first and again, requests/s on warm endpoints from this bench's
# Python (a process of its own) over loopback, and the server's peak resident memory (VmHWM).
# Prints one table with the ratios History Server / serve, then whether the targets are met: the
# History Server's answers at least 20x sooner, in a tenth of its memory. Nothing is asserted; the
# figures are for a person. Without pyspark or Java, or when the History Server fails (out of
# memory, timeout), it says so and still prints serve's figures; every wait is bounded.
# Usage: bench/serve.sh BUILD_DIR   (SF_BENCH_SERVE_SCALE: log size, ~18 MB a unit; default 56;
#        SF_BENCH_SERVE_HS_MEMORY: the History Server's heap, SPARK_DAEMON_MEMORY; default 8g)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
scale="${SF_BENCH_SERVE_SCALE:-56}"
history_server_heap="${SF_BENCH_SERVE_HS_MEMORY:-8g}"
sf="$build/src/cli/sparkforensics"
python="$root/.venv/bin/python"
[[ -x "$python" ]] || python=python3
# The same log as bench/compare.sh's baseline, generated once for both.
source "$here/compare_logs.sh"
out=$(generate_compare_logs "$build" "$scale")

# The History Server is the pinned pyspark's; without it (or Java) serve is measured alone.
pyspark_home=""
history_server_missing=""
if ! command -v java >/dev/null; then
  history_server_missing="java is not installed (scripts/install-python.sh installs it)"
elif ! pyspark_home="$("$python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))' 2>/dev/null)"; then
  history_server_missing="$python has no pyspark (scripts/install-python.sh makes $root/.venv)"
  pyspark_home=""
fi
history_server_version=""
if [[ -n "$pyspark_home" ]]; then
  history_server_version="pyspark $("$python" -c 'import pyspark; print(pyspark.__version__)'), $(java -version 2>&1 | head -n 1)"
fi

"$python" - "$sf" "$out/base" "$root/tests/history_server" "$pyspark_home" "$history_server_missing" \
  "$history_server_heap" "$history_server_version" <<'PY'
import http.client, json, os, statistics, sys, tempfile, threading, time, urllib.parse

sf, log_dir, oracle_dir, pyspark_home, history_server_missing, heap, history_server_version = sys.argv[1:8]
# The oracle's own way of starting both servers on one directory (tests/history_server/servers.py).
sys.path.insert(0, oracle_dir)
import servers

# Bounds on every wait, so that a History Server short of heap or stuck in GC ends the bench
# with a sentence, not a hang. Its first app request replays the whole log in one HTTP request.
LIST_TIMEOUT_S = 600
FIRST_ANSWER_TIMEOUT_S = 900
REQUEST_TIMEOUT_S = 120
POLL_INTERVAL_S = 0.01
LOAD_CLIENTS, LOAD_SECONDS = 4, 5.0

log_files = [os.path.join(log_dir, f) for f in sorted(os.listdir(log_dir))]
size_mb = sum(os.path.getsize(f) for f in log_files) / 1e6


def drop_logs_from_page_cache():
    """So "cold" includes reading the disk where the kernel allows it; otherwise cold means "not
    loaded by the server" (the usual case right after a restart)."""
    for path in log_files:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        except OSError:
            pass
        os.close(fd)


def timed_get(server, path, timeout_s=REQUEST_TIMEOUT_S):
    """GET api/v1/path -> (seconds from sending the request to the whole answer, body)."""
    started = time.perf_counter()
    status, _, body = servers.get(server.base + path, timeout=timeout_s)
    seconds = time.perf_counter() - started
    if status != 200:
        raise RuntimeError(f"GET {path}: {status} {body[:200]!r}")
    return seconds, body


class Starting(threading.Thread):
    """start_server() in a thread of its own, so that the list can be asked for before it returns:
    servers.start_serve returns once it has read serve's address from serve's output, which it
    reads every 0.1 s, several times longer than serve takes to list the directory."""

    def __init__(self, start_server):
        super().__init__(daemon=True)
        self.start_server, self.server, self.error = start_server, None, None
        self.start()

    def run(self):
        try:
            self.server = self.start_server()
        except Exception as e:
            self.error = e


def address_printed_by_serve(output_path):
    """The API's base address from serve's line "listening on http://HOST:PORT/api/v1/applications"."""
    try:
        with open(output_path, "rb") as f:
            for line in f.read().decode("utf-8", "replace").splitlines():
                if line.startswith("listening on http://"):
                    return line.split()[2].removesuffix("applications")
    except FileNotFoundError:
        pass
    return None


def median_get_seconds(server, path, repeats=5):
    """An answer already cached: the median of a few, as one request of a millisecond is noise."""
    return statistics.median(timed_get(server, path)[0] for _ in range(repeats))


def wait_for_application_list(starting, printed_address, started):
    """Seconds from `started` (before the process was launched) until applications lists one, and
    the path of its (first) attempt: a YARN application's attempt has an id, and the History
    Server answers only applications/<id>/<attempt id>/... for it."""
    deadline = started + LIST_TIMEOUT_S
    while time.perf_counter() < deadline:
        if starting.error is not None:
            raise starting.error
        if starting.server is not None and starting.server.process.poll() is not None:
            raise RuntimeError(f"it exited ({starting.server.process.returncode}) before listing the application")
        base = starting.server.base if starting.server is not None else printed_address()
        try:
            status, _, body = servers.get(base + "applications", timeout=10) if base else (None, "", b"")
            if status == 200 and json.loads(body):
                seconds, app = time.perf_counter() - started, json.loads(body)[0]
                attempt = app["attempts"][0].get("attemptId")
                return seconds, f"applications/{app['id']}" + (f"/{attempt}" if attempt else "")
        except (OSError, ValueError):
            pass  # not listening yet, or an answer cut by the start-up
        time.sleep(POLL_INTERVAL_S)
    raise RuntimeError(f"it listed no application within {LIST_TIMEOUT_S} s")


def peak_rss_mib(server):
    # The Popen pid is the server itself: spark-class execs java (its launcher JVM runs before,
    # as a child), and serve is the binary.
    with open(f"/proc/{server.process.pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def requests_per_second(server, paths):
    """A bounded load: LOAD_CLIENTS keep-alive connections for LOAD_SECONDS, each cycling through
    paths. Also returns the share of a core this process used, to tell when the client is the limit."""
    address = urllib.parse.urlsplit(server.base)
    counts, failures = [0] * LOAD_CLIENTS, []

    def client(i):
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=REQUEST_TIMEOUT_S)
        end = time.perf_counter() + LOAD_SECONDS
        try:
            while time.perf_counter() < end:
                connection.request("GET", address.path + paths[counts[i] % len(paths)])
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    raise RuntimeError(f"GET {paths[counts[i] % len(paths)]}: {response.status}")
                counts[i] += 1
        except Exception as e:
            failures.append(e)
        finally:
            connection.close()

    cpu_before, started = time.process_time(), time.perf_counter()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(LOAD_CLIENTS)]
    for t in threads: t.start()
    for t in threads: t.join()
    wall = time.perf_counter() - started
    if failures:
        raise RuntimeError(f"under load: {failures[0]}")
    return sum(counts) / wall, (time.process_time() - cpu_before) / wall


def measure(start_server, printed_address=lambda: None):
    """Every figure of one server into a dict; a failure part way is kept as figures["failure"]
    beside the figures measured before it. printed_address: the server's address before
    start_server returns, when it prints it (serve)."""
    figures = {}
    drop_logs_from_page_cache()
    started = time.perf_counter()
    starting = Starting(start_server)
    server = None
    try:
        figures["list_s"], app = wait_for_application_list(starting, printed_address, started)
        starting.join(timeout=120)  # start_serve gives up after 60 s; start_history_server does not wait
        server = starting.server
        if server is None:
            raise starting.error or RuntimeError("not started within 120 s")
        figures["jobs_cold_s"], body = timed_get(server, f"{app}/jobs", FIRST_ANSWER_TIMEOUT_S)
        figures["jobs"] = len(json.loads(body))
        figures["jobs_cached_s"] = median_get_seconds(server, f"{app}/jobs")
        stages = json.loads(timed_get(server, f"{app}/stages")[1])
        largest = max(stages, key=lambda s: s["numTasks"])
        figures["stages"], figures["largest_stage_tasks"] = len(stages), largest["numTasks"]
        stage = f"{app}/stages/{largest['stageId']}/{largest['attemptId']}"
        task_list = f"{stage}/taskList?length=100&sortBy=-runtime"
        figures["tasks_first_s"], _ = timed_get(server, task_list, FIRST_ANSWER_TIMEOUT_S)
        figures["tasks_again_s"] = median_get_seconds(server, task_list)
        warm_paths = [f"{app}/jobs", f"{app}/executors", f"{stage}?details=false",
                      f"{app}/environment", "applications"]
        figures["requests_per_s"], figures["load_cpu"] = requests_per_second(server, warm_paths)
        figures["peak_rss_mib"] = peak_rss_mib(server)
    except Exception as e:
        figures["failure"] = str(e) or type(e).__name__
        if starting.server is not None and starting.server.process.poll() is not None:
            figures["failure"] += f" (the process had exited with code {starting.server.process.returncode})"
        if starting.server is not None:
            figures["output_tail"] = starting.server.output_tail(15)
            if "OutOfMemoryError" in figures["output_tail"]:
                figures["failure"] += ": out of memory (a larger heap: SF_BENCH_SERVE_HS_MEMORY)"
    finally:
        starting.join(timeout=120)
        if starting.server is not None:
            starting.server.stop()
    return figures


with tempfile.TemporaryDirectory(prefix="sf-bench-serve-") as work:
    serve = measure(lambda: servers.start_serve(sf, log_dir, work),
                    lambda: address_printed_by_serve(os.path.join(work, "serve.log")))  # start_serve's file
    if history_server_missing:
        history_server = {"failure": f"not run: {history_server_missing}"}
    else:
        # Read by spark-class for the History Server (SparkClassCommandBuilder): the heap, and
        # options beside the SPARK_HISTORY_OPTS servers.py sets. A scan every second, so that
        # the list answers as soon as the scan has read the log; out of memory ends the JVM at
        # once instead of leaving it collecting garbage until the timeout.
        os.environ["SPARK_DAEMON_MEMORY"] = heap
        os.environ["SPARK_DAEMON_JAVA_OPTS"] = "-Dspark.history.fs.update.interval=1s -XX:+ExitOnOutOfMemoryError"
        history_server = measure(lambda: servers.start_history_server(pyspark_home, log_dir, work))


def seconds_text(s):
    return f"{s:,.2f} s" if s >= 1 else f"{s * 1000:,.1f} ms" if s >= 0.01 else f"{s * 1000:,.2f} ms"


def mib_text(v):
    return f"{v:,.0f} MiB"


def ratio_text(key):
    if key in history_server and key in serve and serve[key] > 0:
        r = history_server[key] / serve[key]
        return f"{r:,.0f}x" if r >= 100 else f"{r:,.1f}x" if r >= 1 else f"{r:,.2f}x"
    return "n/a"


# (key, row label, short name for the target lines, how a value reads)
ROWS = [
    ("list_s", "application list answers, from process start", "application list", seconds_text),
    ("jobs_cold_s", "first applications/<id>/jobs, from request sent", "first jobs answer", seconds_text),
    ("jobs_cached_s", "the same jobs request again (cached; median of 5)", "cached jobs answer", seconds_text),
    ("tasks_first_s", "taskList of the largest stage, first", "first taskList", seconds_text),
    ("tasks_again_s", "the same taskList again (median of 5)", "taskList again", seconds_text),
    ("requests_per_s", f"warm endpoints, requests/s ({LOAD_CLIENTS} clients, {LOAD_SECONDS:.0f} s)", "requests/s",
     lambda v: f"{v:,.0f} /s"),
    ("peak_rss_mib", "peak RSS (VmHWM)", "peak RSS", mib_text),
]
ROW = {key: (name, text) for key, _, name, text in ROWS}


def target_line(goal, keys, wanted_ratio):
    if not all(key in history_server and key in serve for key in keys):
        return f"target {goal}: not measured (see the failure above)"
    met = all(history_server[key] / serve[key] >= wanted_ratio for key in keys)
    details = ", ".join(f"{ROW[k][0]} {ratio_text(k)} ({ROW[k][1](history_server[k])} against {ROW[k][1](serve[k])})"
                        for k in keys)
    return f"target {goal}: {'met' if met else 'NOT met'}: {details}"


shape = serve if "stages" in serve else history_server
print(f"serve beside Spark's History Server on one generated log of {size_mb:,.0f} MB ({shape.get('jobs', '?')} jobs, "
      f"{shape.get('stages', '?')} stages, largest {shape.get('largest_stage_tasks', 0):,} tasks), "
      "one server at a time, each from a cold page cache")
if history_server_version:
    print(f"History Server: {history_server_version}; SPARK_DAEMON_MEMORY={heap} (its heap), "
          "spark.history.fs.update.interval=1s")
width = max(len(label) for _, label, _, _ in ROWS)
print(f"  {'':{width}}  {'History Server':>14}  {'serve':>12}  {'HS / serve':>10}")
for key, label, _, text in ROWS:
    history_server_cell = text(history_server[key]) if key in history_server else "-"
    serve_cell = text(serve[key]) if key in serve else "-"
    print(f"  {label:{width}}  {history_server_cell:>14}  {serve_cell:>12}  {ratio_text(key):>10}")
print("  (times from process start are polled every 10 ms; for requests/s a ratio below 1x favours serve)")
for name, figures in (("History Server", history_server), ("serve", serve)):
    if "jobs_cold_s" in figures:
        print(f"  {name} read the log for its first jobs answer at {size_mb / figures['jobs_cold_s']:,.0f} MB/s")
    if "load_cpu" in figures:
        print(f"  under {name}'s load the client process used {figures['load_cpu']:.0%} of a core")
for name, figures in (("History Server", history_server), ("serve", serve)):
    if "failure" in figures:
        print(f"{name} FAILED: {figures['failure']}")
        if figures.get("output_tail"):
            print("  its last output:\n    " + figures["output_tail"].replace("\n", "\n    "))
# The answers the issue names; the taskList rows are serve's own extra figures.
print(target_line("the History Server's answers at least 20x sooner", ["list_s", "jobs_cold_s", "jobs_cached_s"], 20))
print(target_line("in a tenth of its memory", ["peak_rss_mib"], 10))
sys.exit(1 if "failure" in serve else 0)
PY
