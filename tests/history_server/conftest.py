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
from known_differences import known_difference  # noqa: E402


@dataclass
class Comparison:
    request: oracle.Request
    values_compared: int
    unlisted: list = field(default_factory=list)  # (field, expected, got)
    listed: list = field(default_factory=list)    # (field, expected, got, rule)


@dataclass
class OracleRun:
    logs: int = 0
    history_server_listing: dict = field(default_factory=dict)
    serve_listing: dict = field(default_factory=dict)
    comparisons: list = field(default_factory=list)
    seconds: dict = field(default_factory=dict)
    seconds_by_server: collections.Counter = field(default_factory=collections.Counter)
    clients: dict = field(default_factory=dict)  # client -> the line test_real_clients.py reports


RESULT = OracleRun()


# Requests in flight at once: the two servers answer in parallel, and one application's replay
# by the History Server overlaps another's requests (this machine has 2 cores).
PARALLEL_REQUESTS = 4


def _compare_everything(history_server, serve, run):
    def history_server_json(path):
        status, _, body = servers.get(history_server.base + path)
        return json.loads(body) if status == 200 else None

    def timed_get(server, path):
        started = time.monotonic()
        answer = servers.get(server.base + path)
        return answer, time.monotonic() - started

    def compare(request):
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

    apps = sorted(run.history_server_listing.items())
    with concurrent.futures.ThreadPoolExecutor(PARALLEL_REQUESTS) as pool:
        plans = pool.map(lambda app: oracle.application_requests(app[0], app[1], history_server_json), apps)
        requests = oracle.global_requests() + [r for plan in plans for r in plan]
        for comparison, expected_s, got_s, compare_s in pool.map(compare, requests):
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
    _write_report(RESULT, os.path.join(running_servers.work, "differences.txt"))
    return RESULT


def _write_report(run, path):
    """Every request and its differences, for reading after a failure."""
    with open(path, "w") as out:
        for c in run.comparisons:
            state = "DIFFERS" if c.unlisted else "listed " if c.listed else "match  "
            out.write(f"{state} {c.request.endpoint}: {c.request.path} ({c.values_compared} values)\n")
            for where, e, g in c.unlisted:
                out.write(f"    {where}: History Server {e}, serve {g}\n")
            for where, e, g, rule in c.listed:
                out.write(f"    listed: {where}: History Server {e}, serve {g} ({rule.reason})\n")


def pytest_terminal_summary(terminalreporter):
    run = RESULT
    if not run.comparisons:
        return
    write = terminalreporter.write_line
    by_endpoint = collections.OrderedDict()
    for c in run.comparisons:
        by_endpoint.setdefault(c.request.endpoint, []).append(c)
    apps = sum(len(a) for a in run.history_server_listing.values())
    write(f"history-server oracle: {run.logs} logs, {apps} application attempts, "
          f"{len(run.comparisons)} requests to each server "
          f"({', '.join(f'{k} {v:.0f} s' for k, v in run.seconds.items())}; summed over requests: "
          f"{', '.join(f'{k} {v:.0f} s' for k, v in run.seconds_by_server.items())})")
    total = [0, 0, 0]
    for endpoint, comparisons in by_endpoint.items():
        matched = sum(1 for c in comparisons if not c.unlisted and not c.listed)
        listed = sum(1 for c in comparisons if c.listed and not c.unlisted)
        write(f"  {endpoint:24} {matched:5} / {len(comparisons):5} match"
              + (f", {listed} with listed differences only" if listed else "")
              + (f", {len(comparisons) - matched - listed} DIFFER" if len(comparisons) - matched - listed else ""))
        total[0] += matched
        total[1] += len(comparisons)
        total[2] += listed
    write(f"  {'all':24} {total[0]:5} / {total[1]:5} match, {total[2]} with listed differences only")
    for client, line in run.clients.items():
        write(f"real client {client}: {line}")
