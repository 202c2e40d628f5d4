"""What the oracle asks both servers and how it compares their answers.

Requests: for every application attempt the History Server lists, every endpoint and query form a
real client uses (Spark's UI, the History Server's REST clients), with the ids taken from the
History Server's own answers. Comparison: JSON structurally (fields in any order, numbers equal
within 1e-9 relative), except the fields in IGNORED_FIELDS; an error answer by its status; a log
download by its entries. Differences that are known and justified are in known_differences.py.
"""
from __future__ import annotations

import io
import json
import math
import zipfile
from urllib.parse import quote

# Fields whose value depends on the files' times or on the host, not on the log: never compared.
# docs/server.md lists the same, with the same reasons.
IGNORED_FIELDS = {
    "lastUpdated": "the log file's modification time",
    "lastUpdatedEpoch": "the log file's modification time",
}

# The application list in the query forms clients send; dates in every form Spark's
# SimpleDateParam takes (yyyy-MM-dd'T'HH:mm:ss.SSSz with any zone, then yyyy-MM-dd in GMT).
APPLICATION_LIST_QUERIES = [
    "",
    "?status=completed",
    "?status=running",
    "?status=COMPLETED&status=running",
    "?minDate=2015-02-10",
    "?maxDate=2015-02-10",
    "?minDate=2015-02-03T16:42:40.000GMT",
    "?maxDate=2015-02-03T16:42:40.000GMT",
    "?minDate=2015-02-03T08:42:40.000PST",
    "?minDate=2015-02-03T16:42:40.000UTC",
    "?minDate=2015-02-03T17:42:40.000GMT%2B01:00",
    "?minDate=2015-02-03T17:42:40.000%2B0100",
    "?minDate=2015-02-10T12:00",
    "?minEndDate=2015-05-06T13:03:00.950GMT",
    "?maxEndDate=2015-05-06T13:03:00.950GMT",
    "?minEndDate=2015-03-16&maxEndDate=2015-05-06T13:03:00.950GMT",
    "?minDate=2015-03-16&maxEndDate=2015-05-06T13:03:00.950GMT",
    "?minDate=2021-01-01&status=completed",
    "?minDate=2015-13-01",
    "?maxDate=2015-02-03T16:42:40GMT",
    "?limit=3",
    "?limit=0",
    "?limit=-1",
]

STAGE_LIST_QUERIES = [
    "",
    "?status=complete",
    "?status=failed&status=skipped&status=pending&status=active",
    "?details=true",
    "?details=true&taskStatus=FAILED",
    "?details=true&taskStatus=success&taskStatus=killed",
    "?details=1",
    "?withSummaries=true",
    "?withSummaries=true&quantiles=0.01,%200.5,%200.99",
]

# Every stage attempt is asked the first forms; the stage attempts where order and status matter
# (the first of each application, and those with failed or killed tasks) all of them.
TASK_LIST_QUERIES = ["", "?sortBy=-runtime&length=100", "?status=failed"]
MORE_TASK_LIST_QUERIES = [
    "?offset=2&length=3",
    "?offset=-1&length=2",
    "?length=-1",
    "?sortBy=runtime",
    "?sortBy=DECREASING_RUNTIME&offset=1&length=5",
    "?sortBy=INCREASING_RUNTIME&length=100",
    "?status=success&status=killed&offset=1&length=2",
    "?status=RUNNING",
]

SQL_LIST_QUERIES = ["", "?details=false", "?planDescription=false", "?offset=1&length=2", "?length=-1",
                    "?details=false&length=0&offset=3", "?details=false&offset=-1&length=1"]


# Every endpoint a request counts under, in the order the report prints them.
ENDPOINTS = ["version", "applications", "application", "application attempt", "jobs", "job", "stages", "stage",
             "stage attempt", "taskSummary", "taskList", "executors", "allexecutors", "executor threads",
             "environment", "allmiscellaneousprocess", "sql", "sql execution", "storage/rdd", "logs"]
# The endpoints only Spark's UI JavaScript asks (its DataTables tables), recorded by spark_ui.py.
UI_ENDPOINTS = ["taskTable", "sqlTable"]


class Request:
    """One GET of both servers: the endpoint it counts under, the path below /api/v1, and whether
    it is about an application the History Server lists as unfinished."""

    def __init__(self, endpoint, path, running=False):
        assert endpoint in ENDPOINTS + UI_ENDPOINTS, endpoint
        self.endpoint = endpoint
        self.path = path
        self.running = running

    def __repr__(self):
        return self.path


def global_requests():
    out = [Request("version", "version")]
    out += [Request("applications", "applications" + q) for q in APPLICATION_LIST_QUERIES]
    return out


def application_requests(app_id, attempts, answer):
    """Every request for one application: `attempts` maps each attempt id ("" for none) to whether
    it is unfinished. `answer(path)` is the History Server's JSON for a path (None when it is not
    200): the ids of jobs, stages, executions, RDDs come from it."""
    app = quote(app_id, safe="")
    running = any(attempts.values())
    out = [Request("application", f"applications/{app}", running)]
    if len(attempts) > 1:
        # Without an attempt id: the History Server's 404, and its zip of every attempt's log.
        out.append(Request("jobs", f"applications/{app}/jobs", running))
        out.append(Request("logs", f"applications/{app}/logs", running))
    for attempt_id, attempt_running in sorted(attempts.items()):
        out += attempt_requests(app, attempt_id, attempt_running, answer)
    return out


def attempt_requests(app, attempt_id, running, answer):
    """Every request for one application attempt."""
    prefix = f"applications/{app}" + (f"/{quote(attempt_id, safe='')}" if attempt_id else "")
    out = []
    if attempt_id:
        out.append(Request("application attempt", prefix, running))
    out += [Request("jobs", f"{prefix}/jobs{q}", running) for q in ["", "?status=succeeded", "?status=FAILED&status=running"]]
    for job in answer(f"{prefix}/jobs") or []:
        out.append(Request("job", f"{prefix}/jobs/{job['jobId']}", running))
    out += [Request("stages", f"{prefix}/stages{q}", running) for q in STAGE_LIST_QUERIES]
    stages = answer(f"{prefix}/stages") or []
    for stage_id in sorted({s["stageId"] for s in stages}):
        out.append(Request("stage", f"{prefix}/stages/{stage_id}", running))
        out.append(Request("stage", f"{prefix}/stages/{stage_id}?details=false&withSummaries=true", running))
    for i, s in enumerate(sorted(stages, key=lambda s: (s["stageId"], s["attemptId"]))):
        stage = f"{prefix}/stages/{s['stageId']}/{s['attemptId']}"
        every_form = i == 0 or s["numFailedTasks"] > 0 or s["numKilledTasks"] > 0
        out.append(Request("stage attempt", stage, running))
        out.append(Request("stage attempt", stage + "?details=false&withSummaries=true&quantiles=0.9,0.1", running))
        out.append(Request("taskSummary", stage + "/taskSummary", running))
        if every_form:
            out.append(Request("stage attempt", stage + "?taskStatus=FAILED&taskStatus=KILLED", running))
            out.append(Request("taskSummary", stage + "/taskSummary?quantiles=0.01,%200.5,%201.5", running))
        queries = TASK_LIST_QUERIES + (MORE_TASK_LIST_QUERIES if every_form else [])
        out += [Request("taskList", f"{stage}/taskList{q}", running) for q in queries]
    out.append(Request("executors", f"{prefix}/executors", running))
    out.append(Request("allexecutors", f"{prefix}/allexecutors", running))
    executors = answer(f"{prefix}/allexecutors") or []
    if executors:
        out.append(Request("executor threads", f"{prefix}/executors/{quote(executors[0]['id'], safe='')}/threads", running))
    out.append(Request("environment", f"{prefix}/environment", running))
    out.append(Request("allmiscellaneousprocess", f"{prefix}/allmiscellaneousprocess", running))
    out += [Request("sql", f"{prefix}/sql{q}", running) for q in SQL_LIST_QUERIES]
    for execution in answer(f"{prefix}/sql?details=false&length=100000") or []:
        out.append(Request("sql execution", f"{prefix}/sql/{execution['id']}", running))
        out.append(Request("sql execution", f"{prefix}/sql/{execution['id']}?details=false&planDescription=false", running))
    out.append(Request("storage/rdd", f"{prefix}/storage/rdd", running))
    for rdd in answer(f"{prefix}/storage/rdd") or []:
        out.append(Request("storage/rdd", f"{prefix}/storage/rdd/{rdd['id']}", running))
    out.append(Request("logs", f"{prefix}/logs", running))
    return out


# ----------------------------------------------------------------------------------------------

def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _numbers_equal(a, b):
    if isinstance(a, float) or isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
    return a == b


def _short(value):
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 160 else text[:157] + "..."


def compare_json(expected, got, path="", out=None):
    """Differences (path, expected, got) of `got` from `expected`: objects by their keys (order
    free), arrays element by element. Returns (values compared, differences)."""
    if out is None:
        out = [0, []]
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in sorted(set(expected) | set(got)):
            if key in IGNORED_FIELDS:
                continue
            where = f"{path}.{key}" if path else key
            if key not in got:
                out[0] += 1
                out[1].append((where, _short(expected[key]), "(absent)"))
            elif key not in expected:
                out[0] += 1
                out[1].append((where, "(absent)", _short(got[key])))
            else:
                compare_json(expected[key], got[key], where, out)
    elif isinstance(expected, list) and isinstance(got, list):
        if len(expected) != len(got):
            out[0] += 1
            out[1].append((f"{path}.length", str(len(expected)), str(len(got))))
        for i, (e, g) in enumerate(zip(expected, got)):
            compare_json(e, g, f"{path}[{i}]", out)
    else:
        out[0] += 1
        same = _numbers_equal(expected, got) if _is_number(expected) and _is_number(got) else expected == got
        if not same or type(expected) is bool and type(got) is not bool:
            out[1].append((path, _short(expected), _short(got)))
    return out[0], out[1]


def _zip_entries(body):
    """{entry name: size} of a zip, or None when it is not one."""
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as z:
            return {i.filename: i.file_size for i in z.infolist()}
    except zipfile.BadZipFile:
        return None


CODEC_SUFFIXES = (".lz4", ".lzf", ".snappy", ".zstd", ".gz")


def compare_logs_zip(expected_body, got_body):
    """A log download: the same entries (serve names a part without its codec suffix: it hands out
    each part decompressed), and an uncompressed part's size (serve redacts secrets as it writes,
    see docs/server.md: a redacted line changes the size)."""
    expected, got = _zip_entries(expected_body), _zip_entries(got_body)
    if expected is None or got is None:
        return 1, [("(zip)", "a zip" if expected is not None else "not a zip", "a zip" if got is not None else "not a zip")]
    compared, differences = 0, []
    for name, size in sorted(expected.items()):
        compared += 1
        plain = name
        for suffix in CODEC_SUFFIXES:
            plain = plain.removesuffix(suffix)
        if plain not in got:
            differences.append((f"entries[{name}]", "present", "(absent)"))
        elif plain == name and got[plain] != size:
            differences.append((f"entries[{name}].size", str(size), str(got[plain])))
    for name in sorted(got):
        if not any(name == e or any(e == name + s for s in CODEC_SUFFIXES) for e in expected):
            compared += 1
            differences.append((f"entries[{name}]", "(absent)", "present"))
    return compared, differences


def compare_answers(request, expected, got):
    """(values compared, differences) of serve's answer `got` from the History Server's
    `expected`, each (status, content type, body)."""
    e_status, e_type, e_body = expected
    g_status, g_type, g_body = got
    if e_status != 200 or g_status != 200:
        if e_status == g_status:
            return 1, []
        return 1, [("(status)", str(e_status), f"{g_status} {g_body[:200].decode('utf-8', 'replace').strip()}")]
    if request.endpoint == "logs":
        return compare_logs_zip(e_body, g_body)
    try:
        e_json = json.loads(e_body)
    except ValueError:
        return 1, [("(body)", "JSON", "History Server answered no JSON: " + e_type)]
    try:
        g_json = json.loads(g_body)
    except ValueError:
        return 1, [("(body)", "JSON", f"not JSON ({g_type}): {g_body[:200]!r}")]
    return compare_json(e_json, g_json)
