# SparkForensics: the commands a newcomer runs. Each target installs what is missing
# (scripts/install-deps.sh runs apt-get only for absent packages), builds, and does its job.
#
#   make demo    build, generate a realistic sample event log, analyze it
#   make test    build and run every test (unit, corpus, end to end)
#   make bench   build and print the speed and memory ratios
#
# BUILD_DIR and CMAKE_FLAGS may be overridden, e.g. CMAKE_FLAGS=-DSF_WERROR=ON (what CI uses).

BUILD_DIR   ?= build
BUILD_TYPE  ?= Release
CMAKE_FLAGS ?=
JOBS        ?= 2
MAKEFLAGS   += --no-print-directory
SF          := $(BUILD_DIR)/src/cli/sparkforensics
LOGGEN      := $(BUILD_DIR)/bench/loggen/sf-loggen

.PHONY: deps configure build demo test bench clean

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS) > $(BUILD_DIR).configure.log 2>&1 \
	  || { cat $(BUILD_DIR).configure.log; exit 1; }

build: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS)

demo: build
	@mkdir -p $(BUILD_DIR)/demo
	@$(LOGGEN) --preset demo --codec zstd --layout file --out $(BUILD_DIR)/demo > $(BUILD_DIR)/demo/log-path.txt
	@echo "== sparkforensics analyze $$(cat $(BUILD_DIR)/demo/log-path.txt)"
	@$(SF) analyze "$$(cat $(BUILD_DIR)/demo/log-path.txt)"

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS); status=$$?; \
	  python3 ../tests/print_skips.py Testing/Temporary/LastTest.log; exit $$status

bench: build
	@bench/run.sh $(BUILD_DIR)

# The execution alignment benchmark of `compare` (bench/compare.sh).
.PHONY: bench-compare
bench-compare: build
	@bench/compare.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
