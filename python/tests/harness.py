"""What the project's Python suites share (python/tests, ctest's python_package, and tests/schemas,
ctest's document_schemas): the environment their ctest runner sets, logs written by sf-loggen, and
the real-log corpus read in place."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def required_env(name, runner):
    """The variable's value; the test is skipped, saying which ctest sets it, when it is unset."""
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"{name} is not set: run through ctest -R {runner} (its run.sh sets it)")
    return value


def generate_logs(loggen, work_dir, table):
    """{name: path} of the logs sf-loggen writes for `table`'s (name, flags), each in its own directory."""
    logs = {}
    for name, flags in table:
        out = Path(work_dir) / "generated" / name
        printed = subprocess.run([loggen, *flags, "--out", str(out)], check=True, capture_output=True, text=True)
        logs[name] = printed.stdout.strip().splitlines()[-1]
    return logs


def corpus_dir():
    return Path(os.environ.get("SF_CORPUS_DIR") or ROOT.parent / "shared" / "corpus")


def corpus_logs():
    """The corpus's event logs (files and log directories) as its index lists them; [] when absent."""
    index = corpus_dir() / "corpus-index.json"
    if not index.is_file():
        return []
    return sorted({str(corpus_dir() / entry["path"]) for entry in json.loads(index.read_text())})
