#!/usr/bin/env bash
# The performance model against the test cluster's 2 nodes (issue 24): fit on ResNet-20 at 1 and 2 ranks on this
# machine (one node, the MPI sweep at 2 ranks), predict 2 ranks on 2 nodes (`project --ranks-per-node 1`: the
# sweep never crossed a node, so the intra-node fit stands in, and the table says so), then run 1 and 2 ranks,
# one per node, and the sweep across the 2 nodes on a test cluster started here (tests/cluster/cluster_fixture.sh;
# needs root). Prints predicted against measured with the error, and the cluster session's own projection with
# its per-bucket check across nodes. The engine is built on the cluster by a Slurm job first (minutes).
#   bench/cluster-projection-validation.sh     REPEATS=3 STEPS=60; WORK=DIR keeps the sessions there
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cli=${SCALEBENCH_CLI:-build/release/app/scalebench}
repeats=${REPEATS:-3}
steps=${STEPS:-60}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
chmod 755 "$work"
db=$work/sessions.db
say() { printf '[cluster-validation] %s\n' "$*"; }
[ -x "$cli" ] || { say "$cli not built: ninja -C build/release scalebench scalebench-engine" >&2; exit 1; }
cluster=$(mktemp -d /tmp/scalebench-validation-cluster-XXXXXX)
trap '"$here/tests/cluster/cluster_fixture.sh" stop "$cluster" >/dev/null 2>&1 || true; rm -rf "$cluster"' EXIT

plan() { # NAME RANKS: ResNet-20 and the MPI all-reduce sweep at 2 ranks
  cat <<TOML
name = "$1"
repeats = $repeats
[[run]]
workload = "resnet20"
dataset = "fashion-mnist"
ranks = $2
steps = $steps
batch_per_rank = 64
warmup_steps = 10
eval_every = 0
overlap = true
bucket_mb = 0.25
backend = "mpi"
threads_per_rank = 1
[[run]]
workload = "allreduce-sweep"
ranks = [2]
backend = "mpi"
collectives = ["allreduce"]
sweep_points = 16
sweep_max_log10 = 6
repetitions = 20
TOML
}
plan model-fit "[1, 2]" > "$work/fit.toml"
plan cluster-check "[1, 2]" > "$work/cluster.toml"

say "fitting on this machine: $work/fit.toml"
"$cli" run "$work/fit.toml" --db "$db" --out "$work/fit" > "$work/fit.log"

say "starting a 2-node test cluster in $cluster"
"$here/tests/cluster/cluster_fixture.sh" start "$cluster" 2 > /dev/null
# shellcheck disable=SC1091
. "$cluster/cluster.env"
cat > "$work/clusters.toml" <<TOML
[[cluster]]
name = "test"
host = "127.0.0.1"
port = $SSH_PORT
user = "$SSH_USER"
identity_files = ["$SSH_KEY"]
known_hosts = "$SSH_KNOWN_HOSTS"
remote_root = "$SCALEBENCH_ROOT"
torch_python = "$here/.venv/bin/python"
tasks_per_node = 1
exclusive = false
time_limit = "00:30:00"
poll_seconds = 1
TOML
"$cli" add-clusters "$work/clusters.toml" --db "$db" > /dev/null
say "running 1 and 2 ranks, one per node, on the cluster (the engine is built there first)"
SLURM_CONF=$SLURM_CONF "$cli" run "$work/cluster.toml" --cluster test --db "$db" --out "$work/cluster" > "$work/cluster.log" 2>&1 \
  || { tail -20 "$work/cluster.log"; exit 1; }

"$cli" project model-fit --db "$db" --to 1,2 --ranks-per-node 1 | tee "$work/projection.txt"
echo
"$cli" project cluster-check --db "$db" --to 1,2,4 | tee "$work/cluster-projection.txt"

# Predicted samples/s (the projection's 8th field), measured: the mean over the repeats in results.csv.
measured() { awk -F, -v n="$2" 'NR > 1 && $2 == "resnet20" && $4 == n && $6 == "ok" { s += $7; c++ } END { if (c) printf "%.1f", s / c }' "$1"; }
echo
printf '%-44s %12s %12s %9s\n' "" predicted measured error
for n in 1 2; do
  predicted=$(awk -v n="$n" '$1 == n && ($2 == "predicted" || $2 == "extrap.") { print $8; exit }' "$work/projection.txt")
  m=$(measured "$work/cluster/results.csv" "$n")
  awk -v l="$n rank(s) on the cluster, from this machine's fit" -v p="$predicted" -v m="$m" \
    'BEGIN { printf "%-44s %12.1f %12.1f %+8.1f%%\n", l, p, m, (p / m - 1) * 100 }'
done
say "sessions in $db; load average $(cut -d' ' -f1-3 /proc/loadavg)"
