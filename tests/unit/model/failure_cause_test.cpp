// The root cause read from Spark's failure texts (model/failure_cause.h). The texts are shaped
// as Spark 1.x, 3.x and 4.x wrote them in real event logs (../shared/corpus and the scenarios of
// tests/spark), shortened to the lines that matter.
#include "model/failure_cause.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <ostream>
#include <string>

#include "model/load.h"
#include "support/scenario_log.h"

namespace sf::model {
namespace {

// What a reader sees of a cause, compared at once so that a failure shows every part side by side.
struct Parts {
  FailureCauseKind kind;
  std::string exception_class, message, location;
  bool operator==(const Parts&) const = default;
};

Parts parts_of(const FailureCause& cause) { return {cause.kind, cause.exception_class, cause.message, cause.location}; }

void PrintTo(const Parts& p, std::ostream* out) {
  *out << to_string(p.kind) << " {" << p.exception_class << "} {" << p.message << "} {" << p.location << "}";
}

TEST(FailureCause, InnermostOfSeveralNestedCauses) {
  const std::string trace =
      "org.apache.spark.SparkException: Task failed while writing rows.\n"
      "\tat org.apache.spark.sql.execution.datasources.FileFormatWriter$.executeTask(FileFormatWriter.scala:291)\n"
      "\tat org.apache.spark.scheduler.ResultTask.runTask(ResultTask.scala:90)\n"
      "\tat java.lang.Thread.run(Thread.java:750)\n"
      "Caused by: java.io.IOException: Failed to write block\n"
      "\tat org.apache.parquet.hadoop.ParquetFileWriter.write(ParquetFileWriter.java:120)\n"
      "\t... 2 more\n"
      "Caused by: java.net.SocketTimeoutException: Read timed out\n"
      "\tat java.net.SocketInputStream.socketRead0(Native Method)\n"
      "\tat java.net.SocketInputStream.read(SocketInputStream.java:150)\n"
      "\tat org.apache.hadoop.hdfs.DFSOutputStream.flush(DFSOutputStream.java:30)\n"
      "\t... 3 more\n";
  const FailureCause cause = read_failure_cause(trace);
  // Located at the first frame past the JDK's own: the code that called into it.
  EXPECT_EQ(parts_of(cause), (Parts{FailureCauseKind::kException, "java.net.SocketTimeoutException", "Read timed out",
                                    "org.apache.hadoop.hdfs.DFSOutputStream.flush(DFSOutputStream.java:30)"}));
  EXPECT_EQ(cause.outer_class, "org.apache.spark.SparkException");
  EXPECT_EQ(cause.nesting, 2);
  EXPECT_EQ(cause.summary(), "java.net.SocketTimeoutException: Read timed out");
}

// Spark 4.3, SQL reflect('java.lang.Integer', 'parseInt', ...): the root's own frames are all the
// JDK's; "... 3 more" says its next frames are the last three of the exception around it.
TEST(FailureCause, MoreLinesContinueIntoTheEnclosingTrace) {
  const std::string trace =
      "java.lang.reflect.InvocationTargetException\n"
      "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n"
      "\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)\n"
      "\tat "
      "org.apache.spark.sql.catalyst.expressions.CallMethodViaReflection.evalInternal(CallMethodViaReflection.scala:"
      "182)\n"
      "\tat org.apache.spark.executor.Executor$TaskRunner.run(Executor.scala:906)\n"
      "\tat java.base/java.lang.Thread.run(Thread.java:840)\n"
      "Caused by: java.lang.NumberFormatException: For input string: \"x0\"\n"
      "\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)\n"
      "\tat java.base/java.lang.Integer.parseInt(Integer.java:668)\n"
      "\t... 3 more\n";
  const FailureCause cause = read_failure_cause(trace);
  EXPECT_EQ(parts_of(cause),
            (Parts{FailureCauseKind::kException, "java.lang.NumberFormatException", "For input string: \"x0\"",
                   "org.apache.spark.sql.catalyst.expressions.CallMethodViaReflection.evalInternal("
                   "CallMethodViaReflection.scala:182)"}));
  EXPECT_EQ(cause.outer_class, "java.lang.reflect.InvocationTargetException");

  // With only Thread.run shared, every frame of the root is the runtime's: its top frame, without
  // the module name Java 9+ prints (Java 8 prints none, and the cause is the same).
  std::string only_runtime = trace;
  only_runtime.replace(only_runtime.find("... 3 more"), 10, "... 1 more");
  EXPECT_EQ(read_failure_cause(only_runtime).location,
            "java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)");
}

TEST(FailureCause, SuppressedExceptionsAreNotTheChainOfCauses) {
  const std::string trace =
      "java.io.IOException: close failed\n"
      "\tat com.acme.Sink.close(Sink.java:1)\n"
      "\tSuppressed: java.lang.IllegalStateException: already closed\n"
      "\t\tat com.acme.Buffer.flush(Buffer.java:2)\n"
      "\t\tCaused by: java.lang.Error: nope\n"
      "\t\t... 1 more\n"
      "Caused by: java.io.EOFException: end of stream\n"
      "\tat com.acme.Source.read(Source.java:3)\n";
  const FailureCause cause = read_failure_cause(trace);
  EXPECT_EQ(cause.exception_class, "java.io.EOFException");
  EXPECT_EQ(cause.location, "com.acme.Source.read(Source.java:3)");
  EXPECT_EQ(cause.nesting, 1);
}

// Spark 3.x (kubeflow corpus log, Spark 4.1 without an error class): the PythonException's message is the
// worker's traceback; pyspark's own frames come first, the user's last.
TEST(FailureCause, PythonTracebackLastFrameAndException) {
  const std::string trace =
      "org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n"
      "  File \"/opt/spark/python/lib/pyspark.zip/pyspark/worker.py\", line 3386, in main\n"
      "    process()\n"
      "  File \"/opt/spark/python/lib/pyspark.zip/pyspark/core/rdd.py\", line 5306, in pipeline_func\n"
      "  File \"/app/generate_events.py\", line 37, in flaky_partition\n"
      "    raise Exception(f\"transient failure for partition {index}\")\n"
      "Exception: transient failure for partition 1\n"
      "\n"
      "\tat org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException(PythonRunner.scala:645)\n"
      "\tat java.base/java.lang.Thread.run(Thread.java:1583)\n";
  const FailureCause cause = read_failure_cause(trace);
  EXPECT_EQ(parts_of(cause),
            (Parts{FailureCauseKind::kPythonException, "Exception", "transient failure for partition 1",
                   "File \"/app/generate_events.py\", line 37, in flaky_partition"}));

  // Another partition's message names another partition: the same cause when counting.
  std::string other = trace;
  other.replace(other.find("partition 1\n"), 11, "partition 2");
  EXPECT_EQ(read_failure_cause(other).key(), cause.key());
  EXPECT_NE(read_failure_cause(other).message, cause.message);
}

// Spark 4.x: an error class and a SQLSTATE around the traceback, Python 3.11's caret lines, and a
// raise two calls deep.
TEST(FailureCause, Spark4PythonErrorClassAndCarets) {
  const std::string trace =
      "org.apache.spark.api.python.PythonException: [PYTHON_EXCEPTION] An exception was thrown from the Python worker: "
      "Traceback (most recent call last):\n"
      "  File \"/work/tests/spark/scenarios/failures.py\", line 28, in amount\n"
      "    return normalize(text)\n"
      "           ^^^^^^^^^^^^^^^\n"
      "  File \"/work/tests/spark/scenarios/failures.py\", line 25, in normalize\n"
      "    return parse_amount(text.strip(\"$\"))\n"
      "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
      "  File \"/work/tests/spark/scenarios/failures.py\", line 23, in parse_amount\n"
      "    return int(text)\n"
      "           ^^^^^^^^^\n"
      "ValueError: invalid literal for int() with base 10: 'n/a'\n"
      " SQLSTATE: 38000\n"
      "\tat "
      "org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException(PythonRunner.scala:1097)\n";
  const FailureCause cause = read_failure_cause(trace);
  EXPECT_EQ(parts_of(cause),
            (Parts{FailureCauseKind::kPythonException, "ValueError", "invalid literal for int() with base 10: 'n/a'",
                   "File \"/work/tests/spark/scenarios/failures.py\", line 23, in parse_amount"}));

  // The same text as a Spark 4 stage or job failure reason: no Java frames at all.
  const std::string stage_reason =
      trace.substr(trace.find("[PYTHON_EXCEPTION]"), trace.find("\tat ") - trace.find("[PYTHON_EXCEPTION]"));
  EXPECT_EQ(read_failure_cause(stage_reason).key(), cause.key());
}

TEST(FailureCause, ChainedPythonTracebacksEndWithTheLastRaised) {
  const std::string description =
      "Traceback (most recent call last):\n"
      "  File \"/app/job.py\", line 5, in lookup\n"
      "    return table[key]\n"
      "KeyError: 'eu-west'\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/app/job.py\", line 9, in region\n"
      "    raise UnknownRegion(key)\n"
      "__main__.UnknownRegion: eu-west\n";
  const FailureCause cause = read_failure_cause("org.apache.spark.api.python.PythonException: " + description);
  EXPECT_EQ(parts_of(cause), (Parts{FailureCauseKind::kPythonException, "__main__.UnknownRegion", "eu-west",
                                    "File \"/app/job.py\", line 9, in region"}));
}

// Spark 1.x (spark-events/local-1422981780767): "(TID 19, localhost): " before the task's trace,
// and the driver's stack trace after it.
TEST(FailureCause, Spark1StageFailureQuotesTheTask) {
  const std::string reason =
      "Job aborted due to stage failure: Task 3 in stage 2.0 failed 1 times, most recent failure: Lost task 3.0 in "
      "stage 2.0 (TID 19, localhost): java.lang.RuntimeException: got a 3, failing\n"
      "\tat $line11.$read$$iwC$$iwC$$iwC$$iwC$$anonfun$1.apply(<console>:18)\n"
      "\tat scala.collection.Iterator$$anon$11.next(Iterator.scala:328)\n"
      "\tat java.lang.Thread.run(Thread.java:745)\n"
      "\n"
      "Driver stacktrace:";
  const FailureCause cause = read_failure_cause(reason);
  EXPECT_EQ(parts_of(cause), (Parts{FailureCauseKind::kException, "java.lang.RuntimeException", "got a 3, failing",
                                    "$line11.$read$$iwC$$iwC$$iwC$$iwC$$anonfun$1.apply(<console>:18)"}));
  EXPECT_EQ(cause.nesting, 0);
}

// Spark 3.x names the host and executor in a second pair of parentheses.
TEST(FailureCause, Spark3StageFailureWithPythonTask) {
  const std::string reason =
      "Job aborted due to stage failure: Task 0 in stage 5.0 failed 4 times, most recent failure: Lost task 0.3 in "
      "stage 5.0 (TID 19) (71cc0a0f2562 executor driver): org.apache.spark.api.python.PythonException: Traceback "
      "(most recent call last):\n"
      "  File \"/app/generate_events.py\", line 51, in fail_udf\n"
      "    raise Exception(\"deliberate permanent failure\")\n"
      "Exception: deliberate permanent failure\n"
      "\n"
      "\tat org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException(PythonRunner.scala:645)\n"
      "\n"
      "Driver stacktrace:";
  const FailureCause cause = read_failure_cause(reason);
  EXPECT_EQ(cause.kind, FailureCauseKind::kPythonException);
  EXPECT_EQ(cause.summary(), "Exception: deliberate permanent failure");
  EXPECT_EQ(cause.location, "File \"/app/generate_events.py\", line 51, in fail_udf");
}

TEST(FailureCause, Spark4ErrorClassWrapsTheRealException) {
  const std::string trace =
      "org.apache.spark.SparkException: [FAILED_EXECUTE_UDF] User defined function (`divide`) failed due to: "
      "java.lang.ArithmeticException: / by zero. SQLSTATE: 39000\n"
      "\tat "
      "org.apache.spark.sql.errors.QueryExecutionErrors$.failedExecuteUserDefinedFunctionError(QueryExecutionErrors."
      "scala:198)\n"
      "Caused by: java.lang.ArithmeticException: / by zero\n"
      "\tat com.acme.Divide.call(Divide.java:12)\n"
      "\t... 1 more\n";
  const FailureCause cause = read_failure_cause(trace);
  EXPECT_EQ(cause.summary(), "java.lang.ArithmeticException: / by zero");
  EXPECT_EQ(cause.location, "com.acme.Divide.call(Divide.java:12)");

  // One exception with an error class: its message without the SQLSTATE, and only its first line.
  const FailureCause divide = read_failure_cause(
      "org.apache.spark.SparkArithmeticException: [DIVIDE_BY_ZERO] Division by zero. Use `try_divide` to tolerate "
      "divisor being 0 and return NULL instead. SQLSTATE: 22012\n"
      "== SQL (line 1, position 8) ==\n"
      "select 1/0\n"
      "\tat org.apache.spark.sql.errors.QueryExecutionErrors$.divideByZeroError(QueryExecutionErrors.scala:203)\n");
  EXPECT_EQ(divide.exception_class, "org.apache.spark.SparkArithmeticException");
  EXPECT_EQ(divide.message,
            "[DIVIDE_BY_ZERO] Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead.");
}

TEST(FailureCause, WordsBeforeTheClassAndMessagesWithoutOne) {
  const FailureCause serialization = read_failure_cause(
      "Job aborted due to stage failure: Task serialization failed: java.io.NotSerializableException: com.acme.Lookup\n"
      "Serialization stack:\n"
      "\t- object not serializable (class: com.acme.Lookup, value: com.acme.Lookup@1f)\n");
  EXPECT_EQ(serialization.exception_class, "java.io.NotSerializableException");
  EXPECT_EQ(serialization.message, "com.acme.Lookup");

  const FailureCause result_size = read_failure_cause(
      "Job aborted due to stage failure: Total size of serialized results of 3 tasks (1100.0 MiB) is bigger than "
      "spark.driver.maxResultSize (1024.0 MiB)");
  EXPECT_EQ(result_size.exception_class, "");
  EXPECT_EQ(result_size.summary(),
            "Job aborted due to stage failure: Total size of serialized results of 3 tasks (1100.0 MiB) is bigger than "
            "spark.driver.maxResultSize (1024.0 MiB)");
}

// The corpus's FetchFailed (rapids tasks_executors_fail): the index file of a lost executor's
// shuffle output is gone; the root's frames end in the JDK's file API.
TEST(FailureCause, FetchFailedMessageAndStageReason) {
  const std::string message =
      "org.apache.spark.shuffle.FetchFailedException: /disk0/blockmgr-86c3/2d/shuffle_54_8347_0.index\n"
      "\tat "
      "org.apache.spark.storage.ShuffleBlockFetcherIterator.throwFetchFailedException(ShuffleBlockFetcherIterator."
      "scala:770)\n"
      "\tat org.apache.spark.rdd.RDD.iterator(RDD.scala:337)\n"
      "Caused by: java.nio.file.NoSuchFileException: /disk0/blockmgr-86c3/2d/shuffle_54_8347_0.index\n"
      "\tat sun.nio.fs.UnixException.translateToIOException(UnixException.java:86)\n"
      "\tat java.nio.file.Files.newByteChannel(Files.java:361)\n"
      "\tat org.apache.spark.shuffle.IndexShuffleBlockResolver.getBlockData(IndexShuffleBlockResolver.scala:349)\n"
      "\t... 16 more\n";
  const FailureCause cause = read_failure_cause(message);
  EXPECT_EQ(cause.exception_class, "java.nio.file.NoSuchFileException");
  EXPECT_EQ(cause.location,
            "org.apache.spark.shuffle.IndexShuffleBlockResolver.getBlockData(IndexShuffleBlockResolver.scala:349)");
  EXPECT_EQ(cause.outer_class, "org.apache.spark.shuffle.FetchFailedException");

  const FailureCause quoted = read_failure_cause(
      "Job aborted due to stage failure: Task 1 in stage 4.0 failed 4 times, most recent failure: Lost task 1.3 in "
      "stage 4.0 (TID 30) (host-a executor 2): FetchFailed(BlockManagerId(1, host-b, 7337, None), shuffleId=0, "
      "mapIndex=3, mapId=3, reduceId=1, message=\n"
      "org.apache.spark.shuffle.FetchFailedException: Failed to connect to host-b/10.0.0.2:7337\n"
      "\tat "
      "org.apache.spark.storage.ShuffleBlockFetcherIterator.throwFetchFailedException(ShuffleBlockFetcherIterator."
      "scala:770)\n"
      "Caused by: java.net.ConnectException: Connection refused\n"
      "\tat sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)\n"
      "\tat org.apache.spark.network.client.TransportClientFactory.createClient(TransportClientFactory.java:245)\n"
      "\t... 1 more\n"
      ")\n");
  EXPECT_EQ(quoted.summary(), "java.net.ConnectException: Connection refused");
  EXPECT_EQ(quoted.location,
            "org.apache.spark.network.client.TransportClientFactory.createClient(TransportClientFactory.java:245)");
}

TEST(FailureCause, ExecutorLossExitCodes) {
  const FailureCause yarn = read_executor_loss(
      "Container marked as failed: container_1538416563558_0014_01_000002 on host: rezamemory-2.gce.something.com. "
      "Exit status: 56. Diagnostics: Exception from container-launch.\n"
      "Container id: container_1538416563558_0014_01_000002\n"
      "Exit code: 56\n");
  EXPECT_EQ(yarn.kind, FailureCauseKind::kExecutorLost);
  EXPECT_EQ(yarn.exit_code, 56);
  // Another container on another host, the same exit: one cause.
  EXPECT_EQ(read_executor_loss("Container marked as failed: container_1538416563558_0014_01_000009 on host: "
                               "rezamemory-3.gce.something.com. Exit status: 56. Diagnostics: x")
                .key(),
            yarn.key());
  EXPECT_NE(
      read_executor_loss("Container marked as failed: container_1_01_000009 on host: h. Exit status: 143. ").key(),
      yarn.key());

  EXPECT_EQ(read_executor_loss("Command exited with code 3").exit_code, 3);
  EXPECT_EQ(read_executor_loss("Command exited with code 3").summary(), "exit code 3 (Command exited with code 3)");
  EXPECT_EQ(read_executor_loss("The executor with id 3 exited with exit code 137(SIGKILL, possible container OOM).")
                .exit_code,
            137);
  EXPECT_EQ(read_executor_loss("Container released on a *lost* node. Exit status: -100. Diagnostics: ...").exit_code,
            -100);
  EXPECT_EQ(read_executor_loss("Executor Process Lost").exit_code, std::nullopt);

  // No exit code: the words tell causes apart, with their figures masked.
  EXPECT_EQ(read_executor_loss("Executor heartbeat timed out after 140054 ms").key(),
            read_executor_loss("Executor heartbeat timed out after 150021 ms").key());
  EXPECT_NE(read_executor_loss("Executor heartbeat timed out after 140054 ms").key(),
            read_executor_loss("Executor Process Lost").key());

  // A job that died of it quotes the loss as its most recent failure.
  const FailureCause quoted = read_failure_cause(
      "Job aborted due to stage failure: Task 2 in stage 3.0 failed 4 times, most recent failure: Lost task 2.3 in "
      "stage 3.0 (TID 11) (10.0.0.5 executor 4): ExecutorLostFailure (executor 4 exited caused by one of the running "
      "tasks) Reason: Command exited with code 3\n"
      "Driver stacktrace:");
  EXPECT_EQ(quoted.kind, FailureCauseKind::kExecutorLost);
  EXPECT_EQ(quoted.exit_code, 3);
}

// Kubernetes' removal reasons as ExecutorPodsLifecycleManager writes them (Spark 3.3+: exitReasonMessage,
// a stripMargin'd text that starts with a line break; describeExitCode glosses the code; the pod's
// reason and message lines are empty when the API gave none; KubernetesUtils.containersDescription
// lists each container as "\n\t key: value" pairs). The first matches a real driver's log of a
// Spark 3.3.1 executor killed at its pod's limit.
constexpr char kPodOomKilled[] =
    "\nThe executor with id 13 exited with exit code 137(SIGKILL, possible container OOM).\n\n\n\n"
    "The API gave the following container statuses:\n\n\n"
    "\t container name: spark-kubernetes-executor\n\t container image: registry.example/spark:3.3.1\n"
    "\t container state: terminated\n\t container started at: 2023-01-26T05:28:32Z\n"
    "\t container finished at: 2023-01-26T05:37:06Z\n\t exit code: 137\n\t termination reason: OOMKilled\n      ";
constexpr char kPodEvicted[] =
    "\nThe executor with id 4 exited with exit code 143(unexpected).\n"
    "The API gave the following brief reason: Evicted\n"
    "The API gave the following message: The node was low on resource: memory.\n\n"
    "The API gave the following container statuses:\n\n\n"
    "\t container name: spark-kubernetes-executor\n\t container image: img\n\t container state: terminated\n"
    "\t exit code: 143\n\t termination reason: Error\n      ";

TEST(FailureCause, KubernetesPodReasons) {
  const FailureCause oom = read_executor_loss(kPodOomKilled);
  EXPECT_EQ(oom.exit_code, 137);
  EXPECT_EQ(oom.pod_reason, "OOMKilled");
  EXPECT_EQ(oom.message, "The executor with id 13 exited with exit code 137(SIGKILL, possible container OOM).")
      << "the message is the first line with words, not the empty line the reason starts with";
  EXPECT_FALSE(oom.pod_deleted);

  const FailureCause evicted = read_executor_loss(kPodEvicted);
  EXPECT_EQ(evicted.exit_code, 143);
  EXPECT_EQ(evicted.pod_reason, "Evicted") << "the pod's reason says more than its container's Error";
  EXPECT_NE(evicted.key(), read_executor_loss("Container killed on request. Exit code is 143").key());

  // A task that failed with it quotes it after "Reason: " (ExecutorLostFailure.toErrorString).
  const FailureCause task = read_failure_cause(
      std::string("ExecutorLostFailure (executor 13 exited caused by one of the running tasks) Reason: ") +
      kPodOomKilled);
  EXPECT_EQ(task.key(), oom.key());

  // PodDeleted: Spark gives no exit code for it, whatever the container's was.
  const FailureCause deleted = read_executor_loss("The executor with id 7 was deleted by a user or the framework.");
  EXPECT_TRUE(deleted.pod_deleted);
  EXPECT_EQ(deleted.exit_code, std::nullopt);
  EXPECT_TRUE(deleted.pod_reason.empty());

  // Outside Kubernetes nothing of it is read.
  EXPECT_TRUE(read_executor_loss("Command exited with code 137").pod_reason.empty());
}

TEST(FailureCause, SparkContextShutDown) {
  for (const char* text :
       {"Stage cancelled because SparkContext was shut down", "Job 79 cancelled because SparkContext was shut down",
        "Job cancelled because SparkContext was shut down"}) {
    const FailureCause cause = read_failure_cause(text);
    EXPECT_EQ(cause.kind, FailureCauseKind::kShutdown) << text;
    EXPECT_EQ(cause.message, text);
    EXPECT_TRUE(says_context_shut_down(text));
  }
  const FailureCause task = read_failure_cause(
      "java.lang.IllegalStateException: SparkContext has been shutdown\n"
      "\tat org.apache.spark.SparkContext.runJob(SparkContext.scala:2236)\n");
  EXPECT_EQ(task.kind, FailureCauseKind::kShutdown);
  EXPECT_EQ(task.exception_class, "java.lang.IllegalStateException");
  EXPECT_FALSE(says_context_shut_down("org.apache.spark.shuffle.FetchFailedException: Failed to connect"));
}

TEST(FailureCause, KeyTellsClassesAndPlacesApartButNotMessages) {
  const auto with = [](const std::string& header, const std::string& frame) {
    return read_failure_cause(header + "\n\tat " + frame + "\n");
  };
  const auto a = with("java.lang.NumberFormatException: For input string: \"x0\"", "com.acme.Parse.run(Parse.java:7)");
  EXPECT_EQ(
      a.key(),
      with("java.lang.NumberFormatException: For input string: \"x917\"", "com.acme.Parse.run(Parse.java:7)").key());
  EXPECT_NE(
      a.key(),
      with("java.lang.NumberFormatException: For input string: \"x0\"", "com.acme.Parse.run(Parse.java:9)").key());
  EXPECT_NE(
      a.key(),
      with("java.lang.IllegalArgumentException: For input string: \"x0\"", "com.acme.Parse.run(Parse.java:7)").key());
}

// A real log (a collect_list over a 1 GiB heap on Spark 4.3) had its tasks run out of heap in
// BufferHolder.grow and in a generated project_doConsume: one cause, not two.
TEST(FailureCause, OutOfMemoryErrorsAreOneCauseWhereverTheHeapRanOut) {
  const auto oom = [](const std::string& message, const std::string& frame) {
    return read_failure_cause("java.lang.OutOfMemoryError: " + message + "\n\tat " + frame + "\n");
  };
  const auto grow = oom("Java heap space",
                        "org.apache.spark.sql.catalyst.expressions.codegen.BufferHolder.grow(BufferHolder.java:85)");
  const auto consume = oom("Java heap space",
                           "org.apache.spark.sql.catalyst.expressions.GeneratedClass$GeneratedIteratorForCodegenStage1."
                           "project_doConsume_0$(Unknown Source)");
  EXPECT_EQ(grow.key(), consume.key());
  EXPECT_NE(grow.key(), oom("Direct buffer memory", "java.nio.Bits.reserveMemory(Bits.java:175)").key());
  EXPECT_NE(grow.key(), oom("GC overhead limit exceeded", "java.util.Arrays.copyOf(Arrays.java:3332)").key());
}

TEST(FailureCause, TextsWithNothingToRead) {
  EXPECT_EQ(read_failure_cause("").kind, FailureCauseKind::kUnknown);
  EXPECT_EQ(read_failure_cause("  \n").kind, FailureCauseKind::kUnknown);
  const FailureCause bare = read_failure_cause("java.lang.OutOfMemoryError");
  EXPECT_EQ(parts_of(bare), (Parts{FailureCauseKind::kException, "java.lang.OutOfMemoryError", "", ""}));
  const FailureCause empty_traceback =
      read_failure_cause("org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n");
  EXPECT_EQ(empty_traceback.kind, FailureCauseKind::kPythonException);
  EXPECT_EQ(empty_traceback.exception_class, "");
}

TEST(FailureCause, LongAndHostileTextsStayBounded) {
  std::string message(5000, 'x');
  const FailureCause long_message = read_failure_cause("java.lang.IllegalStateException: " + message);
  EXPECT_LE(long_message.message.size(), FailureCause::kMaxMessageBytes + 3);

  // Ten thousand nested causes, each claiming frames it shares with the one around it.
  std::string chain = "java.lang.Exception: top\n\tat com.acme.A.a(A.java:1)\n";
  for (int i = 0; i < 10000; ++i)
    chain += "Caused by: java.lang.Exception: level " + std::to_string(i) + "\n\t... 100000 more\n";
  const FailureCause deep = read_failure_cause(chain);
  EXPECT_EQ(deep.nesting, 10000);
  EXPECT_EQ(deep.message, "level 9999");
  EXPECT_EQ(deep.location, "com.acme.A.a(A.java:1)");
}

// The model counts each failed attempt under the cause its own text gives, whatever way the log is
// read: on one thread, or decoded on several in batches of a few lines (the texts must outlive
// the batch they were decoded in).
TEST(ModelFailureCauses, EachAttemptCountedUnderItsOwnRootCause) {
  using sf::testing::ScenarioLog;
  using sf::testing::StageSpec;
  using sf::testing::TaskSpec;
  const auto python = [](const std::string& function, int line, const std::string& value) {
    return "org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n"
           "  File \"/app/job.py\", line " +
           std::to_string(line) + ", in " + function +
           "\n"
           "ValueError: bad value " +
           value +
           "\n\n"
           "\tat "
           "org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException(PythonRunner.scala:645)"
           "\n";
  };
  ScenarioLog log;
  log.start(0).finished(100000);
  log.executor("1", "host-a", 4, 100).executor("2", "host-b", 4, 100);
  StageSpec stage;
  stage.stage_id = 0;
  stage.submit_ms = 1000;
  stage.complete_ms = 30000;
  stage.tasks = ScenarioLog::uniform_tasks(8, 1000, 1000, {"1", "2"}, 4);
  const auto failed = [&](std::string reason, std::string detail, std::string trace, std::string executor) {
    TaskSpec t;
    t.launch_ms = 5000;
    t.duration_ms = 500;
    t.executor_id = std::move(executor);
    t.reason = std::move(reason);
    t.failure_detail = std::move(detail);
    t.stack_trace = std::move(trace);
    stage.tasks.push_back(t);
  };
  // The fetch failure first: the texts decoded after it in the same batch must not overwrite it.
  failed("FetchFailed",
         "org.apache.spark.shuffle.FetchFailedException: Failed to connect to host-b/10.0.0.2:7337\n"
         "\tat "
         "org.apache.spark.storage.ShuffleBlockFetcherIterator.throwFetchFailedException(ShuffleBlockFetcherIterator."
         "scala:770)\n"
         "Caused by: java.net.ConnectException: Connection refused\n"
         "\tat org.apache.spark.network.client.TransportClientFactory.createClient(TransportClientFactory.java:245)\n",
         "", "1");
  // Two Python errors behind one exception class: two causes. One of them twice with different
  // values: one cause.
  failed("ExceptionFailure", "org.apache.spark.api.python.PythonException", python("parse", 12, "'a'"), "1");
  failed("ExceptionFailure", "org.apache.spark.api.python.PythonException", python("parse", 12, "'b'"), "2");
  failed("ExceptionFailure", "org.apache.spark.api.python.PythonException", python("lookup", 40, "'c'"), "1");
  failed("ExecutorLostFailure", "Command exited with code 3", "", "2");
  sf::testing::JobSpec job;
  job.submit_ms = 1000;
  job.end_ms = 31000;
  job.stages = {stage};
  log.job(job);

  const auto dir = std::filesystem::temp_directory_path() / ("sf-failure-causes-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string path = log.write(dir).string();
  LoadOptions one_thread;
  one_thread.threads = 1;
  LoadOptions small_batches;
  small_batches.threads = 3;
  small_batches.batch_bytes = 2048;
  for (const LoadOptions& options : {one_thread, small_batches}) {
    auto model = load_event_log(path, options);
    ASSERT_TRUE(model) << model.error().message();
    ASSERT_EQ(model->stages.size(), 1u);
    const auto& causes = model->stages[0].failure_causes;
    ASSERT_EQ(causes.size(), 4u) << "threads " << options.threads;
    // The most frequent first, then by reason and key.
    EXPECT_EQ(causes[0].reason, "ExceptionFailure");
    EXPECT_EQ(causes[0].count, 2);
    EXPECT_EQ(causes[0].cause.location, "File \"/app/job.py\", line 12, in parse");
    EXPECT_EQ(causes[0].cause.message, "bad value 'a'") << "the first attempt's message is kept";
    EXPECT_EQ(causes[0].executor_ids, (std::vector<std::string>{"1", "2"}));
    int64_t total = 0;
    for (const auto& c : causes) {
      total += c.count;
      if (c.reason == "FetchFailed") {
        EXPECT_EQ(c.cause.summary(), "java.net.ConnectException: Connection refused");
      }
      if (c.reason == "ExecutorLostFailure") {
        EXPECT_EQ(c.cause.exit_code, 3);
      }
      if (c.cause.location.find("lookup") != std::string::npos) {
        EXPECT_EQ(c.count, 1);
      }
    }
    EXPECT_EQ(total, model->stages[0].tasks_failed);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sf::model
