"""Fixtures of the package's tests: the CLI and the log generator of the same build, generated
logs (made once per session in $SF_TEST_WORK), the real-log corpus when it is there, and the
dashboard's JSON API (`sparkforensics serve`) for the tests that compare a front end with it.

python/tests/run.sh (ctest's python_package) sets SF_BIN, SF_LOGGEN and SF_TEST_WORK."""

import json
import re
import subprocess
import urllib.parse
import urllib.request
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


class Dashboard:
    """`sparkforensics serve` on a loopback port; GET /api/sf/v1/..."""

    def __init__(self, sf_bin, log_dir, store, config_file, stderr_path):
        self.process = subprocess.Popen([sf_bin, "serve", "--log-dir", str(log_dir), "--port", "0", "--store", store,
                                         "--config", str(config_file)],
                                        stdout=subprocess.PIPE, stderr=open(stderr_path, "w"),
                                        text=True)
        self.port = int(re.search(r":(\d+)/", self.process.stdout.readline()).group(1))

    def get(self, path, **query):
        url = f"http://127.0.0.1:{self.port}/api/sf/v1/{path}"
        if query:
            url += "?" + urllib.parse.urlencode(query, doseq=True)
        with urllib.request.urlopen(url, timeout=120) as response:
            return json.loads(response.read())

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=30)
