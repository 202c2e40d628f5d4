// The Spark vocabulary an event log speaks: the values its events carry (properties, resource
// requests and profiles, accumulables, RDDs, SQL plan trees and their metrics) as plain types.
//
// They sit below both the decoder (eventlog/), which fills them from the JSON, and the model
// (model/), which keeps them in the AppModel, so the decoder never depends on the model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sf::spark {

using KeyValues = std::vector<std::pair<std::string, std::string>>;  // sorted by key

struct ResourceRequest {
  std::string name;
  double amount = 0;
  std::string discovery_script;
  std::string vendor;
};

struct ResourceProfile {
  int32_t id = 0;
  std::vector<ResourceRequest> executor_resources;  // sorted by name
  std::vector<ResourceRequest> task_resources;      // sorted by name
};

struct ResourceInformation {
  std::string name;
  std::vector<std::string> addresses;
};

struct Accumulable {
  int64_t id = 0;
  std::string name;
  std::string value;  // as Spark logged it (a number or a string)
  // Spark's flags: an internal task metric ("internal.metrics.*"), and the metadata SQL metrics
  // carry ("sql"). The History Server's REST API shows neither kind.
  bool internal = false;
  std::string metadata;
};

struct RddInfo {
  int64_t rdd_id = 0;
  std::string name;
  std::string scope;
  std::string callsite;
  std::vector<int64_t> parent_ids;
  int32_t num_partitions = 0;
  int32_t num_cached_partitions = 0;
  std::string storage_level;  // e.g. "Memory Deserialized 1x Replicated"; "" when none
  bool use_memory = false;
  bool use_disk = false;
  bool deserialized = false;
  int32_t replication = 1;
  int64_t memory_size_bytes = 0;
  int64_t disk_size_bytes = 0;
  bool barrier = false;

  bool is_cached() const { return use_memory || use_disk; }
};

struct PlanMetric {
  std::string name;
  int64_t accumulator_id = 0;
  std::string metric_type;  // sum, size, timing, nsTiming, average, ...
  // Total of the accumulator's final values over the stages it was seen in, plus driver
  // updates; nullopt when no stage or driver update reported it.
  std::optional<int64_t> value;
};

struct PlanNode {
  int32_t node_id = 0;  // preorder index within its tree
  std::string node_name;
  std::string simple_string;
  std::vector<std::pair<std::string, std::string>> metadata;  // sorted by key
  std::vector<PlanMetric> metrics;
  std::vector<int32_t> children;   // node ids
  std::vector<int64_t> stage_ids;  // stages whose accumulables carry one of this node's metrics
};

struct PlanTree {
  std::vector<PlanNode> nodes;  // preorder; nodes[0] is the root when not empty
  bool empty() const { return nodes.empty(); }
};

}  // namespace sf::spark
