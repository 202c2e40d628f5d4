// FailureCause: why a task attempt, a stage or a job failed, read from the text Spark logged.
//
// Spark logs a failure as text: a task's `Full Stack Trace` (Throwable.printStackTrace: the
// outermost exception, its frames, then each `Caused by:` down to the one that started it), a
// lost executor's `Loss Reason`, a stage's `Failure Reason` and a job's exception message (both
// quote the last failed task's trace). The root cause is what started it:
// - a JVM exception: the innermost `Caused by`, where the frames it shares with the exception
//   around it are written `... N more` (its last N frames are that exception's last N);
// - a Python exception (PythonException, whose message is the worker's traceback): the exception
//   line at the end of the last traceback and the last `File "x.py", line N, in f` frame above it;
// - a lost executor: its process's exit code, when the reason gives one;
// - a SparkContext shut down while the work ran: Spark's own words for it.
//
// The functions are pure and thread-safe: text in, a value out; no input makes them fail (text
// they cannot read gives a cause of kind kUnknown or a bare message).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sf::model {

enum class FailureCauseKind {
  kException,        // a JVM exception (its innermost cause)
  kPythonException,  // an exception raised in a Python worker
  kExecutorLost,     // the executor's process died or was removed
  kShutdown,         // the SparkContext was shut down, or its streaming query stopped, while the work ran
  kUnknown,          // Spark logged no text to read (Resubmitted, TaskResultLost, ...)
};

std::string_view to_string(FailureCauseKind kind);  // exception, pythonException, executorLost, shutdown, unknown

struct FailureCause {
  FailureCauseKind kind = FailureCauseKind::kUnknown;
  // The root exception's class: "java.lang.NumberFormatException", "ValueError"; "" when the text
  // names none (a bare message, a lost executor).
  std::string exception_class;
  // Its message's first line (Spark 4's " SQLSTATE: ..." suffix removed), at most
  // kMaxMessageBytes; for a lost executor, the first line of the reason.
  std::string message;
  // Where it was raised. JVM: the first frame of the root exception outside the Java and Scala
  // runtime libraries ("java.lang.Integer.parseInt" is the runtime; the frame that called it is
  // the code to read), or its top frame when every frame is the runtime's:
  // "org.apache.spark.sql.catalyst.expressions.CallMethodViaReflection.evalInternal(CallMethodViaReflection.scala:182)".
  // Python: the last frame, as Python writes it: `File "/app/job.py", line 23, in parse_amount`.
  // "" when the text has no frames.
  std::string location;
  // The outermost exception when the root is nested under others
  // ("java.lang.reflect.InvocationTargetException"), and how many `Caused by` lead to the root.
  std::string outer_class;
  int32_t nesting = 0;
  std::optional<int32_t> exit_code;  // a lost executor's process exit code
  // Kubernetes' word for how a lost executor's pod ended, from the pod's status Spark quotes: a
  // container's termination reason ("OOMKilled": the kernel killed it at its memory limit;
  // "Error") or, without one, the pod's brief reason ("Evicted"). "" elsewhere.
  std::string pod_reason;
  // The pod was deleted (Spark: "The executor with id N was deleted by a user or the framework."):
  // Kubernetes took it away (a node drained or scaled down, a spot node reclaimed, kubectl delete)
  // and Spark logs no exit code for it.
  bool pod_deleted = false;

  static constexpr size_t kMaxMessageBytes = 300;

  // What tells two causes apart when counting them: the kind, class, location and exit code. Not
  // the message: it often carries a per-row or per-task value ("For input string: \"x17\"",
  // "container_..._000007"). An OutOfMemoryError is the other way round: where the heap ran out
  // is wherever the next allocation was, so its location tells nothing apart, and its message
  // says which memory ran out ("Java heap space", "Direct buffer memory", "Metaspace").
  std::string key() const;
  // One line for a reader: "java.lang.NumberFormatException: For input string: \"x0\"" or, for a
  // lost executor, "exit code 3 (Command exited with code 3)".
  std::string summary() const;
};

// The cause in any failure text: a task's stack trace or exception description, a stage's failure
// reason, a job's exception message ("Job aborted due to stage failure: ... most recent failure:
// Lost task ...: <the task's failure>"), a FetchFailed message. A text about a SparkContext shut
// down gives kShutdown; a most-recent-failure that was an executor loss gives kExecutorLost.
FailureCause read_failure_cause(std::string_view text);

// The cause in an executor's loss or removal reason: "Container marked as failed: ... Exit status:
// 56. ...", "Command exited with code 3", "The executor with id 3 exited with exit code 137".
// Kubernetes' reasons (ExecutorPodsLifecycleManager) start with a line break and go on with the
// pod's status: the message is their first line that has words, the pod's reason is read too.
FailureCause read_executor_loss(std::string_view reason);

// Whether a text says the SparkContext was shut down (Spark's "Job 3 cancelled because
// SparkContext was shut down", "Stage cancelled because SparkContext was shut down", "SparkContext
// has been shutdown", "Cannot call methods on a stopped SparkContext").
bool says_context_shut_down(std::string_view text);

// Whether a text says a streaming query's stop cancelled the work (Spark 4's "[SPARK_JOB_CANCELLED]
// Job 23 cancelled Query q [id = ..., runId = ...] was stopped"): the batch the query was running
// when it was stopped, not a failure.
bool says_query_stopped(std::string_view text);

// Either: the work was stopped from outside, not failed.
inline bool says_work_was_stopped(std::string_view text) {
  return says_context_shut_down(text) || says_query_stopped(text);
}

}  // namespace sf::model
