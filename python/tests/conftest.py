"""Fixtures of the package's tests: the CLI and the log generator of the same build, generated
logs (made once per session in $SF_TEST_WORK) and the real-log corpus when it is there (the
front ends the tests compare, `serve`'s API and `mcp`, are harness.py's).

python/tests/run.sh (ctest's python_package) sets SF_BIN, SF_LOGGEN and SF_TEST_WORK."""

import subprocess
from pathlib import Path

import pytest

from harness import corpus_dir, corpus_logs, generate_logs, required_env  # noqa: F401 (tests import the corpus from here)


def _required_env(name):
    return required_env(name, "python_package")


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
    return generate_logs(_required_env("SF_LOGGEN"), work_dir, GENERATED)


def cli(sf_bin, *args):
    """Runs the CLI: (exit code, stdout, stderr)."""
    done = subprocess.run([sf_bin, *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr
