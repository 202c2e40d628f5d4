// Attribution of SQL plan nodes to the stages that ran them.
//
// A plan node's metrics are accumulators; the same accumulator ids appear in the accumulables
// of the stages (and tasks) that executed the node. A node's stage_ids are the stages whose
// accumulables carry any of its metric ids; AppModel::stage_plan_nodes is the reverse map for
// the final plans. Each metric's value is the total of its final per-stage values plus the
// driver's updates.
#pragma once

#include "model/app_model.h"

namespace sf::model {

// Fills PlanNode::stage_ids, PlanMetric::value (final and earlier plans) and
// AppModel::stage_plan_nodes. Needs stages[].accumulator_ids and accumulables.
void attribute_plan_nodes(AppModel& model);

}  // namespace sf::model
