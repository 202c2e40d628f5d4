#include "analysis/detectors/failure_advice.h"

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

bool lost_with_its_pod(const FailureCause& cause) {
  return cause.kind == FailureCauseKind::kExecutorLost &&
         (cause.pod_deleted || !cause.pod_reason.empty() || cause.message.starts_with("The executor with id "));
}

std::string exit_code_meaning(const FailureCause& cause) {
  if (!cause.exit_code) return "";
  if (lost_with_its_pod(cause) && *cause.exit_code == 137) {
    // Spark's own gloss is "SIGKILL, possible container OOM"; OOMKilled makes it certain.
    return cause.pod_reason == "OOMKilled"
               ? "OOMKilled: Kubernetes killed the executor's container at the pod's memory limit"
               : "killed by SIGKILL: usually the pod's memory limit (Kubernetes did not say OOMKilled), or a "
                 "kill after a stop's grace period";
  }
  if (lost_with_its_pod(cause) && *cause.exit_code == 143) {
    return cause.pod_reason == "Evicted"
               ? "stopped by SIGTERM: Kubernetes evicted the pod"
               : "stopped by SIGTERM: Kubernetes stopped the pod (an eviction, a preemption, its node drained or "
                 "scaled down)";
  }
  return exit_code_meaning(*cause.exit_code);
}

std::string describe_cause(const FailureCause& cause) {
  if (cause.kind == FailureCauseKind::kExecutorLost) {
    if (!cause.exit_code && cause.pod_deleted) {
      return "the executor's pod was deleted (a node drained, scaled down or reclaimed, or a user's delete)";
    }
    if (!cause.exit_code) return cause.message;
    const std::string meaning = exit_code_meaning(cause);
    return fmt::format("exit code {}{}", *cause.exit_code, meaning.empty() ? "" : " (" + meaning + ")");
  }
  std::string words = cause.summary();
  if (cause.location.empty()) return words;
  if (cause.kind == FailureCauseKind::kPythonException) return words + " (" + cause.location + ")";
  return words + " at " + cause.location;
}

namespace {

// A pod killed at its memory limit: the limit is the heap plus the overhead (plus PySpark's and
// off-heap memory when set), and the heap did not run out (that is exit code 52), so the memory
// outside the heap did. The overhead's share-of-heap setting was Kubernetes' own before Spark 3.3.
FailureAdvice pod_memory_advice(const FailureCause& cause, std::optional<SparkVersion> version) {
  const bool before_3_3 = version && *version < SparkVersion{3, 3};
  return {fmt::format(
              "The executors' pods were killed at their memory limit{}. A pod's limit is the executor heap plus its "
              "memory overhead (and spark.executor.pyspark.memory and off-heap memory when set); the heap did not "
              "run out (that is an OutOfMemoryError, exit code 52): the memory outside it did (Python workers, "
              "native libraries, Netty's direct buffers, thread stacks). Raise the overhead (the value below is "
              "twice what was in effect), or set it as a share of the heap with {}; fewer cores per executor also "
              "leave each task more.",
              cause.pod_reason == "OOMKilled" ? " (Kubernetes said OOMKilled)" : "",
              before_3_3 ? "spark.kubernetes.memoryOverheadFactor (Spark before 3.3 has no "
                           "spark.executor.memoryOverheadFactor)"
                         : "spark.executor.memoryOverheadFactor (Spark 3.3+; spark.kubernetes.memoryOverheadFactor "
                           "applies only where it is unset)"),
          // Doubled from what was in effect by the caller (task_failures.cpp), which knows it.
          {{"spark.executor.memoryOverhead", ""}},
          true};
}

// A pod Kubernetes stopped (SIGTERM), evicted or deleted: the executor's work and the shuffle and
// cached blocks it held go with it, unless it is decommissioned first (Spark 3.1+: with
// spark.decommission.enabled the executor pods get a preStop hook that decommissions them).
FailureAdvice pod_stopped_advice(const FailureCause& cause, std::optional<SparkVersion> version) {
  const std::string how = cause.pod_deleted               ? "deleted them"
                          : cause.pod_reason == "Evicted" ? "evicted them"
                                                          : "stopped them with SIGTERM";
  const std::string keep_off =
      "Keep executors off nodes that go away: a PodDisruptionBudget over the executor pods bounds voluntary "
      "evictions and node drains, and a pod template (spark.kubernetes.executor.podTemplateFile) with a node "
      "selector or affinity keeps them on on-demand nodes rather than spot or preemptible ones. Which of these it "
      "was is in the pods' events (kubectl get events, the autoscaler's log), not in the event log.";
  if (version && *version < SparkVersion{3, 1}) {
    return {fmt::format("Kubernetes {} while tasks ran on them: their work and shuffle files were lost. {} Spark "
                        "{}.{} cannot move an executor's blocks before it goes (decommissioning is Spark 3.1+).",
                        how, keep_off, version->major, version->minor),
            {},
            false};
  }
  return {fmt::format(
              "Kubernetes {} while tasks ran on them: their work and shuffle files were lost and were computed again. "
              "Let executors leave gracefully: decommissioned first, an executor takes no new tasks and moves its "
              "shuffle and cached blocks to the others, so what it computed survives the pod (the pod's "
              "termination grace period, 30 s unless a pod template sets it, bounds the move). {}",
              how, keep_off),
          {{"spark.decommission.enabled", "true"},
           {"spark.storage.decommission.enabled", "true"},
           {"spark.storage.decommission.shuffleBlocks.enabled", "true"},
           {"spark.storage.decommission.rddBlocks.enabled", "true"}},
          false};
}

}  // namespace

FailureAdvice advice_for(std::string_view reason, const FailureCause& cause, std::optional<SparkVersion> version) {
  const auto has = [&](std::string_view needle) {
    return reason.find(needle) != std::string_view::npos || cause.exception_class.find(needle) != std::string::npos ||
           cause.message.find(needle) != std::string::npos;
  };
  if (cause.kind == FailureCauseKind::kShutdown) {
    return {
        "The SparkContext was stopped while this work ran (spark.stop() or the end of the driver's main while "
        "another thread still ran jobs, or the driver was killed): the tasks did not fail of their own. Wait for "
        "running jobs before stopping the session, or find why the driver ended.",
        {},
        false};
  }
  if (lost_with_its_pod(cause)) {
    if (cause.exit_code == 137 || cause.pod_reason == "OOMKilled") return pod_memory_advice(cause, version);
    if (cause.exit_code == 143 || cause.pod_deleted || cause.pod_reason == "Evicted") {
      return pod_stopped_advice(cause, version);
    }
  }
  static constexpr std::array kMemoryExitCodes = {52, 137, 143, -104};
  const bool memory_exit = cause.exit_code && std::find(kMemoryExitCodes.begin(), kMemoryExitCodes.end(),
                                                        *cause.exit_code) != kMemoryExitCodes.end();
  if (memory_exit || has("OutOfMemoryError") || has("exceeding memory limits") || has("OOMKilled") ||
      has("exit code 137") || has("exit code 143")) {
    return {
        "Executors ran out of memory. Give each task more memory (more executor memory or memory overhead, "
        "or fewer cores per executor), or make partitions smaller so each task holds less.",
        // Doubled from what was in effect by the caller (task_failures.cpp), which knows it.
        {{"spark.executor.memoryOverhead", ""}, {"spark.executor.memory", ""}},
        true};
  }
  if (has("FetchFailed")) {
    return {
        "Shuffle output was lost, usually because the executor that wrote it died or was removed. Keep shuffle "
        "files available past executor loss with the external shuffle service or decommissioning, and look "
        "for why executors were lost.",
        {{"spark.shuffle.service.enabled", "true"}, {"spark.decommission.enabled", "true"}},
        false};
  }
  if (cause.kind == FailureCauseKind::kExecutorLost && cause.exit_code) {
    // The exit code says why (the memory codes were handled above): no setting fits every code.
    const std::string meaning = exit_code_meaning(cause);
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
    return {
        "Executors were lost while tasks ran on them (killed by the cluster manager, preempted, or crashed). "
        "Check the executor logs; memory-limit kills call for more memory overhead "
        "(spark.executor.memoryOverhead).",
        {},
        false};
  }
  if (has("Resubmitted")) {
    return {
        "Finished map tasks were run again because the executor holding their shuffle output was lost. Keep "
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
  return {
      "Tasks threw an exception. Fix its root cause in the application code or data; retries only repeat the "
      "same work.",
      {},
      false};
}

}  // namespace sf::analysis
