#!/usr/bin/env bash
# THE script of a lent GPU machine's one call (issue 40): runs the engine packed by pack-engine.sh (.carry/engine,
# call the device tool with carry [".carry"]) on that machine's own torch, CUDA and NCCL wheels, step by step in the
# order of what each is worth, each under its own time limit, the whole within 6 minutes whatever fails. What comes
# back: $OUT/results.md (every figure with its command) and $OUT/logs.tar.gz (logs and metric streams).
#   bench/device/run.sh [--device cuda|cpu] [--only STEP[,STEP]]
# Steps: selfcheck llama1b peers resnet50 resnet20 nccl-sweep build (build: build-engine.sh there, only as a check,
# only with time left). --device cpu runs the same steps at the CPU sizes below (a rehearsal on 2 cores).
# Environment: OUT (default /tmp/scalebench-device-out); SCALEBENCH_PYTHON (default: the first python3 with torch);
# SCALEBENCH_ENGINE (default .carry/engine/bin/scalebench-engine); SCALEBENCH_DEVICE_STEP_LIMIT_S=STEP=S[,STEP=S]
# (a rehearsal's way to prove that a step's limit fires); SCALEBENCH_DEVICE_DEADLINE_S (default 360).
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
t0=$(date +%s)
device=cuda
only=""
steps=(selfcheck llama1b peers resnet50 resnet20 nccl-sweep build)
while [ $# -gt 0 ]; do
  case $1 in
    --device) device=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (--device cuda|cpu, --only STEP[,STEP])" >&2; exit 2 ;;
  esac
done
case $device in cuda | cpu) ;; *) echo "run.sh: --device cuda|cpu" >&2; exit 2 ;; esac
for s in ${only//,/ }; do
  [[ " ${steps[*]} " == *" $s "* ]] || { echo "run.sh: no step $s (${steps[*]})" >&2; exit 2; }
done

# Each step's limit and the least time worth starting it with (seconds): a GPU call's 6 minutes, less 20 s for
# the report. The CPU sizes are set so that the same limits hold on 2 cores.
declare -A limit=([selfcheck]=60 [llama1b]=60 [peers]=120 [resnet50]=40 [resnet20]=25 [nccl-sweep]=30 [build]=300)
declare -A least=([selfcheck]=15 [llama1b]=30 [peers]=45 [resnet50]=20 [resnet20]=15 [nccl-sweep]=15 [build]=90)
limits=${SCALEBENCH_DEVICE_STEP_LIMIT_S:-}
for pair in ${limits//,/ }; do
  limit[${pair%%=*}]=${pair#*=}
  least[${pair%%=*}]=1
done
deadline=$((t0 + ${SCALEBENCH_DEVICE_DEADLINE_S:-360} - 20))

out=${OUT:-/tmp/scalebench-device-out}
mkdir -p "$out"
work=$(mktemp -d /tmp/scalebench-run.XXXXXX)
logs="$work/logs"
mkdir -p "$logs"
ledger="$logs/steps.jsonl"
say() { printf '[run %3ds] %s\n' "$(($(date +%s) - t0))" "$*" | tee -a "$logs/run.log"; }

# The machine's python3 with torch: its torch/lib, its nvidia-* wheels' lib folders (namespace packages: found
# through __path__, not __file__), then the carried Open MPI, then the toolkit's lib64 (last: where no wheel has
# a library, as in a rehearsal whose root has only the runtime wheels).
python=${SCALEBENCH_PYTHON:-}
if [ -z "$python" ]; then
  for p in python3 /opt/torch/.venv/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import importlib.util as u, sys; sys.exit(u.find_spec("torch") is None)' 2>/dev/null; then
      python=$(command -v "$p")
      break
    fi
  done
fi
[ -n "$python" ] || python=$(command -v python3)
engine=${SCALEBENCH_ENGINE:-$here/.carry/engine/bin/scalebench-engine}
pack=$(dirname "$(dirname "$engine")")
wheel_libs=$("$python" - <<'PY' 2>/dev/null
import glob, importlib.util, os
dirs = []
torch = importlib.util.find_spec("torch")
if torch:
    dirs.append(os.path.join(os.path.dirname(torch.origin), "lib"))
nvidia = importlib.util.find_spec("nvidia")
for root in (nvidia.submodule_search_locations if nvidia else []):
    dirs += sorted(glob.glob(os.path.join(root, "*", "lib")))
print(":".join(d for d in dirs if os.path.isdir(d)))
PY
)
mpi_libs=""
if [ -f "$pack/openmpi-env.sh" ]; then
  # shellcheck disable=SC1091
  source "$pack/openmpi-env.sh" # OPAL_PREFIX, PATH to its mpirun, SCALEBENCH_MPI_LIBRARY_PATH
  mpi_libs=$SCALEBENCH_MPI_LIBRARY_PATH
fi
toolkit_libs=$([ -d /usr/local/cuda/lib64 ] && echo /usr/local/cuda/lib64 || true)
export LD_LIBRARY_PATH="$wheel_libs${mpi_libs:+:$mpi_libs}${toolkit_libs:+:$toolkit_libs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# One node and no ssh: Open MPI's rsh launcher would abort ("plm_rsh_agent: ssh : rsh" not found).
export OMPI_MCA_plm=isolated OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PMIX_MCA_pcompress_base_silence_warning=1
mpirun=$(command -v mpirun || true)

{
  echo "device=$device only=${only:-all} python=$python engine=$engine"
  echo "mpirun=$mpirun"
  echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  echo "OPAL_PREFIX=${OPAL_PREFIX:-} OMPI_MCA_plm=$OMPI_MCA_plm"
} >"$logs/environment.txt"
say "device $device, python $python, engine $engine"

# ---------------------------------------------------------------- step machinery
step_end=0
current=""
commands=()
# Runs a command under what is left of the current step's limit; its output goes to logs/$current.log.
timed() {
  local left=$((step_end - $(date +%s)))
  [ "$left" -gt 0 ] || return 124
  commands+=("$(printf '%q ' "$@")")
  echo "\$ $*" >>"$logs/$current.log"
  timeout -k 5 "$left" "$@" >>"$logs/$current.log" 2>&1
}
# One engine run, one rank: NAME (its metric stream logs/NAME.jsonl) then the engine's options.
engine_run() {
  local name=$1
  shift
  rm -f "$logs/$name.jsonl"
  timed "$mpirun" -np 1 --bind-to none "$engine" --metrics "$logs/$name.jsonl" "$@"
}
run_step() {
  local name=$1 now rc status
  [ -z "$only" ] || [[ ",$only," == *",$name,"* ]] || return 0
  now=$(date +%s)
  local allowed=$((deadline - now))
  [ "$allowed" -le "${limit[$name]}" ] || allowed=${limit[$name]}
  if [ "$allowed" -lt "${least[$name]}" ]; then
    say "$name: skipped ($allowed s left before the deadline, it needs ${least[$name]})"
    printf '{"step": "%s", "status": "skipped", "left_s": %d}\n' "$name" "$allowed" >>"$ledger"
    return 0
  fi
  current=$name
  commands=()
  step_end=$((now + allowed))
  say "$name: start (limit $allowed s)"
  "step_$name"
  rc=$?
  case $rc in
    0) status=pass ;;
    124 | 137) status=timeout ;;
    *) status=fail ;;
  esac
  local seconds=$(($(date +%s) - now))
  say "$name: $status (exit $rc, $seconds s of $allowed)"
  "$python" -c 'import json, sys; print(json.dumps({"step": sys.argv[1], "status": sys.argv[2], "rc": int(sys.argv[3]),
    "seconds": int(sys.argv[4]), "limit_s": int(sys.argv[5]), "commands": sys.argv[6:]}))' \
    "$name" "$status" "$rc" "$seconds" "$allowed" "${commands[@]}" >>"$ledger"
}

# ---------------------------------------------------------------- the steps (GPU sizes; CPU sizes where they differ)
if [ "$device" = cuda ]; then
  backend=nccl # one rank: busbw is 0 by definition; two ranks on one GPU are refused by NCCL
  check=()
  llama=(--preset 1b --steps 20 --batch-per-rank 8 --seq-len 2048 --eval-samples 8)
  resnet50=(--steps 30 --batch-per-rank 256 --eval-samples 256)
  resnet20=(--steps 40 --batch-per-rank 128 --eval-samples 256)
  sweep=(--sweep-points 28 --sweep-max-log10 9 --repetitions 20)
  peers=(--llama-preset 1b --batch 8 --seq-len 2048 --resnet-batch 256 --steps 12 --warmup 3)
else
  # CPU sizes (2 cores): the self-check at batch 16 for 3 steps; llama `tiny` at sequence 128 and batch 4, 8 steps;
  # ResNet-50 at batch 2, 6 steps; ResNet-20 at batch 16, 7 steps; the sweep to 1e6 elements on MPI; the peers at
  # the same sizes, 2 + 4 steps.
  backend=mpi
  check=(--batch-per-rank 16 --steps 3)
  llama=(--preset tiny --steps 8 --batch-per-rank 4 --seq-len 128 --eval-samples 4)
  resnet50=(--steps 6 --batch-per-rank 2 --eval-samples 2)
  resnet20=(--steps 7 --batch-per-rank 16 --eval-samples 64)
  sweep=(--sweep-points 8 --sweep-max-log10 6 --repetitions 5)
  peers=(--llama-preset tiny --batch 4 --seq-len 128 --resnet-batch 2 --steps 4 --warmup 2)
fi

step_selfcheck() {
  { # the machine, each probe bounded (a wedged driver must not stall the call)
    echo "== machine"
    timeout 15 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true
    ldd --version 2>&1 | head -1
    timeout 30 "$python" -W ignore -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())) if torch.cuda.is_available() else "-")' 2>&1
    echo "== the engine's libraries not found (none expected)"
    timeout 15 ldd "$engine" 2>&1 | grep -i 'not found' || echo none
    timeout 15 "$mpirun" --version 2>&1 | head -1
  } >>"$logs/selfcheck.log" 2>&1
  [ -x "$engine" ] || { echo "no engine at $engine (bench/device/pack-engine.sh, carry .carry)" >>"$logs/selfcheck.log"; return 1; }
  [ -n "$mpirun" ] || { echo "no mpirun (the pack's openmpi-env.sh)" >>"$logs/selfcheck.log"; return 1; }
  local rc=0
  engine_run selfcheck-resnet20 --check-device yes --device "$device" --workload resnet20 --dataset synthetic-cifar \
    "${check[@]}" || rc=$?
  [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || {
    engine_run selfcheck-llama --check-device yes --device "$device" --workload llama --dataset synthetic-tokens \
      --preset small "${check[@]}" || rc=$?
  }
  if grep -q -- "--check-device" "$logs/selfcheck.log" && grep -qi "unknown option\|unrecognized\|no option" "$logs/selfcheck.log"; then
    echo "this engine has no --check-device (an engine older than issue 40's)" >>"$logs/selfcheck.log"
  fi
  return "$rc"
}
step_llama1b() {
  engine_run llama1b --device "$device" --workload llama --dataset synthetic-tokens "${llama[@]}" --precision bf16 \
    --backend "$backend"
}
step_peers() {
  timed "$python" "$here/bench/device/peers.py" --device "$device" "${peers[@]}" \
    --engine-header "$logs/llama1b.jsonl" --out "$logs/peers.jsonl" --deadline-s $((step_end - $(date +%s) - 5))
}
step_resnet50() {
  engine_run resnet50 --device "$device" --workload resnet50 --dataset synthetic-imagenet "${resnet50[@]}" \
    --precision bf16 --backend "$backend"
}
step_resnet20() {
  engine_run resnet20 --device "$device" --workload resnet20 --dataset synthetic-cifar "${resnet20[@]}" \
    --backend "$backend"
}
step_nccl-sweep() {
  engine_run nccl-sweep --device "$device" --workload allreduce-sweep --backend "$backend" "${sweep[@]}"
}
step_build() {
  timed env SCALEBENCH_PYTHON="$python" "$here/bench/device/build-engine.sh" "$work/build-device" || return $?
  timed "$work/build-device/trainers/scalebench-engine" --version
}

for s in "${steps[@]}"; do run_step "$s"; done

# ---------------------------------------------------------------- what comes back: two files
for f in configure build; do cp "$work/build-device/$f.log" "$logs/build-engine-$f.log" 2>/dev/null || true; done
"$python" "$here/bench/device/report.py" --logs "$logs" --device "$device" --seconds $(($(date +%s) - t0)) \
  >"$out/results.md" 2>"$logs/report.err" || echo "report.py failed: $(tail -3 "$logs/report.err")" >>"$out/results.md"
cp "$out/results.md" "$logs/"
tar czf "$out/logs.tar.gz" -C "$work" logs
say "done: $out/results.md, $out/logs.tar.gz ($(du -h "$out/logs.tar.gz" | cut -f1))"
grep -E '^\| (selfcheck|llama1b|peers|resnet50|resnet20|nccl-sweep|build) ' "$out/results.md" || true
rm -rf "$work"
