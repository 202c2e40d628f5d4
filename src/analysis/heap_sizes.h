// What an executor's JVM is sized by, for advice that changes it: where its heap stops keeping
// compressed object pointers, and the memory its container holds beside the heap. The memory
// detectors and the failure advice (an out-of-memory cause) size by the same rules.
#pragma once

#include "analysis/detector_context.h"
#include "analysis/figure_words.h"

namespace sf::analysis {

// The largest heap in whole GiB that keeps the JVM's compressed object pointers (they end at 32 GiB).
inline constexpr double kCompressedOopsHeapBytes = 31 * kGiB;

// What an executor's container holds besides its heap: spark.executor.memoryOverhead, else Spark's
// default of spark.executor.memoryOverheadFactor (0.10) of the heap, at least 384 MiB.
double memory_overhead_bytes(const DetectorContext& context, double heap_bytes);

}  // namespace sf::analysis
