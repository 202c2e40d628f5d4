"""Problems of a cluster's executors (docs/detectors/timeline.md): dynamic allocation churn.

These run on local-cluster[W,C,M]: a standalone master and W workers inside the driver's JVM, each
worker starting its executors as JVMs of their own, so executors come and go as on a cluster.
Every executor of local-cluster is on the same host, so speculation cannot be planted here: Spark
never runs a copy of a task on a host where an attempt of it runs (TaskSetManager's
hasAttemptOnHost), and no copy is ever launched.
"""
import time

from pyspark.sql import functions as F

from scenario import QUICK_EXECUTOR_JVMS, Expectation, Scenario, problem_job, register, waits

# --- dynamic_allocation_churn --------------------------------------------------------------------

CHURN_ROUNDS = 3
CHURN_PAUSE_S = 2.0


def _churn(spark, fixed):
    # Rounds of work (two tasks of about a second each, waiting rather than computing) with the
    # driver busy on its own for a moment between them, as a job that polls for input does. The
    # jobs write to Spark's no-op sink: no shuffle, so shuffle tracking keeps no executor alive.
    rows = spark.range(0, 2000, 1, 2).select(waits(F.lit(True)).alias("w"))
    for round_index in range(CHURN_ROUNDS):
        if round_index > 0:
            time.sleep(CHURN_PAUSE_S)
        problem_job(spark, f"round {round_index}: work after a pause longer than the idle timeout")
        rows.write.format("noop").mode("overwrite").save()


register(Scenario(
    name="dynamic_allocation_churn",
    family="timeline",
    planted=f"dynamic allocation with a 1 s idle timeout removes both executors in each {CHURN_PAUSE_S:.0f} s pause "
            "between jobs; every job then waits for new executor JVMs",
    workload=_churn,
    master="local-cluster[2,1,1024]",
    settings={**QUICK_EXECUTOR_JVMS,
              "spark.dynamicAllocation.enabled": "true",
              "spark.dynamicAllocation.shuffleTracking.enabled": "true",
              "spark.dynamicAllocation.executorIdleTimeout": "1s",
              "spark.dynamicAllocation.maxExecutors": "2"},
    # analyze: a timeout of max(2 x 1s, 2 min) and a floor of the executors held on average (under
    # one: one). No longer backlog timeout: the executors all worked before they were removed.
    fix_settings={"spark.dynamicAllocation.executorIdleTimeout": "120s", "spark.dynamicAllocation.minExecutors": "1"},
    expect=Expectation(finding="autoscalingChurn",
                       settings={"spark.dynamicAllocation.executorIdleTimeout": "120s",
                                 "spark.dynamicAllocation.minExecutors": "1"}),
))

