"""make validate: what analyze predicts a fix recovers, against what applying it recovered on real Spark,
and what the what-if simulation of a run predicts for larger cluster sizes, against those sizes' runs.

    .venv/bin/python tests/spark/validate.py --sf build/src/cli/sparkforensics --out build/validate \
        [--rounds 3] [--only NAME ...] [--write docs/validation.md] [--reanalyze]

Every problem scenario runs --rounds times as the problem and as its fixed twin, alternating (a
warm-up run first in the same driver JVM, discarded: the first SparkContext of a JVM pays for
loading and JIT). For each
round, the prediction is the recoverable range of the scenario's finding type in "Fix these
first" of the problem run; the measured recovery is the problem run's application wall-clock
minus the twin's. The table gives the medians over the rounds and their ratio.

Every sizing scenario runs --rounds times at each of its sizes (smallest first). For each round,
the prediction for a larger size is the what-if curve of the smallest run at that size (its
executors of the smallest run's cores); the measured figure is that size's application wall-clock.

--reanalyze runs no Spark: it reads the logs the last validation into --out wrote, with the binary
given, so a change to a model is measured against the same runs (the date line keeps the runs' day).

A benchmark, not a test: the figures move with the machine's load, and no test asserts on them.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from scenario import PROBLEM_MARKER  # noqa: E402
from scenarios import REGISTRY  # noqa: E402

# The accuracy this project holds itself to: the predicted high end within this factor of what
# the fix measurably recovered, for the median scenario.
TOLERANCE = 2.0
# The what-if prediction of a larger size within this share of its measured wall-clock, for the
# median pair of sizes.
SIZE_TOLERANCE = 0.25
SIZES_HEADING = "\n## What-if: the smallest run predicts the larger ones\n"
STREAMING_HEADING = "\n## Structured Streaming: what the finding says of the twin, against the twin\n"


def analysis(sf, log):
    done = subprocess.run([sf, "analyze", "--no-progress", "-f", "json", log], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"analyze {log}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def predicted(doc, finding_type):
    """The (low, high) recoverable of the type's group, 0 when it is not offered to fix first."""
    for group in doc["rollup"]:
        if group["tier"] == "time" and group["type"] == finding_type and group["fixFirst"]:
            return group["recoverableMs"]["low"], group["recoverableMs"]["high"]
    return 0.0, 0.0


def problem_span_ms(doc):
    """From the first problem job's submission to the last one's completion."""
    jobs = [j for j in doc["jobs"] if j["description"].startswith(PROBLEM_MARKER)
            and j["submissionTimeMs"] is not None and j["completionTimeMs"] is not None]
    if not jobs:
        raise RuntimeError(f"{doc['app']['id']}: no completed problem job to measure")
    return max(j["completionTimeMs"] for j in jobs) - min(j["submissionTimeMs"] for j in jobs)


def wall_clock_ms(doc, measure):
    return problem_span_ms(doc) if measure == "problem_jobs" else doc["app"]["durationMs"]


def seconds(ms):
    return f"{ms / 1000:.1f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sf", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--write")
    parser.add_argument("--reanalyze", action="store_true",
                        help="no new runs: analyze the logs the last validation into --out wrote")
    args = parser.parse_args()
    # A cost the log cannot show as wall-clock (Expectation.tier other than "time") predicts no
    # recovery to measure against.
    chosen = args.only or sorted(REGISTRY)
    names = sorted(n for n in chosen if not REGISTRY[n].control and not REGISTRY[n].sizing
                   and REGISTRY[n].expect.tier == "time")
    sizings = sorted(n for n in chosen if REGISTRY[n].sizing)
    streams = sorted(n for n in chosen if REGISTRY[n].family == "streaming")
    python = sys.executable
    runner = [python, os.path.join(HERE, "run_scenarios.py")]
    # Warm-up: the first SparkContext of the JVM is slower than the rest, so the runner runs one
    # first in the JVM that runs the measured ones, and leaves it out. Each run writes into
    # directories of its own, so what an earlier (or stopped) validation left goes first.
    logs = os.path.join(args.out, "runs")
    manifest = os.path.join(logs, "manifest.json")
    if args.reanalyze:
        if not os.path.exists(manifest):
            sys.exit(f"validate: --reanalyze found no earlier runs: {manifest} does not exist")
    else:
        shutil.rmtree(logs, ignore_errors=True)
        done = subprocess.run(runner + ["--out", logs, "--rounds", str(args.rounds), "--warmup", "control_aggregate",
                                        "--only", *names, *sizings, *streams])
        if done.returncode != 0:
            print("validate: some runs failed; the table has the rest", file=sys.stderr)
    with open(manifest) as f:
        runs = json.load(f)["runs"]
    run_day = datetime.date.fromtimestamp(os.path.getmtime(manifest)).isoformat()

    rows = []
    for name in names:
        scenario = REGISTRY[name]
        lows, highs, measured = [], [], []
        for r in range(args.rounds):
            problem = [x for x in runs if x["scenario"] == name and x["variant"] == "problem" and x["round"] == r]
            fixed = [x for x in runs if x["scenario"] == name and x["variant"] == "fixed" and x["round"] == r]
            if not problem or not fixed:
                continue
            p_doc, f_doc = analysis(args.sf, problem[0]["log"]), analysis(args.sf, fixed[0]["log"])
            low, high = predicted(p_doc, scenario.expect.finding)
            lows.append(low)
            highs.append(high)
            measured.append(wall_clock_ms(p_doc, scenario.measure) - wall_clock_ms(f_doc, scenario.measure))
        if not measured:
            continue
        m = statistics.median(measured)
        lo, hi = statistics.median(lows), statistics.median(highs)
        ratio = hi / m if m > 0 else float("inf")
        shown_name = f"`{name}`" + (" (problem jobs)" if scenario.measure == "problem_jobs" else "")
        rows.append((shown_name, scenario.expect.finding, lo, hi, m, ratio, len(measured)))

    ratios = [r[5] for r in rows if r[4] > 0 and r[5] != float("inf")]
    median_ratio = statistics.median(ratios) if ratios else float("nan")
    within = sum(1 for r in ratios if 1 / TOLERANCE <= r <= TOLERANCE)
    lines = [
        "# Validation: predicted against measured recovery on real Spark",
        "",
        "Written by `make validate` (tests/spark/validate.py); do not edit by hand. Each scenario of",
        "tests/spark/scenarios runs as its planted problem and as its twin with exactly the change analyze",
        "recommends. Predicted: the recoverable range of the scenario's finding in \"Fix these first\" of",
        "the problem run. Measured: the problem run's application wall-clock minus the twin's; for a",
        "scenario marked (problem jobs), the span of the jobs that carry the problem, because the twin's",
        "change also reshapes set-up work the finding does not claim. Medians over",
        f"{args.rounds} alternating rounds after a discarded warm-up run.",
        "",
        "The findings on real logs no one here wrote, each read against the log's raw events, are reviewed",
        "in [corpus-review.md](corpus-review.md).",
        "",
        f"Run on {run_day}, {platform.machine()} with {os.cpu_count()} cores, "
        f"pyspark {pyspark_version()}. The machine is shared: single runs move by tens of percent.",
        "",
        "| scenario | finding | predicted (low to high) | measured recovery | predicted high / measured | rounds |",
        "|---|---|---|---|---|---|",
    ]
    for name, finding, lo, hi, m, ratio, n in rows:
        shown = f"{ratio:.2f}" if ratio != float("inf") else "n/a (nothing measured)"
        lines.append(f"| {name} | `{finding}` | {seconds(lo)} to {seconds(hi)} | {seconds(m)} | {shown} | {n} |")
    lines += [
        "",
        f"**Median ratio: {median_ratio:.2f}** over {len(ratios)} scenarios; {within} of them within the",
        f"tolerance this project holds itself to, a factor of {TOLERANCE:g} either way (predicted high between",
        f"{1 / TOLERANCE:g}x and {TOLERANCE:g}x of the measured recovery).",
        "",
    ]
    recovery = "\n".join(lines)
    sizes = "\n".join(size_lines(args, runs, sizings))
    streaming = "\n".join(streaming_lines(args, runs, streams))
    print(recovery + sizes + streaming)
    if args.write:
        # A section this run did not measure (--only named none of its scenarios) is kept as the
        # file has it.
        kept_recovery, kept_sizes, kept_streaming = "", "", ""
        if os.path.exists(args.write):
            with open(args.write) as f:
                text, _, streaming_rest = f.read().partition(STREAMING_HEADING)
            kept_recovery, _, sizes_rest = text.partition(SIZES_HEADING)
            kept_sizes = SIZES_HEADING + sizes_rest if sizes_rest else ""
            kept_streaming = STREAMING_HEADING + streaming_rest if streaming_rest else ""
        with open(args.write, "w") as f:
            f.write((recovery if names else kept_recovery) + (sizes if sizings else kept_sizes) +
                    (streaming if streams else kept_streaming))
    return 0


def streaming_finding(doc, finding_type):
    return next((f for f in doc["findings"] if f["type"] == finding_type), None)


def evidence(finding, name):
    return next((e["value"] for e in finding["evidence"] if e["name"] == name), None) if finding else None


# What each streaming finding says the twin's change does, and what the twin's log shows, as
# (what, predicted, measured) from the problem run's analysis and the twin's.
def streaming_claims(name, p_doc, f_doc):
    scenario = REGISTRY[name]
    found = streaming_finding(p_doc, scenario.expect.finding)
    problem, twin = p_doc["streaming"][0], f_doc["streaming"][0]
    if scenario.expect.finding == "streamingFallingBehind":
        suggested = evidence(found, "suggestedTriggerMs")
        over = twin["batchesOverTrigger"] / max(1, twin["batches"])
        return ("batches over the trigger", f"{problem['batchesOverTrigger']} of {problem['batches']}; "
                f"at most 1 in 10 under {seconds(suggested or 0)}",
                f"{twin['batchesOverTrigger']} of {twin['batches']} ({over:.0%}) under "
                f"{seconds(twin['trigger']['intervalMs'] or 0)}")
    if scenario.expect.finding == "streamingShufflePartitions":
        overhead = evidence(found, "taskOverheadPerBatchMs") or 0
        drop = problem["durationMs"]["p50"] - twin["durationMs"]["p50"]
        return ("median batch", f"{seconds(problem['durationMs']['p50'])}; {seconds(overhead)} shorter (the tasks "
                "past the cores)",
                f"{seconds(twin['durationMs']['p50'])} ({seconds(drop)} shorter)")
    state, twin_state = problem["state"] or {}, twin["state"] or {}
    return ("state rows after the last batch",
            f"{state.get('rowsLast', 0):,}, none removed; bounded once rows are removed",
            f"{twin_state.get('rowsLast', 0):,}, {twin_state.get('rowsRemoved') or 0:,} removed")


def streaming_lines(args, runs, streams):
    """The table of what each streaming finding says of its twin against the twin's own log."""
    if not streams:
        return []
    lines = ["", STREAMING_HEADING.strip("\n"), "",
             "A streaming application's wall-clock is the stream's life, which no fix shortens: each streaming",
             "finding says instead what its change does to the batches (docs/detectors/streaming.md). The",
             "problem run's figures and what the finding predicts for the twin, against the twin's log. The",
             "last round's figures.", "",
             "| scenario | finding | figure | problem run, and predicted for the twin | the twin | rounds |",
             "|---|---|---|---|---|---|"]
    for name in streams:
        scenario = REGISTRY[name]
        rounds = [r for r in range(args.rounds)
                  if any(x["scenario"] == name and x["round"] == r and x["variant"] == "problem" for x in runs)
                  and any(x["scenario"] == name and x["round"] == r and x["variant"] == "fixed" for x in runs)]
        if not rounds:
            continue
        last = rounds[-1]
        log = {v: next(x["log"] for x in runs if x["scenario"] == name and x["round"] == last and x["variant"] == v)
               for v in ("problem", "fixed")}
        what, predicted_text, measured_text = streaming_claims(name, analysis(args.sf, log["problem"]),
                                                               analysis(args.sf, log["fixed"]))
        lines.append(f"| `{name}` | `{scenario.expect.finding}` | {what} | {predicted_text} | {measured_text} | "
                     f"{len(rounds)} |")
    lines.append("")
    return lines


def run_time_ms(doc):
    """The executor run time of every task of the run."""
    return sum((s.get("metrics") or {}).get("executorRunTimeMs", 0) for s in doc["stages"])


def slots_of(master):
    """local[N] -> N."""
    return int(master[len("local["):-1])


def size_lines(args, runs, sizings):
    """The table of what-if predictions against the larger sizes' runs."""
    rows = []
    for name in sizings:
        scenario = REGISTRY[name]
        small_slots = slots_of(scenario.sizes[0])
        for i, master in enumerate(scenario.sizes):
            predicted, measured, task_time = [], [], []
            for r in range(args.rounds):
                small = [x for x in runs if x["scenario"] == name and x["variant"] == "size-0" and x["round"] == r]
                large = [x for x in runs if x["scenario"] == name and x["variant"] == f"size-{i}" and x["round"] == r]
                if not small or not large:
                    continue
                what_if = analysis(args.sf, small[0]["log"])["economics"]["whatIf"]
                executors = slots_of(master) // what_if["coresPerExecutor"]
                point = next((p for p in what_if["curve"] if p["executors"] == executors), None)
                if point is None:
                    continue
                large_doc = analysis(args.sf, large[0]["log"])
                predicted.append(point["simulatedMs"])
                measured.append(large_doc["app"]["durationMs"])
                task_time.append(run_time_ms(large_doc))
            if measured:
                p, m = statistics.median(predicted), statistics.median(measured)
                rows.append((f"`{name}`", scenario.sizes[0], master, p, m, p / m - 1, len(measured), i == 0,
                             statistics.median(task_time)))
    if not rows:
        return []
    errors = [abs(r[5]) for r in rows if not r[7]]
    median_error = statistics.median(errors) if errors else float("nan")
    within = sum(1 for e in errors if e <= SIZE_TOLERANCE)
    lines = [
        "",
        SIZES_HEADING.strip("\n"),
        "",
        "Each sizing scenario runs the same job at each of its sizes. Predicted: the what-if simulation",
        "of the smallest run (docs/economics.md) at the larger size's executors, each of the smallest",
        "run's cores. Measured: that size's application wall-clock. The first row of each scenario is the",
        "simulation at the smallest run's own size against its own wall-clock. Medians over the rounds.",
        "Task time: the executor run time of that size's tasks; the simulation replays the smallest run's,",
        "so where it grows with the size (tasks sharing the host's cores) the prediction runs short.",
        "",
        "| scenario | simulated from | size | predicted | measured | error | task time | rounds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, source, master, p, m, error, n, own, tasks in rows:
        lines.append(f"| {name} | `{source}` | `{master}`{' (itself)' if own else ''} | {seconds(p)} | {seconds(m)} "
                     f"| {100 * error:+.1f}% | {seconds(tasks)} | {n} |")
    lines += [
        "",
        f"**Median error: {100 * median_error:.1f}%** over {len(errors)} larger sizes; {within} of them within the",
        f"tolerance this project holds itself to, {100 * SIZE_TOLERANCE:.0f}% of the measured wall-clock.",
        "",
    ]
    return lines


def pyspark_version():
    try:
        import pyspark

        return pyspark.__version__
    except ImportError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
