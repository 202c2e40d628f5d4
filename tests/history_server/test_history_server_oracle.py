"""serve against Spark's own History Server on the same logs (issue 16 §2): every endpoint and
query form of oracle.py, for every application attempt, compared structurally. A difference fails
its endpoint's test unless known_differences.py lists it with its reason. conftest.py runs both
servers once for the session and prints the match counts per endpoint."""
from __future__ import annotations

import oracle
from known_differences import KNOWN_DIFFERENCES
import pytest

SHOWN = 25  # differences printed per failing endpoint


def test_both_list_the_same_applications(oracle_run):
    assert oracle_run.history_server_listing, "the History Server listed no application"
    assert oracle_run.serve_listing == oracle_run.history_server_listing


@pytest.mark.parametrize("endpoint", oracle.ENDPOINTS)
def test_endpoint_answers_as_the_history_server(oracle_run, endpoint):
    comparisons = [c for c in oracle_run.comparisons if c.request.endpoint == endpoint]
    assert comparisons, f"no request was made to {endpoint}"
    lines = []
    for c in comparisons:
        for where, expected, got in c.unlisted:
            lines.append(f"{c.request.path}: {where}: History Server {expected}, serve {got}")
    failing = sum(1 for c in comparisons if c.unlisted)
    assert not lines, (f"{failing} of {len(comparisons)} answers differ ({len(lines)} values):\n"
                       + "\n".join(lines[:SHOWN]) + (f"\n... {len(lines) - SHOWN} more" if len(lines) > SHOWN else ""))


def test_every_listed_difference_still_occurs(oracle_run, request):
    comparisons = list(oracle_run.comparisons)
    try:
        comparisons += request.getfixturevalue("spark_ui_run").comparisons
        ui_compared = True
    except pytest.skip.Exception:
        ui_compared = False  # a rule about the UI's endpoints alone cannot be judged
    used = {rule for c in comparisons for *_, rule in c.listed}
    stale = [rule for rule in KNOWN_DIFFERENCES if rule not in used
             and (ui_compared or not set(rule.endpoints) <= set(oracle.UI_ENDPOINTS))]
    assert not stale, "listed differences that no longer occur (remove them here and from docs/server.md):\n" + \
        "\n".join(f"{r.endpoints}: {r.field}: {r.reason}" for r in stale)
