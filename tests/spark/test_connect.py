"""What analyze says of a real Spark Connect server's log (connect_client.py wrote it): every
operation the client sent, tied to the jobs it ran by its job tag, with its session, tags, status
and cost; the failed one with its error; and the jobs no operation claims are none."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scenario_logs import BIN, LOGS, analysis  # noqa: E402


@pytest.fixture(scope="module")
def run():
    path = os.path.join(LOGS, "connect", "connect.json")
    if not os.path.exists(path):
        pytest.fail(f"no Spark Connect log: {path} is missing (tests/spark/run.sh runs connect_client.py)")
    with open(path) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def doc(run):
    return analysis(run["log"])


def test_every_operation_is_modeled_with_its_session(doc):
    (session,) = doc["connectSessions"]
    operations = doc["connectOperations"]
    assert session["operations"] == len(operations) >= 3
    assert all(op["sessionId"] == session["sessionId"] for op in operations)
    assert not [name for name in doc["diagnostics"]["unknownEvents"] if "ConnectOperation" in name]


def test_the_tagged_query_owns_its_jobs_and_their_cost(doc, run):
    operations = doc["connectOperations"]
    tagged = [op for op in operations if run["tag"] in op["sessionTags"]]
    assert len(tagged) == 1, [op["sessionTags"] for op in operations]
    query = tagged[0]
    assert query["status"] == "FINISHED" and query["producedRows"] == 3
    assert len(query["jobIds"]) >= 1
    summary = doc["connect"][operations.index(query)]
    assert summary["jobs"] == len(query["jobIds"]) and summary["taskTimeMs"] > 0 and summary["cost"] > 0
    # Every job of the log that carries a Connect operation tag belongs to that operation.
    claimed = {job_id for op in operations for job_id in op["jobIds"]}
    tagged_jobs = {j["jobId"] for j in doc["jobs"]}
    assert claimed == tagged_jobs, f"jobs no operation claims: {sorted(tagged_jobs - claimed)}"
    costs = sum(s["cost"] for s in doc["connect"])
    assert costs <= doc["economics"]["cost"]["total"] + 1e-9


def test_the_failed_operation_says_why(doc, run):
    failed = [op for op in doc["connectOperations"] if op["status"] == "FAILED"]
    assert len(failed) == 1
    assert "TABLE_OR_VIEW_NOT_FOUND" in failed[0]["error"]
    assert run["failingSql"] in failed[0]["statement"]
    assert not failed[0]["jobIds"]


def test_the_report_names_the_costliest_operation(run):
    done = subprocess.run([BIN, "analyze", "--no-progress", run["log"]], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    section = done.stdout.split("\nSpark Connect (", 1)
    assert len(section) == 2, done.stdout
    first = section[1].splitlines()[1]
    assert f"tags {run['tag']}" in first and "FINISHED" in first, first
