#!/usr/bin/env bash
# The performance model against the seeds' own tables (issue 24), no GPU needed: each bench/seeds/*.toml states
# one measured point from a seed and the link figures the seed does not give; `scalebench project` predicts the
# seed's other rows, and this prints predicted against the seed's figure with the error, then how the prediction
# moves with the inputs that are assumed (bench/results/2026-11-26-seeds-validation.md says what it means).
#   bench/seeds-validation.sh     needs build/release/app/scalebench
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${SCALEBENCH_CLI:-build/release/app/scalebench}
[ -x "$cli" ] || { echo "[seeds] $cli not built: ninja -C build/release scalebench" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# field FILE RANKS N [PROJECT OPTIONS...]: the Nth field of the projection's row for RANKS (6: step ms,
# 9: speedup).
field() {
  local file=$1 ranks=$2 n=$3
  shift 3
  "$cli" project "$file" "$@" | awk -v r="$ranks" -v n="$n" '$1 == r && ($2 == "predicted" || $2 == "extrap.") { sub("x$", "", $n); print $n; exit }'
}
row() { # LABEL PREDICTED SEED
  awk -v l="$1" -v p="$2" -v m="$3" 'BEGIN { printf "  %-34s %12.4g %12.4g %+8.1f%%\n", l, p, m, (p / m - 1) * 100 }'
}
header() { printf '\n%s\n  %-34s %12s %12s %9s\n' "$1" figure predicted seed error; }
# variant FILE SED-EXPRESSION: a copy of FILE with one assumption changed.
variant() { local out=$work/$(basename "$1" .toml)-$RANDOM.toml; sed -e "$2" "$1" > "$out"; echo "$out"; }

bert=bench/seeds/000-mlperf-bert-8-to-64.toml
header "Seed 000, MLPerf BERT 8 -> 64 H100 (seed: ~6x, ~75 % efficiency; time to train)"
row "throughput speedup 8 -> 64" "$(field $bert 64 9 --to 8,64)" 6
echo "  the same with an assumption changed:"
row "  compute at 20 % MFU (0.266 s)" "$(field "$(variant $bert 's/^step_s = 0.133/step_s = 0.266/')" 64 9 --to 8,64)" 6
row "  compute at 60 % MFU (0.0887 s)" "$(field "$(variant $bert 's/^step_s = 0.133/step_s = 0.0887/')" 64 9 --to 8,64)" 6
row "  inter-node busbw 40 GB/s" "$(field "$(variant $bert '/\[inter_node\]/,$ s/^busbw_gb_s = 400/busbw_gb_s = 40/')" 64 9 --to 8,64)" 6
row "  weak scaling (48 per GPU at 64)" "$(field "$(variant $bert 's/^scaling = .*/scaling = "weak"/')" 64 9 --to 8,64)" 6

ranks=(128 256 512 1024 2048)
for dtype in bf16 fp8; do
  file=bench/seeds/003-maxtext-llama2-70b-$dtype.toml
  if [ "$dtype" = bf16 ]; then seed=(7.072 7.153 7.091 7.084 7.066); else seed=(4.556 4.959 5.043 5.062 4.93); fi
  header "Seed 003, MaxText Llama 2 70B ${dtype^^}, step seconds from 64 GPUs (seed's table)"
  "$cli" project "$file" --to 64,128,256,512,1024,2048 > "$work/$dtype.txt"
  for i in "${!ranks[@]}"; do
    n=${ranks[$i]}
    step=$(awk -v r="$n" '$1 == r { print $6 / 1000; exit }' "$work/$dtype.txt")
    row "step time at $n GPUs (s)" "$step" "${seed[$i]}"
  done
  echo "  the same at 2048 with an assumption changed:"
  row "  none hidden" "$(awk '{print $1/1000}' <<< "$(field "$(variant "$file" 's/^hidden_fraction = .*/hidden_fraction = 0/')" 2048 6 --to 64,2048)")" "${seed[4]}"
  row "  inter-node busbw 100 GB/s" "$(awk '{print $1/1000}' <<< "$(field "$(variant "$file" '/\[inter_node\]/,$ s/^busbw_gb_s = 400/busbw_gb_s = 100/')" 2048 6 --to 64,2048)")" "${seed[4]}"
done
