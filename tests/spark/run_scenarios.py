"""Runs scenarios on real Spark and writes their event logs, one directory per run.

    .venv/bin/python tests/spark/run_scenarios.py --out DIR [--only NAME ...] [--rounds N] [--warmup NAME]

All runs share one Python process and one driver JVM: each run is its own SparkContext (its own
application and event log), started after the previous one stopped, so a run costs about a
second of start-up rather than a JVM's ten. local-cluster runs start their executors' JVMs each
time, as a cluster would. Scenarios on a standalone cluster of several hosts (standalone.py)
share it: it starts before the first of them and stops when the runner ends.

--warmup NAME runs that scenario's first variant once before the others, in the same driver JVM,
and leaves it out of the manifest: the first SparkContext of a JVM pays for loading and JIT, which
make validate must not measure.

DIR/manifest.json lists every run: scenario, variant, round, the log's path, the wall clock of
the workload as the driver measured it, and the settings it ran with. Rounds alternate the
variants (problem, fixed, problem, fixed, ...) so drift on a shared machine falls on both.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import standalone  # noqa: E402
from scenario import BASE_SETTINGS  # noqa: E402
from scenarios import REGISTRY  # noqa: E402


def _forget(settings):
    """PySpark leaves a session's settings in the driver JVM's system properties, which the next
    session of this process reads as its defaults: without this, every scenario after the first
    ran with the settings of the ones before it (spill's spark.memory.fraction=0.2, a shuffle
    partition count) besides its own."""
    from pyspark import SparkContext

    if SparkContext._jvm is not None:
        for key in settings:
            SparkContext._jvm.java.lang.System.clearProperty(key)


def run_once(scenario, variant, round_index, out_dir, clusters):
    from pyspark.sql import SparkSession

    log_dir = os.path.join(out_dir, scenario.name, f"{variant}-{round_index}")
    os.makedirs(log_dir, exist_ok=True)
    for stale in glob.glob(os.path.join(log_dir, "*")):
        raise RuntimeError(f"{log_dir} is not empty: {stale}")
    settings = dict(BASE_SETTINGS)
    settings.update(scenario.settings_for(variant))
    settings["spark.eventLog.dir"] = "file://" + os.path.abspath(log_dir)
    # One application name for both variants: the twin is the same application with the fix.
    master = clusters.master_of(scenario.cluster) if scenario.cluster else scenario.master_for(variant)
    builder = SparkSession.builder.master(master).appName(scenario.name)
    for key, value in settings.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    try:
        started = time.monotonic()
        scenario.workload(spark, variant == "fixed")
        workload_ms = int((time.monotonic() - started) * 1000)
    finally:
        spark.stop()
        _forget(settings)
    logs = sorted(glob.glob(os.path.join(log_dir, "*")))
    if len(logs) != 1:
        raise RuntimeError(f"{log_dir}: expected one event log, found {logs}")
    return {"scenario": scenario.name, "variant": variant, "round": round_index, "log": logs[0],
            "workloadMs": workload_ms, "master": master,
            "settings": scenario.settings_for(variant)}


def run_all(chosen, args, clusters, runs, failed):
    for scenario in chosen:
        for round_index in range(args.rounds):
            for variant in scenario.variants:
                label = f"{scenario.name} {variant} {round_index}"
                started = time.monotonic()
                try:
                    runs.append(run_once(scenario, variant, round_index, args.out, clusters))
                except Exception:  # noqa: BLE001 - a failed scenario is reported, the others still run
                    failed.append(label)
                    traceback.print_exc()
                print(f"run_scenarios: {label}: {time.monotonic() - started:.1f} s", file=sys.stderr, flush=True)


def main():
    # The Python workers run the driver's own interpreter (the project's .venv), as a deployment
    # ships one environment to both: PySpark hands them the interpreter PYSPARK_PYTHON names when
    # the context starts (python3 on the PATH otherwise), and Spark 4's Arrow-optimized Python
    # UDFs need pyarrow in the workers as well as in the driver.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--warmup", help="a scenario run once first and left out of the manifest")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list:
        for name, s in sorted(REGISTRY.items()):
            print(f"{name:28} {s.family:18} {s.planted}")
        return 0
    if not args.out:
        parser.error("--out DIR is required")
    unknown = [name for name in args.only + ([args.warmup] if args.warmup else []) if name not in REGISTRY]
    if unknown:
        print(f"run_scenarios: unknown scenario(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    chosen = [REGISTRY[name] for name in (args.only or sorted(REGISTRY))]
    os.makedirs(args.out, exist_ok=True)
    runs, failed = [], []
    # A runner stopped from outside still stops the clusters it started (they are sessions of
    # their own, so nothing else would).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with standalone.Clusters(os.path.join(args.out, "clusters")) as clusters:
        if args.warmup:
            warmup = REGISTRY[args.warmup]
            run_once(warmup, warmup.variants[0], 0, os.path.join(args.out, "warmup"), clusters)
        run_all(chosen, args, clusters, runs, failed)
    with open(os.path.join(args.out, "manifest.json"), "w") as out:
        json.dump({"runs": runs, "failed": failed}, out, indent=1, sort_keys=True)
    if failed:
        print(f"run_scenarios: {len(failed)} run(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
