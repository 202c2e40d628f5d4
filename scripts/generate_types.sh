#!/usr/bin/env bash
# The dashboard's and the Python package's types of the documents, generated from schemas/:
#   web/src/generated/<name>.ts            json-schema-to-typescript (web/package.json's devDependency)
#   python/sparkforensics/generated/*.py   TypedDicts by datamodel-code-generator (.venv, python/requirements.lock)
# Edit a schema, then run this (make types) and commit the schema with what it wrote; ctest's
# generated_types_current fails while they differ.
# Usage: scripts/generate_types.sh [ROOT]   writes under ROOT (default: this tree) the same paths
# Needs web/node_modules (npm ci --prefix web) and .venv (make python-deps); installs nothing itself.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$(cd "${1:-$here}" && pwd)"
json2ts="$here/web/node_modules/.bin/json2ts"
codegen="$here/.venv/bin/datamodel-codegen"
[[ -x "$json2ts" ]] || { echo "generate_types: no $json2ts (npm ci --prefix web)" >&2; exit 2; }
[[ -x "$codegen" ]] || { echo "generate_types: no $codegen (make python-deps)" >&2; exit 2; }

ts_dir="$out/web/src/generated"
py_dir="$out/python/sparkforensics/generated"
rm -rf "$ts_dir" "$py_dir"
mkdir -p "$ts_dir" "$(dirname "$py_dir")"

# One module per schema; fleet-summary's trend.document (a $ref to verdict.schema.json) is
# declared again in its module, the same shape under the same names.
for schema in "$here"/schemas/*.schema.json; do
  name="$(basename "$schema" .schema.json)"
  "$json2ts" --input "$schema" --output "$ts_dir/$name.ts" --cwd "$here/schemas" --unknownAny \
    --bannerComment "// Generated from schemas/$name.schema.json by scripts/generate_types.sh (json-schema-to-typescript): do not edit."
done

# One package, a module per schema (fleet_summary_schema imports verdict_schema). TypedDict and
# NotRequired come from sparkforensics._typed_dict: typing's on Python 3.11 and later.
"$codegen" --input "$here/schemas" --input-file-type jsonschema --output "$py_dir" \
  --output-model-type typing.TypedDict --target-python-version 3.10 --no-use-closed-typed-dict \
  --use-schema-description --use-field-description --formatters builtin --disable-timestamp \
  --custom-file-header "# Generated from schemas/ by scripts/generate_types.sh (datamodel-code-generator): do not edit." \
  --import-overrides '{"TypedDict": "sparkforensics._typed_dict", "NotRequired": "sparkforensics._typed_dict"}'
