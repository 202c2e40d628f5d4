"""Spark's own UI JavaScript against serve (issue 16 §3): the requests historypage.js, stagepage.js,
executorspage.js, environmentpage.js and the SQL pages send to the real History Server, recorded in
chromium with their exact query strings (spark_ui.py), each answered by serve as by the History
Server. A difference fails unless known_differences.py lists it."""
from __future__ import annotations

import pytest

SHOWN = 25
# What every run must have asked: the stage page's table, summary and stage; the SQL table; the
# executors and environment pages' sources; the application list.
ASKED = ["applications", "stage attempt", "taskSummary", "taskTable", "allexecutors", "allmiscellaneousprocess",
         "environment", "sqlTable", "sql execution"]


def test_every_page_opened_and_sent_its_requests(spark_ui_run):
    broken = [f"{p['path']}: {p.get('error', 'no request')}" for p in spark_ui_run.pages
              if p.get("error") or p["requests"] == 0]
    assert not broken, "pages of Spark's UI that failed:\n" + "\n".join(broken)


@pytest.mark.parametrize("endpoint", ASKED)
def test_the_ui_request_is_answered_as_by_the_history_server(spark_ui_run, endpoint):
    comparisons = [c for c in spark_ui_run.comparisons if c.request.endpoint == endpoint]
    assert comparisons, f"Spark's UI sent no request to {endpoint}"
    lines = [f"{c.request.path}: {where}: History Server {expected}, serve {got}"
             for c in comparisons for where, expected, got in c.unlisted]
    failing = sum(1 for c in comparisons if c.unlisted)
    assert not lines, (f"{failing} of {len(comparisons)} answers differ ({len(lines)} values):\n"
                       + "\n".join(lines[:SHOWN]) + (f"\n... {len(lines) - SHOWN} more" if len(lines) > SHOWN else ""))

