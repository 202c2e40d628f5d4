// The settings that let adaptive execution split a skewed partition of a shuffled join, for a
// partition of `max_bytes` against a median of `median_bytes`. One owner: the skew, straggler
// and partition-sizing findings all suggest these.
//
// Spark's OptimizeSkewedJoin splits a partition larger than both skewedPartitionFactor x the
// median and skewedPartitionThresholdInBytes, into pieces of about advisoryPartitionSizeInBytes
// (or the other partitions' mean, whichever is larger). Each setting is suggested only where
// its value in effect would stop this partition from being split: the factor below the observed
// ratio, the threshold and the target size below the partition. The analyzer drops the rest
// (spark_settings.h): a suggestion is always a change.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/detectors/detector_context.h"

namespace sf::analysis {

std::vector<SettingChange> skew_join_settings(const DetectorContext& context, int64_t max_bytes, int64_t median_bytes);

}  // namespace sf::analysis
