# SparkForensics: the commands a newcomer runs. Each target installs what is missing
# (scripts/install-deps.sh runs apt-get only for absent packages), builds, and does its job.
#
#   make demo    build, generate a realistic sample event log, analyze it
#   make test    build and run every test (unit, corpus, end to end, the dashboard in chromium)
#   make bench        build and print the speed and memory ratios (a ~200 MB log, real logs)
#   make bench-large  the same on a ~2.2 GB log with stages of 110,000 tasks as well (~5 minutes)
#   make bench-quick  one small log, one run: the ratios in a few seconds
#   make bench-instructions  the same ratios counted in instructions (callgrind), and the writer's share of the CLI
#   make bench-fleet  the fleet job on local-cluster Spark (1, 2 executors): logs/s, MB/s, speed-up, RSS;
#                     then bench-store, the fleet's store and its verdicts as it grows
#   make bench-store  verdict latency as a fleet's result store grows to 1,000 / 3,000 / 10,000 results:
#                     every result read (the old way) beside the store answering in SQL, and the ratios
#   make bench-serve  serve beside Spark's History Server on a ~1 GB log: first and cached answers, requests/s, RSS
#   make bench-dashboard  the dashboard in chromium on that log: first findings board, a stage's drill-down, API requests/s
#   make bench-nvidia  NVIDIA's profiling tool beside analyze on the same logs: wall time, peak RSS, ratios
#   make validate     predicted against measured recovery of every real-Spark scenario, and what-if
#                     predictions of other cluster sizes: docs/validation.md
#   make revalidate   the same table from the last validate's runs, read by the binary just built
#   make types        the dashboard's and the Python package's document types, generated from schemas/
#   make test-asan    the whole test suite under AddressSanitizer and UBSan (build-asan/, clang)
#   make fuzz         each libFuzzer target for FUZZ_SECONDS (default 60), from the same build-asan/
#
# BUILD_DIR and CMAKE_FLAGS may be overridden, e.g. CMAKE_FLAGS=-DSF_WERROR=ON (what CI uses).

BUILD_DIR   ?= build
BUILD_TYPE  ?= Release
CMAKE_FLAGS ?=
JOBS        ?= 2
DEPS_EXTRA  ?=
MAKEFLAGS   += --no-print-directory
SF          := $(BUILD_DIR)/src/cli/sparkforensics
LOGGEN      := $(BUILD_DIR)/bench/loggen/sf-loggen

.PHONY: deps python-deps web-deps configure build mcp-client-deps demo test test-asan fuzz bench bench-large bench-quick clean

deps:
	@scripts/install-deps.sh $(DEPS_EXTRA)

# Real Spark (pyspark, pinned with hashes in python/requirements.lock) in .venv, and Java 17;
# nanobind there too, so configuring after it builds the Python module (SF_PYTHON=AUTO).
python-deps:
	@scripts/install-python.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS) > $(BUILD_DIR).configure.log 2>&1 \
	  || { cat $(BUILD_DIR).configure.log; exit 1; }

build: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS)

# Only what the demo runs: the program (with the dashboard when npm is there) and the generator.
demo: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS) --target sparkforensics sf-loggen
	@mkdir -p $(BUILD_DIR)/demo
	@$(LOGGEN) --preset demo --codec zstd --layout file --out $(BUILD_DIR)/demo > $(BUILD_DIR)/demo/log-path.txt
	@echo "== sparkforensics analyze $$(cat $(BUILD_DIR)/demo/log-path.txt)"
	@$(SF) analyze "$$(cat $(BUILD_DIR)/demo/log-path.txt)"

# The MCP client test needs the official SDK from npm (tests/mcp-client/package-lock.json).
mcp-client-deps:
	@if [ ! -d tests/mcp-client/node_modules ] && command -v npm >/dev/null; then \
	  npm ci --prefix tests/mcp-client --no-audit --no-fund >/dev/null || exit 1; fi

# The dashboard's build and browser tests: npm (Debian's nodejs and npm, unless the machine has an
# npm of its own), and Debian's chromium for playwright-core (never a browser download).
web-deps:
	@command -v npm >/dev/null || scripts/install-deps.sh nodejs npm
	@scripts/install-deps.sh chromium

# The documents' types from schemas/: web/src/generated (json-schema-to-typescript, npm) and
# python/sparkforensics/generated (datamodel-code-generator, .venv); ctest's generated_types_current
# fails until they are regenerated after a schema changes.
.PHONY: types
types: python-deps
	@[ -d web/node_modules ] || npm ci --prefix web --no-audit --no-fund >/dev/null
	@scripts/generate_types.sh

# python-deps before build: the build makes the Python package's module when .venv has nanobind.
test: web-deps python-deps build mcp-client-deps
	@cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS); status=$$?; \
	  python3 ../tests/print_skips.py Testing/Temporary/LastTest.log; exit $$status

# One clang build serves the sanitized suite and the fuzz targets. -O1 with line tables only:
# reports keep file:line, and the build takes half the time of -O2 -g.
ASAN_DIR  := build-asan
ASAN_MAKE := BUILD_DIR=$(ASAN_DIR) BUILD_TYPE=RelWithDebInfo DEPS_EXTRA="clang libclang-rt-14-dev" \
  CMAKE_FLAGS="$(CMAKE_FLAGS) -DCMAKE_CXX_COMPILER=clang++ -DSF_SANITIZE=address,undefined -DSF_FUZZ=ON \
  -DSF_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O1 -gline-tables-only'"

test-asan:
	@$(MAKE) test $(ASAN_MAKE)

fuzz:
	@$(MAKE) build $(ASAN_MAKE)
	@scripts/fuzz.sh $(ASAN_DIR)

bench: build
	@bench/run.sh $(BUILD_DIR)
	@echo
	@echo "== NVIDIA's profiler side by side on the same logs"
	@bench/nvidia.sh $(BUILD_DIR)

bench-large: build
	@bench/run.sh $(BUILD_DIR) --large

bench-quick: build
	@bench/quick.sh $(BUILD_DIR)

# Predicted against measured recovery of every real-Spark scenario (a benchmark, ~15 minutes):
# writes docs/validation.md. VALIDATE_ROUNDS (default 3) runs of each problem and its twin.
VALIDATE_ROUNDS ?= 3
.PHONY: validate
validate: build python-deps
	@.venv/bin/python tests/spark/validate.py --sf $(SF) --out $(BUILD_DIR)/validate \
	  --rounds $(VALIDATE_ROUNDS) --write docs/validation.md

# The same table from the last `make validate`'s runs, read again by the binary just built: a
# change to an estimate measured against the same real runs, in seconds instead of ~40 minutes.
.PHONY: revalidate
revalidate: build python-deps
	@.venv/bin/python tests/spark/validate.py --sf $(SF) --out $(BUILD_DIR)/validate \
	  --rounds $(VALIDATE_ROUNDS) --write docs/validation.md --reanalyze

.PHONY: bench-instructions
# Its own build for AVX2: valgrind cannot run the AVX-512 code -march=native gives on newer CPUs,
# and the counts stay comparable between machines. x86-64-v3 and PCLMUL: simdjson compiles
# On-Demand for its haswell kernel only with PCLMUL, else for its scalar fallback.
INSTR_DIR := build-instructions
bench-instructions: deps
	@scripts/install-deps.sh valgrind
	@cmake -S . -B $(INSTR_DIR) -DCMAKE_BUILD_TYPE=Release -DSF_MARCH_NATIVE=OFF \
	  "-DCMAKE_CXX_FLAGS=-march=x86-64-v3 -mpclmul" $(CMAKE_FLAGS) > $(INSTR_DIR).configure.log 2>&1 \
	  || { cat $(INSTR_DIR).configure.log; exit 1; }
	@cmake --build $(INSTR_DIR) -j$(JOBS) --target sf-bench-ingest sf-loggen sparkforensics
	@bench/instructions.sh $(INSTR_DIR)

# compare alone: the execution alignment and two ~1 GB logs end to end (also the end of make bench).
.PHONY: bench-compare
bench-compare: build
	@bench/compare.sh $(BUILD_DIR)

# The dashboard in chromium on the same ~1 GB log: first board, drill-down, API requests/s (also in make bench).
.PHONY: bench-dashboard
bench-dashboard: web-deps build
	@bench/dashboard.sh $(BUILD_DIR)

# serve beside Spark's History Server on a ~1 GB generated log, with the ratios (also the end of make bench).
.PHONY: bench-serve
bench-serve: build
	@bench/serve.sh $(BUILD_DIR)

# NVIDIA's profiling tool (rapids-4-spark-tools_2.12 on Spark 3.5, pinned in bench/nvidia/requirements.lock,
# in .venv-nvidia) beside analyze on the same logs: wall time, peak RSS, ratios (also the end of make bench).
.PHONY: bench-nvidia
bench-nvidia: build
	@bench/nvidia.sh $(BUILD_DIR)

# The fleet job on local-cluster Spark, 1 then 2 executors: logs/s, MB/s, speed-up, peak RSS per
# executor (bench/fleet.sh; SF_FLEET_SMALL_LOGS, SF_FLEET_LARGE_LOGS, SF_FLEET_LARGE_SCALE).
.PHONY: bench-fleet
bench-fleet: python-deps build
	@bench/fleet.sh $(BUILD_DIR)
	@$(MAKE) bench-store

# Verdict latency (trend of one target, of every subject's latest, a run) on a store of 1,000, 3,000
# and 10,000 results, old way and new side by side (bench/store_bench.cpp; docs/performance.md).
# SF_BENCH_POSTGRES_URL: the same on that PostgreSQL server too, in a schema of its own.
.PHONY: bench-store
bench-store: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS) --target sf-bench-store
	@$(BUILD_DIR)/bench/sf-bench-store $(if $(SF_BENCH_POSTGRES_URL),--postgres "$(SF_BENCH_POSTGRES_URL)")

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
