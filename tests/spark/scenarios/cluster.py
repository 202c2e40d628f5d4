"""Problems of a cluster's executors and hosts (docs/detectors/timeline.md, hosts.md).

dynamic_allocation_churn runs on local-cluster[W,C,M]: a standalone master and W workers inside
the driver's JVM, each worker starting its executors as JVMs of their own, so executors come and
go as on a cluster. Every executor of local-cluster is on one host, so what happens between hosts
(a slow machine; speculation, which never runs a copy of a task on a host where an attempt of it
runs) runs on a standalone cluster whose workers are hosts of their own (standalone.py).
"""
import time

from pyspark.sql import functions as F

from scenario import QUICK_EXECUTOR_JVMS, Expectation, Scenario, problem_job, register, waits
from standalone import Cluster, Worker

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


# --- slow_host ------------------------------------------------------------------------------------

# Three hosts of three task slots; the third is slow: its executor's environment says so, and
# every row there waits SLOW_FACTOR times as long as on its peers, as on a machine with a failing
# disk or a throttled CPU. The work waits rather than computes, so nine slots behave as nine cores
# on a two-core machine.
SLOW_FACTOR = 8
THREE_HOSTS_ONE_SLOW = Cluster(workers=(
    Worker(host="127.0.0.2", cores=3),
    Worker(host="127.0.0.3", cores=3),
    Worker(host="127.0.0.4", cores=3, env=(("SF_SLOW_HOST", str(SLOW_FACTOR)),)),
))
ROW_WAIT_MS = 4


def _slow_host(spark, fixed):
    # 72 tasks of 200 rows: about 0.8 s each on the two good hosts, 6.4 s on the slow one. The
    # twin is the same cluster with the slow host repaired: its tasks run as its peers' do.
    slowness = F.expr("try_cast(reflect('java.lang.System', 'getenv', 'SF_SLOW_HOST') as int)")
    factor = F.lit(1) if fixed else F.coalesce(slowness, F.lit(1))
    wait = F.call_function("reflect", F.lit("java.lang.Thread"), F.lit("sleep"), (factor * ROW_WAIT_MS).cast("bigint"))
    problem_job(spark, "72 tasks, a third of the slots on a slow host")
    spark.range(0, 72 * 200, 1, 72).select(wait.isNull().alias("w")).write.format("noop").mode("overwrite").save()


register(Scenario(
    name="slow_host",
    family="hosts",
    planted=f"one of three hosts runs every task {SLOW_FACTOR}x slower than the other two",
    workload=_slow_host,
    cluster=THREE_HOSTS_ONE_SLOW,
    settings={**QUICK_EXECUTOR_JVMS, "spark.executor.memory": "512m"},
    # analyze: take the host out of the pool and repair it; speculation is the stopgap until then.
    fix_code="the slow host repaired: its tasks run as fast as its peers'",
    expect=Expectation(finding="slowHost", recommendation_mentions=("127.0.0.4",)),
    # Executors start after the application does: the job is what the fix changes.
    measure="problem_jobs",
))
