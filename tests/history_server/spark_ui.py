"""Spark's own UI JavaScript as a client (issue 16 §3): the pages of the real History Server are
opened in chromium (spark_ui_requests.mjs), every REST request their scripts send is recorded with
its exact query string, and the oracle then sends each one to both servers and compares the
answers as it compares its own requests.

Which pages: the application lists (completed, and incomplete when an attempt is unfinished), and
for a few application attempts chosen for what they exercise (the most SQL executions, the most
failed or killed tasks, several attempts, unfinished), the stage page of their first stage attempt
with tasks and of their stage attempt with the most failed or killed tasks, the executors,
environment and SQL pages and one execution's page. On the SQL page and two stage pages (the first, and the one with the most failed or killed
tasks) the DataTables table is sorted by every column both ways, on the other stage pages by a few;
each is paged, shown whole, searched and (SQL) filtered by status, by the page's own code."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from urllib.parse import quote

import oracle

HERE = os.path.dirname(os.path.abspath(__file__))
PLAYWRIGHT = os.path.join(HERE, "..", "..", "web", "node_modules", "playwright-core")
CHROMIUM = os.environ.get("SF_CHROMIUM", "/usr/bin/chromium")
CAPTURE_TIMEOUT_S = 1200

# Attempts chosen per reason; an attempt chosen for two reasons is opened once.
ATTEMPTS_PER_REASON = 2

_RESOURCES = ("stages", "sql", "allexecutors", "executors", "allmiscellaneousprocess", "environment", "jobs")

# The endpoint a recorded request counts under, by its path below applications/<app>[/<attempt>].
_ENDPOINT_BY_TAIL = [
    ("taskTable", r"/stages/\d+/\d+/taskTable"),
    ("taskSummary", r"/stages/\d+/\d+/taskSummary"),
    ("stage attempt", r"/stages/\d+/\d+"),
    ("stage", r"/stages/\d+"),
    ("stages", r"/stages"),
    ("sqlTable", r"/sql/sqlTable"),
    ("sql execution", r"/sql/\d+"),
    ("sql", r"/sql"),
    ("allexecutors", r"/allexecutors"),
    ("executors", r"/executors"),
    ("allmiscellaneousprocess", r"/allmiscellaneousprocess"),
    ("environment", r"/environment"),
    ("jobs", r"/jobs"),
    ("job", r"/jobs/\d+"),
]


def why_not_available():
    """Why the pages cannot be opened here, or None."""
    if os.environ.get("SF_ORACLE_SPARK_UI") == "skip":
        return ("SF_ORACLE_SPARK_UI=skip (CI's first suite: its sanitized suite opens them, beside fewer "
                "long tests)")
    if shutil.which("node") is None:
        return "node is not installed (scripts/install-deps.sh nodejs npm)"
    if not os.path.isdir(PLAYWRIGHT):
        return f"{os.path.normpath(PLAYWRIGHT)} is missing (the build runs npm ci in web/)"
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is missing (scripts/install-deps.sh chromium; make test installs it)"
    return None


def endpoint_of(request, app_id):
    """The oracle endpoint a recorded request (path and query below /api/v1/) counts under."""
    path = request.split("?", 1)[0]
    if path == "applications":
        return "applications"
    prefix = f"applications/{quote(app_id, safe='')}"
    if path == prefix:
        return "application"
    segments = path[len(prefix):].strip("/").split("/")
    if segments[0] not in _RESOURCES:
        segments = segments[1:]  # the attempt id
    if not segments:
        return "application attempt"
    tail = "/" + "/".join(segments)
    for endpoint, pattern in _ENDPOINT_BY_TAIL:
        if re.fullmatch(pattern, tail):
            return endpoint
    raise ValueError(f"a request of Spark's UI the oracle does not know: {request}")


def _attempt_facts(app_id, attempt_id, answer):
    prefix = f"applications/{quote(app_id, safe='')}" + (f"/{quote(attempt_id, safe='')}" if attempt_id else "")
    stages = answer(f"{prefix}/stages") or []
    executions = answer(f"{prefix}/sql?details=false&planDescription=false") or []
    return prefix, stages, executions


def pages_to_open(listing, answer):
    """[{"path", "kind", "app"}] for spark_ui_requests.mjs; `listing` maps each application to
    {attempt id: unfinished}, `answer(path)` is the History Server's JSON (None unless 200)."""
    facts = {}
    for app_id, attempts in sorted(listing.items()):
        for attempt_id in sorted(attempts):
            facts[(app_id, attempt_id)] = _attempt_facts(app_id, attempt_id, answer)

    def failed_or_killed(stage):
        return stage["numFailedTasks"] + stage["numKilledTasks"]

    def tasks_reported(stage):
        return stage["numCompleteTasks"] + stage["numActiveTasks"] + failed_or_killed(stage) > 0

    reasons = [
        lambda key: len(facts[key][2]),                                           # SQL executions
        lambda key: max((failed_or_killed(s) for s in facts[key][1]), default=0),  # failed tasks
        lambda key: len(listing[key[0]]) if len(listing[key[0]]) > 1 else 0,       # attempts
        lambda key: 1 if listing[key[0]][key[1]] else 0,                            # unfinished
    ]
    chosen = []
    for score in reasons:
        ranked = sorted((key for key in facts if score(key) > 0), key=lambda key: (-score(key), key))
        chosen += [key for key in ranked[:ATTEMPTS_PER_REASON] if key not in chosen]

    pages = [{"path": "/", "kind": "history", "app": ""}]
    # The History Server's page lists no table, and sends no request, when nothing is unfinished.
    if any(unfinished for attempts in listing.values() for unfinished in attempts.values()):
        pages.append({"path": "/?showIncomplete=true", "kind": "history", "app": ""})
    for app_id, attempt_id in chosen:
        _, stages, executions = facts[(app_id, attempt_id)]
        base = f"/history/{quote(app_id, safe='')}" + (f"/{quote(attempt_id, safe='')}" if attempt_id else "")
        # Spark's stage page builds its task table in the callback of taskSummary, which answers
        # 404 for a stage attempt without tasks (a skipped one): such a page never sends taskTable.
        stage_attempts = sorted((s for s in stages if tasks_reported(s)),
                                key=lambda s: (s["stageId"], s["attemptId"]))
        shown = stage_attempts[:1] + sorted(stage_attempts, key=lambda s: -failed_or_killed(s))[:1]
        for s in {(s["stageId"], s["attemptId"]): s for s in shown}.values():
            pages.append({"path": f"{base}/stages/stage/?id={s['stageId']}&attempt={s['attemptId']}",
                          "kind": "stage", "app": app_id, "failed": failed_or_killed(s), "everyColumn": False})
        pages.append({"path": f"{base}/executors/", "kind": "executors", "app": app_id})
        pages.append({"path": f"{base}/environment/", "kind": "environment", "app": app_id})
        if executions:
            pages.append({"path": f"{base}/SQL/", "kind": "sql", "app": app_id})
            pages.append({"path": f"{base}/SQL/execution/?id={executions[0]['id']}", "kind": "execution", "app": app_id})
    # Two stage pages sort by every column both ways, the first and the one with the most failed
    # or killed tasks (whose indices hold negated values); the others by a few (spark_ui_requests.mjs).
    stage_pages = [p for p in pages if p["kind"] == "stage"]
    for chosen_page in stage_pages[:1] + sorted(stage_pages, key=lambda p: -p["failed"])[:1]:
        chosen_page["everyColumn"] = True
    return pages


def record_requests(history_server_origin, pages, work):
    """Opens the pages; returns (recorded requests [{"page", "request"}], per-page report)."""
    pages_path = os.path.join(work, "spark-ui-pages.json")
    out_path = os.path.join(work, "spark-ui-requests.json")
    with open(pages_path, "w") as f:
        json.dump(pages, f)
    finished = subprocess.run(["node", os.path.join(HERE, "spark_ui_requests.mjs"), history_server_origin,
                               pages_path, out_path], capture_output=True, text=True, timeout=CAPTURE_TIMEOUT_S)
    if finished.returncode != 0:
        raise RuntimeError(f"spark_ui_requests.mjs failed ({finished.returncode}):\n{finished.stderr[-3000:]}")
    with open(out_path) as f:
        recorded = json.load(f)
    return recorded["requests"], recorded["pages"]


def requests_to_compare(recorded, pages, listing):
    """oracle.Requests for the recorded requests, each once, in the order they were sent."""
    app_of_page = {p["path"]: p["app"] for p in pages}
    out, seen = [], set()
    for r in recorded:
        if r["request"] in seen:
            continue
        seen.add(r["request"])
        app_id = app_of_page.get(r["page"], "")
        if not app_id:
            match = re.match(r"applications/([^/?]+)", r["request"])
            app_id = match.group(1) if match else ""
        running = any(listing.get(app_id, {}).values())
        out.append(oracle.Request(endpoint_of(r["request"], app_id) if app_id else "applications",
                                  r["request"], running))
    return out
