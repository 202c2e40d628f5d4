"""What a real-Spark scenario is: a planted problem and its fixed twin, run on the same data.

Each scenario is a workload function run twice on real Spark (pyspark from the project's
.venv): as the problem, and as the twin with exactly the change SparkForensics recommends
(settings in `fix_settings`, or a code change the workload makes when `fixed` is true). A
control runs once and must give nothing to fix. A sizing scenario runs one workload once per
master of `sizes` (smallest first): the what-if simulation of the smallest run must predict the
wall-clock of the larger ones (test_sizes.py, validate.py). The event logs Spark writes are what the tests
analyze (test_scenarios.py) and what `make validate` measures (validate.py).

The job that carries the problem is named with `problem_job(spark, ...)`: its description is
the marker the tests use to find the stages a finding must be about.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import tempfile
from typing import Callable, Optional

from standalone import Cluster

PROBLEM_MARKER = "sf-problem: "

# What every scenario's Spark shares: event logs on, no UI, quiet.
BASE_SETTINGS = {
    "spark.eventLog.enabled": "true",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.log.level": "ERROR",
    "spark.sql.session.timeZone": "UTC",
}

# local-cluster executors are JVMs of their own: start them with the quick compiler only.
QUICK_EXECUTOR_JVMS = {"spark.executor.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"}


@dataclasses.dataclass(frozen=True)
class Expectation:
    """What analyze must say about the problem run and its twin."""

    finding: str                      # the finding type that must lead "Fix these first"
    rule: Optional[str] = None        # its rule/variant, when one is meant
    # Settings the finding must suggest, with these values (the twin applies exactly these).
    settings: dict = dataclasses.field(default_factory=dict)
    # Words the recommendation must contain when the fix is a code change (e.g. "repartition").
    recommendation_mentions: tuple = ()
    # On the twin the finding is gone, or its recoverable figure is at most this share of the
    # problem run's.
    twin_share_at_most: float = 0.2
    # Where the rollup puts the finding: "time" (it leads "Fix these first"), or "resource" /
    # "count" for a cost the log cannot show as wall-clock (it must be there on the problem run,
    # the only finding of its tier there, and gone from the twin).
    tier: str = "time"
    # Findings that must be reported beside it on the problem run and be gone from the twin, as
    # (type, rule) pairs: an informational finding names the setting behind the problem without
    # a figure of its own (configAudit's rules).
    also: tuple = ()


@dataclasses.dataclass(frozen=True)
class Scenario:
    name: str
    family: str                        # detector family (docs/detectors/<family>.md)
    planted: str                       # one sentence: what is wrong in the problem run
    workload: Callable                 # workload(spark, fixed: bool) -> None
    master: str = "local[2]"
    # A standalone cluster of several hosts to run on instead of `master` (standalone.py).
    cluster: Optional["Cluster"] = None
    settings: dict = dataclasses.field(default_factory=dict)      # both variants
    fix_settings: dict = dataclasses.field(default_factory=dict)  # the twin's change
    fix_code: Optional[str] = None     # the twin's code change, in words
    expect: Optional[Expectation] = None
    control: bool = False              # one run, nothing significant to fix
    # Finding types a control must not be offered to fix first at any size (besides any time
    # finding over 10% of the app, which no control may be).
    quiet_types: tuple = ()
    # What make validate measures the fix against: "app", the application's wall-clock, or
    # "problem_jobs", the span of the jobs marked as the problem, when the twin's change also
    # reshapes set-up work the finding does not claim (writing the small files it then reads).
    measure: str = "app"
    # A sizing scenario: the masters it runs on, smallest first (variants "size-0", "size-1", ...).
    sizes: tuple = ()

    @property
    def sizing(self) -> bool:
        return bool(self.sizes)

    @property
    def variants(self) -> tuple:
        if self.sizing:
            return tuple(f"size-{i}" for i in range(len(self.sizes)))
        return ("control",) if self.control else ("problem", "fixed")

    def master_for(self, variant: str) -> str:
        if self.sizing:
            return self.sizes[int(variant.split("-")[1])]
        return self.master

    def settings_for(self, variant: str) -> dict:
        merged = dict(self.cluster.app_settings()) if self.cluster else {}
        merged.update(self.settings)
        if variant == "fixed":
            merged.update(self.fix_settings)
        return merged


REGISTRY: dict[str, Scenario] = {}


def register(scenario: Scenario) -> Scenario:
    if scenario.name in REGISTRY:
        raise ValueError(f"two scenarios named {scenario.name}")
    if scenario.sizing:
        if scenario.control or scenario.expect is not None or len(scenario.sizes) < 2:
            raise ValueError(f"{scenario.name}: a sizing scenario has two sizes or more and nothing to fix")
        REGISTRY[scenario.name] = scenario
        return scenario
    if not scenario.control and scenario.expect is None:
        raise ValueError(f"{scenario.name}: a problem scenario needs an expectation")
    if not scenario.control and not scenario.fix_settings and not scenario.fix_code:
        raise ValueError(f"{scenario.name}: a twin needs fix_settings or fix_code")
    REGISTRY[scenario.name] = scenario
    return scenario


def problem_job(spark, what: str) -> None:
    """Names the jobs that follow as the ones carrying the planted problem."""
    spark.sparkContext.setJobDescription(PROBLEM_MARKER + what)


def other_job(spark, what: str) -> None:
    spark.sparkContext.setJobDescription(what)


@contextlib.contextmanager
def scratch_dir(name):
    """A directory for the files a workload writes before its problem job, removed afterwards."""
    path = os.path.join(tempfile.gettempdir(), f"sf-scenario-{os.getpid()}-{name}")
    shutil.rmtree(path, ignore_errors=True)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def waits(condition):
    """A column that sleeps 1 ms on every row where `condition` holds and is 0 elsewhere: work
    that costs wall-clock without a core, like a call to an outside service. Scenarios about the
    shape of a stage (skew, too few partitions, stragglers) use it with local[8] so that eight
    task slots behave as eight cores on a two-core machine."""
    from pyspark.sql import functions as F

    return F.when(condition, F.expr("reflect('java.lang.Thread', 'sleep', cast(1 as bigint))").isNull().cast("int")) \
        .otherwise(F.lit(0))
