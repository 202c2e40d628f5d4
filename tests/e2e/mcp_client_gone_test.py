#!/usr/bin/env python3
"""Issue 21, item 12: `sparkforensics mcp` does not outlive its client.

A History Server stand-in on the loopback accepts the connection and never answers. The client
asks analyze_event_log to download from it, then goes away: it closes the server's standard input
and stops reading its output. The process must cancel the download and exit, well before the
download's own stall and transfer timeouts (60 s and 10 minutes). A client that closes only its
input and keeps reading is still answered (here: a refusal of the stalled download would take the
stall timeout, so that case is checked with a fast call instead).

    mcp_client_gone_test.py SPARKFORENSICS
"""
import json
import os
import socket
import subprocess
import sys
import threading
import time

EXIT_WITHIN_S = 20  # the download's own stall timeout is 60 s: exiting sooner means it was cancelled


def silent_server():
    """A server that accepts connections and never sends a byte."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held = []

    def accept():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            held.append(connection)

    threading.Thread(target=accept, daemon=True).start()
    return listener, held


def message(method, params, request_id=None):
    body = {"jsonrpc": "2.0", "method": method, "params": params}
    if request_id is not None:
        body["id"] = request_id
    return (json.dumps(body) + "\n").encode()


def initialize():
    return (message("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "client-gone-test", "version": "1"}}, 1) +
            message("notifications/initialized", {}))


def main():
    sf = sys.argv[1]
    listener, _ = silent_server()
    port = listener.getsockname()[1]
    failures = []

    # 1. The client asks for a download from the silent server, then goes away entirely.
    process = subprocess.Popen([sf, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    process.stdin.write(initialize())
    process.stdin.write(message("tools/call", {"name": "analyze_event_log", "arguments": {
        "historyServer": {"baseUrl": f"http://127.0.0.1:{port}/", "appId": "app-20240101000000-0001"}}}, 2))
    process.stdin.flush()
    first = process.stdout.readline()  # the initialize answer: the server is up and reading
    if b'"id":1' not in first.replace(b" ", b""):
        failures.append(f"no initialize answer: {first[:200]!r}")
    time.sleep(1)  # the download is under way, waiting on the silent server
    started = time.monotonic()
    process.stdin.close()
    process.stdout.close()
    try:
        process.wait(timeout=EXIT_WITHIN_S)
        print(f"client gone: mcp exited {time.monotonic() - started:.1f} s after its client left")
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        failures.append(f"mcp was still running {EXIT_WITHIN_S} s after its client closed both pipes "
                        "(the stalled download was not cancelled)")

    # 2. A client that closes its input but keeps reading still gets the answers of its last calls.
    process = subprocess.Popen([sf, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out, _ = process.communicate(initialize() + message("tools/list", {}, 2), timeout=60)
    answers = [json.loads(line) for line in out.splitlines() if line.strip()]
    if not any(a.get("id") == 2 and "result" in a for a in answers):
        failures.append(f"tools/list sent before end of input was not answered: {out[:300]!r}")
    else:
        print("input closed, output read: the last call was answered")

    listener.close()
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
