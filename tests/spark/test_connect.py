"""What analyze says of a real Spark Connect server's log (connect_client.py wrote it): every
operation the client sent, tied to the jobs it ran by its job tag, with its session, tags, status
and cost; the stage attempts that ran for it and their task time; the failed one with its error;
the jobs no operation claims are none; and the dashboard's API and MCP answer with the document's
own entries."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "tests"))

from harness import Dashboard, Mcp  # noqa: E402 (the suites' one harness)
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


def test_each_operation_owns_the_stage_attempts_its_jobs_ran(doc):
    stages = {(s["stageId"], s["attemptId"]): s for s in doc["stages"]}
    owned = set()
    for op, summary in zip(doc["connectOperations"], doc["connect"]):
        assert summary["operationId"] == op["operationId"]
        attempts = {(a["stageId"], a["attemptId"]) for a in summary["stageAttempts"]}
        assert not attempts & owned, f"{op['operationId']}: attempts another operation owns: {attempts & owned}"
        owned |= attempts
        for key in attempts:
            stage = stages[key]
            assert stage["status"] not in ("SKIPPED", "PENDING"), f"{key} did not run: {stage['status']}"
            assert set(stage["jobIds"]) & set(op["jobIds"]), f"{key} ran for jobs {stage['jobIds']}, not {op['jobIds']}"
        assert summary["taskTimeMs"] == sum(stages[key]["metrics"]["durationMs"] for key in attempts)
    # Every stage attempt that ran was an operation's: the client's server ran nothing else.
    ran = {key for key, s in stages.items() if s["status"] not in ("SKIPPED", "PENDING")}
    assert owned == ran, f"attempts no operation owns: {sorted(ran - owned)}"
    findings = {f["id"] for f in doc["findings"]}
    assert all(set(s["findingIds"]) <= findings for s in doc["connect"])


def test_the_dashboard_api_and_mcp_answer_with_the_documents_entries(doc, run, tmp_path):
    log_dir = os.path.dirname(run["log"])
    name = os.path.basename(run["log"])
    operations = doc["connectOperations"]
    dashboard = Dashboard(BIN, log_dir, stderr_path=tmp_path / "serve.log")
    try:
        listed = dashboard.get(f"logs/{name}/connect")
        assert listed["sessions"] == doc["connectSessions"]
        assert [o["operation"] for o in listed["operations"]] == operations
        assert [o["summary"] for o in listed["operations"]] == doc["connect"]
        for op, summary in zip(operations, doc["connect"]):
            one = dashboard.get(f"logs/{name}/connect/{op['operationId']}")
            assert one["operation"] == op and one["summary"] == summary
            assert [f["id"] for f in one["findings"]] == summary["findingIds"]
    finally:
        dashboard.close()

    mcp = Mcp(BIN, log_dir)
    try:
        answer = mcp.tool_result("connect_operations", {"path": name})
        listed = answer["structuredContent"]
        ranked = sorted(range(len(operations)), key=lambda i: -doc["connect"][i]["cost"])  # stable: by start among equals
        assert [o["summary"] for o in listed["operations"]] == [doc["connect"][i] for i in ranked]
        assert [o["operation"]["operationId"] for o in listed["operations"]] == [operations[i]["operationId"] for i in ranked]
        assert all("statement" not in o["operation"] for o in listed["operations"])
        text = answer["content"][0]["text"]
        assert f"{len(operations)} Spark Connect operations from 1 session" in text, text
        assert f"tags {run['tag']}" in text.splitlines()[1], text
        failed = next(op for op in operations if op["status"] == "FAILED")
        one = mcp.tool("connect_operations", {"analysisId": listed["analysisId"], "operationId": failed["operationId"]})
        assert one["operation"] == failed and run["failingSql"] in one["operation"]["statement"]
        unknown = mcp.tool_result("connect_operations", {"analysisId": listed["analysisId"], "operationId": "no-such"})
        assert unknown["isError"] and "no Spark Connect operation" in unknown["content"][0]["text"]
    finally:
        mcp.close()
