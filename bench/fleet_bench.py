"""The fleet job's throughput and memory, on local-cluster Spark (one JVM per executor, as on a
cluster): bench/fleet.sh generates the logs and runs this once per executor count.

    python bench/fleet_bench.py --logs DIR --sizes SIZES.tsv --executors N --work DIR --label NAME

Times sparkforensics.fleet.run over every log of DIR (into a fresh SQLite store and Parquet
tables, as a first run would), excluding Spark's start, and samples every executor's resident
memory (its JVM and the Python workers it forks) from /proc while the job runs. Prints one line
of figures, and the same as JSON on the last line for fleet.sh to compute the speed-up. A
benchmark: it asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import threading
import time


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # the process ended while listed
            tree.setdefault(parent, []).append(int(entry))
    return tree


def _kib_field_bytes(pid: int, file: str, field: str) -> int:
    """A "Field:  N kB" line of /proc/PID/FILE, in bytes; 0 once the process has ended."""
    try:
        with open(f"/proc/{pid}/{file}") as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _rss_bytes(pid: int) -> int:
    return _kib_field_bytes(pid, "status", "VmRSS:")


def _pss_bytes(pid: int) -> int:
    """Proportional set size: a forked Python worker's pages shared with its daemon counted once
    between them, where summing RSS would count them once per worker."""
    return _kib_field_bytes(pid, "smaps_rollup", "Pss:")


def _descendants(tree: dict[int, list[int]], pid: int) -> list[int]:
    out, todo = [], list(tree.get(pid, []))
    while todo:
        child = todo.pop()
        out.append(child)
        todo.extend(tree.get(child, []))
    return out


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""  # the process ended while listed


def _executor_pids(tree: dict[int, list[int]]) -> list[int]:
    """This job's executor JVMs: local-cluster's workers (in the driver's JVM, a child of this
    process) start them; another Spark application's executors on the machine are not ours.
    spark-class first runs Spark's launcher (org.apache.spark.launcher.Main, given the executor's
    arguments) to build the executor's command: a short-lived JVM that is not an executor. And
    an executor forking a process (its Python daemon) shows as a copy of itself with its memory
    until the child runs its own program: only the outermost of such JVMs is the executor."""
    jvms = []
    for pid in _descendants(tree, os.getpid()):
        argv = _cmdline(pid).split(b"\0")
        if (argv[0].endswith(b"java") and b"org.apache.spark.executor.CoarseGrainedExecutorBackend" in argv
                and b"org.apache.spark.launcher.Main" not in argv):
            jvms.append(pid)
    forked = {child for pid in jvms for child in _descendants(tree, pid)}
    return [pid for pid in jvms if pid not in forked]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a live process so far (its own threads, not its children)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _driver_jvm_pid(tree: dict[int, list[int]]) -> int:
    """The driver's JVM: the child of this process that runs Spark's submit (pyspark's gateway)."""
    for pid in tree.get(os.getpid(), []):
        if b"org.apache.spark.deploy.SparkSubmit" in _cmdline(pid):
            return pid
    return 0


class MemorySampler(threading.Thread):
    """Peak memory per executor: its JVM's RSS, and the largest sum of its Python workers'
    proportional set sizes (pyspark's daemon and the workers it forks) at one time."""

    def __init__(self, period_s: float = 0.1):
        super().__init__(daemon=True)
        self.period_s, self.stop = period_s, threading.Event()
        self.jvm_peak: dict[int, int] = {}
        self.python_peak: dict[int, int] = {}

    def run(self) -> None:
        while not self.stop.is_set():
            tree = _children()
            for pid in _executor_pids(tree):
                descendants = _descendants(tree, pid)
                self.jvm_peak[pid] = max(self.jvm_peak.get(pid, 0), _rss_bytes(pid))
                self.python_peak[pid] = max(self.python_peak.get(pid, 0), sum(_pss_bytes(d) for d in descendants))
            self.stop.wait(self.period_s)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--logs", required=True)
    parser.add_argument("--sizes", required=True, help="TSV: path, uncompressed bytes, stored bytes (from sf-loggen)")
    parser.add_argument("--executors", type=int, required=True)
    parser.add_argument("--executor-memory-mb", type=int, default=1024)
    parser.add_argument("--work", required=True)
    parser.add_argument("--label", required=True)
    args = parser.parse_args()

    from pyspark.sql import SparkSession
    from sparkforensics import fleet

    sizes = [line.rstrip("\n").split("\t") for line in open(args.sizes) if line.strip()]
    uncompressed = sum(int(s[1]) for s in sizes)
    stored = sum(int(s[2]) for s in sizes)
    largest = max(sizes, key=lambda s: int(s[2]))
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(fleet.__file__)))
    spark = (SparkSession.builder.master(f"local-cluster[{args.executors},1,{args.executor_memory_mb}]")
             .appName(f"sparkforensics-fleet-bench-{args.label}").config("spark.ui.enabled", "false")
             .config("spark.executorEnv.PYTHONPATH", package_parent)
             .config("spark.executorEnv.PYSPARK_PYTHON", sys.executable).getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    # The executors started and their Python ready before the clock runs: a warm-up task.
    spark.sparkContext.parallelize(range(args.executors * 2), args.executors * 2).map(lambda x: x).count()
    sampler = MemorySampler()
    sampler.start()
    # The driver's CPU during the run (this Python: listing, storing results, writing Parquet
    # through its JVM), to tell a driver-bound run from an executor-bound one.
    driver_jvm = _driver_jvm_pid(_children())
    driver_cpu_before = sum(os.times()[:2]) + _cpu_seconds(driver_jvm)
    started = time.perf_counter()
    summary = fleet.run(spark, args.logs, os.path.join(args.work, "store.db"), parquet=os.path.join(args.work, "out"))
    elapsed = time.perf_counter() - started
    driver_cpu = sum(os.times()[:2]) + _cpu_seconds(driver_jvm) - driver_cpu_before
    sampler.stop.set()
    sampler.join()
    spark.stop()
    if summary.analyzed != len(sizes):
        print(f"fleet bench {args.label}: {summary.line()}", file=sys.stderr)
        for failure in summary.failures[:5]:
            print(f"  failed: {failure}", file=sys.stderr)
        return 1
    figures = {
        "label": args.label, "executors": args.executors, "logs": summary.analyzed, "seconds": elapsed,
        "logsPerSecond": summary.analyzed / elapsed, "storedMBps": stored / 1e6 / elapsed,
        "uncompressedMBps": uncompressed / 1e6 / elapsed,
        "largestLogStoredBytes": int(largest[2]), "largestLogUncompressedBytes": int(largest[1]),
        # One entry per executor, in the same order in both lists.
        "executorJvmPeakRssBytes": [sampler.jvm_peak[pid] for pid in sorted(sampler.jvm_peak)],
        "executorPythonPeakRssBytes": [sampler.python_peak[pid] for pid in sorted(sampler.jvm_peak)],
        "driverCpuSeconds": driver_cpu,
    }
    mb = lambda b: f"{b / 1e6:.0f} MB"  # noqa: E731
    print(f"{args.label}, {args.executors} executor(s): {summary.analyzed} logs in {elapsed:.1f} s: "
          f"{figures['logsPerSecond']:.1f} logs/s, {figures['storedMBps']:.1f} MB/s as stored "
          f"({figures['uncompressedMBps']:.1f} MB/s uncompressed); peak RSS per executor: JVM "
          f"{', '.join(mb(b) for b in figures['executorJvmPeakRssBytes'])}, its Python workers "
          f"{', '.join(mb(b) for b in figures['executorPythonPeakRssBytes'])}; largest log "
          f"{mb(int(largest[2]))} stored, {mb(int(largest[1]))} uncompressed; the driver's CPU "
          f"{driver_cpu:.1f} s ({100 * driver_cpu / elapsed:.0f}% of one core over the run)")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
