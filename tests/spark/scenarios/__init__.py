"""Every scenario, registered by importing its family's module (one module per detector family)."""
from scenario import REGISTRY  # noqa: F401
from scenarios import caching, cluster, compare_pairing, config_audit, controls, failures, memory, shuffle, sizes, sql_plans, streaming, task_distribution, timeline  # noqa: F401
