# Sourced by bench/compare.sh and bench/serve.sh: the two generated logs they measure (two runs of
# the same application with different seeds, ~18 MB a unit of scale), written once under
# BUILD_DIR/bench-data/compare-SCALE/{base,cand}/ and reused.
# Usage: generate_compare_logs BUILD_DIR SCALE   (prints the directory)
generate_compare_logs() {
  local build="$1" scale="$2"
  local out="$build/bench-data/compare-$scale"
  local loggen="$build/bench/loggen/sf-loggen"
  if [[ ! -f "$out/.complete" ]]; then
    rm -rf "$out"
    "$loggen" --preset benchmark --scale "$scale" --seed 1 --codec none --layout file --out "$out/base" >/dev/null 2>&1
    "$loggen" --preset benchmark --scale "$scale" --seed 2 --codec none --layout file --out "$out/cand" >/dev/null 2>&1
    touch "$out/.complete"
  fi
  echo "$out"
}
