// What an executor's heap is, for advice that changes it: where it stops keeping compressed
// object pointers, and the heap behind a block manager's memory by the log's Spark version. The
// memory detectors, caching and the impact estimator size by the same rules; the container's
// overhead beside the heap is cluster_shape.h's.
#pragma once

#include <optional>

#include "model/app_model.h"

namespace sf::analysis {

// The largest heap in whole GiB that keeps the JVM's compressed object pointers (they end at 32 GiB).
inline constexpr double kCompressedOopsHeapBytes = 31.0 * 1024 * 1024 * 1024;

// Spark's unified memory (execution and storage, Spark 1.6 on) takes this share of the heap past
// its 300 MiB reserve: spark.memory.fraction as set, else its version's default (0.75 in 1.6, 0.6
// since 2.0). nullopt before 1.6, whose storage memory was a fixed share of the whole heap.
std::optional<double> unified_memory_fraction(const model::AppModel& model);

// The share of each further byte of heap that a block manager counts as its memory: the unified
// fraction, and before unified memory spark.storage.memoryFraction x spark.storage.safetyFraction
// (0.6 x 0.9).
double block_manager_share_of_heap(const model::AppModel& model);

// An executor's heap worked back from its block manager's memory, which Spark sizes as (heap -
// 300 MiB) x the unified fraction, and before unified memory as the heap x that legacy share.
double heap_behind_block_manager(const model::AppModel& model, double block_manager_bytes);

}  // namespace sf::analysis
