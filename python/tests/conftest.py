"""Fixtures of the package's tests: the CLI and the log generator of the same build, generated
logs (made once per session in $SF_TEST_WORK), the real-log corpus when it is there.

python/tests/run.sh (ctest's python_package) sets SF_BIN, SF_LOGGEN and SF_TEST_WORK."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _required_env(name):
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"{name} is not set: run through ctest -R python_package (python/tests/run.sh sets it)")
    return value


@pytest.fixture(scope="session")
def sf_bin():
    return _required_env("SF_BIN")


@pytest.fixture(scope="session")
def sf_loggen():
    return _required_env("SF_LOGGEN")


@pytest.fixture(scope="session")
def work_dir():
    path = Path(_required_env("SF_TEST_WORK"))
    path.mkdir(parents=True, exist_ok=True)
    return path


# Generated logs covering the layouts and codecs the library reads: (name, loggen flags).
GENERATED = [
    ("small-zstd", ["--preset", "small", "--codec", "zstd"]),
    ("small-plain", ["--preset", "small", "--codec", "none", "--seed", "7"]),
    ("small-lz4-rolling", ["--preset", "small", "--codec", "lz4", "--layout", "rolling", "--part-bytes", "400000"]),
    ("small-snappy-unfinished", ["--preset", "small", "--codec", "snappy", "--unfinished", "--seed", "3"]),
    ("demo-gzip", ["--preset", "demo", "--codec", "gzip"]),
]


@pytest.fixture(scope="session")
def generated_logs(work_dir):
    """{name: path} of logs sf-loggen wrote for this session (each in its own directory)."""
    loggen = _required_env("SF_LOGGEN")  # as the sf_loggen fixture
    logs = {}
    for name, flags in GENERATED:
        out = work_dir / "generated" / name
        printed = subprocess.run([loggen, *flags, "--out", str(out)], check=True, capture_output=True, text=True)
        logs[name] = printed.stdout.strip().splitlines()[-1]
    return logs


def corpus_dir():
    return Path(os.environ.get("SF_CORPUS_DIR") or ROOT.parent / "shared" / "corpus")


def corpus_logs():
    """The corpus's event logs (files and log directories), read in place; [] when absent."""
    index = corpus_dir() / "corpus-index.json"
    if not index.is_file():
        return []
    return sorted({str(corpus_dir() / entry["path"]) for entry in json.loads(index.read_text())})


def cli(sf_bin, *args):
    """Runs the CLI: (exit code, stdout, stderr)."""
    done = subprocess.run([sf_bin, *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr
