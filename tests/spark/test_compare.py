"""What compare says about real Spark runs: a problem run against its twin, a run against itself,
and two unrelated applications (docs/compare.md).

The first question after "I changed a setting" is whether the change is what ran: the twin's
settings are the configuration differences compare reports, with the twin's values. A run
compared with itself changes nothing; two different applications get no verdict. No assertion is
on time.
"""
from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scenario_logs import BIN, require_logs, run_of  # noqa: E402
from scenarios import REGISTRY  # noqa: E402

TWINS_WITH_SETTINGS = sorted(name for name, s in REGISTRY.items() if not s.control and not s.sizing and s.fix_settings)
CONTROLS = sorted(name for name, s in REGISTRY.items() if s.control)
LABELS = {"improvement", "regression"}


@pytest.fixture(scope="session", autouse=True)
def logs_were_written():
    require_logs()


@functools.lru_cache(maxsize=None)
def comparison(base_log, cand_log):
    done = subprocess.run([BIN, "compare", "--quiet", "--format", "json", base_log, cand_log],
                          capture_output=True, text=True)
    assert done.returncode == 0, f"compare {base_log} {cand_log}: {done.stderr}"
    return json.loads(done.stdout)


def as_spark_text(value):
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("name", TWINS_WITH_SETTINGS)
def test_the_twins_settings_are_the_configuration_differences(name):
    scenario = REGISTRY[name]
    doc = comparison(run_of(name, "problem")["log"], run_of(name, "fixed")["log"])
    differences = {d["key"]: d for d in doc["configurationDifferences"]}
    for key, value in scenario.fix_settings.items():
        baseline = scenario.settings.get(key)
        if baseline is not None and as_spark_text(baseline) == as_spark_text(value):
            continue
        assert key in differences, f"{name}: {key} is not among the differences {sorted(differences)}"
        d = differences[key]
        assert d["candidate"] == as_spark_text(value), f"{name}: {key}: {d}"
        assert not d["sameInEffect"], f"{name}: {key} reads as the same in effect: {d}"
    # Nothing the twin did not change is reported as changed in effect, besides where each run
    # wrote its log.
    changed = {k for k, d in differences.items() if not d["sameInEffect"]} - {"spark.eventLog.dir"}
    assert changed <= set(scenario.fix_settings), f"{name}: unexpected differences {sorted(changed)}"
    assert doc["comparable"], f"{name}: the twin is the same application: {doc['banner']}"


@pytest.mark.parametrize("name", CONTROLS)
def test_a_run_against_itself_changes_nothing(name):
    log = run_of(name, "control")["log"]
    doc = comparison(log, log)
    assert doc["configurationDifferences"] == []
    assert doc["confidence"] == "ok" and doc["comparable"]
    for metric in doc["metricDeltas"]:
        assert metric["direction"] in ("unchanged", "unavailable"), metric
    for execution in doc["executionDeltas"]:
        if execution["baselineDurationMs"] is None:  # an execution the shutdown left without an end
            assert execution["deltaMs"] is None and execution["direction"] == "unavailable", execution
            continue
        assert execution["deltaMs"] == 0 and execution["direction"] == "unchanged", execution


def test_unrelated_applications_get_no_verdict():
    first, second = TWINS_WITH_SETTINGS[0], CONTROLS[0]
    doc = comparison(run_of(first, "problem")["log"], run_of(second, "control")["log"])
    assert not doc["comparable"], f"{first} against {second} read as one job"
    assert "no change is labelled" in doc["banner"]
    labelled = [m["name"] for m in doc["metricDeltas"] if m["direction"] in LABELS]
    assert not labelled, f"{first} against {second}: labelled {labelled}"
    assert not [e for e in doc["executionDeltas"] if e["direction"] in LABELS]


def test_one_query_planned_two_ways_still_pairs():
    """broadcast_prevented's twin plans the join as a broadcast: the shuffle stage of the
    sort-merge join is gone, and the execution still pairs, its leftover stage replanned."""
    doc = comparison(run_of("broadcast_prevented", "problem")["log"], run_of("broadcast_prevented", "fixed")["log"])
    alignment = doc["executionAlignment"]
    assert alignment["accepted"] and alignment["paired"] >= 1, alignment
    assert doc["replanned"], "the twin's plan has fewer stages: a replanned group"
    assert doc["runtimeCoverage"] >= 0.9 and doc["confidence"] == "ok", (doc["runtimeCoverage"], doc["banner"])
    assert doc["comparable"]
    resolved = {c["rule"] for c in doc["findingsDelta"]["resolved"]}
    assert "underBroadcast" in resolved, resolved
    problem_executions = [e for e in doc["executionDeltas"] if e["description"].startswith("sf-problem: ")]
    assert problem_executions, doc["executionDeltas"]


def test_reads_of_one_key_pair_by_the_bytes_they_read_not_by_stage_id():
    """The two controls union a large and a small day's aggregation in the other order: the reads
    share one key once the date is rewritten, Spark numbers them in either order, and compare must
    pair the large day's read with the large day's read (docs/compare.md). Pairing in stage-id
    order crosses them whenever the two runs numbered them differently."""
    doc = comparison(run_of("control_union_large_day_first", "control")["log"],
                     run_of("control_union_small_day_first", "control")["log"])
    reads = [d for d in doc["stageDeltas"]
             if d["baseline"]["totals"]["inputBytes"] > 0 and d["candidate"]["totals"]["inputBytes"] > 0]
    assert len(reads) >= 2, doc["stageDeltas"]
    for d in reads:
        base, cand = d["baseline"]["totals"]["inputBytes"], d["candidate"]["totals"]["inputBytes"]
        assert max(base, cand) <= 1.25 * min(base, cand), f"crossed reads: {d['pair']} read {base} and {cand} bytes"
        assert not d["pair"]["ambiguous"], d["pair"]
