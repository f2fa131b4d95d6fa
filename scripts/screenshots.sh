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
# The window at a laptop's 1280x800, and at QT_SCALE_FACTOR=2 on a 2560x1600 screen (the same 1280x800 logical)
# into docs/images/scale2/.
shoot() { # DB PNG TAB
  XDG_CONFIG_HOME=$settings xvfb-run -a -s "-screen 0 1280x800x24" \
    "$build/app/scalebench" --db "$1" --screenshot "$images/$2" --tab "$3" 2>/dev/null
  XDG_CONFIG_HOME=$settings QT_SCALE_FACTOR=2 xvfb-run -a -s "-screen 0 2560x1600x24" \
    "$build/app/scalebench" --db "$1" --screenshot "$images/scale2/$2" --tab "$3" 2>/dev/null
  say "docs/images/$2 and docs/images/scale2/$2"
}
# Sessions whose figures the pictures show are run only on an idle machine: a loaded one's figures are its load's.
idle_or_refuse() {
  local load cpus
  load=$(cut -d' ' -f1 /proc/loadavg)
  cpus=$(nproc)
  if awk -v l="$load" -v c="$cpus" 'BEGIN { exit !(l > c / 2) }'; then
    echo "[screenshots] refusing to run sessions: load average $load on $cpus CPUs (wait for an idle machine;" \
      "the stored sessions in $out are reused without FRESH=1)" >&2
    exit 1
  fi
}

if [ ! -f "$db" ] || [ "${FRESH:-0}" = 1 ]; then
  idle_or_refuse
  rm -f "$db" "$db"-wal "$db"-shm
  for plan in baseline overlap; do
    say "running resources/plans/screenshots/$plan.toml into $db"
    "$build/app/scalebench" run "$here/resources/plans/screenshots/$plan.toml" --db "$db" --out "$out/$plan" >/dev/null
  done
else
  say "reusing the sessions in $db (FRESH=1 runs them again)"
fi

mkdir -p "$images/scale2"
# A fresh settings folder: the window opens at its default size, whatever a user's layout is.
settings=$(mktemp -d)
trap 'rm -rf "$settings"' EXIT
for tab in plan runs live scaling breakdown collectives compare clusters; do
  shoot "$db" "$tab.png" "$tab"
done
# The first start: an empty store's Runs tab says what to do.
empty_db=$(mktemp -d)/empty.db
shoot "$empty_db" first-start.png runs

# MLBench task 1 from its plan file (issue 19): time to 80 % at 1 and 2 ranks, 3 repeats each (about 10 minutes).
task1_db=$out/task1.db
if [ ! -f "$task1_db" ] || [ "${FRESH:-0}" = 1 ]; then
  idle_or_refuse
  rm -f "$task1_db" "$task1_db"-wal "$task1_db"-shm
  say "running resources/plans/seeds/mlbench-task1-here.toml into $task1_db"
  "$build/app/scalebench" run "$here/resources/plans/seeds/mlbench-task1-here.toml" --db "$task1_db" \
    --out "$out/task1" >/dev/null
fi
for tab in scaling runs; do
  shoot "$task1_db" "task1-$tab.png" "$tab"
done

# The performance model's projection (the Scaling tab's Projection page) of the model's fixture plan: ResNet-20 at
# 1 and 2 ranks and the MPI all-reduce sweep (a few minutes).
projection_db=$out/projection.db
if [ ! -f "$projection_db" ] || [ "${FRESH:-0}" = 1 ]; then
  idle_or_refuse
  rm -f "$projection_db" "$projection_db"-wal "$projection_db"-shm
  say "running tests/data/projection/plan.toml into $projection_db"
  "$build/app/scalebench" run "$here/tests/data/projection/plan.toml" --db "$projection_db" \
    --out "$out/projection" >/dev/null
fi
shoot "$projection_db" scaling-projection.png projection
