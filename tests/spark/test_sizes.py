"""What analyze says of one job run at several cluster sizes (sizing scenarios, scenario.py).

No assertion is on time (validate.py measures how well the smallest run predicts the others):
on every run the critical path and the ideal time are within the measured wall-clock and the
driver-only time is inside the critical path; the what-if curve holds today's size and the sizes
of the larger runs, never rises, and has a knee on it; the time split adds up; every job and
stage has a cost and the jobs' costs with driver-only time make the total.
"""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scenario_logs import analysis, require_logs, run_of  # noqa: E402
from scenarios import REGISTRY  # noqa: E402

SIZINGS = sorted(name for name, s in REGISTRY.items() if s.sizing)


@pytest.fixture(scope="session", autouse=True)
def _logs():
    require_logs()


def slots_of(master):
    """local[N] -> N."""
    assert master.startswith("local[") and master.endswith("]"), master
    return int(master[len("local["):-1])


def runs(name):
    scenario = REGISTRY[name]
    return [(scenario.sizes[i], analysis(run_of(name, variant)["log"])) for i, variant in enumerate(scenario.variants)]


@pytest.mark.parametrize("name", SIZINGS)
def test_every_run_has_a_consistent_economics(name):
    for master, doc in runs(name):
        e = doc["economics"]
        assert e["cluster"]["localMode"], master
        assert e["cluster"]["executors"] * e["cluster"]["coresPerExecutor"] == slots_of(master), e["cluster"]
        split = e["timeSplit"]
        assert split["driverOnlyMs"] + split["executorMs"] == pytest.approx(split["durationMs"]), split
        assert split["betweenJobsMs"] > 0, f"{master}: the driver's sleep between the jobs is not in the split"
        path = e["criticalPath"]
        assert path["driverOnlyMs"] <= path["lengthMs"] <= path["wallClockMs"], path
        assert path["idealMs"] <= path["wallClockMs"], path
        assert path["stages"], f"{master}: no stage on the critical path"
        cost = e["cost"]
        assert cost["total"] > 0
        assert sum(j["cost"] for j in e["jobs"]) + cost["driverOnly"] == pytest.approx(cost["total"], rel=1e-6)
        assert all(s["cost"] >= 0 for s in cost["stages"])


@pytest.mark.parametrize("name", SIZINGS)
def test_the_smallest_run_predicts_every_larger_size(name):
    (small_master, small), *larger = runs(name)
    what_if = small["economics"]["whatIf"]
    cores = what_if["coresPerExecutor"]
    assert cores * what_if["todayExecutors"] == slots_of(small_master)
    curve = {p["executors"]: p for p in what_if["curve"]}
    assert what_if["todayExecutors"] in curve
    for master, _ in larger:
        executors, rest = divmod(slots_of(master), cores)
        assert rest == 0 and executors in curve, f"{master}: {sorted(curve)} has no {executors} executors of {cores}"
    predicted = [p["predictedMs"] for p in what_if["curve"]]
    assert predicted == sorted(predicted, reverse=True), predicted
    assert what_if["kneeExecutors"] in curve
    assert what_if["kneeMs"] <= what_if["bestMs"] * (1 + what_if["kneeShare"]) + 1e-6
