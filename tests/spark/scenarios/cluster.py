"""Problems of a cluster's executors and hosts (docs/detectors/timeline.md, hosts.md).

dynamic_allocation_churn runs on local-cluster[W,C,M]: a standalone master and W workers inside
the driver's JVM, each worker starting its executors as JVMs of their own, so executors come and
go as on a cluster. Every executor of local-cluster is on one host, so what happens between hosts
(a slow machine; speculation, which never runs a copy of a task on a host where an attempt of it
runs) runs on a standalone cluster whose workers are hosts of their own (standalone.py).
"""
import time

from pyspark.sql import functions as F

from scenario import QUICK_EXECUTOR_JVMS, Expectation, Scenario, other_job, problem_job, register, waits
from standalone import Cluster, Worker


def dynamic_allocation(max_executors, **settings):
    """Dynamic allocation on local-cluster: no external shuffle service, so shuffle tracking keeps
    the executors that hold shuffle data; settings are more dynamicAllocation.* keys."""
    return {**QUICK_EXECUTOR_JVMS,
            "spark.dynamicAllocation.enabled": "true",
            "spark.dynamicAllocation.shuffleTracking.enabled": "true",
            "spark.dynamicAllocation.maxExecutors": str(max_executors),
            **{f"spark.dynamicAllocation.{key}": value for key, value in settings.items()}}


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
    settings=dynamic_allocation(2, executorIdleTimeout="1s"),
    # analyze: a timeout of max(2 x 1s, 2 min) and a floor of the executors held on average (under
    # one: one). No longer backlog timeout: the executors all worked before they were removed.
    fix_settings={"spark.dynamicAllocation.executorIdleTimeout": "120s", "spark.dynamicAllocation.minExecutors": "1"},
    expect=Expectation(finding="autoscalingChurn",
                       settings={"spark.dynamicAllocation.executorIdleTimeout": "120s",
                                 "spark.dynamicAllocation.minExecutors": "1"}),
))


# --- slow_allocation_ramp --------------------------------------------------------------------------

RAMP_JOBS = 3
RAMP_TASKS = 16
RAMP_TASK_ROWS = 1500  # about 1.5 s a task: one 1 ms wait a row
RAMP_RATIO = 0.125     # executors for 16 x 0.125 = 2 of the 16 tasks at once, of the 4 allowed


def _slow_ramp(spark, fixed):
    # Jobs of 16 waiting tasks on up to four one-core executors; the executors stay between jobs
    # (the default idle timeout, 60 s, is longer than the run), so only the ratio limits them.
    # Each job's rows are new ones, as a batch job's next input is: nothing to cache.
    rows = RAMP_TASKS * RAMP_TASK_ROWS
    for job in range(RAMP_JOBS):
        problem_job(spark, f"job {job}: {RAMP_TASKS} tasks on the executors the allocation ratio allows")
        spark.range(job * rows, (job + 1) * rows, 1, RAMP_TASKS).select(waits(F.lit(True)).alias("w")) \
            .write.format("noop").mode("overwrite").save()


register(Scenario(
    name="slow_allocation_ramp",
    family="timeline",
    planted=f"dynamic allocation with executorAllocationRatio {RAMP_RATIO} holds 2 of the 4 executors it may, "
            f"so each job of {RAMP_TASKS} tasks runs in twice as many waves",
    workload=_slow_ramp,
    master="local-cluster[4,1,1024]",
    settings=dynamic_allocation(4, executorAllocationRatio=str(RAMP_RATIO)),
    # analyze: the default ratio, replayed against the log's ratio on the same schedule.
    fix_settings={"spark.dynamicAllocation.executorAllocationRatio": "1"},
    expect=Expectation(finding="allocationRamp",
                       settings={"spark.dynamicAllocation.executorAllocationRatio": "1"}),
))


# --- core_bound_waves -----------------------------------------------------------------------------

# 36 waves of about 1.5 s: the replay's gain on two executors (about 30 s) stays well clear of
# coreBound.minGainMs (20 s) on a slow machine; 24 waves gave 20.1 s and missed it on CI.
BOUND_TASKS = 36
BOUND_TASK_ROWS = 1500  # about 1.5 s a task


def _core_bound(spark, fixed):
    # One job of BOUND_TASKS waiting tasks: on one one-core executor they run in as many waves, on
    # two in half as many.
    problem_job(spark, f"{BOUND_TASKS} tasks in waves on the cores spark.cores.max allows")
    spark.range(0, BOUND_TASKS * BOUND_TASK_ROWS, 1, BOUND_TASKS).select(waits(F.lit(True)).alias("w")) \
        .write.format("noop").mode("overwrite").save()


register(Scenario(
    name="core_bound_waves",
    family="timeline",
    planted=f"spark.cores.max 1 on a standalone master of two one-core workers: {BOUND_TASKS} even tasks run "
            "one at a time, every wave on the one core",
    workload=_core_bound,
    master="local-cluster[2,1,1024]",
    settings={**QUICK_EXECUTOR_JVMS, "spark.cores.max": "1"},
    # analyze: the what-if's replay on two executors.
    fix_settings={"spark.cores.max": "2"},
    expect=Expectation(finding="coreBound", settings={"spark.cores.max": "2"}),
))


# --- control_cold_executors ----------------------------------------------------------------------

COLD_TASKS = 24
COLD_TASK_ROWS = 400    # about 0.4 s a task
COLD_START_MS = 2500    # the first task on each executor: a JVM loading classes and compiling code
COLD_MARK = "sf.scenario.warmed"


def _cold_executors(spark, fixed):
    # Dynamic allocation adds the executors while the stage runs (none are held at the start). The
    # first task each executor runs pays COLD_START_MS once, as a first task on a new JVM pays for
    # class loading and compilation; the executor's later tasks run warm. A warm-up outlier is not
    # a straggler or skew, and there is nothing to fix: it is the price of a new executor.
    # reflect() gives the text "null" for a property not set, never SQL NULL.
    cold = F.expr(f"reflect('java.lang.System', 'getProperty', '{COLD_MARK}')") != "yes"
    # An array evaluates every element: the mark is set and the wait paid on one row only.
    warm_up = F.array(F.expr(f"reflect('java.lang.System', 'setProperty', '{COLD_MARK}', 'yes')"),
                      F.expr(f"reflect('java.lang.Thread', 'sleep', cast({COLD_START_MS} as bigint))"))
    other_job(spark, f"{COLD_TASKS} even tasks on executors added as the stage runs")
    spark.range(0, COLD_TASKS * COLD_TASK_ROWS, 1, COLD_TASKS) \
        .select(F.when(cold, F.size(warm_up)).otherwise(F.lit(0)).alias("c"), waits(F.lit(True)).alias("w")) \
        .write.format("noop").mode("overwrite").save()


register(Scenario(
    name="control_cold_executors",
    family="task_distribution",
    planted=f"nothing: the first task on each executor dynamic allocation adds takes {COLD_START_MS / 1000:.1f} s "
            f"longer than the other {COLD_TASKS} tasks of about 0.4 s, as a new JVM warming up does",
    workload=_cold_executors,
    master="local-cluster[2,1,1024]",
    settings=dynamic_allocation(2),
    control=True,
    quiet_types=("straggler", "skew", "partitionSizing", "stageShape"),
))


# --- slow_host ------------------------------------------------------------------------------------

# Three hosts of three task slots. The third can be slow: its executor's environment says so, and a
# workload that reads it (slow_host) waits SLOW_FACTOR times as long on every row there as on its
# peers, as on a machine with a failing disk or a throttled CPU; to other workloads the hosts are
# alike. The work waits rather than computes, so nine slots behave as nine cores on a two-core
# machine.
SLOW_FACTOR = 8
THREE_HOSTS = Cluster(workers=(
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
    cluster=THREE_HOSTS,
    settings={**QUICK_EXECUTOR_JVMS, "spark.executor.memory": "512m"},
    # analyze: take the host out of the pool and repair it; speculation is the stopgap until then.
    fix_code="the slow host repaired: its tasks run as fast as its peers'",
    expect=Expectation(finding="slowHost", recommendation_mentions=("127.0.0.4",)),
    # Executors start after the application does: the job is what the fix changes.
    measure="problem_jobs",
))


# --- speculation_waste ----------------------------------------------------------------------------

# Each round runs two queries at once, as a job that serves several requests does: nine calls to
# an outside service (one row each; five answer in FAST_CALL_MS, four in 2.3 times that,
# whichever host asks), and many short tasks submitted just after, whose tasks wait for slots.
# The slower calls are not outliers (Spark 4 copies a task at 3x the median), and a copy waits as
# long as the original. Speculation at 1.1x the median once half the tasks are done copies every
# slower call onto a slot the short tasks were waiting for (the calls' job came first, so Spark's
# FIFO scheduler offers it each free slot first), and kills the copy when the original ends.
SPECULATION_ROUNDS = 3
FAST_CALL_MS = 3500
SLOW_CALL_MS = 8000
SHORT_TASKS = 60
SHORT_TASK_MS = 500


def _sleeps(ms):
    return F.call_function("reflect", F.lit("java.lang.Thread"), F.lit("sleep"), ms.cast("bigint")).isNull().cast("int")


def _speculation_waste(spark, fixed):
    from pyspark import InheritableThread

    sc = spark.sparkContext
    calls = F.when(F.spark_partition_id() < 5, F.lit(FAST_CALL_MS)).otherwise(F.lit(SLOW_CALL_MS))
    # Each round's requests are new ones (other rows), as a service's are.
    for round_index in range(SPECULATION_ROUNDS):
        group = f"service-{round_index}"

        def call_the_service():
            problem_job(spark, f"round {round_index}: calls to a service, copied by speculation")
            sc.setLocalProperty("spark.jobGroup.id", group)
            first = round_index * 9
            spark.range(first, first + 9, 1, 9).select(_sleeps(calls).alias("w")) \
                .write.format("noop").mode("overwrite").save()

        service = InheritableThread(target=call_the_service)
        service.start()
        while not sc.statusTracker().getJobIdsForGroup(group) and service.is_alive():
            time.sleep(0.01)
        problem_job(spark, f"round {round_index}: short tasks waiting for slots")
        first = round_index * SHORT_TASKS
        spark.range(first, first + SHORT_TASKS, 1, SHORT_TASKS).select(_sleeps(F.lit(SHORT_TASK_MS)).alias("w")) \
            .write.format("noop").mode("overwrite").save()
        service.join()


register(Scenario(
    name="speculation_waste",
    family="failures",
    planted="speculation at 1.1x the median after half the tasks copies calls that take 2.3x the median wherever "
            "they run; the copies take the slots the other side of the query waits for",
    workload=_speculation_waste,
    cluster=THREE_HOSTS,
    settings={**QUICK_EXECUTOR_JVMS, "spark.executor.memory": "512m",
              "spark.speculation": "true",
              "spark.speculation.multiplier": "1.1",
              "spark.speculation.quantile": "0.5",
              # Spark 4 copies only tasks slower than their peers per record as well: these
              # calls read one record each, so that test is off to let the multiplier decide.
              "spark.speculation.efficiency.enabled": "false"},
    # analyze: copies at Spark 4's defaults, 3x the median once 90% of the tasks are done.
    fix_settings={"spark.speculation.multiplier": "3", "spark.speculation.quantile": "0.9"},
    expect=Expectation(finding="speculationWaste",
                       settings={"spark.speculation.multiplier": "3", "spark.speculation.quantile": "0.9"}),
    # Executors start after the application does: the jobs are what the fix changes.
    measure="problem_jobs",
))
