#!/bin/bash
# make screenshots: each main view of the console, rendered by the real window under Xvfb into docs/images/,
# from two real sessions run on this machine (resources/plans/screenshots/: without and with overlap), and the
# Scaling tab's projection from a run of the performance model's fixture plan (tests/data/projection/plan.toml).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$here/build/release}
out=$here/out/screenshots
db=$out/sessions.db
images=$here/docs/images
say() { echo "[screenshots] $*"; }

if [ ! -f "$db" ] || [ "${FRESH:-0}" = 1 ]; then
  rm -f "$db" "$db"-wal "$db"-shm
  for plan in baseline overlap; do
    say "running resources/plans/screenshots/$plan.toml into $db"
    "$build/app/scalebench" run "$here/resources/plans/screenshots/$plan.toml" --db "$db" --out "$out/$plan" >/dev/null
  done
else
  say "reusing the sessions in $db (FRESH=1 runs them again)"
fi

mkdir -p "$images"
# A fresh settings folder: the window opens at its default size, whatever a user's layout is.
settings=$(mktemp -d)
trap 'rm -rf "$settings"' EXIT
for tab in plan runs live scaling breakdown collectives compare clusters; do
  XDG_CONFIG_HOME=$settings xvfb-run -a -s "-screen 0 1400x900x24" \
    "$build/app/scalebench" --db "$db" --screenshot "$images/$tab.png" --tab "$tab" 2>/dev/null
  say "docs/images/$tab.png"
done

# MLBench task 1 from its plan file (issue 19): time to 80 % at 1 and 2 ranks, 3 repeats each (about 10 minutes).
task1_db=$out/task1.db
if [ ! -f "$task1_db" ] || [ "${FRESH:-0}" = 1 ]; then
  rm -f "$task1_db" "$task1_db"-wal "$task1_db"-shm
  say "running resources/plans/seeds/mlbench-task1-here.toml into $task1_db"
  "$build/app/scalebench" run "$here/resources/plans/seeds/mlbench-task1-here.toml" --db "$task1_db" \
    --out "$out/task1" >/dev/null
fi
for tab in scaling runs; do
  XDG_CONFIG_HOME=$settings xvfb-run -a -s "-screen 0 1400x900x24" \
    "$build/app/scalebench" --db "$task1_db" --screenshot "$images/task1-$tab.png" --tab "$tab" 2>/dev/null
  say "docs/images/task1-$tab.png"
done

# The performance model's projection (the Scaling tab's Projection page) of the model's fixture plan: ResNet-20 at
# 1 and 2 ranks and the MPI all-reduce sweep (a few minutes).
projection_db=$out/projection.db
if [ ! -f "$projection_db" ] || [ "${FRESH:-0}" = 1 ]; then
  rm -f "$projection_db" "$projection_db"-wal "$projection_db"-shm
  say "running tests/data/projection/plan.toml into $projection_db"
  "$build/app/scalebench" run "$here/tests/data/projection/plan.toml" --db "$projection_db" \
    --out "$out/projection" >/dev/null
fi
XDG_CONFIG_HOME=$settings xvfb-run -a -s "-screen 0 1400x900x24" \
  "$build/app/scalebench" --db "$projection_db" --screenshot "$images/scaling-projection.png" --tab projection \
  2>/dev/null
say "docs/images/scaling-projection.png"
