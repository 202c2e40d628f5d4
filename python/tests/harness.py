"""What the project's Python suites share (python/tests, ctest's python_package, tests/schemas,
ctest's document_schemas, and tests/spark): the environment their ctest runner sets, logs written
by sf-loggen, the real-log corpus read in place, and the dashboard's API and MCP as they drive them."""

import json
import os
import re
import subprocess
import urllib.parse
import urllib.request
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


# The front ends as the suites drive them: `serve`'s JSON API and `mcp` over stdio.


def _store_and_config(store, config_file):
    return [*(["--store", str(store)] if store else []), *(["--config", str(config_file)] if config_file else [])]


class Dashboard:
    """`sparkforensics serve` on a loopback port; GET /api/sf/v1/..."""

    def __init__(self, sf_bin, log_dir, store=None, config_file=None, stderr_path=os.devnull):
        self.process = subprocess.Popen([sf_bin, "serve", "--log-dir", str(log_dir), "--port", "0",
                                         *_store_and_config(store, config_file)],
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


class Mcp:
    """`sparkforensics mcp` over stdio, one JSON-RPC request at a time."""

    def __init__(self, sf_bin, log_dir, store=None, config_file=None):
        self.process = subprocess.Popen([sf_bin, "mcp", "--log-dir", str(log_dir), *_store_and_config(store, config_file)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.next_id = 1
        self.call_method("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "front-ends-agree", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}})

    def send(self, body):
        self.process.stdin.write(json.dumps(body) + "\n")
        self.process.stdin.flush()

    def call_method(self, method, params):
        request_id, self.next_id = self.next_id, self.next_id + 1
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            line = self.process.stdout.readline()
            assert line, "the MCP server closed its output"
            message = json.loads(line)
            if message.get("id") == request_id:
                assert "error" not in message, message
                return message["result"]

    def tool(self, name, arguments):
        """The tool's structuredContent; an answer with isError fails the test."""
        result = self.tool_result(name, arguments)
        assert not result.get("isError"), result["content"]
        return result["structuredContent"]

    def tool_result(self, name, arguments):
        """The whole tools/call result: content, structuredContent, isError."""
        return self.call_method("tools/call", {"name": name, "arguments": arguments})

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)
