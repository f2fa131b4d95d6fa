#!/usr/bin/env bash
# The long reliability runs, whose short versions make test runs (docs/testing.md, "Reliability in figures"):
# kill -9 of `scalebench --batch` while it writes its store, and connection kills during streamed runs on a test
# cluster started here (direct and through its bastion). Appends their figures to bench/results/DATE-reliability.md.
#
#   bench/soak.sh [STORE_KILLS [CONNECTION_KILLS]]   (defaults 1000 and 100 a path, 0 skips; about 20 minutes on 2 cores)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build="${BUILD:-$here/build/release}"
store_kills="${1:-1000}"
connection_kills="${2:-100}"
tests="$build/tests/scalebench_reliability_tests"
results="$here/bench/results/$(date -u +%F)-reliability.md"
commit=$(git -C "$here" rev-parse --short HEAD) # at the start: the build is what was there then
say() { printf '[soak] %s\n' "$*"; }

[ -x "$tests" ] || { echo "[soak] error: $tests missing: run make build first" >&2; exit 1; }
cluster=$(mktemp -d /tmp/scalebench-soak-cluster-XXXXXX)
figures=$(mktemp /tmp/scalebench-soak-figures-XXXXXX)
stop_cluster() { "$here/tests/cluster/cluster_fixture.sh" stop "$cluster" >/dev/null 2>&1 || true; rm -rf "$cluster"; }
trap 'stop_cluster; rm -f "$figures"' EXIT

say "starting a test cluster (Slurm, sshd, bastion) in $cluster"
"$here/tests/cluster/cluster_fixture.sh" start "$cluster" 2 >/dev/null

run() { # NAME TEST-SPEC: a reliability test, its figures kept
  local name=$1 spec=$2 start end status=0
  say "$name"
  start=$(date +%s)
  SCALEBENCH_TEST_CLUSTER="$cluster" SCALEBENCH_SOAK_RESULTS="$figures" \
    SCALEBENCH_STORE_KILLS="$store_kills" SCALEBENCH_CONNECTION_KILLS="$connection_kills" \
    "$tests" "$spec" >"$figures.$name.log" 2>&1 || status=$?
  end=$(date +%s)
  echo "($name: $((end - start)) s, exit status $status)" >>"$figures"
  tail -3 "$figures.$name.log"
  rm -f "$figures.$name.log"
  return 0
}
[ "$store_kills" -eq 0 ] || run store-kills "[store-kills]"
[ "$connection_kills" -eq 0 ] || run connection-kills "[connection-kills]"

{
  [ -s "$results" ] && echo
  echo "## Reliability soak, $(date -u '+%F %H:%M UTC')"
  echo
  echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(free -g | awk '/Mem:/{print $2}') GiB;" \
       "scalebench $commit."
  echo "Command: \`bench/soak.sh $store_kills $connection_kills\` (build $build)."
  echo
  echo '```'
  cat "$figures"
  echo '```'
} >>"$results"
say "figures in $results"
cat "$results"
