#!/usr/bin/env python3
"""The dashboard's HTTP surface against the real binary: every /api/sf/v1 endpoint with good and
bad input, the static files, uploads and History Server downloads.

    api_test.py SPARKFORENSICS SF_LOGGEN

Starts `serve` on a loopback port over a generated log directory, and a stand-in History Server
on another loopback port (this script's own threads) whose applications answer a log zip, a
redirect, a 500, nothing at all (a hang) or bytes without end. Checks stable safe error codes,
413s for oversized uploads, 404s for paths that try to climb, that an upstream's words never
reach the client, that the server stays healthy after each, and that several parses run at once.
Prints one line per check and 'N passed, N failed'; exits 1 on any failure.
"""

import http.client
import http.server
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

sf, loggen = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok    {name}")
    else:
        failed += 1
        print(f"FAIL  {name} {detail}")


work = tempfile.mkdtemp(prefix="sf-dashboard-api-")
logs = os.path.join(work, "logs")
os.makedirs(logs)


def generate(*args):
    out = subprocess.run([loggen, *args], check=True, capture_output=True, text=True)
    return out.stdout.splitlines()[0].strip()


plain = generate("--preset", "small", "--codec", "none", "--layout", "file", "--seed", "1", "--out", logs)
second = generate("--preset", "small", "--codec", "zstd", "--layout", "file", "--seed", "2", "--out", logs)
rolling = generate("--preset", "small", "--codec", "zstd", "--layout", "rolling", "--part-bytes", "400000",
                   "--seed", "3", "--out", os.path.join(work, "rolling"))
plain_name = os.path.basename(plain)
# A secret outside the log directory, and a symlink to it inside: neither may be read.
secret = os.path.join(work, "secret.txt")
with open(secret, "w") as f:
    f.write("top secret\n")
os.symlink(secret, os.path.join(logs, "link-out"))

# ---------------------------------------------------------------------------------------------
# The stand-in History Server.
log_zip = io.BytesIO()
with zipfile.ZipFile(log_zip, "w") as z:
    z.write(plain, os.path.basename(plain))
log_zip = log_zip.getvalue()
seen_credentials = []


class Upstream(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        seen_credentials.append(bool(self.headers.get("Authorization") or self.headers.get("Cookie")))
        path = self.path
        if path == "/shs/api/v1/applications/local-1/logs":
            self.send_response(200)
            self.send_header("Content-Type", "application/zip")
            self.send_header("Content-Length", str(len(log_zip)))
            self.end_headers()
            self.wfile.write(log_zip)
        elif path == "/shs/api/v1/applications/local-302/logs":
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:9/secret-location")
            self.end_headers()
        elif path == "/shs/api/v1/applications/local-500/logs":
            body = b"java.lang.Exception: internal secret stack trace"
            self.send_response(500)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif path == "/shs/api/v1/applications/local-777/logs":
            time.sleep(8)  # past the server's --history-server-timeout
        elif path == "/shs/api/v1/applications/local-888/logs":
            self.send_response(200)
            self.send_header("Content-Type", "application/zip")
            self.end_headers()
            chunk = b"z" * 65536
            try:
                for _ in range(2000):  # ~128 MB at most, past --history-server-max-bytes
                    self.wfile.write(chunk)
            except OSError:
                pass
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()


upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
upstream.daemon_threads = True
threading.Thread(target=upstream.serve_forever, daemon=True).start()
shs_base = f"http://127.0.0.1:{upstream.server_address[1]}/shs"

# ---------------------------------------------------------------------------------------------
# A result store for the history endpoints: a chain of eight revisions of "nightly" whose last
# is 40% slower (a planted regression), a planned run of five paired rounds whose candidate is 8%
# slower, and two results of "etl" read from the log directory's own logs.
store = os.path.join(work, "results.db")


def result_file(name, subject, tree, parent, value, run=None):
    doc = {"schema": "sparkforensics.result/1", "subject": subject,
           "revision": {"tree": tree, "parents": [parent] if parent else []},
           "environment": {"cluster": "api-test"},
           "quantities": [{"name": "durationMs", "value": float(value), "unit": "ms", "direction": "lower"}]}
    if run:
        role, key, rnd, slot = run
        doc["parameters"] = {"role": role}
        doc["procedure"] = {"runKey": key, "round": rnd, "slot": slot}
    path = os.path.join(work, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def ingest(*args):
    return subprocess.run([sf, "store", "ingest", "-q", "--store", store, *args], check=True, capture_output=True, text=True)


history_values = [1000, 1004, 998, 1003, 999, 1001, 1002, 1400]
ingest(*[a for i, v in enumerate(history_values, 1)
         for a in ("--result", result_file(f"n{i}.json", "nightly", f"c{i}", f"c{i - 1}" if i > 1 else "", v))])
run_files = []
for r in range(1, 6):
    run_files += ["--result", result_file(f"b{r}.json", "paired", "", "", 100 + r, ("baseline", "pr-1", r, 2 * r - 1)),
                  "--result", result_file(f"k{r}.json", "paired", "", "", (100 + r) * 1.08, ("candidate", "pr-1", r, 2 * r))]
ingest(*run_files)
ingest("--subject", "etl", "--revision", "e1", plain)
ingest("--subject", "etl", "--revision", "e2", "--parent", "e1", second)
# For the fleet page: two jobs of one run each, the second priced in euros (never ranked with dollars).
fleet_logs = os.path.join(work, "fleet-logs")
loner = generate("--preset", "small", "--codec", "none", "--layout", "file", "--seed", "4", "--out", fleet_logs)
euro = generate("--preset", "small", "--codec", "none", "--layout", "file", "--seed", "5", "--out", fleet_logs)
euro_config = os.path.join(work, "euro.json")
with open(euro_config, "w") as f:
    json.dump({"rateCard": {"name": "test card", "currency": "EUR", "perCoreHour": 0.05, "perGibHour": 0.002}}, f)
ingest("--subject", "loner", loner)
ingest("--subject", "euro-job", "--config", euro_config, euro)

# ---------------------------------------------------------------------------------------------
# The server.
server = subprocess.Popen([sf, "serve", "--log-dir", logs, "--port", "0", "--max-upload-bytes", "3000000",
                           "--history-server-timeout", "3", "--history-server-max-bytes", "4000000",
                           "--upload-dir", work, "--store", store],
                          stdout=subprocess.PIPE, stderr=open(os.path.join(work, "serve.log"), "w"), text=True)
line = server.stdout.readline()
port = int(re.search(r":(\d+)/", line).group(1))


def request(method, path, body=None, headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    # What the dashboard's page sends (a POST without it is refused as another site's).
    c.request(method, path, body=body, headers={"X-SparkForensics": "1", **(headers or {})})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, dict(r.getheaders()), data


def api(method, path, body=None, headers=None):
    status, _, data = request(method, "/api/sf/v1/" + path, body, headers)
    try:
        return status, json.loads(data) if data else None
    except ValueError:
        return status, data


def raw(target):
    """A request line sent as given (no client normalizes it): the status."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        head = s.recv(4096).decode(errors="replace")
    return int(head.split(" ")[1]) if head.startswith("HTTP/") else 0


def wait_parse(parse, seconds=60):
    deadline = time.time() + seconds
    while parse["state"] not in ("done", "failed") and time.time() < deadline:
        time.sleep(0.1)
        _, parse = api("GET", "parses/" + parse["id"])
    return parse


def healthy():
    status, body = api("GET", "applications")
    return status == 200 and body["total"] >= 2


try:
    # --- Static files (a build without the dashboard, SF_WEB=OFF, answers / with a line of text).
    status, headers, body = request("GET", "/")
    web = headers.get("Content-Type", "").startswith("text/html")
    if not web:
        print("note: this binary was built without the dashboard: its pages and HTML report are not checked")
    if web:
        check("/ is the dashboard's page", status == 200 and headers.get("Content-Type", "").startswith("text/html")
              and b'<div id="root">' in body, f"{status} {headers}")
        check("/ is not cached and has a content security policy",
              headers.get("Cache-Control") == "no-cache" and "script-src 'self'" in headers.get("Content-Security-Policy", ""))
        script = re.search(rb'src="(/assets/[^"]+\.js)"', body)
        check("index.html names its script", script is not None)
        if script:
            status, headers, js = request("GET", script.group(1).decode())
            check("the script is answered as JavaScript, cached for a year",
                  status == 200 and headers.get("Content-Type") == "text/javascript; charset=utf-8"
                  and "immutable" in headers.get("Cache-Control", "") and len(js) > 1000, f"{status} {headers}")
        status, _, body = request("GET", "/logs/" + plain_name + "/findings?impact=high")
        check("a page of the dashboard is index.html", status == 200 and b'<div id="root">' in body)
        check("an unknown file under /assets is 404", request("GET", "/assets/nothing.js")[0] == 404)
        check("an unknown path is 404", request("GET", "/etc/passwd")[0] == 404)
        for target in ("/assets/../../../../etc/passwd", "/assets/..%2f..%2f..%2fetc%2fpasswd", "/logs/../../etc/passwd",
                       "/%2e%2e/%2e%2e/etc/passwd", "/assets/%2e%2e/index.html", "/assets\\..\\x"):
            check(f"static path {target} climbs nowhere", raw(target) in (400, 404), str(raw(target)))
    check("POST on a page is 405", request("POST", "/")[0] == 405)

    # --- Applications.
    status, body = api("GET", "applications")
    check("applications lists the directory's logs", status == 200 and body["total"] == 2
          and {a["log"] for a in body["applications"]} == {plain_name, os.path.basename(second)}, str(body)[:300])
    check("a log not read yet has no analysis", all(a["analysis"] is None for a in body["applications"]))
    status, body = api("GET", "applications?limit=1&offset=1")
    check("applications are paged", status == 200 and body["total"] == 2 and len(body["applications"]) == 1)
    status, body = api("GET", "applications?q=NO-SUCH-THING")
    check("applications are searched", status == 200 and body["total"] == 0)
    for bad in ("limit=0", "limit=x", "offset=-1", "limit=100000"):
        status, body = api("GET", "applications?" + bad)
        check(f"applications?{bad} is 400 bad-parameter", status == 400 and body["error"]["code"] == "bad-parameter")

    # --- Parses, several at once, and the documents.
    started = [api("POST", "parses?log=" + name)[1] for name in (plain_name, os.path.basename(second))]
    check("a parse starts (202) with its id", all(p and p.get("id") for p in started), str(started))
    done = [wait_parse(p) for p in started]
    check("two parses at once both finish", all(p["state"] == "done" for p in done), str(done))
    check("a finished parse says how much it read",
          done[0]["bytesTotal"] > 0 and done[0]["bytesDone"] == done[0]["bytesTotal"] and done[0]["lines"] > 0)
    status, again = api("POST", "parses?log=" + plain_name)
    check("a parse of a loaded log ends at once", wait_parse(again, 5)["state"] == "done")
    status, body = api("GET", "applications")
    analyzed = [a for a in body["applications"] if a["log"] == plain_name][0]["analysis"]
    check("a loaded log's row has its finding counts", analyzed is not None and "bandCounts" in analyzed, str(analyzed))
    status, doc = api("GET", f"logs/{plain_name}/analysis")
    check("the analysis document", status == 200 and doc["schemaVersion"] == 1 and "findings" in doc)
    cli = json.loads(subprocess.run([sf, "analyze", "-f", "json", "-q", plain], check=True, capture_output=True).stdout)
    check("the API's document is the CLI's", cli["findings"] == doc["findings"] and cli["rollup"] == doc["rollup"])
    status, timeline = api("GET", f"logs/{plain_name}/timeline")
    check("the timeline", status == 200 and timeline["stages"] and timeline["coresAllocated"] and timeline["coresBusy"])
    status, streaming = api("GET", f"logs/{plain_name}/streaming")
    check("a batch application's streaming list is empty", status == 200 and streaming == {"runs": []}, f"{status} {streaming}")
    status, body = api("GET", f"logs/{plain_name}/streaming/no-such-run")
    check("an unknown streaming run is 404 not-found", status == 404 and body["error"]["code"] == "not-found", f"{status} {body}")
    stage = doc["stages"][0]
    status, drill = api("GET", f"logs/{plain_name}/stages/{stage['stageId']}/{stage['attemptId']}")
    check("a stage's drill-down", status == 200 and drill["stage"]["stageId"] == stage["stageId"]
          and "findings" in drill and "planNodes" in drill and drill["stage"]["quantiles"] is not None)
    tasks_of = f"logs/{plain_name}/stages/{stage['stageId']}/{stage['attemptId']}/tasks"
    status, page = api("GET", tasks_of + "?length=3&sortBy=durationMs&order=asc&bins=5")
    durations = [t["durationMs"] for t in page["tasks"]] if status == 200 else []
    check("a stage's tasks, a page in the order asked", status == 200 and page["total"] == stage["numTasks"]
          and len(page["tasks"]) == min(3, stage["numTasks"]) and durations == sorted(durations), f"{status} {page}")
    histogram = page["histograms"].get("durationMs") if status == 200 else None
    check("a stage's task duration histogram counts its successful tasks",
          histogram is not None and len(histogram["counts"]) <= 5 and len(histogram["edges"]) == len(histogram["counts"]) + 1
          and sum(histogram["counts"]) == histogram["tasks"] == stage["quantiles"]["durationMs"]["count"], str(histogram))
    for query in ("?sortBy=nothing", "?length=1001", "?length=0", "?bins=201", "?order=up", "?offset=-1"):
        status, body = api("GET", tasks_of + query)
        check(f"tasks{query} is 400 bad-parameter", status == 400 and body["error"]["code"] == "bad-parameter",
              f"{status} {body}")
    for path, code in ((f"logs/{plain_name}/stages/99999/0", 404), (f"logs/{plain_name}/stages/x/0", 404),
                       (f"logs/{plain_name}/stages/99999/0/tasks", 404),
                       ("logs/nothing/analysis", 404), (f"logs/{plain_name}/nothing", 404), ("nothing", 404),
                       ("parses/p999999", 404), ("parses?log=", 400)):
        method = "POST" if path.startswith("parses?") else "GET"
        status, body = api(method, path)
        check(f"{method} {path} is {code} with a code", status == code and body["error"]["code"], f"{status} {body}")
    status, body = api("GET", "parses?log=" + plain_name)
    check("GET on parses is 405", status == 405 and body["error"]["code"] == "method-not-allowed")
    status, body = api("POST", "applications")
    check("POST on applications is 405", status == 405)

    # --- Requests another site's page could make.
    for what, headers in (("without X-SparkForensics", {"X-SparkForensics": ""}),
                          ("said cross-site by the browser", {"Sec-Fetch-Site": "cross-site"})):
        status, body = api("POST", "parses?log=" + plain_name, headers=headers)
        check(f"a parse {what} is 403 cross-site-request",
              status == 403 and body["error"]["code"] == "cross-site-request", f"{status} {body}")
        status, body = api("POST", f"history-server?baseUrl={shs_base}&appId=local-1", headers=headers)
        check(f"a download {what} is 403", status == 403, f"{status} {body}")
        status, body = api("POST", "uploads?name=x.log", body=b"{}\n", headers=headers)
        check(f"an upload {what} is 403", status == 403, f"{status} {body}")

    # --- Log paths that try to leave the directory.
    for log in ("../secret.txt", "..%2Fsecret.txt", "link-out", "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "~u999", "~"):
        status, body = api("POST", "parses?log=" + log)
        check(f"parses?log={log} is 404", status == 404 and body["error"]["code"] == "not-found", f"{status} {body}")
    for target in ("/api/sf/v1/logs/..%2Fsecret.txt/analysis", "/api/sf/v1/logs/../../../etc/passwd/analysis",
                   "/api/sf/v1/logs/link-out/analysis", "/api/sf/v1/logs/%2e%2e/analysis"):
        check(f"{target} is 404", raw(target) == 404, str(raw(target)))

    # --- Uploads.
    with open(plain, "rb") as f:
        log_bytes = f.read()
    status, up = api("POST", "uploads?name=" + plain_name, body=log_bytes)
    check("an event log uploads (201)", status == 201 and up["log"].startswith("~u"), f"{status} {up}")
    parse = wait_parse(api("POST", "parses?log=" + up["log"])[1])
    check("an uploaded log parses", parse["state"] == "done", str(parse))
    status, doc_up = api("GET", f"logs/{up['log']}/analysis")
    check("an uploaded log's analysis is the same", status == 200 and doc_up["findings"] == doc["findings"])
    uploaded_log = up["log"]
    status, up = api("POST", "uploads?name=notes.txt", body=b"this is not an event log\nat all\n")
    parse = wait_parse(api("POST", "parses?log=" + up["log"])[1])
    check("a file that is not an event log fails with unreadable-log",
          parse["state"] == "failed" and parse["error"]["code"] == "unreadable-log", str(parse))
    check("its message names the file, not the server's directory",
          "notes.txt" in parse["error"]["message"] and work not in parse["error"]["message"], parse["error"]["message"])

    # --- Uploads in the application list: first, with their source, searched and paged with the rest.
    status, body = api("GET", "applications")
    rows = {a["log"]: a for a in body["applications"]} if status == 200 else {}
    check("an uploaded log is listed first, source upload", status == 200 and body["total"] == 3
          and body["applications"][0]["log"] == uploaded_log and rows[uploaded_log]["source"] == "upload",
          str(body)[:400])
    check("its row has the log's columns and its analysis",
          all(rows[uploaded_log][k] == rows[plain_name][k] for k in
              ("appId", "attemptId", "name", "user", "startTimeMs", "endTimeMs", "durationMs", "completed", "storedBytes"))
          and rows[uploaded_log]["fileName"] == plain_name and rows[uploaded_log]["analysis"] == rows[plain_name]["analysis"],
          str(rows.get(uploaded_log)))
    check("the directory's logs say where they come from",
          rows[plain_name]["source"] == "log-dir" and rows[os.path.basename(second)]["source"] == "log-dir")
    check("a file that is not an event log is not listed", up["log"] not in rows, str(list(rows)))
    status, body = api("GET", "applications?q=" + rows[plain_name]["appId"].upper())
    check("an upload is searched by its id with the directory's logs",
          status == 200 and [a["log"] for a in body["applications"]] == [uploaded_log, plain_name], str(body)[:300])
    status, body = api("GET", "applications?q=" + uploaded_log)
    check("an upload is searched by its log name", status == 200 and body["total"] == 1
          and body["applications"][0]["source"] == "upload", str(body)[:300])
    status, body = api("GET", "applications?offset=1&limit=1")
    check("uploads are paged with the directory's logs", status == 200 and body["total"] == 3
          and [a["source"] for a in body["applications"]] == ["log-dir"], str(body)[:300])
    # Declared larger than the limit: answered at the head, before a byte of the body is sent.
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /api/sf/v1/uploads?name=big.log HTTP/1.1\r\nHost: x\r\nX-SparkForensics: 1\r\n"
                  b"Content-Length: 3100000\r\n\r\n")
        answer = s.recv(65536).decode(errors="replace")
    check("an upload declared past --max-upload-bytes is 413 too-large",
          answer.startswith("HTTP/1.1 413") and '"too-large"' in answer, answer[:200])
    # The same without a declared length (chunked): refused as the bytes pass the limit.
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.putrequest("POST", "/api/sf/v1/uploads?name=chunked.log")
    c.putheader("Transfer-Encoding", "chunked")
    c.putheader("X-SparkForensics", "1")
    c.endheaders()
    try:
        for _ in range(60):
            chunk = b"y" * 65536
            c.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        c.send(b"0\r\n\r\n")
    except OSError:
        pass
    try:
        r = c.getresponse()
        chunked_status = r.status
    except (OSError, http.client.HTTPException):
        chunked_status = 0
    c.close()
    check("a chunked upload past the limit is 413", chunked_status == 413, str(chunked_status))
    leftovers = [p for p in os.listdir(work) if p.startswith("sparkforensics-uploads-")]
    parts = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(work, leftovers[0])) for f in fs if f.endswith(".part")]
    check("a refused upload leaves no file", not parts, str(parts))
    for name, code in (("../escape", "bad-name"), (".hidden", "bad-name"), ("a/b", "bad-name"), ("", "bad-name")):
        status, body = api("POST", "uploads?name=" + name, body=b"{}\n")
        check(f"upload name {name!r} is 400 {code}", status == 400 and body["error"]["code"] == code, f"{status} {body}")
    status, body = api("POST", "uploads?name=x.log", body=b"")
    check("an empty upload is 400", status == 400 and body["error"]["code"] == "empty-upload", f"{status} {body}")
    status, body = api("PUT", "uploads?name=x.log", body=b"abc")
    check("PUT of an upload is 405", status == 405, str(status))

    # --- A rolling-log folder.
    folder = os.path.basename(rolling)
    status, body = api("POST", "uploads?name=events_1_x&folder=not_a_rolling_log", body=b"{}\n")
    check("a folder that is not eventlog_v2_* is 400 not-a-rolling-log",
          status == 400 and body["error"]["code"] == "not-a-rolling-log", f"{status} {body}")
    upload = None
    for name in sorted(os.listdir(rolling)):
        with open(os.path.join(rolling, name), "rb") as f:
            query = f"uploads?name={name}&folder={folder}" + (f"&upload={upload}" if upload else "")
            status, body = api("POST", query, body=f.read() or None)
            if status == 400 and body["error"]["code"] == "empty-upload":  # the 0-byte appstatus marker
                continue
            upload = body["upload"]
    parse = wait_parse(api("POST", f"parses?log=~{upload}")[1])
    check("an uploaded rolling-log folder parses", parse["state"] == "done", str(parse))
    status, body = api("GET", "applications?limit=1")
    check("an uploaded folder is listed first, by its folder's name", status == 200
          and body["applications"][0]["log"] == f"~{upload}" and body["applications"][0]["fileName"] == folder
          and body["applications"][0]["source"] == "upload", str(body)[:300])

    # --- History Server downloads.
    for base, app, attempt, code in (("http://user:pw@127.0.0.1:1/", "local-1", "", "invalid-base-url"),
                                     ("http://127.0.0.1:1/?x=1", "local-1", "", "invalid-base-url"),
                                     ("http://127.0.0.1:1/#top", "local-1", "", "invalid-base-url"),
                                     ("ftp://127.0.0.1/", "local-1", "", "invalid-base-url"),
                                     ("file:///etc/passwd", "local-1", "", "invalid-base-url"),
                                     ("/relative", "local-1", "", "invalid-base-url"),
                                     (shs_base, "../../etc", "", "invalid-app-id"),
                                     (shs_base, "something", "", "invalid-app-id"),
                                     (shs_base, "local-1", "../x", "invalid-attempt-id")):
        from urllib.parse import quote
        status, body = api("POST", f"history-server?baseUrl={quote(base, safe='')}&appId={quote(app, safe='')}"
                                   f"&attemptId={quote(attempt, safe='')}")
        check(f"History Server {base} {app} {attempt!r} is 400 {code}",
              status == 400 and body["error"]["code"] == code, f"{status} {body}")
    from urllib.parse import quote

    def fetch(app):
        status, body = api("POST", f"history-server?baseUrl={quote(shs_base, safe='')}&appId={app}")
        if status != 202:
            return {"state": "refused", "error": body}
        return wait_parse(body, 30)

    parse = fetch("local-1")
    check("a History Server application downloads and parses", parse["state"] == "done" and parse["log"], str(parse))
    fetched_log = parse["log"]
    status, fetched = api("GET", f"logs/{parse['log']}/analysis")
    check("the downloaded log's analysis is the log's", status == 200 and fetched["findings"] == doc["findings"])
    for app, code in (("local-302", "redirect"), ("local-500", "upstream-error"), ("local-404", "not-found"),
                      ("local-777", "timeout"), ("local-888", "too-large")):
        parse = fetch(app)
        check(f"an upstream {app} fails with {code}",
              parse["state"] == "failed" and parse["error"]["code"] == code, str(parse))
        text = json.dumps(parse)
        check(f"  and says nothing the upstream said", "secret" not in text and "9/" not in text, text)
        check(f"  and the server stays healthy", healthy())
    check("no credentials were sent upstream", not any(seen_credentials))
    status, body = api("GET", "applications")
    downloads = [a for a in body["applications"] if a["source"] == "download"] if status == 200 else []
    check("the downloaded log is listed, source download; the failed downloads are not",
          [a["log"] for a in downloads] == [fetched_log] and body["applications"][0]["log"] == fetched_log
          and downloads[0]["appId"] == rows[plain_name]["appId"], str(body)[:400])

    # --- Compare: the document `compare -f json` prints, over logs the dashboard knows.
    second_name = os.path.basename(second)
    status, comparison = api("GET", f"compare?base={plain_name}&cand={second_name}")
    check("compare answers the comparison document", status == 200 and comparison.get("comparisonSchemaVersion") == 1
          and comparison["confidence"] in ("ok", "low", "insufficient"), f"{status} {str(comparison)[:300]}")
    cli = json.loads(subprocess.run([sf, "compare", "-q", "-f", "json", plain, second], check=True,
                                    capture_output=True).stdout)
    same = {k: v for k, v in comparison.items() if k not in ("baseline", "candidate")}
    check("the API's comparison is the CLI's (but for the paths)",
          same == {k: v for k, v in cli.items() if k not in ("baseline", "candidate")})
    check("the runs are named by the dashboard's log names, not the server's paths",
          comparison["baseline"]["path"] == plain_name and comparison["candidate"]["path"] == second_name
          and work not in json.dumps(comparison))
    status, itself = api("GET", f"compare?base={plain_name}&cand={plain_name}")
    check("a log against itself: every stage paired exactly", status == 200 and itself["stagePairs"]
          and all(p["method"] == "exact" for p in itself["stagePairs"]) and itself["confidence"] == "ok"
          and not itself["unmatched"]["baseline"] and not itself["unmatched"]["candidate"])
    first, other = itself["stagePairs"][0]["baselineStageId"], itself["stagePairs"][1]["baselineStageId"]
    status, pinned = api("GET", f"compare?base={plain_name}&cand={plain_name}&pin={first}:{other}")
    pin_pair = [p for p in pinned.get("stagePairs", []) if p["baselineStageId"] == first]
    check("a pin pairs two stages by hand (method pinned)", status == 200 and pin_pair
          and pin_pair[0]["candidateStageId"] == other and pin_pair[0]["method"] == "pinned", f"{status} {pin_pair}")
    cli_pinned = json.loads(subprocess.run([sf, "compare", "-q", "-f", "json", "--pin", f"{first}:{other}", plain, plain],
                                           check=True, capture_output=True).stdout)
    check("compare --pin gives the same pairs", cli_pinned["stagePairs"] == pinned["stagePairs"])
    for query, code, status_code in ((f"base={plain_name}", "bad-parameter", 400),
                                     (f"base={plain_name}&cand=nothing", "not-found", 404),
                                     (f"base={plain_name}&cand={plain_name}&pin=1", "bad-parameter", 400),
                                     (f"base={plain_name}&cand={plain_name}&pin=0:99999", "bad-pin", 400),
                                     (f"base={plain_name}&cand={plain_name}&normalize=(", "bad-parameter", 400)):
        status, body = api("GET", "compare?" + query)
        check(f"compare?{query} is {status_code} {code}", status == status_code and body["error"]["code"] == code,
              f"{status} {body}")
    pairs = itself["executionAlignment"]["pairs"]
    if pairs:
        b, c = pairs[0]["baselineExecutionId"], pairs[0]["candidateExecutionId"]
        status, diff = api("GET", f"compare/plan?base={plain_name}&cand={plain_name}&baseExecution={b}&candExecution={c}")
        nodes = diff["baseline"]["nodes"] if status == 200 else []
        check("the plan diff of a log against itself: every operator the same", status == 200 and nodes
              and all(n["change"] == "same" for n in nodes + diff["candidate"]["nodes"])
              and diff["counts"]["same"] == len(nodes), f"{status} {str(diff)[:300]}")
        status, diff = api("GET", f"compare/plan?base={plain_name}&cand={second_name}&baseExecution={b}&candExecution={c}")
        counts = diff.get("counts", {}) if status == 200 else {}
        check("a plan diff counts every node once per side",
              status == 200 and counts["same"] + counts["changed"] + counts["removed"] == len(diff["baseline"]["nodes"])
              and counts["same"] + counts["changed"] + counts["added"] == len(diff["candidate"]["nodes"]), str(counts))
        status, body = api("GET", f"compare/plan?base={plain_name}&cand={plain_name}&baseExecution=99999&candExecution={c}")
        check("a plan diff of an execution that does not exist is 404", status == 404, f"{status} {body}")
    else:
        check("the generated log has SQL executions to diff", False, str(itself["executionAlignment"]))
    status, body = api("GET", f"compare/plan?base={plain_name}&cand={plain_name}")
    check("a plan diff without executions is 400", status == 400 and body["error"]["code"] == "bad-parameter")

    # --- History: the verdicts `verdict` gives, over the store of --store.
    status, subjects = api("GET", "history/subjects")
    names = {s["subject"]: s for s in subjects.get("subjects", [])} if status == 200 else {}
    check("history/subjects lists the store's subjects", status == 200 and set(names) == {"nightly", "paired", "etl", "loner", "euro-job"}
          and names["nightly"]["results"] == 8 and names["nightly"]["revisions"] == 8, f"{status} {subjects}")
    check("the store is named as Store::description() names it", subjects.get("store") == store, str(subjects.get("store")))
    status, series = api("GET", "history/series?subject=nightly")
    evals = series["document"]["evaluations"] if status == 200 else []
    check("history/series lists each series with its latest verdict",
          status == 200 and [e["series"]["quantity"] for e in evals] == ["durationMs"] and evals[0]["verdict"] == "regressed",
          f"{status} {str(series)[:300]}")
    fingerprint = evals[0]["series"]["fingerprint"] if evals else ""
    status, points = api("GET", f"history/series?subject=nightly&quantity=durationMs&fingerprint={fingerprint}")
    order = [r["revision"] for r in points.get("results", [])] if status == 200 else []
    check("a series' results come in ancestry order", order == [f"c{i}" for i in range(1, 9)], str(order))
    verdicts = {e["target"]["revision"]: e["verdict"] for e in points["document"]["evaluations"]} if status == 200 else {}
    cli_verdict = json.loads(subprocess.run([sf, "verdict", "history", "--store", store, "--target", "c8", "-f", "json"],
                                            capture_output=True).stdout)
    check("the planted regression is marked, as verdict history says", verdicts.get("c8") == "regressed"
          and cli_verdict["evaluations"][0]["verdict"] == "regressed", str(verdicts))
    check("the points before it are not regressions", all(v != "regressed" for r, v in verdicts.items() if r != "c8"),
          str(verdicts))
    c8 = [e for e in points["document"]["evaluations"] if e["target"]["revision"] == "c8"]
    check("each point carries its reference window, noise and threshold", c8 and len(c8[0]["reference"]) == 7
          and c8[0]["outcome"]["threshold"] is not None and c8[0]["outcome"]["noise"]["value"] is not None, str(c8)[:300])
    check("the method and its configuration come along", points["document"]["method"]["name"] == "dispersion-scaled"
          and points["document"]["method"]["config"]["k"] == 3)
    # A k above |effect| / noise of the regression turns it into no change: the flag reached the method.
    outcome = evals[0]["outcome"] if evals else {"effect": {"value": 0}, "noise": {"value": 1}}
    k = 2 * abs(outcome["effect"]["value"]) / outcome["noise"]["value"]
    status, body = api("GET", f"history/series?subject=nightly&k={k}")
    check(f"method parameters are verdict's flags (k={k:.0f}: no change)", status == 200
          and body["document"]["evaluations"][0]["verdict"] == "no-change-detected"
          and body["document"]["method"]["config"]["k"] == k, str(body)[:200])
    status, run = api("GET", "history/run?runKey=pr-1&profile=variants&baseline=baseline")
    units = run["document"]["evaluations"] if status == 200 else []
    check("history/run: five paired rounds, the candidate regressed, with its interval", status == 200 and units
          and len(units[0]["pairs"]) == 5 and units[0]["verdict"] == "regressed"
          and units[0]["outcome"]["interval95"] is not None, f"{status} {str(run)[:300]}")
    status, batch = api("GET", "history/batch?revision=e2")
    logs_of = {r["revision"]: r["log"] for r in batch.get("results", [])} if status == 200 else {}
    check("history/batch of a revision: its evaluations and the logs behind them",
          status == 200 and batch["document"]["evaluations"] and logs_of.get("e2") == second_name
          and logs_of.get("e1") == plain_name, f"{status} {logs_of}")
    for query, code, status_code in (("history/series", "bad-parameter", 400),
                                     ("history/series?subject=nobody", "not-found", 404),
                                     ("history/series?subject=nightly&k=-1", "bad-parameter", 400),
                                     ("history/series?subject=nightly&window=x", "bad-parameter", 400),
                                     ("history/batch", "bad-parameter", 400),
                                     ("history/batch?revision=nowhere", "not-found", 404),
                                     ("history/run?runKey=pr-1", "bad-parameter", 400),
                                     ("history/nothing", "not-found", 404)):
        status, body = api("GET", query)
        check(f"{query} is {status_code} {code}", status == status_code and body["error"]["code"] == code,
              f"{status} {body}")
    status, body = api("POST", "history/subjects")
    check("POST on history is 405", status == 405)
    for page in ("/compare", "/compare?base=x&cand=y", "/history", "/history?subject=nightly"):
        if web:
            status, _, body = request("GET", page)
            check(f"{page} is the dashboard's page", status == 200 and b'<div id="root">' in body)

    # --- Fleet: each subject's latest result, ranked and counted as `analyze -f json` reads the logs.
    def analyzed(path, *flags):
        return json.loads(subprocess.run([sf, "analyze", "-q", "-f", "json", *flags, path], check=True,
                                         capture_output=True).stdout)

    latest_docs = {"etl": analyzed(second), "loner": analyzed(loner), "euro-job": analyzed(euro, "--config", euro_config)}

    def fix_first(doc):  # the group "Fix these first" leads with, as the reports choose it
        return next((g for g in doc["rollup"] if g["tier"] == "time" and g["fixFirst"]), None)

    status, fleet = api("GET", "fleet?limit=10")
    check("fleet answers over the store", status == 200 and fleet["store"] == store and fleet["subjects"] == 5
          and fleet["withoutAnalysis"] == 2, f"{status} {str(fleet)[:300]}")
    if status == 200:
        expected = sorted(((-fix_first(d)["recoverableMs"]["high"], s) for s, d in latest_docs.items() if fix_first(d)))
        got = [(r["subject"], r["recoverableMs"]) for r in fleet["recoverable"]]
        check("fleet ranks the latest runs by recoverable wall-clock, as analyze's rollup says",
              [s for s, _ in got] == [s for _, s in expected]
              and all(abs(r["high"] - fix_first(latest_docs[s])["recoverableMs"]["high"]) < 1e-6
                      and abs(r["low"] - fix_first(latest_docs[s])["recoverableMs"]["low"]) < 1e-6 for s, r in got),
              f"{got} vs {expected}")
        check("a job's finding total is analyze's", all(r["findings"] == len(latest_docs[r["subject"]]["findings"])
                                                         for r in fleet["recoverable"]), str(fleet["recoverable"])[:300])
        costs = {c["currency"]: c for c in fleet["costs"]}
        usd = [r["subject"] for r in costs.get("USD", {}).get("top", [])]
        expected_usd = [s for _, s in sorted((-latest_docs[s]["economics"]["cost"]["total"], s) for s in ("etl", "loner"))]
        check("fleet ranks costs per currency, never two together", set(costs) == {"USD", "EUR"} and usd == expected_usd
              and [r["subject"] for r in costs["EUR"]["top"]] == ["euro-job"]
              and abs(costs["EUR"]["top"][0]["cost"]["value"] - latest_docs["euro-job"]["economics"]["cost"]["total"]) < 1e-6
              and costs["EUR"]["top"][0]["cost"]["currency"] == "EUR", str(fleet["costs"])[:400])
        type_apps, type_findings = {}, {}
        for d in latest_docs.values():
            for f in d["findings"]:
                type_findings[f["type"]] = type_findings.get(f["type"], 0) + 1
            for t in {f["type"] for f in d["findings"]}:
                type_apps[t] = type_apps.get(t, 0) + 1
        expected_types = sorted(type_apps, key=lambda t: (-type_apps[t], -type_findings[t], t))[:10]
        got_types = fleet["findingTypes"]
        check("fleet counts finding types in how many jobs, as analyze finds them",
              [t["type"] for t in got_types] == expected_types
              and all(t["applications"] == type_apps[t["type"]] and t["findings"] == type_findings[t["type"]]
                      for t in got_types), f"{got_types} vs {expected_types}")
        trend = fleet["trend"]
        check("the trend lists the jobs with a history, the latest stored first",
              [r["subject"] for r in trend["rows"]] == ["etl", "paired", "nightly"] and trend["total"] == 3
              and trend["quantities"] == ["appWallClockMs", "cost"], str(trend["rows"])[:300])
        cli_latest = json.loads(subprocess.run([sf, "verdict", "history", "--store", store, "--target", "latest",
                                                "--quantity", "appWallClockMs", "--quantity", "cost", "-f", "json"],
                                               capture_output=True).stdout)
        key = lambda e: ((e["target"] or {}).get("resultId"), e["series"]["quantity"])
        cli_by = {key(e): (e["verdict"], e["reason"], e["outcome"]["effect"]["value"]) for e in cli_latest["evaluations"]}
        ours = {key(e): (e["verdict"], e["reason"], e["outcome"]["effect"]["value"]) for e in trend["document"]["evaluations"]}
        etl_id = trend["rows"][0]["resultId"] if trend["rows"] else ""
        check("the trend's verdicts are verdict history --target latest's", ours and all(cli_by.get(k) == v for k, v in ours.items())
              and (etl_id, "appWallClockMs") in ours and (etl_id, "cost") in ours, f"{ours} vs {cli_by}")
    status, page = api("GET", "fleet?limit=1&trendOffset=1&trendLimit=1")
    check("fleet is limited and the trend paged", status == 200 and len(page["recoverable"]) <= 1
          and all(len(c["top"]) == 1 for c in page["costs"]) and len(page["findingTypes"]) == 1
          and [r["subject"] for r in page["trend"]["rows"]] == ["paired"] and page["trend"]["offset"] == 1,
          f"{status} {str(page)[:300]}")
    for query in ("fleet?limit=0", "fleet?limit=x", "fleet?trendLimit=1000", "fleet?k=-1"):
        status, body = api("GET", query)
        check(f"{query} is 400 bad-parameter", status == 400 and body["error"]["code"] == "bad-parameter", f"{status} {body}")
    check("POST on fleet is 405", api("POST", "fleet")[0] == 405)
    if web:
        status, _, body = request("GET", "/fleet?trend=20")
        check("/fleet is the dashboard's page", status == 200 and b'<div id="root">' in body)
    # serve without --store: the fleet page says there is no store.
    # Its default store (./sparkforensics-results.db, in the directory it runs in) does not exist.
    bare = subprocess.Popen([os.path.abspath(sf), "serve", "--log-dir", logs, "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=logs,
                            env={k: v for k, v in os.environ.items() if k != "SPARKFORENSICS_STORE"})
    try:
        bare_port = int(re.search(r":(\d+)/", bare.stdout.readline()).group(1))
        c = http.client.HTTPConnection("127.0.0.1", bare_port, timeout=30)
        c.request("GET", "/api/sf/v1/fleet")
        r = c.getresponse()
        body = json.loads(r.read())
        check("fleet without a store is 404 no-store, saying how to get one", r.status == 404
              and body["error"]["code"] == "no-store" and "--store" in body["error"]["message"]
              and not os.path.exists(os.path.join(logs, "sparkforensics-results.db")), f"{r.status} {body}")
    finally:
        bare.terminate()
        try:
            bare.wait(timeout=20)
        except subprocess.TimeoutExpired:
            bare.kill()

    # --- compare --format html: the compare page as one file.
    if web:
        page = os.path.join(work, "compare.html")
        result = subprocess.run([sf, "compare", "-q", "-f", "html", "-o", page, plain, second], capture_output=True, text=True)
        html = open(page, encoding="utf-8").read() if result.returncode == 0 else ""
        data = re.search(r'<script id="sf-report" type="application/json">(.*?)</script>', html, re.S)
        inlined = json.loads(data.group(1)) if data else {}
        check("compare --format html writes one page with the comparison and its plan diffs",
              result.returncode == 0 and "/assets/" not in html and inlined.get("comparison", {}).get("stagePairs") == cli["stagePairs"]
              and len(inlined.get("planDiffs", [])) == len(cli["executionAlignment"]["pairs"]), result.stderr)

    # --- Structured Streaming, over the corpus's streaming log (Spark 3.1, Kafka, 8 batches) in a
    # serve of its own: the figures are the analysis document's, as analyze -f json writes them.
    corpus = os.environ.get("SF_CORPUS_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/corpus")
    streaming_dir = os.path.join(corpus, "apache__spark/sql/core/src/test/resources/spark-events")
    streaming_log = "local-1596020211915"
    if not os.path.exists(os.path.join(streaming_dir, streaming_log)):
        print(f"SKIP streaming checks: {os.path.join(streaming_dir, streaming_log)} not found")
    else:
        streaming_serve = subprocess.Popen([sf, "serve", "--log-dir", streaming_dir, "--port", "0", "--upload-dir", work],
                                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            streaming_port = int(re.search(r":(\d+)/", streaming_serve.stdout.readline()).group(1))

            def streaming_api(path):
                c = http.client.HTTPConnection("127.0.0.1", streaming_port, timeout=60)
                c.request("GET", "/api/sf/v1/" + path)
                r = c.getresponse()
                body = json.loads(r.read())
                c.close()
                return r.status, body

            cli = json.loads(subprocess.run([sf, "analyze", "-f", "json", "-q", os.path.join(streaming_dir, streaming_log)],
                                            check=True, capture_output=True).stdout)
            status, listed = streaming_api(f"logs/{streaming_log}/streaming")
            runs = listed.get("runs", []) if status == 200 else []
            check("streaming: a row and the summary per run, as analyze -f json has them",
                  status == 200 and len(runs) == len(cli["streaming"]) >= 1
                  and [r["summary"] for r in runs] == cli["streaming"], f"{status} {str(listed)[:300]}")
            if runs:
                row = runs[0]["run"]
                query = next(q for q in cli["streamingQueries"] if q["runId"] == row["runId"])
                check("streaming: the row has Spark UI's columns",
                      row["status"] in ("RUNNING", "FINISHED", "FAILED") and row["id"] == query["id"]
                      and row["startMs"] == query["startMs"] and row["batches"] == len(query["batches"])
                      and row["latestBatchId"] == query["batches"][-1]["batchId"]
                      and row["inputRowsPerSecond"] == cli["streaming"][0]["inputRowsPerSecond"]
                      and row["status"] == ("RUNNING" if not query["terminated"] else "FAILED" if query["exception"] else "FINISHED"),
                      str(row))
                status, one = streaming_api(f"logs/{streaming_log}/streaming/{row['runId']}")
                check("streaming: one run with its batches, summary and findings",
                      status == 200 and one["query"] == query and one["summary"] == cli["streaming"][0] and one["run"] == row
                      and len(one["query"]["batches"]) == 8 and len(one["findings"]) == row["findings"]
                      and all(f["type"].startswith("streaming") for f in one["findings"]), f"{status} {str(one)[:300]}")
        finally:
            streaming_serve.terminate()
            streaming_serve.wait(timeout=20)

    # --- The HTML report.
    if web:
        report = os.path.join(work, "report.html")
        result = subprocess.run([sf, "analyze", "-f", "html", "-o", report, plain], capture_output=True, text=True)
        html = open(report, encoding="utf-8").read() if result.returncode == 0 else ""
        check("analyze --format html writes one page", result.returncode == 0 and '<script id="sf-report"' in html
              and "<script type=\"module\">" in html and "/assets/" not in html, result.stderr)
        check("the page holds no '</script' in its data",
              html.count("</script>") == 2 if html else False, str(html.count("</script>")))
finally:
    server.terminate()
    try:
        code = server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        code = "killed after 20 s"
    check("serve stops cleanly on SIGTERM (exit 0)", code == 0, str(code))
    upstream.shutdown()
    left = [p for p in os.listdir(work) if p.startswith("sparkforensics-uploads-")]
    check("the uploads' directory is gone when serve stops", not left, str(left))
    if failed:
        print(open(os.path.join(work, "serve.log")).read()[-4000:])
    shutil.rmtree(work, ignore_errors=True)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
