"""The package says what the command line says: every call against the CLI of the same build on
the same logs (generated ones, and the real-log corpus when it is there)."""

import json
import os
import subprocess
import threading
from pathlib import Path

import pytest

import sparkforensics as sf
from conftest import GENERATED, cli, corpus_dir, corpus_logs


def cli_json(sf_bin, *args):
    code, out, err = cli(sf_bin, *args)
    assert code == 0, err
    return json.loads(out)


def test_documents_are_typed_by_the_typeddicts_of_their_schemas(generated_logs):
    # sparkforensics.documents (generated from schemas/) names what analyze and compare return,
    # and each TypedDict has exactly the document's fields, here and one level down.
    import typing

    from sparkforensics import documents

    for function, typed in [(sf.analyze, documents.AnalysisDocument), (sf.compare, documents.ComparisonDocument),
                            (sf.verdict_history, documents.VerdictDocument)]:
        assert typing.get_type_hints(function, localns=vars(documents))["return"] is typed

    def assert_fields(value, typed, what):
        assert typed.__required_keys__ <= set(value) <= typed.__required_keys__ | typed.__optional_keys__, what

    path = generated_logs["demo-gzip"]
    doc = sf.analyze(path)
    assert_fields(doc, documents.AnalysisDocument, "analysis")
    for stage in doc["stages"]:
        assert_fields(stage, documents.Stage, f"stage {stage['stageId']}.{stage['attemptId']}")
    assert doc["findings"] and doc["sql"]
    for finding in doc["findings"]:
        assert_fields(finding, documents.Finding, finding["id"])
    for execution in doc["sql"]:
        assert_fields(execution, documents.SqlExecution, f"sql {execution['executionId']}")
    assert_fields(doc["economics"], documents.Economics, "economics")
    comparison = sf.compare(path, generated_logs["small-zstd"])
    assert_fields(comparison, documents.ComparisonDocument, "comparison")
    for pair in comparison["stagePairs"]:
        assert_fields(pair, documents.StagePair, "stage pair")


@pytest.mark.parametrize("name", [name for name, _ in GENERATED])
def test_analyze_equals_cli_on_generated_logs(sf_bin, generated_logs, name):
    path = generated_logs[name]
    assert sf.analyze(path) == cli_json(sf_bin, "analyze", "-f", "json", "-q", path)
    # The JSON text too, byte for byte: same input, same bytes.
    code, out, _ = cli(sf_bin, "analyze", "-f", "json", "-q", path)
    assert sf.analyze_json(path) == out


CORPUS = corpus_logs()


@pytest.mark.skipif(not CORPUS, reason=f"corpus not found at {corpus_dir()} (set SF_CORPUS_DIR or check out ../shared/corpus)")
def test_analyze_equals_cli_on_corpus_logs(sf_bin):
    checked = failed_alike = 0
    for path in CORPUS:
        code, out, err = cli(sf_bin, "analyze", "-f", "json", "-q", path)
        if code != 0:
            # A log the CLI cannot read is an Error with the very message the CLI printed.
            with pytest.raises(sf.Error) as raised:
                sf.analyze(path)
            assert str(raised.value) in err, path
            failed_alike += 1
            continue
        assert sf.analyze(path) == json.loads(out), path
        checked += 1
    assert checked > 0
    print(f"corpus: {checked} logs equal, {failed_alike} failing alike")


def test_bytes_give_the_document_of_the_file(sf_bin, generated_logs):
    for name in ("small-zstd", "small-snappy-unfinished"):
        path = Path(generated_logs[name])
        expected = cli_json(sf_bin, "analyze", "-f", "json", "-q", str(path))
        assert sf.analyze(path.read_bytes(), name=str(path)) == expected


def test_directory_log_as_parts(sf_bin, generated_logs):
    directory = Path(generated_logs["small-lz4-rolling"])
    parts = {p.name: p.read_bytes() for p in directory.iterdir()}
    assert len(parts) > 2  # several events_ parts and the appstatus marker
    expected = cli_json(sf_bin, "analyze", "-f", "json", "-q", str(directory))
    assert sf.analyze(parts, name=str(directory)) == expected


def test_config_as_dict_or_file_equals_cli_config(sf_bin, generated_logs, work_dir):
    config = {"thresholds": {"skew.maxToMedianRatio": 50, "gc.warnRatio": 0.9}, "limits": {"maxOpenTasks": 100000}}
    config_file = work_dir / "config.json"
    config_file.write_text(json.dumps(config))
    path = generated_logs["small-zstd"]
    expected = cli_json(sf_bin, "analyze", "-f", "json", "-q", "--config", str(config_file), path)
    assert expected != cli_json(sf_bin, "analyze", "-f", "json", "-q", path)  # the config matters here
    assert sf.analyze(path, config) == expected
    assert sf.analyze(path, config_file) == expected


def test_errors_carry_the_library_message(sf_bin, work_dir):
    missing = str(work_dir / "no-such-log")
    with pytest.raises(sf.Error) as raised:
        sf.analyze(missing)
    code, _, err = cli(sf_bin, "analyze", missing)
    assert code == 2 and str(raised.value) in err and missing in str(raised.value)
    assert raised.value.code == "not found"

    bad = {"thresholds": {"skew.noSuchThreshold": 1}}
    with pytest.raises(sf.Error, match='config: unknown threshold "skew.noSuchThreshold"'):
        sf.analyze(missing, bad)

    # A log whose bytes are not what its name says: the message names the file and the codec.
    fake = work_dir / "fake.zstd"
    fake.write_bytes(b'{"Event":"SparkListenerLogStart","Spark Version":"3.5.0"}\n')
    with pytest.raises(sf.Error) as raised:
        sf.analyze(fake)
    _, _, err = cli(sf_bin, "analyze", str(fake))
    assert str(raised.value) in err and "fake.zstd" in str(raised.value)


def test_malformed_line_is_counted_with_its_line_number(sf_bin, generated_logs, work_dir):
    lines = Path(generated_logs["small-plain"]).read_bytes().split(b"\n")
    lines[5] = b'{"Event": broken'
    damaged = work_dir / "damaged-log"
    damaged.write_bytes(b"\n".join(lines))
    doc = sf.analyze(damaged)
    assert doc == cli_json(sf_bin, "analyze", "-f", "json", "-q", str(damaged))
    assert [(m["part"], m["line"]) for m in doc["diagnostics"]["malformedLines"]] == [("damaged-log", 6)]


def test_compare_equals_cli(sf_bin, generated_logs):
    base, cand = generated_logs["small-zstd"], generated_logs["small-plain"]
    assert sf.compare(base, cand) == cli_json(sf_bin, "compare", "-f", "json", "-q", base, cand)
    pattern = r"s3://[^/]+"
    assert sf.compare(base, cand, normalize_paths=[pattern]) == cli_json(
        sf_bin, "compare", "-f", "json", "-q", "--normalize-path", pattern, base, cand)


def test_ingest_stores_what_store_ingest_stores(sf_bin, generated_logs, work_dir):
    py_store, cli_store = str(work_dir / "py-store.db"), str(work_dir / "cli-store.db")
    for name in ("small-zstd", "small-plain", "small-snappy-unfinished"):
        path = generated_logs[name]
        outcome = sf.ingest(path, py_store, revision=f"rev-{name}", env={"cluster": "test"}, run_key="r1", round=1)
        code, out, err = cli(sf_bin, "store", "ingest", "--store", cli_store, "--revision", f"rev-{name}",
                             "--env", "cluster=test", "--run-key", "r1", "--round", "1", path)
        assert code == 0, err
        # The id is the hash of the document's text: equal ids, equal documents.
        assert out.startswith(f"ingested {outcome['id']} (status {outcome['status']}")
        assert not outcome["alreadyPresent"]
        assert sf.ingest(path, py_store, revision=f"rev-{name}", env={"cluster": "test"}, run_key="r1",
                         round=1)["alreadyPresent"]
    assert sf.stored_results(py_store)[-1]["document"]["status"] == "partial"  # the unfinished log
    shown = cli_json(sf_bin, "store", "show", "--store", cli_store, sf.stored_results(py_store)[0]["id"])
    assert sf.stored_results(py_store)[0]["document"] == shown


def test_ingest_results_stores_a_batch_as_one_by_one(generated_logs, work_dir):
    documents = [(sf.result_document(generated_logs[name], revision=f"rev-{name}")[0], name)
                 for name in ("small-zstd", "small-plain", "small-snappy-unfinished")]
    batch_store, single_store = str(work_dir / "batch-store.db"), str(work_dir / "single-store.db")
    # A document twice in one batch is stored once: the second says it was already there.
    batch = sf.ingest_results(batch_store, documents + documents[:1])
    single = [sf.ingest_result(single_store, text, source) for text, source in documents]
    assert [o["id"] for o in batch[:3]] == [o["id"] for o in single]
    assert [o["alreadyPresent"] for o in batch] == [False, False, False, True]
    assert batch[3]["id"] == batch[0]["id"]
    assert [r["id"] for r in sf.stored_results(batch_store)] == [r["id"] for r in sf.stored_results(single_store)]
    with pytest.raises(sf.Error, match="broken-document"):
        sf.ingest_results(batch_store, [("{}", "broken-document")])


def test_verdict_history_equals_cli(sf_bin, generated_logs, work_dir):
    store = str(work_dir / "verdict-store.db")
    for i, seed in enumerate([11, 12, 13, 14, 15]):
        out = work_dir / f"series-{seed}"
        subprocess.run([os.environ["SF_LOGGEN"], "--preset", "small", "--seed", str(seed), "--out", str(out)],
                       check=True, capture_output=True)
        log = next(out.iterdir())
        sf.ingest(log, store, revision=f"r{i}", parents=[f"r{i - 1}"] if i else [], subject="nightly")
    expected = cli_json(sf_bin, "verdict", "history", "--store", store, "--target", "latest", "-f", "json", "-q")
    assert sf.verdict_history(store) == expected
    method = {"method": "dispersion-scaled", "k": 2}
    method_file = work_dir / "method.json"
    method_file.write_text(json.dumps(method))
    assert sf.verdict_history(store, "r4", method_config=method) == cli_json(
        sf_bin, "verdict", "history", "--store", store, "--target", "r4", "--method-config", str(method_file),
        "-f", "json", "-q")
    with pytest.raises(sf.Error, match="no-such-store"):
        sf.verdict_history(str(work_dir / "no-such-store.db"))
    assert not (work_dir / "no-such-store.db").exists()  # a reader never creates a store


def test_frames(generated_logs):
    pandas = pytest.importorskip("pandas", reason="pandas is not installed (python/requirements.lock has it)")
    doc = sf.analyze(generated_logs["demo-gzip"])
    stages, findings, rollup = sf.stages_frame(doc), sf.findings_frame(doc), sf.rollup_frame(doc)
    assert len(stages) == len(doc["stages"]) and len(findings) == len(doc["findings"])
    assert len(rollup) == len(doc["rollup"])
    assert list(findings["id"]) == [f["id"] for f in doc["findings"]]
    # pandas holds a missing figure (a stage that never completed has no duration) as NaN.
    assert [None if pandas.isna(v) else v for v in stages["durationMs"]] == [s["durationMs"] for s in doc["stages"]]
    first = doc["findings"][0]
    assert findings.iloc[0]["wallClockHighMs"] == first["impactEstimate"]["wallClock"]["highMs"]
    assert stages.iloc[0]["metrics"]["executorRunTimeMs"] == doc["stages"][0]["metrics"]["executorRunTimeMs"]
    apps = sf.applications_frame([doc, sf.analyze(generated_logs["small-zstd"])])
    assert list(apps["appId"]) == [doc["app"]["id"], sf.analyze(generated_logs["small-zstd"])["app"]["id"]]
    assert apps.iloc[0]["topFindingType"] == doc["rollup"][0]["type"]


def test_the_top_group_is_the_one_fix_these_first_leads_with():
    # A time group not worth fixing first is not what "Fix these first" leads with: the text
    # report then says nothing stands out, and so does the applications row.
    def doc(fix_first):
        return {"app": {"id": "app-1"}, "rollup": [
            {"tier": "count", "type": "configAudit", "fixFirst": False},
            {"tier": "time", "type": "tinyTask", "fixFirst": fix_first, "recoverableMs": {"low": 3.0, "high": 5.0}}]}
    worth = sf.frames.application_row(doc(True))
    assert (worth["topFindingType"], worth["topRecoverableHighMs"]) == ("tinyTask", 5.0)
    not_worth = sf.frames.application_row(doc(False))
    assert (not_worth["topFindingType"], not_worth["topRecoverableHighMs"]) == (None, None)


def test_frames_without_pandas_say_what_to_install(generated_logs, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match="pip install pandas"):
        sf.findings_frame(sf.analyze(generated_logs["small-zstd"]))


def test_gil_is_released_while_analyzing(generated_logs):
    # Two threads analyzing at once get the same documents as one after the other; a held GIL
    # would serialize them (not asserted: tests never assert on time), a shared state would mix them.
    path = generated_logs["demo-gzip"]
    expected = sf.analyze_json(path, threads=1)
    results = [None, None]

    def work(i):
        results[i] = sf.analyze_json(path, threads=1)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected, expected]
