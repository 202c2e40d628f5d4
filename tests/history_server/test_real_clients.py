"""Real History Server clients against serve (issue 16 §3), on the same logs and servers as the
oracle: spark-history-cli (every command, from the project's .venv) and kubeflow's MCP server for
the History Server (every tool, from .venv-mcp, driven by mcp_client_driver.py). Each command or
tool call is made against serve and against Spark's own History Server; serve's answer must
succeed exactly when the History Server's does, and say the same (JSON compared as the oracle
compares, the differences known_differences.py lists excepted)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile

import pytest

import oracle
import servers
from conftest import RESULT
from known_differences import known_difference

HERE = os.path.dirname(os.path.abspath(__file__))
SHOWN = 25


def _json_or_none(server, path):
    status, _, body = servers.get(server.base + path)
    return json.loads(body) if status == 200 else None


def _first(items, key):
    return items[0][key] if items else None


class AppIds:
    """The ids a client is asked about for one application, from the History Server's answers."""

    def __init__(self, history_server, app_id, attempts):
        self.app_id = app_id
        self.attempt_ids = sorted(a for a in attempts if a)
        self.running = any(attempts.values())
        app = oracle.quote(app_id, safe="")
        prefix = f"applications/{app}" + (f"/{oracle.quote(self.attempt_ids[-1], safe='')}" if self.attempt_ids else "")
        self.job_id = _first(_json_or_none(history_server, f"{prefix}/jobs") or [], "jobId")
        stages = sorted(_json_or_none(history_server, f"{prefix}/stages") or [],
                        key=lambda s: (s["stageId"], s["attemptId"]))
        self.stage_id = _first(stages, "stageId")
        self.execution_id = _first(_json_or_none(history_server, f"{prefix}/sql?details=false&length=1") or [], "id")
        self.rdd_id = _first(_json_or_none(history_server, f"{prefix}/storage/rdd") or [], "id")
        self.executor_id = _first(_json_or_none(history_server, f"{prefix}/allexecutors") or [], "id")
        self.has_failed_tasks = any(s["numFailedTasks"] > 0 for s in stages)


def _chosen(app_ids, most=12):
    """Applications that together show every kind a client meets: the first of those with SQL
    executions, cached RDDs, several attempts, failed tasks, unfinished, none of these, and
    kubeflow's own examples (spark-*); then others, evenly spread, up to `most`."""
    kinds = [lambda a: a.execution_id is not None, lambda a: a.rdd_id is not None,
             lambda a: len(a.attempt_ids) > 1, lambda a: a.has_failed_tasks, lambda a: a.running,
             lambda a: a.execution_id is None and a.rdd_id is None and not a.running]
    chosen = [a for a in app_ids if a.app_id.startswith("spark-")]
    for kind in kinds:
        first = next((a for a in app_ids if kind(a)), None)
        if first is not None and first not in chosen:
            chosen.append(first)
    rest = [a for a in app_ids if a not in chosen]
    room = max(most - len(chosen), 0)
    if rest and room:
        chosen += rest[::max(len(rest) // room, 1)][:room]
    return sorted(chosen, key=lambda a: a.app_id)


@pytest.fixture(scope="session")
def app_ids(running_servers):
    listing = servers.listing(running_servers.history_server)
    return [AppIds(running_servers.history_server, app_id, attempts) for app_id, attempts in sorted(listing.items())]


def _listed(endpoints, label, running, where, expected, got):
    """Whether known_differences.py lists a difference, under any of the endpoints an answer
    is made of (a client's command may read several)."""
    return any(known_difference(oracle.Request(endpoint, label, running), where, expected, got) is not None
               for endpoint in endpoints)


def _differences(endpoints, label, running, expected, got):
    """Unlisted differences of `got` from `expected` (JSON), as the oracle judges them."""
    _, differences = oracle.compare_json(expected, got)
    return [(where, e, g) for where, e, g in differences if not _listed(endpoints, label, running, where, e, g)]


def _http_status(exit_code, output):
    """The status a client's answer came from: 200 when it succeeded, else the one its error names
    (spark-history-cli says "HTTP 404: ..."), as the oracle's status differences read."""
    if exit_code == 0:
        return "200 "
    found = re.search(r"HTTP (\d{3})", output)
    return found.group(1) if found else f"exit {exit_code}"


# ---------------------------------------------------------------------------------------------
# spark-history-cli

def _cli_commands(ids):
    """(oracle endpoint the answer is judged as, arguments) of every command for one application."""
    # summary reads the application, its environment, jobs, stages, executors and SQL executions.
    out = [("application", ["app", ids.app_id]), ("application", ["attempts"]),
           ("allmiscellaneousprocess", ["processes"]),
           (("application", "environment", "jobs", "stages", "allexecutors", "sql"), ["summary"]),
           ("jobs", ["jobs"]), ("jobs", ["jobs", "--status", "succeeded"]), ("stages", ["stages"]),
           ("stages", ["stages", "--status", "complete"]), ("executors", ["executors"]),
           ("allexecutors", ["executors", "--all"]), ("sql", ["sql"]), ("storage/rdd", ["rdds"]),
           ("environment", ["env"])]
    out += [("application attempt", ["attempt", a]) for a in ids.attempt_ids]
    if ids.job_id is not None:
        out += [("job", ["job", str(ids.job_id)]), ("stages", ["job-stages", str(ids.job_id)])]
    if ids.stage_id is not None:
        out += [("stage", ["stage", str(ids.stage_id)]),
                ("stage attempt", ["stage", str(ids.stage_id), "--attempt", "0"]),
                ("taskSummary", ["stage-summary", str(ids.stage_id)]),
                ("taskList", ["stage-tasks", str(ids.stage_id)]),
                ("taskList", ["stage-tasks", str(ids.stage_id), "--sort-by", "-runtime", "--length", "5"])]
    if ids.execution_id is not None:
        out += [("sql execution", ["sql", str(ids.execution_id)]),
                ("sql execution", ["sql-plan", str(ids.execution_id)]),
                ("sql execution", ["sql-plan", str(ids.execution_id), "--dot"]),
                ("jobs", ["sql-jobs", str(ids.execution_id)])]
    if ids.rdd_id is not None:
        out.append(("storage/rdd", ["rdd", str(ids.rdd_id)]))
    return out


def _run_cli(runner, cli, server, args, json_mode):
    base = server.base.removesuffix("/api/v1/")
    result = runner.invoke(cli, ["--server", base] + (["--json"] if json_mode else []) + args,
                           catch_exceptions=True)
    # A failed request raises out of the command (HistoryServerError: "HTTP 404: ..."), as a person
    # running it would see it.
    failure = f"\n{type(result.exception).__name__}: {result.exception}" if result.exception is not None else ""
    return result.exit_code, result.output + failure


def test_spark_history_cli_every_command(running_servers, app_ids):
    try:
        from click.testing import CliRunner
        from spark_history_cli.cli import cli
    except ImportError as e:
        pytest.skip(f"spark-history-cli is not in the project's .venv ({e}): scripts/install-python.sh installs it")
    runner = CliRunner()
    hs, serve = running_servers.history_server, running_servers.serve
    problems, calls, labels = [], 0, set()
    commands = [(None, "version", ["version"]), (None, "applications", ["apps"]),
                (None, "applications", ["apps", "--status", "completed"]), (None, "applications", ["apps", "--limit", "3"]),
                (None, "applications", ["apps", "--min-date", "2015-02-10"])]
    # Every command on applications of every kind (_chosen): each command is a few requests, and
    # the oracle above asks every endpoint of every application already.
    commands += [(ids, endpoint, ["-a", ids.app_id] + args) for ids in _chosen(app_ids, most=16)
                 for endpoint, args in _cli_commands(ids)]
    for ids, endpoint, args in commands:
        endpoints = endpoint if isinstance(endpoint, tuple) else (endpoint,)
        label = "spark-history-cli " + " ".join(args)
        labels.add(label)
        running = ids.running if ids else False
        calls += 1
        expected_code, expected = _run_cli(runner, cli, hs, args, True)
        got_code, got = _run_cli(runner, cli, serve, args, True)
        if (expected_code == 0) != (got_code == 0):
            e_status, g_status = _http_status(expected_code, expected), _http_status(got_code, got)
            if not _listed(endpoints, label, running, "(status)", e_status, g_status):
                problems.append(f"{label}: exit {got_code} against serve, {expected_code} against the History "
                                f"Server: {got.strip()[-300:]}")
            continue
        if expected_code != 0:
            continue
        try:
            expected_json, got_json = json.loads(expected), json.loads(got)
        except ValueError:  # a text answer (a plan, a Graphviz graph): the same text
            if expected != got:
                problems.append(f"{label}: another text than against the History Server")
            continue
        for where, e, g in _differences(endpoints, label, running, expected_json, got_json):
            problems.append(f"{label}: {where}: History Server {e}, serve {g}")
        # The same command as a person reads it: the tables and blocks render serve's answer.
        table_code, table = _run_cli(runner, cli, serve, args, False)
        if table_code != 0:
            problems.append(f"{label}: as a table: exit {table_code}: {table.strip()[-300:]}")
    # The log download, to a file: a zip with the History Server's entries.
    with tempfile.TemporaryDirectory(prefix="sf-cli-logs-") as work:
        for ids in _chosen(app_ids, most=16):
            calls += 1
            label = f"spark-history-cli -a {ids.app_id} logs"
            labels.add(label)
            paths = {name: os.path.join(work, f"{name}-{len(ids.app_id)}.zip") for name in ("hs", "serve")}
            expected_code, _ = _run_cli(runner, cli, hs, ["-a", ids.app_id, "logs", paths["hs"]], True)
            got_code, got = _run_cli(runner, cli, serve, ["-a", ids.app_id, "logs", paths["serve"]], True)
            if (expected_code == 0) != (got_code == 0):
                problems.append(f"{label}: exit {got_code} against serve, {expected_code} against the History Server: "
                                f"{got.strip()[-300:]}")
                continue
            if expected_code == 0:
                with open(paths["hs"], "rb") as e, open(paths["serve"], "rb") as g:
                    _, differences = oracle.compare_logs_zip(e.read(), g.read())
                request = oracle.Request("logs", label, ids.running)
                problems += [f"{label}: {where}: History Server {e}, serve {g}" for where, e, g in differences
                             if known_difference(request, where, e, g) is None]
    differing = len({label for label in labels if any(p.startswith(label + ":") for p in problems)})
    RESULT.clients["spark-history-cli"] = (f"{calls - differing} of {calls} commands answered as against the "
                                           f"History Server")
    assert not problems, (f"{len(problems)} of {calls} commands differ:\n" + "\n".join(problems[:SHOWN])
                          + (f"\n... {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""))


# ---------------------------------------------------------------------------------------------
# kubeflow's MCP server for the History Server

MCP_PYTHON = os.path.join(HERE, "..", "..", ".venv-mcp", "bin", "python")

# The oracle endpoint each tool's answer is judged as (for the differences known_differences.py
# lists: a tool passes the History Server's JSON through its models).
MCP_TOOL_ENDPOINTS = {
    "list_applications": "applications", "list_jobs": "jobs", "list_stages": "stages", "get_stage": "stage attempt",
    "list_stage_task_failures": "taskList", "get_environment": "environment", "list_executors": "allexecutors",
    "get_executor_summary": "allexecutors", "get_executor_thread_dump": "executor threads",
    "compare_job_environments": "environment", "compare_job_performance": "jobs", "list_sql_executions": "sql",
    "get_sql_execution": "sql execution", "compare_sql_executions": "sql execution", "compare_stages": "stage attempt",
    "get_job_bottlenecks": "stages", "get_resource_usage_timeline": "allexecutors",
}


def _mcp_calls(app_ids):
    calls = [{"tool": "list_applications", "arguments": {}},
             {"tool": "list_applications", "arguments": {"status": ["COMPLETED"], "limit": 5}}]
    for ids in app_ids:
        app = {"app_id": ids.app_id}
        calls += [{"tool": t, "arguments": dict(app)} for t in
                  ("list_jobs", "list_stages", "get_environment", "list_executors", "get_executor_summary",
                   "list_sql_executions", "get_job_bottlenecks", "get_resource_usage_timeline")]
        calls.append({"tool": "list_stages", "arguments": dict(app, with_summaries=True)})
        calls.append({"tool": "list_executors", "arguments": dict(app, include_inactive=True)})
        if ids.stage_id is not None:
            calls += [{"tool": "get_stage", "arguments": dict(app, stage_id=ids.stage_id, with_summaries=True)},
                      {"tool": "list_stage_task_failures", "arguments": dict(app, stage_id=ids.stage_id)},
                      {"tool": "compare_stages", "arguments": {"app_id1": ids.app_id, "stage_id1": ids.stage_id,
                                                               "app_id2": ids.app_id, "stage_id2": ids.stage_id}}]
        if ids.execution_id is not None:
            calls.append({"tool": "get_sql_execution", "arguments": dict(app, execution_id=ids.execution_id)})
        if ids.executor_id is not None:
            calls.append({"tool": "get_executor_thread_dump", "arguments": dict(app, executor_id=ids.executor_id)})
    # Two applications side by side: consecutive pairs.
    for a, b in zip(app_ids, app_ids[1:]):
        pair = {"app_id1": a.app_id, "app_id2": b.app_id}
        calls += [{"tool": t, "arguments": dict(pair)} for t in
                  ("compare_job_environments", "compare_job_performance", "compare_sql_executions")]
    return calls


def test_mcp_server_every_tool(running_servers, app_ids, tmp_path):
    if not os.path.exists(MCP_PYTHON):
        pytest.skip("no .venv-mcp: mcp-apache-spark-history-server needs Python 3.12 or later, which "
                    "scripts/install-python.sh found none of")
    hs, serve = running_servers.history_server, running_servers.serve
    plan = {"servers": {"serve": serve.base.removesuffix("/api/v1/"),
                        "history_server": hs.base.removesuffix("/api/v1/")},
            "calls": _mcp_calls(_chosen(app_ids, most=8))}
    plan_path, results_path = tmp_path / "plan.json", tmp_path / "results.json"
    plan_path.write_text(json.dumps(plan))
    driver = subprocess.run([MCP_PYTHON, os.path.join(HERE, "mcp_client_driver.py"), str(plan_path), str(results_path)],
                            capture_output=True, text=True, timeout=900)
    assert driver.returncode == 0, f"the MCP client driver failed:\n{driver.stderr[-3000:]}"
    out = json.loads(results_path.read_text())
    tools_called = {c["tool"] for c in plan["calls"]}
    assert set(out["tools"]) <= tools_called | {"aws_analyze_spark_workload", "aws_spark_code_recommendation"}, \
        f"tools the test does not call: {sorted(set(out['tools']) - tools_called)}"
    def content(answer):
        """A tool's answer as data: its structured result (FastMCP wraps a list as {"result": ...}),
        else its text contents, each read as JSON where it is."""
        if answer["structured"] is not None:
            value = answer["structured"]
            value = value["result"] if isinstance(value, dict) and list(value) == ["result"] else value
            # The compare tools make their requests at once and join the failures in the order they
            # came back ("API failures: jobs1 failed: ...; exec_summary1 failed: ..."): as a set.
            if isinstance(value, dict) and str(value.get("error", "")).startswith("API failures: "):
                failures = re.split(r"(?<=\.); (?=\w+ failed: )", value["error"].removeprefix("API failures: "))
                value = dict(value, error=sorted(failures))
            return value
        parts = []
        for text in answer["texts"]:
            try:
                parts.append(json.loads(text))
            except ValueError:
                parts.append(text)
        return parts[0] if len(parts) == 1 else parts

    by_call = {}
    for r in out["results"]:
        by_call.setdefault(json.dumps([r["tool"], r["arguments"]], sort_keys=True), {})[r["server"]] = r
    running = {ids.app_id for ids in app_ids if ids.running}
    problems, labels = [], set()
    for key, answers in by_call.items():
        expected, got = answers["history_server"], answers["serve"]
        label = f"{got['tool']}({json.dumps(got['arguments'], sort_keys=True)})"
        labels.add(label)
        is_running = any(v in running for v in got["arguments"].values() if isinstance(v, str))
        if expected["error"] != got["error"]:
            statuses = []
            for answer in (expected, got):
                found = re.search(r"\b([45]\d\d)\b", answer["text"]) if answer["error"] else None
                statuses.append(found.group(1) if found else ("an error" if answer["error"] else "200 "))
            if _listed((MCP_TOOL_ENDPOINTS[got["tool"]],), label, is_running, "(status)", *statuses):
                continue
            problems.append(f"{label}: {'an error' if got['error'] else 'an answer'} from serve, "
                            f"{'an error' if expected['error'] else 'an answer'} from the History Server: "
                            f"{(got['text'] if got['error'] else expected['text'])[:300]}")
            continue
        # An unfinished application's answers hold the History Server's clock (its running
        # driver's and tasks' durations, and what the tools derive from them: sort orders,
        # ratios): for those, that both succeed is what is checked.
        if expected["error"] or is_running:
            continue
        e_value, g_value = content(expected), content(got)
        for where, e, g in _differences((MCP_TOOL_ENDPOINTS[got["tool"]],), label, is_running, e_value, g_value):
            problems.append(f"{label}: {where}: History Server {e}, serve {g}")
    differing = len({label for label in labels if any(p.startswith(label + ":") for p in problems)})
    RESULT.clients["mcp-apache-spark-history-server"] = (
        f"{len(out['tools'])} tools, {len(by_call) - differing} of {len(by_call)} calls answered as against "
        f"the History Server")
    assert not problems, (f"{len(problems)} of {len(by_call)} calls differ:\n" + "\n".join(problems[:SHOWN])
                          + (f"\n... {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""))
