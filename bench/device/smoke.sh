#!/usr/bin/env bash
# On the GPU machine, after build-engine.sh: the engine's GPU path run once per part, each run's metric stream
# under $OUT (at most 8 files come back) and its step figures printed.
#   bench/device/smoke.sh [BUILD_DIR]   (SCALEBENCH_SMOKE_DEVICE=cpu and SCALEBENCH_SMOKE_ONLY=resnet20: a check here)
#  1. ResNet-20, synthetic CIFAR, batch 128, fp32 (TF32): the whole step on the GPU, timed by CUDA events.
#  2. ResNet-50, synthetic ImageNet-shaped, batch 256, bf16, channels-last.
#  3. llama preset 1b, sequence 2048, micro-batch 8, bf16: tokens/s and MFU against the table's H100/H200 peak.
#  4. The all-reduce sweep on NCCL, 1 rank, nccl-tests' sizes (8 B to 8 GiB would be 2^33: 1 to 1e9 elements).
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build/device}
out=${OUT:-/tmp/scalebench-device-out}
mkdir -p "$out"
# shellcheck disable=SC1091
source "$build/engine-env.sh"
engine="$build/trainers/scalebench-engine"
device=${SCALEBENCH_SMOKE_DEVICE:-cuda}
only=${SCALEBENCH_SMOKE_ONLY:-}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee "$out/gpu.txt"

run() { # NAME ENGINE-ARGS...
  local name=$1
  shift
  [ -z "$only" ] || [ "$only" = "$name" ] || return 0
  rm -f "$out/$name.jsonl"
  echo "== $name: $*"
  mpirun -np 1 --bind-to none "$engine" --metrics "$out/$name.jsonl" "$@" 2>&1 | tail -5
  python3 - "$out/$name.jsonl" <<'PY'
import json, statistics, sys
records = [json.loads(line) for line in open(sys.argv[1])] if open(sys.argv[1]).read(1) else []
header = next((r for r in records if r["type"] == "header"), {})
print("  device:", header.get("device"), "| gpus:", [g.get("name") for g in header.get("gpus", [])],
      "| gradient_path:", header.get("gradient_path"), "| tf32:", header.get("tf32"),
      "| peak:", header.get("peak_tflops"), header.get("peak_source"))
steps = [r for r in records if r["type"] == "step"][5:]
if steps:
    med = lambda k: statistics.median(s.get(k, 0) for s in steps)
    print(f"  median of {len(steps)} steps after 5: step {med('step_s')*1e3:.2f} ms, samples/s {med('samples_per_s'):.1f}, "
          f"tokens/s {med('tokens_per_s'):.0f}, mfu {med('mfu'):.3f}; data {med('data_s')*1e3:.2f} forward "
          f"{med('forward_s')*1e3:.2f} backward {med('backward_s')*1e3:.2f} allreduce {med('allreduce_s')*1e3:.2f} "
          f"optimizer {med('optimizer_s')*1e3:.2f} ms")
for r in records:
    if r["type"] in ("error", "summary"):
        print("  ", {k: r[k] for k in list(r)[:8]})
collectives = [r for r in records if r["type"] == "collective"]
for c in collectives[:: max(1, len(collectives) // 12)]:
    print(f"  {c['collective']} {c['bytes']:>12} B: {c['time_s']*1e6:10.1f} us, algbw {c['algbw_gbps']:.1f} GB/s, correct {c['correct']}")
PY
}

run resnet20 --device "$device" --workload resnet20 --dataset synthetic-cifar --steps 40 --batch-per-rank 128 --eval-samples 256
run resnet50 --device "$device" --workload resnet50 --dataset synthetic-imagenet --steps 30 --batch-per-rank 256 --precision bf16 --eval-samples 256
run llama1b --device "$device" --workload llama --dataset synthetic-tokens --preset 1b --steps 20 --batch-per-rank 8 --precision bf16 --eval-samples 8
run nccl-sweep --device "$device" --workload allreduce-sweep --backend nccl --sweep-points 28 --sweep-max-log10 9 --repetitions 20
