# The two user commands: `make quickstart` and `make test`. Each installs what is missing, builds, then runs.
PRESET ?= release
BUILD  := build/$(PRESET)
DB     ?= out/scalebench.db
# The engine against LibTorch's CUDA libraries and the CUDA 13.0 toolkit (preset cuda; docs/testing.md).
CUDA_ENGINE := build/cuda/trainers/scalebench-engine
# What a CUDA build changes, run against it in `make test` (all 56 engine tests: `ctest --preset cuda`): its command
# line, the device and backend choice without a GPU, every precision, the collectives and gradient buckets on MPI and
# Gloo, a training run stored end to end, the all-reduce sweep, and the device self-check's CPU half.
CUDA_ENGINE_TESTS := cli\.engine-|device cuda stops at start|NCCL backend without a usable GPU|bf16 and fp16 training of ResNet-20|every precision the catalog offers|every collective, dtype|bucketed gradients averaged|ResNet-20 on Fashion-MNIST at 2 ranks|all-reduce sweep at 2 ranks|the device self-check
CUDA_ENGINE_TEST_COUNT := 12
# Seconds each fuzz target runs in `make soak` (bench/fuzz.sh); make test fuzzes each for 4 s (docs/testing.md).
FUZZ_SECONDS ?= 600

# Where `make install` puts scalebench (cmake --install; DESTDIR is honoured as well).
PREFIX ?= /usr/local

# Each phase's wall time, printed at the end of `make quickstart` and `make test` (scripts/timed.sh).
PHASES := build/phase-times.tsv
TIMED  := scripts/timed.sh $(PHASES)
# The CUDA toolkit of the cuda preset: this machine's, else the one scripts/setup.sh made from PyPI's wheels.
CUDA_ROOT ?= $(if $(wildcard /usr/local/cuda/bin/nvcc),/usr/local/cuda,$(CURDIR)/.cuda)

.PHONY: quickstart test lint setup build build-console build-cuda build-fuzz screenshots bench soak clean install deb \
        configure-release configure-cuda configure-fuzz build-cuda-only

# Only what the quickstart runs: its set-up profile (no test cluster, no fuzzing compiler, no CUDA build libraries)
# and two targets, the console and the engine.
quickstart:
	@rm -f $(PHASES)
	@$(TIMED) "set-up (scripts/setup.sh quickstart)" scripts/setup.sh quickstart
	@$(TIMED) "build: console and engine" $(MAKE) --no-print-directory configure-release
	@$(TIMED) "build: console and engine" cmake --build --preset $(PRESET) --target scalebench scalebench-engine
	@echo "[quickstart] running resources/plans/quickstart.toml on this machine (store: $(DB))"
	@$(TIMED) "quickstart plan" $(BUILD)/app/scalebench run resources/plans/quickstart.toml --db $(DB) --out out/quickstart
	@$(TIMED) --report quickstart

test:
	@rm -f $(PHASES)
	@$(TIMED) "set-up (scripts/setup.sh test)" scripts/setup.sh test
	@$(TIMED) "build: $(PRESET)" $(MAKE) --no-print-directory configure-release
	@$(TIMED) "build: $(PRESET)" cmake --build --preset $(PRESET)
	@$(TIMED) "build: cuda" $(MAKE) --no-print-directory configure-cuda
	@$(TIMED) "build: cuda" $(MAKE) --no-print-directory build-cuda-only
	@$(TIMED) "build: fuzz" $(MAKE) --no-print-directory configure-fuzz
	@$(TIMED) "build: fuzz" cmake --build --preset fuzz
	@echo "[test] running every test (unit, integration, GUI offscreen)"
	@$(TIMED) "tests: ctest --preset $(PRESET)" ctest --preset $(PRESET)
	@echo "[test] the engine tests that differ in a CUDA build ($(CUDA_ENGINE_TEST_COUNT)), again with the cuda preset's engine"
	@n=$$(ctest --preset $(PRESET) -L engine -R '$(CUDA_ENGINE_TESTS)' -N | grep -c 'Test *#'); \
	  [ "$$n" -eq $(CUDA_ENGINE_TEST_COUNT) ] || { echo "[test] CUDA_ENGINE_TESTS names $$n tests, not $(CUDA_ENGINE_TEST_COUNT): a test was renamed?"; exit 1; }
	@$(TIMED) "tests: the CUDA engine's $(CUDA_ENGINE_TEST_COUNT)" env SCALEBENCH_TEST_ENGINE=$(CURDIR)/$(CUDA_ENGINE) \
	  ctest --preset $(PRESET) -L engine -R '$(CUDA_ENGINE_TESTS)'
	@echo "[test] every parser's fuzz target: its seeds and kept crash inputs replayed, then a short fuzzing run"
	@$(TIMED) "tests: ctest --preset fuzz" ctest --preset fuzz
	@$(TIMED) --report test

# Every C++ file in the repository as .clang-format writes it; names the files that are not (CI runs it).
lint: setup
	@scripts/lint.sh

setup:
	@scripts/setup.sh test

# A preset's build folder, configured once (a later build reconfigures by itself when a CMakeLists.txt changes).
configure-release:
	@test -f $(BUILD)/build.ninja || { echo "[build] configuring preset $(PRESET)"; cmake --preset $(PRESET); }
	@echo "[build] building $(BUILD)"

# The cuda preset against CUDA_ROOT's toolkit (its nvcc and libraries).
configure-cuda:
	@test -f build/cuda/build.ninja || { echo "[build] configuring preset cuda (CUDA toolkit: $(CUDA_ROOT))"; \
	  cmake --preset cuda -DCMAKE_CUDA_COMPILER=$(CUDA_ROOT)/bin/nvcc -DCUDAToolkit_ROOT=$(CUDA_ROOT) \
	    -DCUDA_TOOLKIT_ROOT_DIR=$(CUDA_ROOT); }
	@echo "[build] building build/cuda (the engine with LibTorch's CUDA libraries)"

configure-fuzz:
	@test -f build/fuzz/build.ninja || { echo "[build] configuring preset fuzz"; cmake --preset fuzz; }
	@echo "[build] building build/fuzz (the fuzz targets of every parser, ASan and UBSan)"

build: setup configure-release
	@cmake --build --preset $(PRESET)

# Only the engine is built there (SCALEBENCH_ENGINE_ONLY): its tests are the release build's, run against it.
build-cuda: setup configure-cuda build-cuda-only

build-cuda-only:
	@cmake --build --preset cuda
	@readelf -d $(CUDA_ENGINE) | grep -q 'libtorch_cuda\.so' || \
	  { echo "[build] error: $(CUDA_ENGINE) does not link libtorch_cuda.so"; exit 1; }

# Every parser's libFuzzer target under ASan and UBSan (Debian's clang 14): only core and remote are built there.
build-fuzz: setup configure-fuzz
	@cmake --build --preset fuzz

# Every main view (plan, runs, live, scaling, breakdown, collectives, compare, clusters) into docs/images/.
screenshots: build
	BUILD=$(CURDIR)/$(BUILD) scripts/screenshots.sh

# The benchmarks against their peers (bench/README.md); peers' set-up is bench/setup-peers.sh.
bench: build
	$(BUILD)/bench/live_view_bench
	$(BUILD)/bench/window_stall_bench
	bench/train_vs_ddp.py --engine $(BUILD)/trainers/scalebench-engine
	bench/exposed_comm.py --engine $(BUILD)/trainers/scalebench-engine --bucket-mb 0.25

# The long reliability runs (docs/testing.md, "Reliability in figures"): 1000 kill -9 of the store, 100 connection
# kills a path (bench/soak.sh), then every fuzz target for FUZZ_SECONDS (bench/fuzz.sh); figures to bench/results/.
soak: build
	bench/soak.sh
	bench/fuzz.sh $(FUZZ_SECONDS)

# Only the console is built for these: the package ships the engine's sources, built on first use (README, Install).
build-console: setup configure-release
	@cmake --build $(BUILD) --target scalebench

# The console, its plans and formats, the engine's sources, the desktop entry, icon and metainfo under PREFIX.
install: build-console
	cmake --install $(BUILD) --prefix $(PREFIX)

# The Debian package, into $(BUILD): cpack -G DEB (packaging/CMakeLists.txt declares its dependencies).
deb: build-console
	cd $(BUILD) && cpack -G DEB
	@ls -l $(BUILD)/scalebench_*.deb

clean:
	rm -rf build out
