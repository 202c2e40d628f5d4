#!/usr/bin/env bash
# Golden tests of the text and Markdown reports (as DuckDB's test/sql files: an input, the output
# expected of it, a diff when they differ). Each case is a log, from the project's generator
# (bench/loggen, deterministic by construction) or hand-written in tests/golden/logs/, analyzed
# into expected/<case>.<txt|md>.
#
# A change in what a report says shows as a diff here. To accept it:
#   SF_UPDATE_GOLDEN=1 ctest -R golden_reports      (or run this script with SF_UPDATE_GOLDEN=1)
# rewrites the expected files; review them with `git diff tests/golden` before committing.
#
# Usage: golden_test.sh SPARKFORENSICS SF_LOGGEN
set -uo pipefail
sf="$(realpath "$1")"
loggen="$(realpath "$2")"
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
rewritten=0

# generate NAME LOGGEN-ARGS...: a generated log in $work/NAME/, its path relative to $work/NAME.
generate() {
  local name="$1"; shift
  mkdir -p "$work/$name"
  "$loggen" "$@" --out "$work/$name" 2>/dev/null | xargs -n1 basename
}

# case NAME DIR LOG ANALYZE-ARGS...: analyze DIR/LOG (run from DIR, so the report shows LOG as
# given) in each of $formats (default both); compare with expected/NAME.txt and expected/NAME.md.
case_() {
  local name="$1" dir="$2" log="$3"; shift 3
  local format ext
  for format in ${formats:-text markdown}; do
    ext=$([[ $format == text ]] && echo txt || echo md)
    local expected="$here/expected/$name.$ext" actual="$work/$name.$ext"
    (cd "$dir" && "$sf" analyze -q --format "$format" "$@" "$log") >"$actual" 2>"$work/$name.err"
    local code=$?
    if [[ $code -ne 0 ]]; then
      echo "FAIL $name ($format): analyze exited $code"; cat "$work/$name.err"; failures=$((failures + 1)); continue
    fi
    if [[ -n "${SF_UPDATE_GOLDEN:-}" ]]; then
      if ! cmp -s "$actual" "$expected"; then cp "$actual" "$expected"; echo "rewrote $expected"; rewritten=$((rewritten + 1)); fi
    elif [[ ! -f "$expected" ]]; then
      echo "FAIL $name ($format): no $expected (SF_UPDATE_GOLDEN=1 writes it)"; failures=$((failures + 1))
    elif ! diff -u "$expected" "$actual" >"$work/$name.$ext.diff"; then
      echo "FAIL $name ($format): the report differs from $expected:"; cat "$work/$name.$ext.diff"
      failures=$((failures + 1))
    else
      echo "ok   $name ($format)"
    fi
  done
}

# Generated: the realistic ETL run of the demo, the small preset, and a run cut mid-stage.
case_ demo "$work/demo" "$(generate demo --preset demo --codec zstd --layout file)"
case_ small "$work/small" "$(generate small --preset small --seed 3 --codec none --layout rolling)"
case_ unfinished "$work/unfinished" "$(generate unfinished --preset small --seed 4 --unfinished --codec none --layout file)"
# Hand-written: one job, one executor, one core, one skipped and one failed stage, a '|' in the
# application's name: singular nouns, what ran apart from what was skipped, escaped Markdown.
case_ one_of_each "$here/logs" one_of_each.json
# Findings cut to three, the rest counted.
formats=text case_ demo_top_findings "$work/demo" "$(basename "$(ls "$work"/demo/*.zstd)")" --top-findings 3

if [[ -n "${SF_UPDATE_GOLDEN:-}" ]]; then
  echo "$rewritten expected file(s) rewritten: review them with git diff tests/golden"
fi
if [[ $failures -gt 0 ]]; then
  echo "$failures golden case(s) differ; if the change is meant, SF_UPDATE_GOLDEN=1 rewrites them (review the diff)"
  exit 1
fi
[[ -z "${SF_UPDATE_GOLDEN:-}" ]] && echo "all golden reports match"
exit 0
