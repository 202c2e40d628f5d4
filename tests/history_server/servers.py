"""The two servers the oracle compares, on one log directory: Spark's own History Server (from the
pinned pyspark of the project's .venv) and `sparkforensics serve`.

The log directory is assembled in a temporary directory outside the project from the shared
corpus (every log of its corpus-index.json but those listed in LEFT_OUT, with the reason) and,
when given, the logs the real-Spark scenarios wrote. Both servers want one flat directory, and the
corpus is a tree; its logs are read in place: each file is a hard link to the corpus's own (the
same bytes, nothing copied). Symbolic links would not do: serve refuses a link that leaves its
directory (src/io/path_confinement.h). Only where the system refuses a hard link (another
filesystem) is a file copied, into that temporary directory, removed after the run.
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

# Corpus logs not put in the directory. One directory holds one log per application attempt (the
# History Server keeps whichever of two same-id logs it read last), and the History Server reads
# neither a Databricks layout nor a log with a malformed line before its end.
LEFT_OUT = {
    "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling/malformed_json_eventlog.zstd":
        "rp_sql_eventlog.zstd with one line damaged: the History Server refuses the whole log "
        "(ReplayListenerBus rethrows a parse error before the last line); serve counts the line and reads the rest",
    "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/db_sim_eventlog":
        "eventlog_v2_local-1623876083964 re-packaged in the Databricks layout, which the History Server does not read",
    "NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-qualification/truncated_eventlog":
        "the application id of dsAndDf_eventlog.zstd (a cut copy of another run of it)",
    "apache__spark/core/src/test/resources/spark-events-broken/previous-attempt-incomplete/application_1656321732247_0006_1":
        "the application and attempt ids of last-attempt-incomplete/, which is kept",
    "apache__spark/core/src/test/resources/spark-events-broken/previous-attempt-incomplete/application_1656321732247_0006_2":
        "the application and attempt ids of last-attempt-incomplete/, which is kept",
}

# Spark names a log's codec by the text after its last dot: a corpus file named .txt is a plain
# log, copied without that suffix so that the History Server reads it.
NOT_A_CODEC = (".txt",)


def _link_or_copy(source, target):
    try:
        os.link(source, target)
    except OSError as e:
        if e.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
            raise
        shutil.copyfile(source, target)


def assemble_log_directory(corpus, scenario_logs, out):
    """Links the chosen logs into `out` (emptied first); returns the number of logs."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    sources = []
    with open(os.path.join(corpus, "corpus-index.json")) as f:
        for entry in json.load(f):
            if entry["path"] not in LEFT_OUT:
                sources.append((os.path.join(corpus, entry["path"]), entry["path"].split("/")[0]))
    if scenario_logs:
        # The first round of each scenario and variant: the other rounds are the same workload
        # again (for timing), so add requests and time, not cases.
        with open(os.path.join(scenario_logs, "manifest.json")) as f:
            runs = json.load(f)["runs"]
        first_round = min((run["round"] for run in runs), default=0)
        for run in runs:
            if run["round"] == first_round:
                sources.append((run["log"], f"{run['scenario']}-{run['variant']}-{run['round']}"))
    for path, origin in sources:
        name = os.path.basename(path.rstrip("/"))
        for suffix in NOT_A_CODEC:
            name = name.removesuffix(suffix)
        if os.path.exists(os.path.join(out, name)):
            name = f"{origin}__{name}"  # two origins with one file name (event_log_1)
        if os.path.isdir(path):
            shutil.copytree(path, os.path.join(out, name), copy_function=_link_or_copy)
        else:
            _link_or_copy(path, os.path.join(out, name))
    return len(sources)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, timeout=300):
    """GET url -> (status, content type, body bytes); HTTP errors are answers too."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


class Server:
    """A child process in its own process group, its output in a file."""

    def __init__(self, name, args, env, output_path):
        self.name = name
        self.output_path = output_path
        self._output = open(output_path, "wb")
        self.process = subprocess.Popen(args, env=env, stdout=self._output, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, start_new_session=True)
        self.base = None

    def output_tail(self, lines=30):
        with open(self.output_path, "rb") as f:
            return b"\n".join(f.read().splitlines()[-lines:]).decode("utf-8", "replace")

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._output.close()

    def wait_until_answering(self, path, timeout_s):
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited ({self.process.returncode}):\n{self.output_tail()}")
            if self.base is not None:
                try:
                    if get(self.base + path, timeout=10)[0] == 200:
                        return
                except OSError:
                    pass
            time.sleep(0.5)
        raise RuntimeError(f"{self.name} did not answer {path} within {timeout_s} s:\n{self.output_tail()}")


def start_history_server(pyspark_home, log_dir, work):
    """Spark's History Server on a free loopback port (SPARK_LOCAL_IP is what WebUI binds)."""
    conf_dir = os.path.join(work, "spark-conf")  # empty: no spark-defaults.conf of the machine
    os.makedirs(conf_dir, exist_ok=True)
    port = free_port()
    options = {
        # As serve is given it: both name it so in every attempt (logSourceName).
        "spark.history.fs.logDirectory": log_dir,
        "spark.history.ui.port": str(port),
        "spark.port.maxRetries": "0",  # the port asked for, or fail: never a neighbour
        # Every application of the directory stays loaded: each is replayed once.
        "spark.history.retainedApplications": "1000",
    }
    env = dict(os.environ, SPARK_HOME=pyspark_home, SPARK_CONF_DIR=conf_dir, SPARK_LOCAL_IP="127.0.0.1",
               SPARK_HISTORY_OPTS=" ".join(f"-D{k}={v}" for k, v in options.items()))
    server = Server("the History Server", [os.path.join(pyspark_home, "bin", "spark-class"),
                                           "org.apache.spark.deploy.history.HistoryServer"],
                    env, os.path.join(work, "history-server.log"))
    server.base = f"http://127.0.0.1:{port}/api/v1/"
    return server


def start_serve(binary, log_dir, work):
    """sparkforensics serve on a free port (--port 0; it prints the address it listens on)."""
    stdout_path = os.path.join(work, "serve.log")
    server = Server("serve", [binary, "serve", "--log-dir", log_dir, "--port", "0", "--rescan-interval", "3600",
                              "--max-loaded", "4",
                              # every stage of a log held: the stage lists with details read each
                              "--max-task-stages", "100000"],
                    dict(os.environ), stdout_path)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.base is None:
        with open(stdout_path, "rb") as f:
            for line in f.read().decode("utf-8", "replace").splitlines():
                if line.startswith("listening on http://"):
                    server.base = line.split()[2].removesuffix("applications")
        if server.process.poll() is not None:
            raise RuntimeError(f"serve exited ({server.process.returncode}):\n{server.output_tail()}")
        time.sleep(0.1)
    if server.base is None:
        raise RuntimeError(f"serve printed no address within 60 s:\n{server.output_tail()}")
    return server


def listing(server):
    """{application id: {attempt id ("" for none): unfinished}} from applications."""
    status, _, body = get(server.base + "applications")
    if status != 200:
        return None
    return {app["id"]: {a.get("attemptId", ""): not a["completed"] for a in app["attempts"]}
            for app in json.loads(body)}


def wait_for_same_listing(history_server, serve, timeout_s):
    """Waits until both list the same applications and attempts. The History Server lists each
    log as its background scan replays it; gives up when its list stopped changing for a while
    and still differs. Returns (History Server's listing, serve's listing)."""
    deadline = time.monotonic() + timeout_s
    expected = listing(serve)
    last, last_change = None, time.monotonic()
    while True:
        if history_server.process.poll() is not None:
            raise RuntimeError(f"the History Server exited:\n{history_server.output_tail()}")
        got = listing(history_server)
        if got == expected:
            return got, expected
        if got != last:
            last, last_change = got, time.monotonic()
        if time.monotonic() > deadline or (got and time.monotonic() - last_change > 30):
            return got or {}, expected
        time.sleep(1)
