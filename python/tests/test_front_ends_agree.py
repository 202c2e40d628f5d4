"""Every front end gives the same figures for the same log (issue 38): the command line, the Python
package, the MCP server and the dashboard's JSON API, each started with the same --config, on a
real-Spark scenario log when ctest's spark_scenarios wrote them and on a generated one.

They all ask src/service/ (read settings, analyze, compare, verdicts); this is the test that they
do, and that none of them keeps a rule of its own: the analysis document, the comparison's
findings delta and the comparator's verdicts are compared whole, not as a few numbers."""

import json
import os
import shutil
import subprocess
import urllib.parse
from pathlib import Path

import pytest

import sparkforensics as sf

from conftest import cli
from harness import Dashboard, Mcp

# Thresholds and a rate card other than the defaults: a front end that ignored --config would differ.
CONFIG = {"thresholds": {"skew.maxToMedianRatio": 3, "gc.warnRatio": 0.05},
          "rateCard": {"preset": "gcp-n2-us-central1"}}
PREFERRED_SCENARIOS = ("skew_join_key", "spill_big_partitions", "shuffle_too_few_partitions")


def scenario_log():
    """(name, path) of one real-Spark log that ctest's spark_scenarios wrote, or None."""
    where = os.environ.get("SF_SPARK_SCENARIO_LOGS") or os.environ.get("SF_BUILD_SCENARIO_LOGS")
    manifest = Path(where) / "manifest.json" if where else None
    if manifest is None or not manifest.is_file():
        return None
    runs = json.loads(manifest.read_text())["runs"]
    for scenario in PREFERRED_SCENARIOS:
        for run in runs:
            if run["scenario"] == scenario and Path(run["log"]).exists():
                return f"{scenario}-{run['variant']}", run["log"]
    return None


def without_source(doc):
    """The analysis document without where the log was read from: each front end names it its way
    (the path it was given, the name in the log directory)."""
    doc = json.loads(json.dumps(doc))
    doc.pop("source", None)
    return doc


def evaluations(verdict_document):
    return [(e["series"]["fingerprint"], e["target"]["resultId"], e["outcome"], e["reason"], e["reference"])
            for e in verdict_document["evaluations"]]


@pytest.fixture(scope="module")
def setting(sf_bin, sf_loggen, work_dir):
    """A log directory (a generated job run seven times, and the real-Spark log when there is
    one), a store holding the seven runs (enough history for a verdict), the config file, and the two servers over them."""
    root = work_dir / "agree"
    logs = root / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    runs = []
    for seed in range(11, 18):
        out = subprocess.run([sf_loggen, "--preset", "small", "--codec", "zstd", "--seed", str(seed),
                              "--out", str(root / f"gen-{seed}")], check=True, capture_output=True, text=True)
        made = Path(out.stdout.strip().splitlines()[-1])
        target = logs / f"nightly-{seed}{''.join(made.suffixes)}"
        target.write_bytes(made.read_bytes())
        runs.append(target)
    real = scenario_log()
    real_path = None
    if real:
        # Under its own name: a rolling log is a directory whose eventlog_v2_ prefix is what marks it.
        source = Path(real[1])
        real_path = logs / source.name
        if source.is_dir():
            shutil.copytree(source, real_path, dirs_exist_ok=True)
        else:
            shutil.copyfile(source, real_path)
    config_file = root / "config.json"
    config_file.write_text(json.dumps(CONFIG))
    store = str(root / "results.db")
    for run in runs:
        code, _, err = cli(sf_bin, "store", "ingest", "--store", store, "--subject", "nightly", "--config",
                           str(config_file), "-q", str(run))
        assert code == 0, err
    mcp = Mcp(sf_bin, logs, store, config_file)
    dashboard = Dashboard(sf_bin, logs, store, config_file, work_dir / "agree-serve.log")
    # Three of the generated runs are enough for the analysis: they differ only by seed.
    yield {"logs": runs[:3] + ([real_path] if real_path else []), "runs": runs, "store": store,
           "config": config_file, "mcp": mcp, "dashboard": dashboard, "real": real}
    mcp.close()
    dashboard.close()


def test_the_analysis_is_the_same_in_every_front_end(sf_bin, setting):
    if setting["real"] is None:
        print("front ends agree: no real-Spark scenario log (ctest's spark_scenarios writes them); generated logs only")
    for log in setting["logs"]:
        code, out, err = cli(sf_bin, "analyze", "-f", "json", "-q", "--config", str(setting["config"]), str(log))
        assert code == 0, err
        from_cli = json.loads(out)
        assert from_cli["findings"], f"{log.name}: no findings to compare"
        from_python = sf.analyze(log, setting["config"])
        assert without_source(from_python) == without_source(from_cli), log.name
        from_dashboard = setting["dashboard"].get(f"logs/{urllib.parse.quote(log.name)}/analysis")
        assert without_source(from_dashboard) == without_source(from_cli), log.name

        mcp = setting["mcp"]
        summary = mcp.tool("analyze_event_log", {"path": log.name})
        assert summary["counts"]["findings"] == len(from_cli["findings"]), log.name
        # The rollup's leading groups, as the document has them.
        assert summary["fixFirst"] == from_cli["rollup"][:len(summary["fixFirst"])], log.name
        assert summary["fixFirst"], f"{log.name}: no group to fix first"
        findings, offset = [], 0
        while True:
            page = mcp.tool("get_findings", {"analysisId": summary["analysisId"], "offset": offset, "limit": 100})
            findings += page["findings"]
            if page["page"]["nextOffset"] is None:
                break
            offset = page["page"]["nextOffset"]
        assert findings == from_cli["findings"], log.name
    print(f"front ends agree: {len(setting['logs'])} logs, the same analysis document from the CLI, Python, "
          f"the dashboard and MCP{' (one written by real Spark: ' + setting['real'][0] + ')' if setting['real'] else ''}")


def test_the_comparison_is_the_same_in_every_front_end(sf_bin, setting):
    base, cand = setting["runs"][0], setting["runs"][1]
    code, out, err = cli(sf_bin, "compare", "-f", "json", "-q", "--config", str(setting["config"]), str(base),
                         str(cand))
    assert code == 0, err
    from_cli = json.loads(out)
    from_python = sf.compare(base, cand, setting["config"])
    from_dashboard = setting["dashboard"].get("compare", base=base.name, cand=cand.name)
    mcp_limit = 200  # compare_runs cuts its stage lists to a page
    from_mcp = setting["mcp"].tool("compare_runs", {"baseline": {"path": base.name}, "candidate": {"path": cand.name},
                                                    "limit": mcp_limit})["comparison"]
    assert from_cli["findingsDelta"] and from_cli["stagePairs"], "nothing to compare"
    for name, other in (("python", from_python), ("dashboard", from_dashboard), ("mcp", from_mcp)):
        for key in ("metricDeltas", "findingsDelta", "confidence", "banner", "runtimeCoverage"):
            assert other[key] == from_cli[key], f"{name}: {key}"
        for key in ("stagePairs", "stageDeltas"):
            assert other[key] == from_cli[key][:len(other[key])] and len(other[key]) == min(len(from_cli[key]),
                                                                                           mcp_limit if name == "mcp"
                                                                                           else len(from_cli[key])), \
                f"{name}: {key}"


def test_the_verdicts_are_the_same_in_every_front_end(sf_bin, setting):
    code, out, err = cli(sf_bin, "verdict", "history", "--store", setting["store"], "--target", "latest", "-f", "json")
    assert code in (0, 1), err
    from_cli = json.loads(out)
    assert from_cli["evaluations"], "no evaluations to compare"
    assert any(e["reason"] != "insufficient-history" for e in from_cli["evaluations"]), "no series had a history"
    from_python = sf.verdict_history(setting["store"], "latest")
    from_mcp = setting["mcp"].tool("verdict", {"mode": "history", "target": "latest", "limit": 500})["document"]
    from_dashboard = setting["dashboard"].get("history/series", subject="nightly")["document"]
    for name, other in (("python", from_python), ("mcp", from_mcp), ("dashboard", from_dashboard)):
        assert other["method"] == from_cli["method"], name
        assert evaluations(other) == evaluations(from_cli), name
