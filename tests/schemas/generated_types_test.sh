#!/usr/bin/env bash
# ctest's generated_types_current: the committed types (web/src/generated, python/sparkforensics/
# generated) are what scripts/generate_types.sh makes of schemas/ today. A schema changed without
# `make types` fails here, with the diff.
# Exit 77 (skipped, with the reason) when a generator is missing: web/node_modules (npm ci
# --prefix web; the dashboard's build runs it) or .venv (make python-deps).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
for tool in web/node_modules/.bin/json2ts .venv/bin/datamodel-codegen; do
  if [[ ! -x "$root/$tool" ]]; then
    echo "skipped: no $root/$tool (npm ci --prefix web; make python-deps)"
    exit 77
  fi
done
fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT
"$root/scripts/generate_types.sh" "$fresh" || exit 1
status=0
for dir in web/src/generated python/sparkforensics/generated; do
  if ! diff -r -u "$root/$dir" "$fresh/$dir"; then
    echo "generated_types_current: $dir is not what scripts/generate_types.sh makes of schemas/: run make types"
    status=1
  fi
done
[[ $status == 0 ]] && echo "generated_types_current: $(find "$fresh" -type f | wc -l) generated files match schemas/"
exit $status
