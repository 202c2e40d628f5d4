"""One run of both servers for the whole session: the log directory is assembled, Spark's History
Server and serve start on it, every request of oracle.py is sent to both, and the answers are
compared; the tests then judge the comparisons per endpoint. The match counts are printed at
the end of the session.

Environment (tests/history_server/run.sh sets it): SF_BIN (the sparkforensics binary),
SF_CORPUS_DIR (the shared corpus), SF_ORACLE_WORK (a scratch directory in the build tree),
SF_PYSPARK_HOME (pyspark's directory), and optionally SF_SPARK_SCENARIO_LOGS (the logs the
real-Spark scenarios wrote, with their manifest.json)."""
from __future__ import annotations

import collections
import concurrent.futures
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import oracle  # noqa: E402
import servers  # noqa: E402
import spark_ui  # noqa: E402
from known_differences import known_difference  # noqa: E402


@dataclass
class Comparison:
    request: oracle.Request
    values_compared: int
    unlisted: list = field(default_factory=list)  # (field, expected, got)
    listed: list = field(default_factory=list)    # (field, expected, got, rule)


@dataclass
class SparkUiRun:
    """Spark's UI JavaScript's requests (spark_ui.py): the pages opened, and each request compared."""
    pages: list
    comparisons: list
    seconds: float


@dataclass
class OracleRun:
    logs: int = 0
    history_server_listing: dict = field(default_factory=dict)
    serve_listing: dict = field(default_factory=dict)
    comparisons: list = field(default_factory=list)
    seconds: dict = field(default_factory=dict)
    seconds_by_server: collections.Counter = field(default_factory=collections.Counter)
    clients: dict = field(default_factory=dict)  # client -> the line test_real_clients.py reports
    spark_ui: SparkUiRun | None = None




RESULT = OracleRun()


# Requests in flight at once: the two servers answer in parallel, and one application's replay
# by the History Server overlaps another's requests (this machine has 2 cores).
PARALLEL_REQUESTS = 4


def _history_server_json(history_server, path):
    status, _, body = servers.get(history_server.base + path)
    return json.loads(body) if status == 200 else None


def _compare(history_server, serve, request):
    """One request to both servers, compared: (Comparison, seconds of each server, seconds comparing)."""
    def timed_get(server, path):
        started = time.monotonic()
        answer = servers.get(server.base + path)
        return answer, time.monotonic() - started

    (expected, expected_s), (got, got_s) = timed_get(history_server, request.path), timed_get(serve, request.path)
    started = time.monotonic()
    compared, differences = oracle.compare_answers(request, expected, got)
    comparison = Comparison(request, compared)
    for where, e, g in differences:
        rule = known_difference(request, where, e, g)
        if rule is None:
            comparison.unlisted.append((where, e, g))
        else:
            comparison.listed.append((where, e, g, rule))
    return comparison, expected_s, got_s, time.monotonic() - started


def _compare_everything(history_server, serve, run):
    def history_server_json(path):
        return _history_server_json(history_server, path)

    apps = sorted(run.history_server_listing.items())
    with concurrent.futures.ThreadPoolExecutor(PARALLEL_REQUESTS) as pool:
        plans = pool.map(lambda app: oracle.application_requests(app[0], app[1], history_server_json), apps)
        requests = oracle.global_requests() + [r for plan in plans for r in plan]
        for comparison, expected_s, got_s, compare_s in pool.map(
                lambda request: _compare(history_server, serve, request), requests):
            run.comparisons.append(comparison)
            run.seconds_by_server["History Server"] += expected_s
            run.seconds_by_server["serve"] += got_s
            run.seconds_by_server["comparing"] += compare_s


@dataclass
class RunningServers:
    """Both servers on one log directory, for the whole session."""
    history_server: servers.Server
    serve: servers.Server
    log_dir: str
    work: str


@pytest.fixture(scope="session")
def running_servers():
    work = os.environ["SF_ORACLE_WORK"]
    os.makedirs(work, exist_ok=True)
    # Outside the project (see servers.py): the corpus's logs linked, not copied.
    links = tempfile.TemporaryDirectory(prefix="sf-oracle-logs-")
    log_dir = links.name
    started = time.monotonic()
    RESULT.logs = servers.assemble_log_directory(os.environ["SF_CORPUS_DIR"],
                                                 os.environ.get("SF_SPARK_SCENARIO_LOGS", ""), log_dir)
    history_server = servers.start_history_server(os.environ["SF_PYSPARK_HOME"], log_dir, work)
    serve = None
    try:
        serve = servers.start_serve(os.environ["SF_BIN"], log_dir, work)
        history_server.wait_until_answering("version", 180)
        RESULT.seconds["start"] = time.monotonic() - started
        RESULT.history_server_listing, RESULT.serve_listing = servers.wait_for_same_listing(history_server, serve, 180)
        RESULT.seconds["listing"] = time.monotonic() - started
        yield RunningServers(history_server, serve, log_dir, work)
    finally:
        history_server.stop()
        if serve is not None:
            serve.stop()
        links.cleanup()


@pytest.fixture(scope="session")
def oracle_run(running_servers):
    started = time.monotonic()
    _compare_everything(running_servers.history_server, running_servers.serve, RESULT)
    RESULT.seconds["comparisons"] = time.monotonic() - started
    _write_report(RESULT.comparisons, os.path.join(running_servers.work, "differences.txt"))
    return RESULT


@pytest.fixture(scope="session")
def spark_ui_run(running_servers, oracle_run):
    """Spark's UI pages opened on the History Server, and every request they sent compared."""
    missing = spark_ui.why_not_available()
    if missing:
        pytest.skip(f"Spark's UI pages not opened: {missing}")
    started = time.monotonic()
    history_server, serve = running_servers.history_server, running_servers.serve
    listing = oracle_run.history_server_listing
    pages = spark_ui.pages_to_open(listing, lambda path: _history_server_json(history_server, path))
    recorded, opened = spark_ui.record_requests(history_server.base.removesuffix("/api/v1/"), pages,
                                                running_servers.work)
    requests = spark_ui.requests_to_compare(recorded, pages, listing)
    with concurrent.futures.ThreadPoolExecutor(PARALLEL_REQUESTS) as pool:
        comparisons = [c for c, *_ in pool.map(lambda r: _compare(history_server, serve, r), requests)]
    oracle_run.spark_ui = SparkUiRun(opened, comparisons, time.monotonic() - started)
    _write_report(comparisons, os.path.join(running_servers.work, "spark-ui-differences.txt"))
    return oracle_run.spark_ui


def _write_report(comparisons, path):
    """Every request and its differences, for reading after a failure."""
    with open(path, "w") as out:
        for c in comparisons:
            state = "DIFFERS" if c.unlisted else "listed " if c.listed else "match  "
            out.write(f"{state} {c.request.endpoint}: {c.request.path} ({c.values_compared} values)\n")
            for where, e, g in c.unlisted:
                out.write(f"    {where}: History Server {e}, serve {g}\n")
            for where, e, g, rule in c.listed:
                out.write(f"    listed: {where}: History Server {e}, serve {g} ({rule.reason})\n")


def _write_match_counts(write, comparisons):
    by_endpoint = collections.OrderedDict()
    for c in comparisons:
        by_endpoint.setdefault(c.request.endpoint, []).append(c)
    total = [0, 0, 0]
    for endpoint, of_endpoint in by_endpoint.items():
        matched = sum(1 for c in of_endpoint if not c.unlisted and not c.listed)
        listed = sum(1 for c in of_endpoint if c.listed and not c.unlisted)
        write(f"  {endpoint:24} {matched:5} / {len(of_endpoint):5} match"
              + (f", {listed} with listed differences only" if listed else "")
              + (f", {len(of_endpoint) - matched - listed} DIFFER" if len(of_endpoint) - matched - listed else ""))
        total[0] += matched
        total[1] += len(of_endpoint)
        total[2] += listed
    write(f"  {'all':24} {total[0]:5} / {total[1]:5} match, {total[2]} with listed differences only")


def pytest_terminal_summary(terminalreporter):
    run = RESULT
    if not run.comparisons:
        return
    write = terminalreporter.write_line
    apps = sum(len(a) for a in run.history_server_listing.values())
    write(f"history-server oracle: {run.logs} logs, {apps} application attempts, "
          f"{len(run.comparisons)} requests to each server "
          f"({', '.join(f'{k} {v:.0f} s' for k, v in run.seconds.items())}; summed over requests: "
          f"{', '.join(f'{k} {v:.0f} s' for k, v in run.seconds_by_server.items())})")
    _write_match_counts(write, run.comparisons)
    if run.spark_ui is not None:
        ui = run.spark_ui
        write(f"Spark's UI JavaScript (chromium on the History Server's pages): {len(ui.pages)} pages, "
              f"{sum(p['requests'] for p in ui.pages)} requests sent, {len(ui.comparisons)} distinct, "
              f"each to both servers ({ui.seconds:.0f} s)")
        _write_match_counts(write, ui.comparisons)
    for client, line in run.clients.items():
        write(f"real client {client}: {line}")
