"""Every document the program writes validates against its schema in schemas/ (JSON Schema
2020-12, checked with the jsonschema package): the analysis of generated logs and of the real-log
corpus, comparisons, verdicts of the three modes, the result documents the store keeps, and the
dashboard API's documents as `serve` answers them. A schema that the writer disagrees with fails
here, naming the document and the field.

tests/schemas/run.sh (ctest's document_schemas) sets SF_BIN, SF_LOGGEN and SF_TEST_WORK."""

import collections
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python" / "tests"))
from harness import ROOT, corpus_dir, corpus_logs, generate_logs, required_env  # noqa: E402 (the suites' one harness)

SCHEMAS = ROOT / "schemas"
# kind -> schema file; the kinds are the table of src/report/document_kind.h.
SCHEMA_OF_KIND = {
    "sparkforensics.analysis": "analysis.schema.json",
    "sparkforensics.comparison": "comparison.schema.json",
    "sparkforensics.verdict": "verdict.schema.json",
    "sparkforensics.timeline": "timeline.schema.json",
    "sparkforensics.planDiff": "plan-diff.schema.json",
    "sparkforensics.fleetSummary": "fleet-summary.schema.json",
}
RESULT_SCHEMA = "result.schema.json"

# What the session validated, by kind: conftest.py prints it at the end.
VALIDATED = collections.Counter()


def _required_env(name):
    return required_env(name, "document_schemas")


def _load_schemas():
    schemas = {path.name: json.loads(path.read_text()) for path in sorted(SCHEMAS.glob("*.schema.json"))}
    # The schemas name each other by file name (fleet-summary's trend.document is a verdict document).
    registry = Registry().with_resources((name, Resource.from_contents(s)) for name, s in schemas.items())
    return schemas, registry


SCHEMA_TEXTS, REGISTRY = _load_schemas()


def validator(schema_name, pointer=""):
    schema = SCHEMA_TEXTS[schema_name]
    if pointer:
        schema = {"$ref": f"{schema_name}#{pointer}"}
    return Draft202012Validator(schema, registry=REGISTRY)


def errors_of(document, schema_name, pointer=""):
    """The first few validation errors, each as 'path: message'."""
    found = sorted(validator(schema_name, pointer).iter_errors(document), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:300]}" for e in found[:10]]


def check(document, what, schema_name=None):
    """Validates `document` against the schema of its kind (or `schema_name`); counts it under its kind."""
    name = schema_name or SCHEMA_OF_KIND.get(document.get("kind"))
    assert name, f"{what}: no schema for kind {document.get('kind')!r}"
    errors = errors_of(document, name)
    assert not errors, f"{what} does not validate against schemas/{name}:\n  " + "\n  ".join(errors)
    VALIDATED[document.get("kind") or name] += 1


def run(*args, ok_codes=(0,)):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    assert done.returncode in ok_codes, f"{args} exited {done.returncode}: {done.stderr[-2000:]}"
    return done.stdout


@pytest.fixture(scope="session")
def sf_bin():
    return _required_env("SF_BIN")


@pytest.fixture(scope="session")
def work_dir():
    path = Path(_required_env("SF_TEST_WORK"))
    path.mkdir(parents=True, exist_ok=True)
    return path


# Generated logs of every layout and ending the reader knows: (name, sf-loggen flags).
GENERATED = [
    ("small-1", ["--preset", "small", "--seed", "1"]),
    ("small-2", ["--preset", "small", "--seed", "2"]),
    ("small-3", ["--preset", "small", "--seed", "3"]),
    ("small-4", ["--preset", "small", "--seed", "4"]),
    ("demo-zstd", ["--preset", "demo", "--codec", "zstd"]),
    ("small-lz4-rolling", ["--preset", "small", "--codec", "lz4", "--layout", "rolling", "--part-bytes", "400000"]),
    ("small-unfinished", ["--preset", "small", "--codec", "snappy", "--unfinished", "--seed", "5"]),
    ("small-cut", ["--preset", "small", "--cut-last-line", "--seed", "6"]),
]


@pytest.fixture(scope="session")
def generated_logs(work_dir):
    """{name: path} of the logs sf-loggen wrote for this session, each in its own directory."""
    return generate_logs(_required_env("SF_LOGGEN"), work_dir, GENERATED)


def skip_without_corpus():
    # One place, so pytest -rs sums the corpus tests up in one line: how many, and where it looked.
    pytest.skip(f"corpus not found at {corpus_dir()} (set SF_CORPUS_DIR or check out ../shared/corpus)")


def document_kind_table():
    """{kind: schemaVersion} from src/report/document_kind.h, the one table of the program's kinds."""
    text = (ROOT / "src" / "report" / "document_kind.h").read_text()
    return {kind: int(version) for kind, version in re.findall(r'DocumentKind k\w+Document\{"([^"]+)", (\d+)\}', text)}


# ---------------------------------------------------------------------------------------------
# The schemas themselves


def test_schemas_are_valid_and_name_every_kind_of_the_program():
    for name, schema in SCHEMA_TEXTS.items():
        Draft202012Validator.check_schema(schema)
        assert schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema", name
    table = document_kind_table()
    assert set(table) == set(SCHEMA_OF_KIND), "document_kind.h and this test's table of schemas disagree"
    for kind, version in table.items():
        schema = SCHEMA_TEXTS[SCHEMA_OF_KIND[kind]]
        assert {"kind", "schemaVersion"} <= set(schema["required"]), kind
        assert schema["properties"]["kind"] == {"const": kind}, kind
        assert schema["properties"]["schemaVersion"] == {"const": version}, kind
        assert schema.get("additionalProperties") is False, f"{kind}: the top level's layout is fixed"
    assert SCHEMA_TEXTS[RESULT_SCHEMA]["properties"]["schema"] == {"const": "sparkforensics.result/1"}


def test_a_schema_refuses_what_its_writer_does_not_write(sf_bin, generated_logs):
    # The schemas are closed where the layout is fixed: a field too many, a wrong type, an
    # unknown enum value, another kind or version, a missing field are each refused.
    document = json.loads(run(sf_bin, "analyze", "-f", "json", "-q", generated_logs["small-1"]))
    assert not errors_of(document, "analysis.schema.json")
    broken = [
        lambda d: d["stages"][0].update(unexpected=1),
        lambda d: d["app"].update(startTimeMs="yesterday"),
        lambda d: d["findings"][0].update(impactBand="severe"),
        lambda d: d.update(schemaVersion=2),
        lambda d: d.update(kind="sparkforensics.comparison"),
        lambda d: d["economics"]["cost"].pop("total"),
        lambda d: d["sql"][0]["plan"][0]["metrics"].append({"name": "x"}),
    ]
    for i, breaking in enumerate(broken):
        copy = json.loads(json.dumps(document))
        breaking(copy)
        assert errors_of(copy, "analysis.schema.json"), f"change {i} was not refused"
    # The open maps stay open: any property name, values of their one type.
    copy = json.loads(json.dumps(document))
    copy["environment"]["sparkProperties"]["spark.some.new.setting"] = "1"
    copy["stages"][0]["metrics"]["someNewMetric"] = 1
    assert not errors_of(copy, "analysis.schema.json")
    copy["stages"][0]["metrics"]["someNewMetric"] = "1"
    assert errors_of(copy, "analysis.schema.json")


def test_the_result_documents_example_validates():
    # The example of docs/result-schema.md is a document a benchmark may write.
    text = (ROOT / "docs" / "result-schema.md").read_text()
    example = json.loads(re.search(r"```json\n(.*?)\n```", text, re.S).group(1))
    check(example, "docs/result-schema.md's example", RESULT_SCHEMA)
    minimal = {"schema": "sparkforensics.result/1", "subject": "s", "quantities": [{"name": "t", "value": 1, "unit": "ms"}]}
    check(minimal, "a minimal result document", RESULT_SCHEMA)
    assert errors_of({**minimal, "status": "fine"}, RESULT_SCHEMA)
    assert errors_of({**minimal, "extra": True}, RESULT_SCHEMA)


# ---------------------------------------------------------------------------------------------
# analyze


def test_analysis_documents_of_generated_logs(sf_bin, generated_logs):
    for name, path in generated_logs.items():
        check(json.loads(run(sf_bin, "analyze", "-f", "json", "-q", path)), f"analyze {name}")
    print(f"analysis: {len(generated_logs)} generated logs validated")


def test_analysis_documents_of_corpus_logs(sf_bin):
    logs = corpus_logs()
    if not logs:
        skip_without_corpus()
    validated, refused = 0, []
    for path in logs:
        done = subprocess.run([sf_bin, "analyze", "-f", "json", "-q", path], capture_output=True, text=True)
        if done.returncode != 0:  # a log the reader refuses writes no document: nothing to validate
            refused.append(f"{path}: {done.stderr.strip()[:200]}")
            continue
        check(json.loads(done.stdout), f"analyze {path}")
        validated += 1
    print(f"analysis: {validated} corpus logs validated, {len(refused)} refused by analyze" +
          "".join(f"\n  {r}" for r in refused))
    assert validated > 0


# ---------------------------------------------------------------------------------------------
# compare


def test_comparison_documents(sf_bin, generated_logs):
    logs = generated_logs
    pairs = [("small-1", "small-2"), ("small-1", "small-1"), ("small-2", "demo-zstd"),
             ("small-3", "small-lz4-rolling"), ("small-4", "small-unfinished")]
    for base, cand in pairs:
        check(json.loads(run(sf_bin, "compare", "-f", "json", "-q", logs[base], logs[cand], ok_codes=(0, 1))),
              f"compare {base} {cand}")
    # Budgets (one exceeded: exit 1) and a stage pair pinned by hand.
    document = json.loads(run(sf_bin, "compare", "-f", "json", "-q", "--budget", "wallClock=+5%",
                              "--budget", "spill=0", "--budget", "executorRunTime=+30s", "--pin", "0:0",
                              logs["small-1"], logs["demo-zstd"], ok_codes=(0, 1)))
    check(document, "compare with budgets")
    assert len(document["budgets"]) == 3
    assert any(pair["method"] == "pinned" for pair in document["stagePairs"])
    print(f"comparison: {len(pairs) + 1} documents validated")


def test_comparison_documents_of_corpus_logs(sf_bin):
    # Neighbouring corpus logs: mostly unrelated runs (not comparable), Spark 1.x to 4.x.
    logs = corpus_logs()
    if not logs:
        skip_without_corpus()
    validated = 0
    for base, cand in zip(logs, logs[1:]):
        done = subprocess.run([sf_bin, "compare", "-f", "json", "-q", base, cand], capture_output=True, text=True)
        if done.returncode not in (0, 1):
            continue  # a log the reader refuses (the analysis test lists those)
        check(json.loads(done.stdout), f"compare {base} {cand}")
        validated += 1
    print(f"comparison: {validated} pairs of corpus logs validated")
    assert validated > 0


# ---------------------------------------------------------------------------------------------
# The result store and verdicts


@pytest.fixture(scope="session")
def stores(sf_bin, generated_logs, work_dir):
    """Three stores: a native-order history, a revision graph, a planned run of two variants."""
    logs = generated_logs
    native = work_dir / "native.db"
    for name in ["small-1", "small-2", "small-3", "small-unfinished"]:
        run(sf_bin, "store", "ingest", "-q", "--store", native, "--subject", "etl", logs[name])
    run(sf_bin, "store", "ingest", "-q", "--store", native, "--subject", "report", logs["demo-zstd"])
    graph = work_dir / "graph.db"
    parent = None
    for i, name in enumerate(["small-1", "small-2", "small-3", "small-4"]):
        lineage = ["--parent", parent] if parent else []
        run(sf_bin, "store", "ingest", "-q", "--store", graph, "--subject", "etl", "--revision", f"t{i}", *lineage, logs[name])
        parent = f"t{i}"
    planned = work_dir / "run.db"
    slot = 0
    for round_, (base, cand) in enumerate([("small-1", "small-2"), ("small-3", "small-4")], start=1):
        for role, name in [("baseline", base), ("candidate", cand)]:
            slot += 1
            run(sf_bin, "store", "ingest", "-q", "--store", planned, "--subject", "etl", "--variant", role,
                "--run-key", "k1", "--round", round_, "--slot", slot, logs[name])
    return {"native": native, "graph": graph, "run": planned}


def test_verdict_documents(sf_bin, stores):
    verdicts = [
        ("history, native order", ["history", "--store", stores["native"], "--target", "latest"]),
        ("history, provisional noise", ["history", "--store", stores["native"], "--target", "latest",
                                        "--provisional-noise", "0.1", "--min-points", "2"]),
        ("history, ancestry", ["history", "--store", stores["graph"], "--target", "latest", "--min-points", "2"]),
        ("history, paired-ratio", ["history", "--store", stores["graph"], "--target", "latest", "--method",
                                   "paired-ratio"]),
        ("batch", ["batch", "--store", stores["graph"], "--revision", "t3"]),
        ("run", ["run", "--store", stores["run"], "--run-key", "k1", "--profile", "variants", "--baseline", "baseline",
                 "--min-points", "2"]),
    ]
    modes = collections.Counter()
    for what, args in verdicts:
        document = json.loads(run(sf_bin, "verdict", *args, "-f", "json", "-q", ok_codes=(0, 1)))
        check(document, f"verdict {what}")
        modes[document["mode"]] += 1
        assert document["evaluations"], f"verdict {what}: no evaluation to validate"
    assert set(modes) == {"history", "batch", "run"}
    print(f"verdict: {sum(modes.values())} documents validated ({dict(modes)})")


def test_stored_result_documents(sf_bin, stores):
    # What the store keeps is what `store ingest --result` reads back: store show prints it as stored.
    shown = 0
    for store in stores.values():
        for row in json.loads(run(sf_bin, "store", "list", "--store", store, "--format", "json")):
            check(json.loads(run(sf_bin, "store", "show", "--store", store, row["id"])), f"store show {row['id']}",
                  RESULT_SCHEMA)
            shown += 1
    print(f"result: {shown} stored documents validated")
    assert shown >= 13


# ---------------------------------------------------------------------------------------------
# serve: the dashboard's JSON API


@pytest.fixture(scope="session")
def served(sf_bin, generated_logs, stores, work_dir):
    """`serve` over a directory of generated logs and the native-order store: its base URL."""
    log_dir = work_dir / "served-logs"
    log_dir.mkdir(exist_ok=True)
    for name in ["small-1", "small-2", "demo-zstd", "small-lz4-rolling"]:
        source = Path(generated_logs[name])
        target = log_dir / source.name
        if not target.exists():  # copied: serve confines itself to the directory, symbolic links included
            shutil.copytree(source, target) if source.is_dir() else shutil.copyfile(source, target)
    server = subprocess.Popen([sf_bin, "serve", "--log-dir", str(log_dir), "--port", "0", "--store", str(stores["native"])],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        first = server.stdout.readline()
        found = re.search(r"http://[^/\s]+", first)
        assert found, f"serve printed no URL: {first!r}"
        yield found.group(0) + "/api/sf/v1", sorted(p.name for p in log_dir.iterdir())
    finally:
        server.terminate()
        server.wait(timeout=30)


def get(url):
    with urllib.request.urlopen(url, timeout=120) as answer:
        return json.loads(answer.read())


def test_dashboard_api_documents(served):
    api, names = served
    q = urllib.parse.quote
    for name in names:
        check(get(f"{api}/logs/{q(name)}/timeline"), f"timeline of {name}")
        analysis = get(f"{api}/logs/{q(name)}/analysis")
        check(analysis, f"the dashboard's analysis of {name}")
        stage = analysis["stages"][0]
        page = get(f"{api}/logs/{q(name)}/stages/{stage['stageId']}/{stage['attemptId']}")
        errors = errors_of(page["stage"], "analysis.schema.json", "/$defs/Stage")
        assert not errors, f"the stage page's stage of {name}:\n  " + "\n  ".join(errors)
        VALIDATED["stage (analysis.schema.json#/$defs/Stage)"] += 1
    for base, cand in [(names[0], names[1]), (names[0], names[2])]:
        comparison = get(f"{api}/compare?base={q(base)}&cand={q(cand)}")
        check(comparison, f"the dashboard's comparison of {base} and {cand}")
        for pair in comparison["executionAlignment"]["pairs"][:5]:
            check(get(f"{api}/compare/plan?base={q(base)}&cand={q(cand)}&baseExecution={pair['baselineExecutionId']}"
                      f"&candExecution={pair['candidateExecutionId']}"), f"plan diff {base} {cand} {pair}")
    check(get(f"{api}/fleet"), "the fleet page")
    check(get(f"{api}/fleet?limit=1&trendLimit=1&quantity=executorRunTimeMs"), "the fleet page, one row")
    for what, path in [("history series", "/history/series?subject=etl"),
                       ("history series of a quantity", "/history/series?subject=etl&quantity=appWallClockMs")]:
        check(get(api + path)["document"], what)

