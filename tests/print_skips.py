#!/usr/bin/env python3
"""Prints why each skipped test was skipped, from ctest's full log, so `make test` shows it.

ctest reports a skipped test only as "Skipped"; the reason GTEST_SKIP gave is in the test's own
output, which ctest keeps in Testing/Temporary/LastTest.log."""
import collections
import sys

log_path = sys.argv[1]
reasons = collections.OrderedDict()
try:
    lines = open(log_path, encoding="utf-8", errors="replace").read().splitlines()
except OSError:
    sys.exit(0)
pending = None
for i, line in enumerate(lines):
    if line.endswith(": Skipped") and i + 1 < len(lines):
        pending = lines[i + 1].strip()
    elif line.startswith("[  SKIPPED ] ") and pending is not None:
        name = line[len("[  SKIPPED ] "):].split(" (")[0]
        reasons.setdefault(pending, []).append(name)
        pending = None
if reasons:
    total = sum(len(names) for names in reasons.values())
    print(f"{total} test(s) skipped:")
    for reason, names in reasons.items():
        shown = ", ".join(names[:3]) + (f", ... ({len(names)} in all)" if len(names) > 3 else "")
        print(f"  {reason}\n    {shown}")
