#!/usr/bin/env bash
# The README's examples work as written: each block between "<!-- example: NAME" and
# "<!-- /example -->" is run as it stands, with `sparkforensics` on PATH, in a directory holding
# the files it names (generated logs).
# Usage: readme_examples_test.sh SPARKFORENSICS SF_LOGGEN
source "$(dirname "$0")/e2e_checks.sh" "$@"
readme="$(dirname "$0")/../../README.md"
unset SPARKFORENSICS_STORE

# example NAME: the block's shell code.
example() {
  sed -n "/^<!-- example: $1 /,/^<!-- \/example -->/p" "$readme" | sed '1,2d;$d' | sed '$d'
}

mkdir -p "$work/bin" "$work/verdict-run"
ln -s "$(cd "$(dirname "$sf")" && pwd)/$(basename "$sf")" "$work/bin/sparkforensics"

# verdict-run: six rounds of a baseline and a candidate log.
for round in 1 2 3 4 5 6; do
  for side in baseline candidate; do
    [[ $side == candidate ]] && seed=$((round * 2 + 1)) || seed=$((round * 2))
    out="$work/gen-$side-$round"
    "$loggen" --preset small --seed "$seed" --codec zstd --layout file --out "$out" >/dev/null 2>&1
    mv "$out"/*.zstd "$work/verdict-run/$side-$round.zstd"
  done
done
example verdict-run >"$work/verdict-run.sh"
check "the README has the verdict run example" grep -q "sparkforensics verdict run" "$work/verdict-run.sh"
(cd "$work/verdict-run" && PATH="$work/bin:$PATH" bash -e "$work/verdict-run.sh") >"$work/verdict-run.out" 2>&1
check "the verdict run example runs as written" test $? -eq 0
check "... ingesting twelve results" test "$(grep -c "^ingested r-" "$work/verdict-run.out")" -eq 12
check "... and comparing the two sides of the run" grep -q "run pr-42 profile variants: parameters.role = baseline (baseline) vs candidate" "$work/verdict-run.out"
check "... with verdicts" grep -qE "^(Regressed|Improved|No change detected) \([0-9]+\):" "$work/verdict-run.out"

finish "README example" "$work/verdict-run.out"
