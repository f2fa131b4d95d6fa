#!/usr/bin/env bash
# The performance model checked on this machine (issue 24): fit on ResNet-20 at 1 and 2 ranks with the MPI
# all-reduce sweep at 2 ranks, predict 3 and 4 ranks with `scalebench project`, then run 3 and 4 ranks and print
# predicted against measured samples/s with the error. Run it on a quiet machine: every rank shares its CPUs.
#   bench/projection-validation.sh            REPEATS=3 STEPS=60 BACKEND=mpi by default (BACKEND=gloo: Gloo for
#                                             the gradients and the sweep)
# Needs build/release/app/scalebench and its engine. Prints the table; WORK=DIR keeps the sessions there.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${SCALEBENCH_CLI:-build/release/app/scalebench}
repeats=${REPEATS:-3}
steps=${STEPS:-60}
backend=${BACKEND:-mpi}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
db=$work/sessions.db
[ -x "$cli" ] || { echo "[validation] $cli not built: ninja -C build/release scalebench scalebench-engine" >&2; exit 1; }

group() { # RANKS: ResNet-20's plan group, the same settings at every rank count
  cat <<TOML
[[run]]
workload = "resnet20"
dataset = "fashion-mnist"
ranks = $1
steps = $steps
batch_per_rank = 64
warmup_steps = 10
eval_every = 0
overlap = true
bucket_mb = 0.25
backend = "$backend"
TOML
}
{
  printf 'name = "model-fit"\nrepeats = %s\n' "$repeats"
  group "[1, 2]"
  printf '[[run]]\nworkload = "allreduce-sweep"\nranks = [2]\nbackend = "%s"\ncollectives = ["allreduce"]\n' "$backend"
  printf 'sweep_points = 16\nsweep_max_log10 = 6\nrepetitions = 20\n'
} > "$work/fit.toml"
{ printf 'name = "model-check"\nrepeats = %s\n' "$repeats"; group "[3, 4]"; } > "$work/check.toml"

echo "[validation] fitting: $work/fit.toml"
"$cli" run "$work/fit.toml" --db "$db" --out "$work/fit" > "$work/fit.log"
echo "[validation] measuring 3 and 4 ranks: $work/check.toml"
"$cli" run "$work/check.toml" --db "$db" --out "$work/check" > "$work/check.log"
"$cli" project model-fit --db "$db" --to 1,2,3,4 | tee "$work/projection.txt"

# Predicted samples/s per rank count (the projection's 8th field), measured: the mean over the repeats in
# results.csv (column 7, samples_per_s).
echo
printf '%6s %14s %14s %9s\n' ranks predicted measured error
for n in 1 2 3 4; do
  predicted=$(awk -v n="$n" '$1 == n && ($2 == "predicted" || $2 == "extrap.") { print $8; exit }' "$work/projection.txt")
  csv=$work/fit/results.csv
  [ "$n" -ge 3 ] && csv=$work/check/results.csv
  measured=$(awk -F, -v n="$n" 'NR > 1 && $2 == "resnet20" && $4 == n && $6 == "ok" { s += $7; c++ } END { if (c) printf "%.1f", s / c }' "$csv")
  awk -v n="$n" -v p="$predicted" -v m="$measured" 'BEGIN { printf "%6d %14.1f %14.1f %+8.1f%%\n", n, p, m, (p / m - 1) * 100 }'
done
