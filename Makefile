# The two user commands: `make quickstart` and `make test`. Each installs what is missing, builds, then runs.
PRESET ?= release
BUILD  := build/$(PRESET)
DB     ?= out/scalebench.db

.PHONY: quickstart test lint setup build screenshots bench clean

quickstart: build
	@echo "[quickstart] running resources/plans/quickstart.toml on this machine (store: $(DB))"
	$(BUILD)/app/scalebench run resources/plans/quickstart.toml --db $(DB) --out out/quickstart

test: build
	@echo "[test] running every test (unit, integration, GUI offscreen)"
	ctest --preset $(PRESET)

# Every C++ file in the repository as .clang-format writes it; names the files that are not (CI runs it).
lint: setup
	@scripts/lint.sh

setup:
	@scripts/setup.sh

build: setup
	@test -f $(BUILD)/build.ninja || { echo "[build] configuring preset $(PRESET)"; cmake --preset $(PRESET); }
	@echo "[build] building $(BUILD)"
	@cmake --build --preset $(PRESET)

# Every main view (plan, runs, live, scaling, breakdown, collectives, compare, clusters) into docs/images/.
screenshots: build
	BUILD=$(CURDIR)/$(BUILD) scripts/screenshots.sh

# The benchmarks against their peers (bench/README.md); peers' set-up is bench/setup-peers.sh.
bench: build
	$(BUILD)/bench/live_view_bench
	bench/train_vs_ddp.py --engine $(BUILD)/trainers/scalebench-engine
	bench/exposed_comm.py --engine $(BUILD)/trainers/scalebench-engine --bucket-mb 0.25

clean:
	rm -rf build out
