#!/usr/bin/env bash
# The C++ style (.clang-format), written or checked over every C++ file git knows.
#   scripts/format.sh           rewrite the files in place
#   scripts/format.sh --check   list the files that differ and fail (ctest runs it as clang_format)
# The style is checked with Debian 12's clang-format 14 (scripts/install-deps.sh installs it):
# another major version lays some lines out differently, so the check says so and skips.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang_format: skipped: clang-format is not installed (scripts/install-deps.sh)"; exit 77; }
major=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [[ "$major" != "14" ]]; then
  echo "clang_format: skipped: clang-format $major, not 14, the version the style is checked with"
  exit 77
fi
mapfile -t files < <(git ls-files '*.h' '*.cpp')
if [[ "${1:-}" != "--check" ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
differ=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || differ+=("$f")
done
if [[ ${#differ[@]} -gt 0 ]]; then
  printf 'clang_format: %s is not in the style of .clang-format\n' "${differ[@]}" >&2
  echo "clang_format: ${#differ[@]} of ${#files[@]} files differ: run scripts/format.sh" >&2
  exit 1
fi
echo "clang_format: all ${#files[@]} C++ files follow .clang-format"
