#!/bin/bash
# How well the translation workloads' tiny presets learn the synthetic language pair: the engine on 2 ranks, one
# run per (workload, steps, lr, seed), the held-out BLEU counts' unigram precision against chance (about 0.118 for
# synthetic-parallel; tests/engine/test_workloads_translation.cpp). Usage: bench/translation-learning.sh WORKLOAD STEPS LR
# SEED... (the engine: build/release/trainers/scalebench-engine, or ENGINE=...).
set -euo pipefail
workload=$1 steps=$2 lr=$3
shift 3
engine=${ENGINE:-$(dirname "$0")/../build/release/trainers/scalebench-engine}
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
[ "$(id -u)" != 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for seed in "$@"; do
    rm -f "$folder/m.jsonl"
    start=$(date +%s.%N)
    mpirun --oversubscribe -np 2 "$engine" --metrics "$folder/m.jsonl" --workload "$workload" \
        --dataset synthetic-parallel --preset tiny --steps "$steps" --lr "$lr" --batch-per-rank 16 \
        --warmup-steps 0 --eval-samples 32 --threads-per-rank 1 --seed "$seed" > "$folder/log" 2>&1
    end=$(date +%s.%N)
    python3 - "$folder/m.jsonl" "$workload" "$steps" "$lr" "$seed" "$start" "$end" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
evaluation = [r for r in records if r.get("type") == "eval"][-1]
counts = evaluation["bleu_counts"]
steps = [r for r in records if r.get("type") == "step"]
precision = counts["matches"][0] / max(1, counts["hypothesis_length"])
print(f"{sys.argv[2]} steps {sys.argv[3]} lr {sys.argv[4]} seed {sys.argv[5]}: unigram precision {precision:.3f} "
      f"(hypothesis {counts['hypothesis_length']:.0f} words, reference {counts['reference_length']:.0f}), "
      f"BLEU {evaluation['value']:.2f}, loss {steps[0]['loss']:.3f} -> {steps[-1]['loss']:.3f}, "
      f"{float(sys.argv[7]) - float(sys.argv[6]):.1f} s")
PY
done
