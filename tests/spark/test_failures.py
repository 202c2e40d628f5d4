"""What analyze says about the failures the scenarios of scenarios/failures.py planted on real Spark.

Run with the other scenario assertions by tests/spark/run.sh (ctest's spark_scenarios):
    SF_BIN=build/src/cli/sparkforensics SF_SCENARIO_LOGS=DIR .venv/bin/python -m pytest tests/spark

Each scenario's failures must come out as one finding per root cause, naming the cause itself: the
innermost exception of a nested JVM trace, the Python exception and the file and line that raised
it, a lost executor's exit code with the count of executors, a SparkContext shut down as such. The
figures are checked against the raw events of the same log, read here independently of the tool
(the scenarios write their logs uncompressed for that). No assertion is on time.
"""
from __future__ import annotations

import functools
import glob
import inspect
import json
import os
import re
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scenario import PROBLEM_MARKER  # noqa: E402
from scenarios import failures as planted  # noqa: E402

from scenario_logs import analysis, require_logs, run_of  # noqa: E402

PYTHON_FRAME = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<function>[\w<>]+)')


@pytest.fixture(scope="session", autouse=True)
def logs_were_written():
    require_logs()


def log_of(name, variant):
    return run_of(name, variant)["log"]


@functools.lru_cache(maxsize=None)
def raw_events(log):
    """Every event of the log, in order: the oracle the tool's figures are checked against."""
    parts = sorted(glob.glob(os.path.join(log, "events_*"))) if os.path.isdir(log) else [log]
    assert parts, f"{log}: no event log parts"
    events = []
    for part in parts:
        assert not re.search(r"\.(zstd|lz4|snappy|lzf|gz)$", part), f"{part}: the failure scenarios log uncompressed"
        with open(part) as f:
            events.extend(json.loads(line) for line in f if line.strip())
    return tuple(events)


def raw_failed_attempts(log, reason):
    return [e for e in raw_events(log)
            if e["Event"] == "SparkListenerTaskEnd" and e["Task End Reason"]["Reason"] == reason]


def problem_stages(doc):
    stages = set()
    for job in doc["jobs"]:
        if job["description"].startswith(PROBLEM_MARKER):
            stages.update(job["stageIds"])
    return stages


def all_findings(doc):
    """What the detectors found: each entry and the findings folded into it (one fix, one entry)."""
    for f in doc["findings"]:
        yield f
        for answered in f["alsoAnswers"]:
            yield answered["finding"]


def of_type(doc, finding_type, rule=None):
    return [f for f in all_findings(doc) if f["type"] == finding_type and (rule is None or f["rule"] == rule)]


def evidence(finding, name):
    values = [e["value"] for e in finding["evidence"] if e["name"] == name]
    assert values, f"{finding['id']} has no evidence {name}: {finding['evidence']}"
    return values[0]


def raise_line(function_name, marker):
    """The line of scenarios/failures.py that raises the planted exception, found in its source."""
    path = inspect.getsourcefile(planted)
    with open(path) as f:
        lines = [number for number, text in enumerate(f, 1) if text.strip().startswith(marker)]
    assert len(lines) == 1, f"{marker!r} must start exactly one line of {path}, found {lines}"
    return function_name, lines[0]


WITH_CAUSE = sorted(name for name, e in planted.EXPECTED.items() if "rule" in e)
WITH_EXCEPTION = sorted(name for name, e in planted.EXPECTED.items() if "root_class" in e)
IN_PYTHON = sorted(name for name, e in planted.EXPECTED.items() if "raised_at" in e)


def the_failures_finding(name):
    """The scenario's one failures finding of its rule; every failed attempt of that kind is in it."""
    expected = planted.EXPECTED[name]
    log = log_of(name, expected["variant"])
    doc = analysis(log)
    found = of_type(doc, "failures", expected["rule"])
    assert len(found) == 1, f"{name}: one root cause, one finding; got {[f['id'] for f in found]}"
    return log, doc, found[0]


@pytest.mark.parametrize("name", WITH_CAUSE)
def test_one_root_cause_is_one_finding_with_every_attempt(name):
    log, doc, finding = the_failures_finding(name)
    raw = raw_failed_attempts(log, planted.EXPECTED[name]["rule"])
    assert raw, f"{name}: the log has no {planted.EXPECTED[name]['rule']} attempt: nothing was planted"
    assert evidence(finding, "failedAttempts") == len(raw), f"{name}: {finding['title']}"
    assert set(finding["stageIds"]) <= problem_stages(doc), (
        f"{name}: {finding['id']} is about {finding['stageIds']}, the failures ran in {sorted(problem_stages(doc))}")


@pytest.mark.parametrize("name", WITH_EXCEPTION)
def test_the_finding_names_the_innermost_cause(name):
    expected = planted.EXPECTED[name]
    log, doc, finding = the_failures_finding(name)
    subject = finding["title"].split(" failed: ", 1)[-1]
    assert expected["root_class"] in subject.split(":")[0], f"{name}: the title's cause is {subject!r}"
    assert expected["message_has"] in finding["title"], f"{name}: {finding['title']!r}"
    outer = expected.get("outer_class")
    if outer:
        # The log really nests it: the root is a Caused by, under the outer exception.
        trace = raw_failed_attempts(log, expected["rule"])[0]["Task End Reason"]["Full Stack Trace"]
        assert trace.startswith(outer) and f"Caused by: {expected['root_class']}" in trace, trace[:300]
        assert outer not in finding["title"], f"{name}: the wrapper is not the cause: {finding['title']!r}"
        assert f"under {outer}" in finding["explanation"], finding["explanation"]
    # The stage and job failures say the same, where the job failed.
    for other in of_type(doc, "stageFailed") + of_type(doc, "jobFailureRate"):
        assert expected["root_class"] in other["explanation"], f"{name}: {other['id']}: {other['explanation']!r}"


@pytest.mark.parametrize("name", IN_PYTHON)
def test_a_python_cause_names_the_file_and_line_that_raised_it(name):
    expected = planted.EXPECTED[name]
    log, doc, finding = the_failures_finding(name)
    function, line = raise_line(*expected["raised_at"])
    frames = [m for m in PYTHON_FRAME.finditer(finding["explanation"])]
    assert frames, f"{name}: no traceback frame in {finding['explanation']!r}"
    frame = frames[-1]
    assert os.path.basename(frame["path"]) == os.path.basename(inspect.getsourcefile(planted)), frame.group(0)
    assert (frame["function"], int(frame["line"])) == (function, line), (
        f"{name}: the finding says {frame.group(0)!r}, the raise is at line {line}, in {function}")
    # The oracle: the last frame of the last traceback Spark logged for the attempt.
    trace = raw_failed_attempts(log, expected["rule"])[0]["Task End Reason"]["Full Stack Trace"]
    logged = list(PYTHON_FRAME.finditer(trace[trace.rfind("Traceback (most recent call last):"):]))
    assert logged and logged[-1].group(0) == frame.group(0), f"{name}: Spark logged {logged[-1].group(0) if logged else None}"
    assert frame.group(0) in finding["recommendation"], finding["recommendation"]


def test_tasks_cancelled_by_a_shutdown_are_named_as_such():
    name = "shutdown_during_job"
    log = log_of(name, planted.EXPECTED[name]["variant"])
    doc = analysis(log)
    cancelled = of_type(doc, "stageFailed", "cancelledByShutdown")
    assert cancelled, f"{name}: findings {[f['id'] for f in doc['findings']]}"
    assert {s for f in cancelled for s in f["stageIds"]} == problem_stages(doc)
    # The tasks it abandoned, against the raw events: started, never ended.
    started = {e["Task Info"]["Task ID"] for e in raw_events(log) if e["Event"] == "SparkListenerTaskStart"}
    ended = {e["Task Info"]["Task ID"] for e in raw_events(log) if e["Event"] == "SparkListenerTaskEnd"}
    assert started - ended, f"{name}: no task was running when the session stopped: nothing was planted"
    assert sum(evidence(f, "runningTasksAbandoned") for f in cancelled) == len(started - ended)
    # Not blamed on a fetch failure, a lost executor or the tasks' code.
    for f in all_findings(doc):
        assert f["type"] not in ("failures", "retryWaste"), f"{name}: {f['id']}: nothing failed in the tasks"
        assert "FetchFailed" not in f["title"] + f["explanation"], f"{name}: {f['id']} blames a fetch failure"
        assert not any(s["key"].startswith("spark.shuffle.") for s in f["settings"]), f"{name}: {f['id']}: {f['settings']}"
        assert "Fix its root cause in the application code" not in f["recommendation"], f"{name}: {f['id']}"
    rate = of_type(doc, "jobFailureRate")
    assert rate and evidence(rate[0], "cancelledByShutdown") == evidence(rate[0], "failedJobs"), rate


def test_executors_lost_with_one_exit_code_are_one_finding_with_the_count():
    name = "executors_lost_exit_code"
    expected = planted.EXPECTED[name]
    log, doc, finding = the_failures_finding(name)
    removed = [e for e in raw_events(log) if e["Event"] == "SparkListenerExecutorRemoved"]
    exited = [e for e in removed if re.search(rf"\bcode {expected['exit_code']}\b", e["Removed Reason"])]
    assert len(exited) == expected["executors"], f"{name}: executors removed: {[e['Removed Reason'] for e in removed]}"
    assert evidence(finding, "exitCode") == expected["exit_code"]
    assert evidence(finding, "executorsLost") == len(exited)
    assert f"{len(exited)} executors lost with exit code {expected['exit_code']}" in finding["title"], finding["title"]
    # Its twin lost none.
    twin = analysis(log_of(name, "fixed"))
    assert not of_type(twin, "failures"), f"{name} twin: {[f['id'] for f in of_type(twin, 'failures')]}"


def test_retry_waste_names_the_root_cause_of_its_retries():
    name = "task_retries"
    function, line = raise_line(*planted.EXPECTED[name]["raised_at"])
    doc = analysis(log_of(name, "problem"))
    retries = of_type(doc, "retryWaste", "failedTasks")
    assert retries, f"{name}: {[f['id'] for f in doc['findings']]}"
    frames = [m for f in retries for m in PYTHON_FRAME.finditer(f["explanation"])]
    assert any((m["function"], int(m["line"])) == (function, line) for m in frames), [f["explanation"] for f in retries]
