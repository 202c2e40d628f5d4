#!/usr/bin/env bash
# `make test` says in one line how many tests skipped for a missing corpus and where it looked:
# the corpus tests run with SF_CORPUS_DIR pointing nowhere, and tests/print_skips.py reads their
# output as it reads ctest's log.
# Usage: print_skips_test.sh SF_CORPUS_TESTS
set -uo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nowhere="$work/no-corpus-here"
SF_CORPUS_DIR="$nowhere" "$1" >"$work/LastTest.log" 2>&1
status=$?
python3 "$(dirname "$0")/print_skips.py" "$work/LastTest.log" >"$work/summary.txt"
cat "$work/summary.txt"
failures=0
check() { if "${@:2}"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi; }
check "the corpus tests pass without the corpus (they skip)" test $status -eq 0
check "one line counts the skipped tests and names where the corpus was looked for" \
  grep -qE "^[0-9]+ test\(s\) skipped: corpus not found at $nowhere \(set SF_CORPUS_DIR or check out ../shared/corpus\)$" \
  "$work/summary.txt"
check "it is the only line about the corpus" test "$(grep -c corpus "$work/summary.txt")" -eq 1
check "every test that needs the corpus skipped for that one reason" bash -c \
  "! grep -q 'other test(s) skipped' '$work/summary.txt'"
[[ $failures -eq 0 ]] && echo "all print_skips checks passed"
exit $((failures > 0))
