"""A Spark standalone cluster on this machine whose workers are different hosts.

local-cluster puts every executor on one host, and some problems only exist between hosts: a
slow machine, and speculation (Spark never runs a copy of a task on a host where an attempt of
it runs). Linux answers every address of 127.0.0.0/8 on the loopback device, so a worker bound
to 127.0.0.3 is a host of its own to Spark: its executors report that host, and the scheduler
treats it as a different machine.

The master and the workers are the JVMs a real cluster runs (pyspark's bin/spark-class), started
once for every scenario that names the same cluster and stopped when the runner ends. A worker's
environment is its executors' environment: that is how a scenario marks a host as slow.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import signal
import socket
import subprocess
import time

START_TIMEOUT_S = 90


@dataclasses.dataclass(frozen=True)
class Worker:
    host: str                  # a loopback address of its own: 127.0.0.2, 127.0.0.3, ...
    cores: int
    memory_mb: int = 1024
    env: tuple = ()            # (name, value) pairs its executors see in their environment


@dataclasses.dataclass(frozen=True)
class Cluster:
    workers: tuple

    # What every application on the cluster needs: the driver reachable from the workers'
    # addresses, and every executor registered before the first job, so task placement does not
    # depend on which JVM started first. Standalone waits for a share of spark.cores.max, and for
    # nothing when that is unset.
    def app_settings(self) -> dict:
        return {"spark.driver.host": "127.0.0.1",
                "spark.cores.max": str(sum(w.cores for w in self.workers)),
                "spark.driver.bindAddress": "127.0.0.1",
                "spark.scheduler.minRegisteredResourcesRatio": "1.0",
                "spark.scheduler.maxRegisteredResourcesWaitingTime": f"{START_TIMEOUT_S}s"}


def _spark_home():
    import pyspark

    return os.path.dirname(os.path.abspath(pyspark.__file__))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Running:
    def __init__(self, cluster: Cluster, scratch: str):
        self.cluster = cluster
        self.scratch = scratch
        self.processes = []
        self.url = ""

    def _start(self, name, args, extra_env):
        home = _spark_home()
        env = dict(os.environ, SPARK_HOME=home, SPARK_LOG_DIR=self.scratch, SPARK_NO_DAEMONIZE="1",
                   SPARK_MASTER_OPTS="-Dspark.master.rest.enabled=false")
        env.update(extra_env)
        log = open(os.path.join(self.scratch, f"{name}.log"), "w")
        process = subprocess.Popen([os.path.join(home, "bin", "spark-class"), *args], env=env, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append((name, process, log))

    def start(self):
        os.makedirs(self.scratch, exist_ok=True)
        port = _free_port()
        self.url = f"spark://127.0.0.1:{port}"
        self._start("master", ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
                               "--webui-port", "0"], {})
        for w in self.cluster.workers:
            work_dir = os.path.join(self.scratch, f"work-{w.host}")
            self._start(f"worker-{w.host}",
                        ["org.apache.spark.deploy.worker.Worker", "--host", w.host, "--cores", str(w.cores),
                         "--memory", f"{w.memory_mb}m", "--webui-port", "0", "--work-dir", work_dir, self.url],
                        dict(w.env))
        self._wait_for_workers()
        return self.url

    def _wait_for_workers(self):
        master_log = os.path.join(self.scratch, "master.log")
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            for name, process, _ in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"standalone {name} exited with {process.returncode}: see "
                                       f"{os.path.join(self.scratch, name + '.log')}")
            with open(master_log) as f:
                registered = set(re.findall(r"Registering worker (\S+):\d+ with", f.read()))
            if registered >= {w.host for w in self.cluster.workers}:
                return
            time.sleep(0.25)
        raise RuntimeError(f"standalone cluster: not every worker registered within {START_TIMEOUT_S} s: "
                           f"see {self.scratch}")

    def stop(self):
        for _, process, _ in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for _, process, log in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            log.close()


class Clusters:
    """The clusters the scenarios of one runner need, each started on first use."""

    def __init__(self, scratch: str):
        self.scratch = scratch
        self.running: dict = {}
        self.stack = contextlib.ExitStack()

    def master_of(self, cluster: Cluster) -> str:
        if cluster not in self.running:
            running = _Running(cluster, os.path.join(self.scratch, f"standalone-{len(self.running)}"))
            self.stack.callback(running.stop)
            self.running[cluster] = running.start()
        return self.running[cluster]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stack.close()
        return False
