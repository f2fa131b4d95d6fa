# The two user commands: `make quickstart` and `make test`. Each installs what is missing, builds, then runs.
PRESET ?= release
BUILD  := build/$(PRESET)
DB     ?= out/scalebench.db
# The engine against LibTorch's CUDA libraries and the CUDA 13.0 toolkit (preset cuda; docs/testing.md).
CUDA_ENGINE := build/cuda/trainers/scalebench-engine
# Seconds each fuzz target runs in `make soak` (bench/fuzz.sh); make test fuzzes each for 8 s (docs/testing.md).
FUZZ_SECONDS ?= 600

.PHONY: quickstart test lint setup build build-cuda build-fuzz screenshots bench soak clean

quickstart: build
	@echo "[quickstart] running resources/plans/quickstart.toml on this machine (store: $(DB))"
	$(BUILD)/app/scalebench run resources/plans/quickstart.toml --db $(DB) --out out/quickstart

test: build build-cuda build-fuzz
	@echo "[test] running every test (unit, integration, GUI offscreen)"
	ctest --preset $(PRESET)
	@echo "[test] the tests that launch the engine (label engine) again, with the cuda preset's engine"
	SCALEBENCH_TEST_ENGINE=$(CURDIR)/$(CUDA_ENGINE) ctest --preset $(PRESET) -L engine
	@echo "[test] every parser's fuzz target: its seeds and kept crash inputs replayed, then a short fuzzing run"
	ctest --preset fuzz

# Every C++ file in the repository as .clang-format writes it; names the files that are not (CI runs it).
lint: setup
	@scripts/lint.sh

setup:
	@scripts/setup.sh

build: setup
	@test -f $(BUILD)/build.ninja || { echo "[build] configuring preset $(PRESET)"; cmake --preset $(PRESET); }
	@echo "[build] building $(BUILD)"
	@cmake --build --preset $(PRESET)

# Only the engine is built there (SCALEBENCH_ENGINE_ONLY): its tests are the release build's, run against it.
build-cuda: setup
	@test -f build/cuda/build.ninja || { echo "[build] configuring preset cuda"; cmake --preset cuda; }
	@echo "[build] building build/cuda (the engine with LibTorch's CUDA libraries)"
	@cmake --build --preset cuda
	@readelf -d $(CUDA_ENGINE) | grep -q 'libtorch_cuda\.so' || \
	  { echo "[build] error: $(CUDA_ENGINE) does not link libtorch_cuda.so"; exit 1; }

# Every parser's libFuzzer target under ASan and UBSan (Debian's clang 14): only core and remote are built there.
build-fuzz: setup
	@test -f build/fuzz/build.ninja || { echo "[build] configuring preset fuzz"; cmake --preset fuzz; }
	@echo "[build] building build/fuzz (the fuzz targets of every parser, ASan and UBSan)"
	@cmake --build --preset fuzz

# Every main view (plan, runs, live, scaling, breakdown, collectives, compare, clusters) into docs/images/.
screenshots: build
	BUILD=$(CURDIR)/$(BUILD) scripts/screenshots.sh

# The benchmarks against their peers (bench/README.md); peers' set-up is bench/setup-peers.sh.
bench: build
	$(BUILD)/bench/live_view_bench
	-$(BUILD)/bench/window_stall_bench # over its 50 ms budget for now (bench/results/2026-11-26-smooth-at-scale.md)
	bench/train_vs_ddp.py --engine $(BUILD)/trainers/scalebench-engine
	bench/exposed_comm.py --engine $(BUILD)/trainers/scalebench-engine --bucket-mb 0.25

# The long reliability runs (docs/testing.md, "Reliability in figures"): 1000 kill -9 of the store, 100 connection
# kills a path (bench/soak.sh), then every fuzz target for FUZZ_SECONDS (bench/fuzz.sh); figures to bench/results/.
soak: build
	bench/soak.sh
	bench/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf build out
