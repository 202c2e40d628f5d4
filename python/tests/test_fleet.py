"""The fleet job on local Spark: every log's result equals what the CLI of the same build gives for
the same log (its result document, by id: the id is the hash of the document's text; its
applications, stages and findings rows, cut from `sparkforensics analyze -f json`), failures
recorded with the CLI's message, incremental runs. The store is PostgreSQL when the environment
has one (SF_TEST_POSTGRES_URL, as the store's C++ tests), SQLite otherwise."""

import json
import os
import shutil
import subprocess
import sys
import uuid
from html.parser import HTMLParser
from pathlib import Path

import pytest

import sparkforensics as sf
from sparkforensics import fleet, frames
from conftest import cli, corpus_dir, corpus_logs
from harness import Dashboard

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (make python-deps puts it in .venv)")
if shutil.which("java") is None:
    pytest.skip("java is not installed (scripts/install-python.sh installs it)", allow_module_level=True)


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (SparkSession.builder.master("local[2]").appName("sparkforensics-fleet-test")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
               .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def store_location(work_dir, name):
    """A fresh store: a new PostgreSQL schema-free database is not ours to make, so with PostgreSQL
    the tests share its database and compare by result id; SQLite gets a new file."""
    url = os.environ.get("SF_TEST_POSTGRES_URL")
    return url if url else str(work_dir / f"{name}-{uuid.uuid4().hex[:8]}.db")


def cli_result_id(sf_bin, work_dir, log):
    """The id `sparkforensics store ingest LOG` gives the log's result (into a scratch store)."""
    code, out, err = cli(sf_bin, "store", "ingest", "--store", str(work_dir / "cli-ids.db"), log)
    assert code == 0, err
    return out.split()[1] if out.startswith("ingested") else out.split()[2]


def cli_document(sf_bin, log):
    code, out, err = cli(sf_bin, "analyze", "-f", "json", "-q", log)
    assert code == 0, err
    return json.loads(out)


def without_run(rows):
    return sorted((json.dumps({k: v for k, v in r.items() if k not in ("run", "sourcePath")}, sort_keys=True)
                   for r in rows))


def check_equal_to_cli(spark, sf_bin, work_dir, out, store, logs):
    """Every analyzed log of the `logs` table against the CLI on the same path."""
    state = {r["path"]: r.asDict() for r in spark.read.parquet(f"{out}/logs").collect()}
    stored = {r["id"] for r in sf.stored_results(store)}
    tables = {name: fleet.current(spark, out, name).collect() for name in ("applications", "stages", "findings")}
    for log in logs:
        row = state[log]
        assert row["outcome"] == "analyzed", (log, row["error"])
        assert row["resultId"] == cli_result_id(sf_bin, work_dir, log), log
        assert row["resultId"] in stored
        doc = cli_document(sf_bin, log)
        mine = {name: [r.asDict(recursive=True) for r in rows if r["sourcePath"] == log] for name, rows in tables.items()}
        assert without_run(mine["applications"]) == without_run([frames.application_row(doc)]), log
        assert without_run(mine["stages"]) == without_run(frames.stage_rows(doc)), log
        assert without_run(mine["findings"]) == without_run(frames.finding_rows(doc)), log


class HtmlCells(HTMLParser):
    """The headings and the tables (rows of cell texts, the header row first) of an HTML page."""

    def __init__(self):
        super().__init__()
        self.headings, self.tables, self._text, self._row = [], [], None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self._row = []
        elif tag in ("th", "td", "h2"):
            self._text = ""

    def handle_data(self, data):
        if self._text is not None:
            self._text += data

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self._row.append(self._text)
            self._text = None
        elif tag == "h2":
            self.headings.append(self._text)
            self._text = None
        elif tag == "tr":
            self.tables[-1].append(self._row)


def test_fleet_on_generated_logs(spark, sf_bin, generated_logs, work_dir):
    logs_dir = work_dir / "fleet-logs"
    shutil.rmtree(logs_dir, ignore_errors=True)
    (logs_dir / "nested").mkdir(parents=True)
    expected = []
    for i, (name, path) in enumerate(sorted(generated_logs.items())):
        target = (logs_dir / "nested" if i % 2 else logs_dir) / Path(path).name
        (shutil.copytree if Path(path).is_dir() else shutil.copy)(path, target)
        expected.append(str(target))
    (logs_dir / "notes.txt").write_text("not an event log\n")
    fake = logs_dir / "fake.zstd"
    fake.write_bytes(b'{"Event":"SparkListenerLogStart","Spark Version":"3.5.0"}\n')
    # An application still running: the first part of a log; it grows before the second run.
    whole = Path(generated_logs["small-plain"]).read_bytes().split(b"\n")
    running = logs_dir / "application_1_0001.inprogress"
    running.write_bytes(b"\n".join(whole[: len(whole) // 2]) + b"\n")

    out, store = str(work_dir / "fleet-out"), store_location(work_dir, "fleet")
    shutil.rmtree(out, ignore_errors=True)
    first = fleet.run(spark, str(logs_dir), store, parquet=out)
    assert (first.listed, first.analyzed, first.failed, first.skipped) == (len(expected) + 3, len(expected) + 1, 1, 1)
    check_equal_to_cli(spark, sf_bin, work_dir, out, store, expected + [str(running)])
    state = {r["path"]: r for r in spark.read.parquet(f"{out}/logs").collect()}
    _, _, err = cli(sf_bin, "analyze", str(fake))
    assert state[str(fake)]["outcome"] == "failed" and state[str(fake)]["error"] in err
    assert state[str(logs_dir / "notes.txt")]["outcome"] == "skipped"

    # Nothing changed: nothing is read again.
    second = fleet.run(spark, str(logs_dir), store, parquet=out)
    assert (second.unchanged, second.analyzed, second.failed) == (len(expected) + 3, 0, 0)

    # The running application's log grew: it alone is analyzed again, and its new rows are current.
    with open(running, "ab") as f:
        f.write(b"\n".join(whole[len(whole) // 2:]))
    os.utime(running, (1, 2_000_000_000))
    third = fleet.run(spark, str(logs_dir), store, parquet=out)
    assert (third.unchanged, third.analyzed) == (len(expected) + 2, 1)
    check_equal_to_cli(spark, sf_bin, work_dir, out, store, [str(running)])
    assert len(fleet.current(spark, out, "applications").where(f"sourcePath = '{running}'").collect()) == 1

    # The fleet report sorts and counts what the CLI's documents say.
    from sparkforensics import fleet_report
    docs = [cli_document(sf_bin, log) for log in expected + [str(running)]]
    tables = fleet_report.report_tables(spark, out, top=100)
    apps = sorted((frames.application_row(d) for d in docs if frames.application_row(d)["topRecoverableHighMs"]),
                  key=lambda a: (-a["topRecoverableHighMs"], a["name"], a["appId"]))  # results/fleet_rankings.h
    assert [(a["appId"], a["topRecoverableHighMs"]) for a in tables["applications"]] == \
        [(a["appId"], a["topRecoverableHighMs"]) for a in apps]
    counts = {}
    for d in docs:
        for f in d["findings"]:
            counts[f["type"]] = counts.get(f["type"], 0) + 1
    assert {t["type"]: t["findings"] for t in tables["findingTypes"]} == counts
    assert [f["path"] for f in tables["failed"]] == [str(fake)]
    # By cost: each currency's costliest applications, the cost being the analysis document's.
    costs = sorted(((d["economics"]["cost"]["rateCard"]["currency"], -d["economics"]["cost"]["total"], d["app"]["name"],
                     d["app"]["id"]) for d in docs if d["economics"].get("cost")))
    assert [(a["costCurrency"], -a["costTotal"], a["name"], a["appId"]) for a in tables["costs"]] == costs
    assert tables["trend"] is None  # no store given
    text = fleet_report.render(tables, "text")
    assert "Applications with the most recoverable wall-clock" in text and str(fake) in text
    # The HTML page holds the same cells as the text, each section a table, and fetches nothing.
    page = fleet_report.render(tables, "html")
    cells = HtmlCells()
    cells.feed(page)
    on_page = iter(cells.tables)
    for title, header, rows in fleet_report.sections(tables):
        assert title in cells.headings
        if rows:  # an empty section is a "(none)" line, not a table
            assert next(on_page) == [header] + rows, title
    assert "<script" not in page and "http" not in page.replace(str(fake), "")
    # The costliest application's cost, written as `analyze` writes it in its report.
    costliest = tables["costs"][0]
    _, analyze_text, _ = cli(sf_bin, "analyze", costliest["sourcePath"])
    money = sf._core.format_money(costliest["costTotal"], costliest["costCurrency"])
    assert f"Cost       {money} at {costliest['costRateCard']} prices" in analyze_text
    assert money in text.split("Applications that cost the most")[1]
    # Its duration too: the text report's "Duration" line and the fleet report write it alike.
    duration = sf._core.format_duration_ms(costliest["durationMs"])
    assert f"Duration     {duration} from" in analyze_text
    assert duration in text.split("Applications that cost the most")[1]


def test_the_logs_are_analyzed_by_every_executor_at_once(spark, generated_logs, work_dir):
    """The analysis is one stage over every partition, not one job per partition in turn (what
    streaming the results to the driver with toLocalIterator alone did)."""
    logs_dir = work_dir / "parallel-logs"
    shutil.rmtree(logs_dir, ignore_errors=True)
    logs_dir.mkdir(parents=True)
    for name, path in sorted(generated_logs.items()):
        if not Path(path).is_dir():
            shutil.copy(path, logs_dir / Path(path).name)
    sc = spark.sparkContext
    sc.setJobGroup("fleet-parallelism", "the fleet job's stages")
    try:
        summary = fleet.run(spark, str(logs_dir), store_location(work_dir, "parallel"), partitions=2)
    finally:
        sc.setLocalProperty("spark.jobGroup.id", None)
    assert summary.analyzed >= 2
    tracker = sc.statusTracker()
    stages = [tracker.getStageInfo(stage) for job in tracker.getJobIdsForGroup("fleet-parallelism")
              for stage in tracker.getJobInfo(job).stageIds]
    assert max(s.numTasks for s in stages if s is not None) >= 2


TREND_SEEDS = [11, 12, 13, 14, 15, 16]
# A rate card of our own: the fleet's result documents and the CLI's (store ingest --config) must
# price the "cost" quantity with it alike.
TREND_CONFIG = {"rateCard": {"name": "test card", "currency": "EUR", "perCoreHour": 0.05, "perGibHour": 0.002}}


def verdict_rows(evaluations):
    return [(e["series"]["quantity"], e["series"]["unit"], e["verdict"], e["reason"], e["target"]["value"],
             e["outcome"]["referenceEstimate"], e["outcome"]["effect"]["value"], len(e["reference"]))
            for e in evaluations]


def test_fleet_report_trend(spark, sf_bin, sf_loggen, work_dir):
    # Six runs of one job (one subject, generated with six seeds), analyzed by the fleet job: the
    # trend is the comparator's verdict on the latest run, as `verdict history` gives it.
    logs_dir, out = work_dir / "trend-logs", str(work_dir / "trend-out")
    shutil.rmtree(logs_dir, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    for seed in TREND_SEEDS:
        subprocess.run([sf_loggen, "--preset", "small", "--codec", "zstd", "--seed", str(seed),
                        "--out", str(logs_dir)], check=True, capture_output=True)
    config_file = work_dir / "trend-config.json"
    config_file.write_text(json.dumps(TREND_CONFIG))
    # A subject of this run alone: a shared PostgreSQL store holds other tests' results too.
    subject, store = f"fleet-trend-{uuid.uuid4().hex[:8]}", store_location(work_dir, "trend")
    summary = fleet.run(spark, str(logs_dir), store, parquet=out, config=TREND_CONFIG, context={"subject": subject})
    assert summary.analyzed == len(TREND_SEEDS)

    from sparkforensics import fleet_report
    method = {"method": "dispersion-scaled", "minPoints": 2}
    tables = fleet_report.report_tables(spark, out, top=100, store=store, method_config=method)
    trend = [t for t in tables["trend"] if t["subject"] == subject]
    assert [(t["quantity"], t["seriesResults"]) for t in trend] == [("appWallClockMs", 6), ("cost", 6)]

    # The same verdicts from the CLI on the same store.
    flags = ["--target", "latest", "--subject", subject, "--quantity", "appWallClockMs", "--quantity", "cost",
             "--min-points", "2", "-f", "json"]
    code, printed, err = cli(sf_bin, "verdict", "history", "--store", store, *flags)
    assert code in (0, 1), err
    cli_rows = verdict_rows(json.loads(printed)["evaluations"])
    mine = [(t["quantity"], t["unit"], t["verdict"], t["reason"], t["targetValue"], t["referenceEstimate"], t["effect"],
             t["referencePoints"]) for t in trend]
    assert mine == cli_rows
    assert {t["verdict"] for t in trend} <= {"improved", "regressed", "no-change-detected", "indeterminate"}

    # And from a store the CLI filled itself, log by log in the fleet's order (the same config):
    # the fleet's results are the CLI's, so its verdicts are too.
    in_order = [r["document"] for r in sf.stored_results(store) if r["document"]["subject"] == subject]
    cli_store = work_dir / f"trend-cli-{uuid.uuid4().hex[:8]}.db"
    for document in in_order:
        path = document["origin"][len("spark event log "):].rsplit(" (", 1)[0]
        code, _, err = cli(sf_bin, "store", "ingest", "--store", str(cli_store), "--subject", subject, "--config",
                           str(config_file), path)
        assert code == 0, err
    code, printed, err = cli(sf_bin, "verdict", "history", "--store", str(cli_store), *flags)
    assert code in (0, 1), err
    assert verdict_rows(json.loads(printed)["evaluations"]) == cli_rows

    # The latest run's figures are its analysis document's: wall-clock and cost in EUR.
    latest_log = in_order[-1]["origin"][len("spark event log "):].rsplit(" (", 1)[0]
    code, printed, err = cli(sf_bin, "analyze", "-f", "json", "-q", "--config", str(config_file), latest_log)
    assert code == 0, err
    doc = json.loads(printed)
    wall, cost = trend
    assert wall["targetValue"] == doc["app"]["durationMs"]
    assert cost["unit"] == "EUR" and cost["targetValue"] == pytest.approx(doc["economics"]["cost"]["total"], rel=1e-12)
    assert {a["costCurrency"] for a in tables["costs"]} == {"EUR"}

    for fmt in ("text", "markdown", "html"):
        text = fleet_report.render(tables, fmt)
        section = text.split("Per-job trend: the comparator's verdict on each job's latest run")[1]
        assert subject in section and wall["verdict"] in section and sf._core.format_money(cost["targetValue"], "EUR") in section


# The same applications for the fleet report and the dashboard's fleet page: (currency, application
# name, application id, sf-loggen seed). A name is a subject (the fleet job's), so the page's unit
# (a subject at its latest result) and the report's (an application) are the same rows. The same
# seed gives the same figures: zeta and alpha tie in both rankings, and the subject puts alpha
# first where the application id would not.
RANKED_APPS = [
    ("EUR", "zeta_etl", "application_1717275600000_0101", 21),
    ("EUR", "alpha_etl", "application_1717275600000_0102", 21),
    ("EUR", "mid_etl", "application_1717275600000_0103", 22),
    ("USD", "usd_b", "application_1717275600000_0104", 21),
    ("USD", "usd_a", "application_1717275600000_0105", 21),
    ("USD", "usd_c", "application_1717275600000_0106", 23),
]
RATE_CARDS = {"EUR": TREND_CONFIG,
              "USD": {"rateCard": {"name": "usd card", "currency": "USD", "perCoreHour": 0.04, "perGibHour": 0.003}}}


def test_fleet_report_and_fleet_page_rank_alike(spark, sf_bin, sf_loggen, work_dir):
    root = work_dir / "ranked"
    shutil.rmtree(root, ignore_errors=True)
    for currency, name, app_id, seed in RANKED_APPS:
        printed = subprocess.run([sf_loggen, "--preset", "small", "--codec", "none", "--seed", str(seed),
                                  "--out", str(root / "generated" / str(seed))], check=True, capture_output=True, text=True)
        made = Path(printed.stdout.strip().splitlines()[-1])
        text = made.read_text().replace("nightly_sales_etl", name).replace(made.name, app_id)
        (root / currency).mkdir(parents=True, exist_ok=True)
        (root / currency / app_id).write_text(text)
    # Its own SQLite store: the page ranks every subject of the store it reads.
    out, store = str(root / "out"), str(root / f"ranked-{uuid.uuid4().hex[:8]}.db")
    for currency, config in RATE_CARDS.items():  # one run per rate card, into the same tables and store
        assert fleet.run(spark, str(root / currency), store, parquet=out, config=config).analyzed == 3

    from sparkforensics import fleet_report
    config_file = root / "config.json"
    config_file.write_text("{}")
    dashboard = Dashboard(sf_bin, root / "EUR", store, config_file, root / "serve.log")
    try:
        for limit in (100, 3):
            tables = fleet_report.report_tables(spark, out, top=limit)
            page = dashboard.get("fleet", limit=limit)
            assert page["subjects"] == len(RANKED_APPS) and page["withoutAnalysis"] == 0
            report_recoverable = [(a["name"], a["topRecoverableHighMs"]) for a in tables["applications"]]
            assert report_recoverable == [(r["subject"], r["recoverableMs"]["high"]) for r in page["recoverable"]]
            report_costs = [(a["costCurrency"], a["name"]) for a in tables["costs"]]
            assert report_costs == [(c["currency"], r["subject"]) for c in page["costs"] for r in c["top"]]
            assert [a["costTotal"] for a in tables["costs"]] == \
                pytest.approx([r["cost"]["value"] for c in page["costs"] for r in c["top"]], rel=1e-12)
            assert [(t["type"], t["applications"], t["findings"]) for t in tables["findingTypes"]] == \
                [(t["type"], t["applications"], t["findings"]) for t in page["findingTypes"]]
        # The ties are there, ordered by subject in both (the lists are equal, above), each currency apart.
        tables = fleet_report.report_tables(spark, out, top=100)
        assert [a["costCurrency"] for a in tables["costs"]] == ["EUR"] * 3 + ["USD"] * 3
        eur = [a["name"] for a in tables["costs"] if a["costCurrency"] == "EUR"]
        assert eur.index("alpha_etl") + 1 == eur.index("zeta_etl")
        usd = [a["name"] for a in tables["costs"] if a["costCurrency"] == "USD"]
        assert usd.index("usd_a") + 1 == usd.index("usd_b")
        tied = [a["name"] for a in tables["applications"] if a["appId"] in {x[2] for x in RANKED_APPS if x[3] == 21}]
        assert tied == ["alpha_etl", "usd_a", "usd_b", "zeta_etl"]
    finally:
        dashboard.close()


def test_fleet_since_and_command_line(sf_bin, generated_logs, work_dir):
    # The module's command line, as spark-submit or `python -m` runs it, in a Python of its own.
    logs_dir = work_dir / "fleet-cli-logs"
    shutil.rmtree(logs_dir, ignore_errors=True)
    logs_dir.mkdir()
    old, new = logs_dir / "old.zstd", logs_dir / Path(generated_logs["small-zstd"]).name
    shutil.copy(generated_logs["small-zstd"], new)
    shutil.copy(generated_logs["small-zstd"], old)
    os.utime(old, (1, 1_000_000_000))  # 2001
    store = str(work_dir / "fleet-cli.db")
    Path(store).unlink(missing_ok=True)
    shutil.rmtree(work_dir / "fleet-cli-state", ignore_errors=True)
    done = subprocess.run([sys.executable, "-m", "sparkforensics.fleet", "--logs", str(logs_dir), "--store", store,
                           "--state", str(work_dir / "fleet-cli-state"), "--since", "2020-01-01", "--master", "local[1]",
                           "--env", "cluster=test"], capture_output=True, text=True, env={**os.environ})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "2 logs listed, 0 unchanged since the last run, 1 older than --since, 1 analyzed (1 results stored" in done.stdout
    [stored] = sf.stored_results(store)
    assert stored["document"]["environment"]["cluster"] == "test"
    check_store = work_dir / "fleet-cli-check.db"
    check_store.unlink(missing_ok=True)
    code, out, _ = cli(sf_bin, "store", "ingest", "--store", str(check_store), "--env", "cluster=test", str(new))
    assert code == 0 and out.split()[1] == stored["id"]


def test_a_bad_config_is_one_error_before_any_log_is_read(spark, generated_logs, work_dir):
    # A typo in the config was a failure of every log, found on the executors, with exit code 0.
    logs_dir = work_dir / "fleet-config-logs"
    shutil.rmtree(logs_dir, ignore_errors=True)
    logs_dir.mkdir()
    shutil.copy(generated_logs["small-zstd"], logs_dir / Path(generated_logs["small-zstd"]).name)
    store = work_dir / "fleet-config.db"
    store.unlink(missing_ok=True)
    with pytest.raises(sf.Error, match='config: unknown threshold "no.such"'):
        fleet.run(spark, str(logs_dir), str(store), config={"thresholds": {"no.such": 1}})
    assert not store.exists()

    broken = work_dir / "fleet-broken-config.json"
    broken.write_text('{"thresholds": ')
    done = subprocess.run([sys.executable, "-m", "sparkforensics.fleet", "--logs", str(logs_dir), "--store", str(store),
                           "--config", str(broken), "--master", "local[1]"], capture_output=True, text=True,
                          env={**os.environ})
    assert done.returncode == 2, done.stderr[-3000:]
    assert f"error: {broken}: not valid JSON at byte" in done.stderr
    assert "Traceback" not in done.stderr and not store.exists()


CORPUS = corpus_logs()


@pytest.mark.skipif(not CORPUS, reason=f"corpus not found at {corpus_dir()} (set SF_CORPUS_DIR or check out ../shared/corpus)")
def test_fleet_on_the_corpus(spark, sf_bin, work_dir):
    # The corpus directory read in place: its event logs analyzed, its other files (README, the
    # History Server's expectations) not event logs, or logs the CLI cannot read either.
    out, store = str(work_dir / "fleet-corpus"), store_location(work_dir, "corpus")
    shutil.rmtree(out, ignore_errors=True)
    summary = fleet.run(spark, str(corpus_dir()), store, parquet=out)
    readable = [log for log in CORPUS if cli(sf_bin, "analyze", "-f", "json", "-q", log)[0] == 0]
    assert summary.analyzed >= len(readable) > 0
    check_equal_to_cli(spark, sf_bin, work_dir, out, store, readable)
    state = {r["path"]: r for r in spark.read.parquet(f"{out}/logs").collect()}
    for log in set(CORPUS) - set(readable):
        _, _, err = cli(sf_bin, "analyze", log)
        assert state[log]["error"] in err, log
    print(f"fleet corpus: {len(readable)} logs equal to the CLI, {summary.failed} failed, {summary.skipped} not logs")


def scenario_logs_dir():
    """Where ctest's spark_scenarios keeps the logs real Spark wrote (CI names it in
    SF_SPARK_SCENARIO_LOGS; ctest passes the build's own as SF_BUILD_SCENARIO_LOGS)."""
    where = os.environ.get("SF_SPARK_SCENARIO_LOGS") or os.environ.get("SF_BUILD_SCENARIO_LOGS")
    return Path(where) if where else None


def test_fleet_on_the_scenario_logs(spark, sf_bin, work_dir):
    # Every log of tests/spark's scenarios (ctest runs spark_scenarios first): analyzed by the
    # fleet job in place, each equal to the CLI; the directory's other files are not event logs.
    root = scenario_logs_dir()
    manifest = root / "manifest.json" if root else None
    if manifest is None or not manifest.is_file():
        pytest.skip(f"no scenario logs: {manifest or 'SF_SPARK_SCENARIO_LOGS unset'} does not exist "
                    "(ctest's spark_scenarios writes them)")
    logs = {run["log"] for run in json.loads(manifest.read_text())["runs"]}
    # The Spark Connect client's log is beside the scenarios' (tests/spark/connect_client.py).
    connect = root / "connect" / "connect.json"
    if connect.is_file():
        logs.add(json.loads(connect.read_text())["log"])
    logs = sorted(logs)
    out, store = str(work_dir / "fleet-scenarios"), store_location(work_dir, "scenarios")
    shutil.rmtree(out, ignore_errors=True)
    summary = fleet.run(spark, str(root), store, parquet=out)
    assert summary.analyzed == len(logs) > 0
    check_equal_to_cli(spark, sf_bin, work_dir, out, store, logs)
    # The rest are the standalone clusters' own files (worker logs, executors' stdout, often
    # empty): recorded as not logs, or failed with the error the CLI gives for them.
    state = {r["path"]: r for r in spark.read.parquet(f"{out}/logs").collect()}
    others = {path: row for path, row in state.items() if path not in logs}
    assert all(row["outcome"] in ("skipped", "failed") for row in others.values())
    for path, row in others.items():
        if row["outcome"] == "failed":
            assert row["error"] in cli(sf_bin, "analyze", path)[2], path
    print(f"fleet scenario logs: {len(logs)} logs equal to the CLI; {summary.failed} failed and {summary.skipped} "
          "skipped of the clusters' other files")
