# The two user commands: `make quickstart` and `make test`. Each installs what is missing, builds, then runs.
PRESET ?= release
BUILD  := build/$(PRESET)
DB     ?= out/scalebench.db

.PHONY: quickstart test setup build screenshot screenshots clean

quickstart: build
	@echo "[quickstart] running resources/plans/quickstart.toml on this machine (store: $(DB))"
	$(BUILD)/app/scalebench --batch resources/plans/quickstart.toml --db $(DB) --out out/quickstart

test: build
	@echo "[test] running every test (unit, integration, GUI offscreen)"
	ctest --preset $(PRESET)

setup:
	@scripts/setup.sh

build: setup
	@test -f $(BUILD)/build.ninja || { echo "[build] configuring preset $(PRESET)"; cmake --preset $(PRESET); }
	@echo "[build] building $(BUILD)"
	@cmake --build --preset $(PRESET)

# README screenshot of the main window over the sessions in $(DB), in a real X server.
screenshot: build
	xvfb-run -a -s "-screen 0 1280x800x24" $(BUILD)/app/scalebench --db $(DB) --screenshot docs/main-window.png

# Every main view (plan, runs, live, scaling, breakdown, collectives, compare, clusters) into docs/images/.
screenshots: build
	BUILD=$(CURDIR)/$(BUILD) scripts/screenshots.sh

clean:
	rm -rf build out
