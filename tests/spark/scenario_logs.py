"""What every real-Spark assertion module shares: the logs run_scenarios.py wrote, and analyze's
document for one of them (SF_BIN, SF_SCENARIO_LOGS; see test_scenarios.py)."""
from __future__ import annotations

import functools
import json
import os
import subprocess

import pytest

LOGS = os.environ.get("SF_SCENARIO_LOGS", "")
BIN = os.environ.get("SF_BIN", "")


def _manifest_runs():
    path = os.path.join(LOGS, "manifest.json")
    if not LOGS or not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f)["runs"]


RUNS = _manifest_runs()


def require_logs():
    """Fails the session, saying why, when there are no logs or no binary to read them with."""
    if not RUNS:
        pytest.fail(f"no scenario logs in {LOGS!r}: run tests/spark/run_scenarios.py --out DIR first")
    assert BIN and os.access(BIN, os.X_OK), f"SF_BIN={BIN!r} is not the sparkforensics binary"


def run_of(name, variant):
    """The first round's run of a scenario's variant, from the manifest."""
    for run in RUNS:
        if run["scenario"] == name and run["variant"] == variant and run["round"] == 0:
            return run
    pytest.fail(f"{name}: no {variant} run in {LOGS}/manifest.json")


@functools.lru_cache(maxsize=None)
def analysis(log):
    """analyze -f json of one log, read once per session."""
    done = subprocess.run([BIN, "analyze", "--no-progress", "-f", "json", log], capture_output=True, text=True)
    assert done.returncode == 0, f"analyze {log}: {done.stderr}"
    return json.loads(done.stdout)
