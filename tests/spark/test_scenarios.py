"""What analyze says about the event logs real Spark wrote for each scenario (scenario.py).

Run by tests/spark/run.sh (ctest's spark_scenarios) after run_scenarios.py wrote the logs:
    SF_BIN=build/src/cli/sparkforensics SF_SCENARIO_LOGS=DIR .venv/bin/python -m pytest tests/spark

For every problem scenario, on the problem run: its finding type leads "Fix these first", is
about the stages of the job that carries the problem, and suggests the settings the twin
applies, with the twin's values. On the twin: the finding is gone or far smaller. A finding the
log cannot show as wall-clock (Expectation.tier "resource" or "count") is instead the only one of
its tier on the problem run and gone from the twin. A control leads with nothing worth fixing.
No assertion is on time.
"""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scenario import PROBLEM_MARKER  # noqa: E402
from scenario_logs import RUNS, analysis, require_logs, run_of  # noqa: E402
from scenarios import REGISTRY  # noqa: E402


def time_groups(doc):
    """The groups "Fix these first" offers, best first."""
    return [g for g in doc["rollup"] if g["tier"] == "time" and g["fixFirst"]]


def finding(doc, finding_id):
    return next(f for f in doc["findings"] if f["id"] == finding_id)


def problem_stages(doc):
    stages = set()
    for job in doc["jobs"]:
        if job["description"].startswith(PROBLEM_MARKER):
            stages.update(job["stageIds"])
    return stages


def tier_findings(doc, tier):
    """The findings the rollup puts in a tier, best first."""
    ids = [i for g in doc["rollup"] if g["tier"] == tier for i in g["findingIds"]]
    return [finding(doc, i) for i in ids]


def recoverable_high(doc, finding_type):
    return max((g["recoverableMs"]["high"] for g in time_groups(doc) if g["type"] == finding_type), default=0.0)


PROBLEMS = sorted(name for name, s in REGISTRY.items() if not s.control and not s.sizing and s.expect.tier == "time")
# Problems whose cost the log cannot show as wall-clock.
COSTS = sorted(name for name, s in REGISTRY.items() if not s.control and not s.sizing and s.expect.tier != "time")
CONTROLS = sorted(name for name, s in REGISTRY.items() if s.control)


@pytest.fixture(scope="session", autouse=True)
def logs_were_written():
    require_logs()


@pytest.mark.parametrize("name", PROBLEMS)
def test_the_planted_problem_leads_fix_these_first(name):
    scenario = REGISTRY[name]
    doc = analysis(run_of(name, "problem")["log"])
    groups = time_groups(doc)
    assert groups, f"{name}: nothing to fix first; findings: {[f['id'] for f in doc['findings']]}"
    assert groups[0]["type"] == scenario.expect.finding, (
        f"{name}: leads with {groups[0]['type']} ({groups[0]['recoverableMs']}), not {scenario.expect.finding}; "
        f"groups: {[(g['type'], g['recoverableMs']['high']) for g in groups]}")
    best = finding(doc, groups[0]["bestFindingId"])
    if scenario.expect.rule:
        assert best["rule"] == scenario.expect.rule, f"{name}: {best['id']}"
    if best["scope"] == "app":
        return  # a finding about the whole run (time outside jobs) names no stage
    stages = problem_stages(doc)
    assert best["stageIds"], f"{name}: {best['id']} names no stage"
    assert set(best["stageIds"]) <= stages, (
        f"{name}: {best['id']} is about stages {best['stageIds']}, the planted problem ran in {sorted(stages)}")


@pytest.mark.parametrize("name", PROBLEMS)
def test_the_recommendation_is_the_twins_change(name):
    scenario = REGISTRY[name]
    doc = analysis(run_of(name, "problem")["log"])
    groups = [g for g in time_groups(doc) if g["type"] == scenario.expect.finding]
    assert groups, f"{name}: no {scenario.expect.finding} finding"
    best = finding(doc, groups[0]["bestFindingId"])
    suggested = {s["key"]: s["suggestedValue"] for s in best["settings"]}
    for key, value in scenario.expect.settings.items():
        assert suggested.get(key) == value, f"{name}: suggests {suggested}, the twin applies {key}={value}"
        assert scenario.fix_settings.get(key) == value, f"{name}: the twin must apply {key}={value} itself"
    for word in scenario.expect.recommendation_mentions:
        assert word.lower() in best["recommendation"].lower(), f"{name}: {best['recommendation']!r} lacks {word!r}"


@pytest.mark.parametrize("name", PROBLEMS)
def test_the_twin_no_longer_has_the_problem(name):
    scenario = REGISTRY[name]
    problem = recoverable_high(analysis(run_of(name, "problem")["log"]), scenario.expect.finding)
    fixed = recoverable_high(analysis(run_of(name, "fixed")["log"]), scenario.expect.finding)
    assert fixed <= scenario.expect.twin_share_at_most * problem, (
        f"{name}: the twin still has {scenario.expect.finding} worth {fixed:.0f} ms (the problem run {problem:.0f} ms)")


@pytest.mark.parametrize("name", sorted(name for name, s in REGISTRY.items() if s.expect and s.expect.also))
def test_the_setting_behind_the_problem_is_named_and_gone_from_the_twin(name):
    scenario = REGISTRY[name]
    problem = analysis(run_of(name, "problem")["log"])
    fixed = analysis(run_of(name, "fixed")["log"])
    for finding_type, rule in scenario.expect.also:
        def named(doc):
            return [f["id"] for f in doc["findings"] if f["type"] == finding_type and f["rule"] == rule]
        assert named(problem), f"{name}: no {finding_type}/{rule}; findings: {[f['id'] for f in problem['findings']]}"
        assert not named(fixed), f"{name}: the twin still has {named(fixed)}"


def expected_findings(doc, expect):
    return [f for f in doc["findings"] if f["type"] == expect.finding and (not expect.rule or f["rule"] == expect.rule)]


@pytest.mark.parametrize("name", COSTS)
def test_a_cost_without_wall_clock_is_the_one_reported(name):
    scenario = REGISTRY[name]
    doc = analysis(run_of(name, "problem")["log"])
    found = expected_findings(doc, scenario.expect)
    assert found, f"{name}: no {scenario.expect.finding} finding; findings: {[f['id'] for f in doc['findings']]}"
    in_tier = tier_findings(doc, scenario.expect.tier)
    assert [f["id"] for f in in_tier] == [f["id"] for f in found], (
        f"{name}: the {scenario.expect.tier} tier holds {[f['id'] for f in in_tier]}, not just {found[0]['id']}")
    stages = problem_stages(doc)
    for f in found:
        assert set(f["stageIds"]) <= stages, f"{name}: {f['id']} is about stages {f['stageIds']}, not {sorted(stages)}"
        for word in scenario.expect.recommendation_mentions:
            assert word.lower() in f["recommendation"].lower(), f"{name}: {f['recommendation']!r} lacks {word!r}"
    twin = expected_findings(analysis(run_of(name, "fixed")["log"]), scenario.expect)
    assert not twin, f"{name}: the twin still has {[f['id'] for f in twin]}"


@pytest.mark.parametrize("name", CONTROLS)
def test_a_control_has_nothing_worth_fixing(name):
    doc = analysis(run_of(name, "control")["log"])
    duration = doc["app"]["durationMs"]
    worth = [(g["type"], g["recoverableMs"]["high"]) for g in time_groups(doc)
             if g["recoverableMs"]["high"] > 0.1 * duration]
    assert not worth, f"{name}: a clean run is told to fix {worth} (app {duration} ms)"
    # A control built to look like a problem (Spark's own runtime bloom-filter subquery looks
    # like a duplicated subtree) must not be offered that problem at any size.
    loud = [g["type"] for g in time_groups(doc) if g["type"] in REGISTRY[name].quiet_types]
    assert not loud, f"{name}: a control is told to fix {loud}"


def test_a_new_executors_first_task_is_warm_up_not_an_outlier():
    # The control has teeth: its longest tasks, one on each executor dynamic allocation added,
    # are past the straggler's ratio to the median; and no finding calls them an outlier.
    doc = analysis(run_of("control_cold_executors", "control")["log"])
    (stage,) = doc["stages"]
    durations = stage["quantiles"]["durationMs"]
    assert durations["max"] >= 3 * durations["p50"], f"no warm-up outlier planted: {durations}"
    outliers = [f["id"] for f in doc["findings"] if f["type"] in ("straggler", "skew", "stageShape", "slowHost")]
    assert not outliers, f"a JVM's warm-up is reported as {outliers}"


@pytest.mark.parametrize("run", RUNS, ids=lambda r: f"{r['scenario']}-{r['variant']}-{r['round']}")
def test_every_suggested_setting_is_a_change(run):
    doc = analysis(run["log"])
    for f in doc["findings"]:
        for s in f["settings"]:
            assert s["suggestedValue"] != s["currentValue"], f"{f['id']}: {s} is already in effect"
            effective = s.get("effectiveValue")
            assert effective is None or s["suggestedValue"] != effective, f"{f['id']}: {s} is the default in effect"
