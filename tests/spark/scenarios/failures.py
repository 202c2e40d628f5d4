"""Failed tasks, failed jobs and lost executors (docs/detectors/failures.md).

task_retries is a problem with a twin: its retries cost wall-clock, and analyze must put them
first. The others are failures whose fix is in the code, not in time to win back: each runs
once (as a control does: nothing in "Fix these first" may claim a large share of it), and what
analyze must say about its root cause is in EXPECTED, asserted by test_failures.py.

Local mode retries a failed task only with a failure budget in the master ("local[2,4]": two
slots, four attempts per task). A job that fails on purpose is caught here, so the run itself
succeeds. Event logs are written uncompressed so that test_failures.py can read the raw events
as an oracle of its own.
"""
import sys
import threading
import time

from pyspark import TaskContext, cloudpickle
from pyspark.sql import functions as F
from pyspark.sql.types import LongType

from scenario import QUICK_EXECUTOR_JVMS, Expectation, Scenario, other_job, problem_job, register

# Python workers cannot import this module (tests/spark is only on the driver's path): ship its
# functions by value, with their file and line numbers, which the tracebacks then name.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

RETRYING_MASTER = "local[2,4]"
PLAIN_LOG = {"spark.eventLog.compress": "false"}


def _expect_failure(action):
    """Runs a job that must fail; a job that succeeds means the scenario planted nothing."""
    try:
        action()
    except Exception:  # noqa: BLE001 - pyspark raises Py4JJavaError, PythonException, ... for a failed job
        return
    raise AssertionError("the job was meant to fail and did not")


# --- task_retries ---------------------------------------------------------------------------------

class FlakyStep(RuntimeError):
    pass


def _flaky_partition(fixed):
    def run(index, rows):
        # Work that costs wall-clock, not a core: two slots on a shared two-core machine.
        time.sleep(0.9)
        if not fixed and index % 2 == 0 and TaskContext.get().attemptNumber() == 0:
            raise FlakyStep(f"partition {index}: the first attempt fails near its end")
        time.sleep(0.1)
        return [sum(1 for _ in rows)]
    return run


def _task_retries(spark, fixed):
    problem_job(spark, "half the partitions fail near the end of their first attempt and are retried")
    spark.sparkContext.parallelize(range(800), 8).mapPartitionsWithIndex(_flaky_partition(fixed)).sum()


register(Scenario(
    name="task_retries",
    family="failures",
    planted="the first attempt of half the tasks of a stage fails after 0.9 s of its 1 s and is retried",
    workload=_task_retries,
    master=RETRYING_MASTER,
    settings=PLAIN_LOG,
    fix_code="the flaky step no longer fails: every task succeeds on its first attempt",
    expect=Expectation(finding="retryWaste", rule="failedTasks", recommendation_mentions=("fix it in the code",)),
))


# --- failed_jvm_cause -----------------------------------------------------------------------------

def _failed_jvm_cause(spark, fixed):
    # reflect() calls Integer.parseInt inside the task: the NumberFormatException arrives wrapped in
    # an InvocationTargetException, the innermost cause of the task's stack trace.
    rows = spark.range(0, 200, 1, 2).select(
        F.when(F.col("id") == 137, F.lit("x137")).otherwise(F.col("id").cast("string")).alias("text"))
    parsed = rows.select(F.expr("reflect('java.lang.Integer', 'parseInt', text)").alias("n"))
    problem_job(spark, "parse a column with a value that is not a number")
    _expect_failure(parsed.collect)


register(Scenario(
    name="failed_jvm_cause",
    family="failures",
    planted="a task parses 'x137' with Integer.parseInt through SQL reflect(): a NumberFormatException nested "
            "under an InvocationTargetException fails the job after four attempts",
    workload=_failed_jvm_cause,
    master=RETRYING_MASTER,
    settings=PLAIN_LOG,
    control=True,
))


# --- failed_python_udf ----------------------------------------------------------------------------

def _parse_amount(text):
    if not text.isdigit():
        raise ValueError(f"not an amount: {text!r}")
    return int(text)


def _normalize(text):
    return _parse_amount(text.strip().lstrip("$"))


def _amount(text):
    return _normalize(text)


def _failed_python_udf(spark, fixed):
    rows = spark.range(0, 200, 1, 2).select(
        F.when(F.col("id") == 42, F.lit("n/a")).otherwise(F.concat(F.lit("$"), F.col("id").cast("string"))).alias("text"))
    problem_job(spark, "sum amounts through a Python UDF that meets a value it cannot parse")
    amount = F.udf(_amount, LongType())
    _expect_failure(lambda: rows.agg(F.sum(amount("text"))).collect())


register(Scenario(
    name="failed_python_udf",
    family="failures",
    planted="a Python UDF raises ValueError from a helper two calls deep on one row: the job fails",
    workload=_failed_python_udf,
    master=RETRYING_MASTER,
    settings=PLAIN_LOG,
    control=True,
))


# --- shutdown_during_job --------------------------------------------------------------------------

def _shutdown_during_job(spark, fixed):
    # Every task sleeps 1.5 s (no core used); the main thread stops the session once they run.
    slow = spark.range(0, 4, 1, 4).select(F.expr("reflect('java.lang.Thread', 'sleep', cast(1500 as bigint))"))

    def run_in_thread():
        # Job descriptions are the submitting thread's: this thread names its own job.
        problem_job(spark, "a job still running when the session is stopped")
        _expect_failure(slow.collect)

    worker = threading.Thread(target=run_in_thread)
    worker.start()
    tracker = spark.sparkContext.statusTracker()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        running = [tracker.getStageInfo(s) for s in tracker.getActiveStageIds()]
        if any(info is not None and info.numActiveTasks > 0 for info in running):
            break
        time.sleep(0.02)
    spark.stop()
    worker.join()


register(Scenario(
    name="shutdown_during_job",
    family="failures",
    planted="the main thread stops the SparkContext while a job started from another thread is running",
    workload=_shutdown_during_job,
    master=RETRYING_MASTER,
    settings=PLAIN_LOG,
    control=True,
))


# --- executors_lost_exit_code ---------------------------------------------------------------------

WARM = "sf.scenario.warm"
EXECUTORS = 2


def _wait_for_executors(spark, count):
    deadline = time.monotonic() + 120
    # getExecutorMemoryStatus lists the driver's block manager too.
    while spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() < count + 1:
        if time.monotonic() > deadline:
            raise RuntimeError(f"fewer than {count} executors registered in 120 s")
        time.sleep(0.1)


def _executors_lost_exit_code(spark, fixed):
    _wait_for_executors(spark, EXECUTORS)
    # Mark the executors running now, one task each (one core each, all offered at once; the sleep
    # keeps a task from finishing before the others are placed).
    other_job(spark, "mark the executors that will run the first attempts")
    spark.range(0, EXECUTORS, 1, EXECUTORS).select(
        F.expr("reflect('java.lang.Thread', 'sleep', cast(300 as bigint))"),
        F.expr(f"reflect('java.lang.System', 'setProperty', '{WARM}', 'yes')")).collect()
    # On a marked executor (a first attempt) each task works 1.5 s, then the problem run's calls
    # System.exit(3). The retries run on the executors the workers start in place of the dead
    # ones, which carry no mark: they skip the work and succeed. The twin does the same work and
    # does not exit.
    marked = F.expr(f"reflect('java.lang.System', 'getProperty', '{WARM}')") == "yes"
    # reflect() gives the text of what the method returned ("null" for a void one), never SQL NULL.
    worked = F.expr("reflect('java.lang.Thread', 'sleep', cast(1500 as bigint))").isNotNull()
    done = marked & worked  # evaluated left to right: only marked executors work
    problem_job(spark, "the first attempt of every task makes its executor exit with code 3")
    spark.range(0, EXECUTORS, 1, EXECUTORS).select(
        (done if fixed else F.when(done, F.expr("reflect('java.lang.System', 'exit', 3)"))).alias("outcome")).collect()


register(Scenario(
    name="executors_lost_exit_code",
    family="failures",
    planted=f"the first attempt of each of {EXECUTORS} tasks calls System.exit(3) on its executor after 1.5 s of "
            "work (local-cluster); the retries succeed on the executors started in their place",
    workload=_executors_lost_exit_code,
    master=f"local-cluster[{EXECUTORS},1,1024]",
    settings={**PLAIN_LOG, **QUICK_EXECUTOR_JVMS},
    fix_code="no task calls System.exit: the executors live and every first attempt succeeds",
    expect=Expectation(finding="retryWaste", rule="failedTasks", recommendation_mentions=("System.exit",)),
))


# --- what analyze must say about each one's failures (test_failures.py) ------------------------------
# The variant whose log is read; the failures finding's rule (Spark's kind of failure) and root cause:
# its class, a word of its message, the exception it was nested under; for a Python cause the line
# of this file that raised it (found by the marker, so no line number is written down here); for a
# lost executor its exit code.

EXPECTED = {
    "task_retries": {
        "variant": "problem",
        "rule": "ExceptionFailure",
        "root_class": "FlakyStep",
        "message_has": "the first attempt fails near its end",
        "raised_at": ("run", "raise FlakyStep("),
    },
    "failed_jvm_cause": {
        "variant": "control",
        "rule": "ExceptionFailure",
        "root_class": "java.lang.NumberFormatException",
        "message_has": "x137",
        "outer_class": "java.lang.reflect.InvocationTargetException",
    },
    "failed_python_udf": {
        "variant": "control",
        "rule": "ExceptionFailure",
        "root_class": "ValueError",
        "message_has": "not an amount: 'n/a'",
        "raised_at": ("_parse_amount", "raise ValueError("),
    },
    "shutdown_during_job": {
        "variant": "control",
        "cancelled_by_shutdown": True,
    },
    "executors_lost_exit_code": {
        "variant": "problem",
        "rule": "ExecutorLostFailure",
        "exit_code": 3,
        "executors": EXECUTORS,
    },
}
