// What a failure's root cause says to change, and how the failure findings word a cause.
//
// Shared by the failure detectors (task_failures.cpp) so that a stage failure, a retry and the
// failures of one root cause give the same advice in the same words; docs/detectors/failures.md
// has the table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/settings/spark_settings.h"
#include "model/failure_cause.h"

namespace sf::analysis {

struct FailureAdvice {
  std::string advice;
  // key, suggested value; "" for a memory setting the caller doubles from the value in effect
  std::vector<std::pair<std::string, std::string>> settings;
  bool out_of_memory = false;  // the cause is memory: executors or tasks ran out of it
};

// `reason` is Spark's kind of failure ("ExecutorLostFailure", "FetchFailed", ...) or a failure
// text (a stage's failure reason); `cause` is its root cause; `version` the log's Spark (which
// settings it has and their names), nullopt when the log does not say.
FailureAdvice advice_for(std::string_view reason, const model::FailureCause& cause,
                         std::optional<SparkVersion> version);

// A lost executor whose reason is Kubernetes' (ExecutorPodsLifecycleManager's words: "The executor
// with id N exited with exit code ...", "... was deleted by a user or the framework."): its loss
// is a pod's, and the remedies are the pod's.
bool lost_with_its_pod(const model::FailureCause& cause);

// The cause in one line, with where it was raised:
// "java.lang.NumberFormatException: For input string: \"x0\" at com.acme.Parse.run(Parse.java:7)",
// "ValueError: bad row (File \"/app/job.py\", line 23, in parse)",
// "exit code 56 (the executor could not send heartbeats to the driver)".
std::string describe_cause(const model::FailureCause& cause);

// What an executor's exit code means when Spark, the OS or YARN gives it one; "" otherwise (an
// application's own System.exit code means what the application says).
std::string exit_code_meaning(int32_t code);

// What a lost executor's exit code means, read with Kubernetes' words for its pod when the loss
// was a pod's: 137 with OOMKilled is the container's memory limit for certain, 143 is never a
// memory kill there (Kubernetes kills at the limit with SIGKILL), it is the pod being stopped.
std::string exit_code_meaning(const model::FailureCause& cause);

}  // namespace sf::analysis
