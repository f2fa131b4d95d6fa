#!/usr/bin/env bash
# Writes tests/data/stores/7d9476d.sqlite: a session store as the release 7d9476d wrote it (schema 9), for the
# migration test (tests/control/test_store_fixture.cpp). Builds that release's console in a scratch worktree (no
# engine: the runs use ENGINE, an engine built from any later commit, whose metric stream 7d9476d reads), then:
#   session 1: fixture-plan.toml run on this machine (ResNet-20 at 1 and 2 ranks, a 2-rank all-reduce sweep);
#   session 2: the same plan with lr 0.1;
#   session 3: MLLOG files imported (no plan).
# and the console's own `compare 1 2` output beside it (7d9476d-compare.txt): what the migrated store must
# still print.
#   tests/data/stores/make-fixture.sh ENGINE
# CONSOLE=PATH uses a console already built from 7d9476d instead of building one.
set -euo pipefail
engine=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
scratch=$(mktemp -d /tmp/scalebench-fixture-XXXXXX)
trap 'git -C "$repo" worktree remove --force "$scratch/src" 2>/dev/null || true; rm -rf "$scratch"' EXIT
console=${CONSOLE:-}
if [[ -z $console ]]; then
    git -C "$repo" worktree add --detach "$scratch/src" 7d9476d >/dev/null
    cmake -S "$scratch/src" -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCALEBENCH_BUILD_ENGINE=OFF \
        >/dev/null
    ninja -C "$scratch/build" scalebench >/dev/null
    console="$scratch/build/app/scalebench"
fi
store="$scratch/store.sqlite"
sed 's/^lr = 0.05$/lr = 0.1/' "$here/fixture-plan.toml" >"$scratch/plan-lr.toml"
"$console" run "$here/fixture-plan.toml" --db "$store" --engine "$engine" --out "$scratch/runs"
"$console" run "$scratch/plan-lr.toml" --db "$store" --engine "$engine" --out "$scratch/runs"
"$console" import "$repo/tests/data/mllog/bert_success.log" "$repo/tests/data/mllog/resnet_aborted.log" \
    --format mllog --ranks 8 --session mllog --db "$store"
"$console" compare 1 2 --db "$store" >"$here/7d9476d-compare.txt"
sqlite3 "$store" "PRAGMA wal_checkpoint(TRUNCATE); VACUUM;" >/dev/null 2>&1 || true
cp "$store" "$here/7d9476d.sqlite"
echo "wrote $here/7d9476d.sqlite (schema $(sqlite3 "$store" 'PRAGMA user_version' 2>/dev/null || echo 9))"
