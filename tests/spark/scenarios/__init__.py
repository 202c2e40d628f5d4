"""Every scenario, registered by importing its family's module (one module per detector family)."""
from scenario import REGISTRY  # noqa: F401
from scenarios import caching, cluster, controls, failures, memory, sizes, sql_plans, task_distribution, timeline  # noqa: F401
