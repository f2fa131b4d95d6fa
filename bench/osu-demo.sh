#!/usr/bin/env bash
# OSU's osu_allreduce launched from a plan on this machine (resources/plans/osu-allreduce.toml: OSU at 2 ranks,
# the engine's sweep of the same sizes at 1 and 2), its output streamed, read by the OSU reader and stored in one
# session; prints the results and the engine's time per call against OSU's per size (ratios at 2 ranks); then OSU
# at 1 rank, which OSU refuses ("requires at least two processes"): that run is stored failed with OSU's words.
# Writes bench/results/DATE-osu-demo.md and renders the Collectives tab into docs/images/collectives-osu.png
# (Xvfb).
#
#   bench/osu-demo.sh [OSU_BIN_DIR]      # default /work/peers/osu-build/c/mpi/collective/blocking
#
# OSU is built outside this repository by bench/build-osu.sh (OMB 7.4 from a public mirror: tests/data/osu/README.md).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$here/build/release}
osu_dir=${1:-${OSU_DIR:-/work/peers/osu-build/c/mpi/collective/blocking}}
if [[ ! -x "$osu_dir/osu_allreduce" ]]; then
    echo "[osu-demo] no osu_allreduce in $osu_dir: build it with bench/build-osu.sh OMB_SOURCE_DIR" >&2
    exit 2
fi
out=$here/out/osu-demo
rm -rf "$out"
mkdir -p "$out"
say() { echo "[osu-demo] $*"; }

say "scalebench run resources/plans/osu-allreduce.toml with $osu_dir on PATH"
PATH="$osu_dir:$PATH" "$build/app/scalebench" run "$here/resources/plans/osu-allreduce.toml" \
    --db "$out/sessions.db" --out "$out" | tee "$out/run.log"

say "engine against OSU, time per call at each size (the session's stored records)"
python3 - "$out/sessions.db" <<'PY' | tee "$out/ratios.txt"
import sqlite3, statistics, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT tool, ranks, bytes, time_s, busbw_gbps FROM collectives").fetchall()
for ranks in sorted({r[1] for r in rows}):
    engine = {r[2]: r for r in rows if r[0] == "scalebench" and r[1] == ranks}
    osu = {r[2]: r for r in rows if r[0] == "osu" and r[1] == ranks}
    sizes = sorted(set(engine) & set(osu))
    print(f"\n{ranks} rank(s): {len(sizes)} sizes measured by both (time: mean per call across ranks)")
    print(f"{'bytes':>10} {'engine us':>11} {'OSU us':>9} {'engine/OSU':>11} {'engine busbw':>13} {'OSU busbw':>10}")
    ratios = []
    for size in sizes:
        e, o = engine[size], osu[size]
        ratio = e[3] / o[3] if o[3] > 0 else float("nan")
        ratios.append(ratio)
        print(f"{size:>10} {e[3]*1e6:>11.2f} {o[3]*1e6:>9.2f} {ratio:>11.2f} {e[4]:>13.3f} {o[4]:>10.3f}")
    if ratios:
        print(f"median engine/OSU time ratio at {ranks} rank(s): {statistics.median(ratios):.2f} "
              f"(one launch each: Open MPI's shared-memory all-reduce varies from launch to launch; "
              f"bench/allreduce_vs_osu.py measures the ratio with repeats and a control)")
PY

say "OSU at 1 rank (the same command, ranks = 1)"
sed -e 's/^ranks = \[2\]$/ranks = [1]/' -e '/^\[\[run\]\]$/,$!b' "$here/resources/plans/osu-allreduce.toml" |
    awk '/^\[\[run\]\]/{n++} n<2' >"$out/osu-one-rank.toml"
set +e
PATH="$osu_dir:$PATH" "$build/app/scalebench" run "$out/osu-one-rank.toml" --db "$out/one-rank.db" \
    --out "$out/one-rank" >"$out/one-rank.log" 2>&1
one_rank_status=$?
set -e
grep -E "FAILED|requires|exit" "$out/one-rank.log" | head -5 | tee "$out/one-rank.txt"
echo "scalebench run exit status: $one_rank_status (1: a run failed)" | tee -a "$out/one-rank.txt"

images=$here/docs/images
settings=$(mktemp -d)
trap 'rm -rf "$settings"' EXIT
XDG_CONFIG_HOME=$settings xvfb-run -a -s "-screen 0 1400x900x24" \
    "$build/app/scalebench" --db "$out/sessions.db" --screenshot "$images/collectives-osu.png" --tab collectives \
    2>/dev/null
say "docs/images/collectives-osu.png"

result=$here/bench/results/$(date +%F)-osu-demo.md
{
    echo "# OSU all-reduce from a plan, beside the engine's sweep ($(date +%F))"
    echo
    echo "\`bench/osu-demo.sh\` on $(git -C "$here" rev-parse --short HEAD), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
         "$(nproc) CPUs; OSU: $("$osu_dir/osu_allreduce" -v 2>/dev/null | head -1 || echo "$osu_dir/osu_allreduce")."
    echo
    echo '```'
    cat "$out/run.log" "$out/ratios.txt"
    echo '```'
    echo
    echo "OSU at 1 rank:"
    echo
    echo '```'
    cat "$out/one-rank.txt"
    echo '```'
} >"$result"
say "$result"
