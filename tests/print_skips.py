#!/usr/bin/env python3
"""Prints what was skipped, from ctest's full log, so `make test` shows it.

ctest reports a skipped test only as "Skipped"; the reason GTEST_SKIP gave is in the test's own
output, which ctest keeps in Testing/Temporary/LastTest.log. Every test that needs the real-log
corpus skips with one reason when it is absent ("corpus not found at <where> (...)"), so those
are summed up in one line that says how many and where the corpus was looked for; any other
reason is listed with the tests it skipped (past five reasons, counted: --all lists them).

Usage: print_skips.py [--all] LastTest.log"""
import collections
import os
import sys

CORPUS_MISSING = "corpus not found at "
MAX_REASONS_LISTED = 5


def skipped_tests(lines):
    """(reason, test name) of every GoogleTest test that skipped."""
    pending = None
    for i, line in enumerate(lines):
        if line.endswith(": Skipped") and i + 1 < len(lines):
            pending = lines[i + 1].strip()
        elif line.startswith("[  SKIPPED ] ") and pending is not None:
            yield pending, line[len("[  SKIPPED ] "):].split(" (")[0]
            pending = None


def main(log_path, list_all=False):
    try:
        lines = open(log_path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return
    reasons = collections.OrderedDict()
    for reason, name in skipped_tests(lines):
        reasons.setdefault(reason, []).append(name)
    corpus = {reason: names for reason, names in reasons.items() if reason.startswith(CORPUS_MISSING)}
    for reason, names in corpus.items():
        print(f"{len(names)} test(s) skipped: {reason}")
    others = {reason: names for reason, names in reasons.items() if reason not in corpus}
    if not others:
        return
    total = sum(len(names) for names in others.values())
    if len(others) > MAX_REASONS_LISTED and not list_all:
        # The oracles' out-of-scope cases each have a reason of their own: a count, not a page.
        print(f"{total} other test(s) skipped, for {len(others)} reasons "
              f"(python3 {os.path.abspath(sys.argv[0])} --all {os.path.abspath(log_path)} lists them)")
        return
    print(f"{total} other test(s) skipped:")
    for reason, names in others.items():
        shown = ", ".join(names[:3]) + (f", ... ({len(names)} in all)" if len(names) > 3 else "")
        print(f"  {reason}\n    {shown}")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(arguments[-1], list_all="--all" in arguments)
