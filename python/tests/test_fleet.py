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
from pathlib import Path

import pytest

import sparkforensics as sf
from sparkforensics import fleet, frames
from conftest import cli, corpus_dir, corpus_logs

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
                  key=lambda a: (-a["topRecoverableHighMs"], a["appId"]))
    assert [(a["appId"], a["topRecoverableHighMs"]) for a in tables["applications"]] == \
        [(a["appId"], a["topRecoverableHighMs"]) for a in apps]
    counts = {}
    for d in docs:
        for f in d["findings"]:
            counts[f["type"]] = counts.get(f["type"], 0) + 1
    assert {t["type"]: t["findings"] for t in tables["findingTypes"]} == counts
    assert [f["path"] for f in tables["failed"]] == [str(fake)]
    text = fleet_report.render(tables, markdown=False)
    assert "Applications with the most recoverable wall-clock" in text and str(fake) in text


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
