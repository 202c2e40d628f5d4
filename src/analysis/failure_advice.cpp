#include "analysis/failure_advice.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace sf::analysis {

using model::FailureCause;
using model::FailureCauseKind;

std::string exit_code_meaning(int32_t code) {
  // Spark's ExecutorExitCode and SparkExitCode, YARN's ContainerExitStatus, and POSIX signals.
  switch (code) {
    case 50: return "an uncaught exception in the executor";
    case 51: return "an uncaught exception the executor could not even log";
    case 52: return "an OutOfMemoryError in the executor";
    case 53: return "the executor could not create a local directory (spark.local.dir)";
    case 56: return "the executor could not send heartbeats to the driver";
    case 137: return "killed by SIGKILL: usually the kernel's or the container's memory limit";
    case 143: return "stopped by SIGTERM: the cluster manager ended it (a memory limit, preemption, scale-down)";
    case -100: return "YARN released the container: its node was lost or the container was aborted";
    case -102: return "YARN preempted the container";
    case -104: return "YARN killed the container for exceeding its physical memory limit";
    default: break;
  }
  if (code > 128 && code < 160) return fmt::format("died from signal {}", code - 128);
  return "";
}

std::string describe_cause(const FailureCause& cause) {
  if (cause.kind == FailureCauseKind::kExecutorLost) {
    if (!cause.exit_code) return cause.message;
    const std::string meaning = exit_code_meaning(*cause.exit_code);
    return fmt::format("exit code {}{}", *cause.exit_code, meaning.empty() ? "" : " (" + meaning + ")");
  }
  std::string words = cause.summary();
  if (cause.location.empty()) return words;
  if (cause.kind == FailureCauseKind::kPythonException) return words + " (" + cause.location + ")";
  return words + " at " + cause.location;
}

FailureAdvice advice_for(std::string_view reason, const FailureCause& cause) {
  const auto has = [&](std::string_view needle) {
    return reason.find(needle) != std::string_view::npos || cause.exception_class.find(needle) != std::string::npos ||
           cause.message.find(needle) != std::string::npos;
  };
  if (cause.kind == FailureCauseKind::kShutdown) {
    return {"The SparkContext was stopped while this work ran (spark.stop() or the end of the driver's main while "
            "another thread still ran jobs, or the driver was killed): the tasks did not fail of their own. Wait for "
            "running jobs before stopping the session, or find why the driver ended.",
            {},
            false};
  }
  static constexpr std::array kMemoryExitCodes = {52, 137, 143, -104};
  const bool memory_exit = cause.exit_code && std::find(kMemoryExitCodes.begin(), kMemoryExitCodes.end(),
                                                        *cause.exit_code) != kMemoryExitCodes.end();
  if (memory_exit || has("OutOfMemoryError") || has("exceeding memory limits") || has("OOMKilled") ||
      has("exit code 137") || has("exit code 143")) {
    return {"Executors ran out of memory. Give each task more memory (more executor memory or memory overhead, "
            "or fewer cores per executor), or make partitions smaller so each task holds less.",
            // Doubled from what was in effect by the caller (task_failures.cpp), which knows it.
            {{"spark.executor.memoryOverhead", ""}, {"spark.executor.memory", ""}},
            true};
  }
  if (has("FetchFailed")) {
    return {"Shuffle output was lost, usually because the executor that wrote it died or was removed. Keep shuffle "
            "files available past executor loss with the external shuffle service or decommissioning, and look "
            "for why executors were lost.",
            {{"spark.shuffle.service.enabled", "true"}, {"spark.decommission.enabled", "true"}},
            false};
  }
  if (cause.kind == FailureCauseKind::kExecutorLost && cause.exit_code) {
    // The exit code says why (the memory codes were handled above): no setting fits every code.
    const std::string meaning = exit_code_meaning(*cause.exit_code);
    return {fmt::format("Executors exited with code {}{} while tasks ran on them. Read the executor logs around "
                        "the exit{}.",
                        *cause.exit_code, meaning.empty() ? "" : " (" + meaning + ")",
                        meaning.empty() ? "; a code Spark does not assign is usually the application's own "
                                          "System.exit, a library's, or a native crash"
                                        : ""),
            {},
            false};
  }
  if (has("ExecutorLostFailure") || cause.kind == FailureCauseKind::kExecutorLost) {
    return {"Executors were lost while tasks ran on them (killed by the cluster manager, preempted, or crashed). "
            "Check the executor logs; memory-limit kills call for more memory overhead "
            "(spark.executor.memoryOverhead).",
            {},
            false};
  }
  if (has("Resubmitted")) {
    return {"Finished map tasks were run again because the executor holding their shuffle output was lost. Keep "
            "shuffle files available past executor loss, and look for why executors were lost.",
            {{"spark.shuffle.service.enabled", "true"}, {"spark.decommission.enabled", "true"}},
            false};
  }
  if (has("TaskResultLost")) {
    return {"Task results were lost in transfer to the driver; large results should be written out, not collected.",
            {},
            false};
  }
  if (cause.kind == FailureCauseKind::kPythonException) {
    return {fmt::format("Python code raised {}{}. Fix it in the code or the data it reads; retries only repeat the "
                        "same work.",
                        cause.exception_class.empty() ? "an exception" : cause.exception_class,
                        cause.location.empty() ? "" : " at " + cause.location),
            {},
            false};
  }
  return {"Tasks threw an exception. Fix its root cause in the application code or data; retries only repeat the "
          "same work.",
          {},
          false};
}

}  // namespace sf::analysis
