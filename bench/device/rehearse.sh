#!/usr/bin/env bash
# Here, as root: rehearses the GPU call in a bare Debian 12 root that holds only what the device image holds, so
# that what fails there fails here first. The root (debootstrap minbase, cached in ROOT, default
# /var/tmp/scalebench-rehearsal-root) has g++ from Debian, python3 and its headers (torch.compile's C++ and Triton
# launchers include Python.h; peers.py says so where they are missing) with a venv at /opt/torch/.venv holding the
# torch 2.11.0 wheel (this checkout's .venv's), the runtime nvidia wheels beside it, nvidia-nccl-cu13 2.28.9 (the
# version torch 2.11 pins), cmake and ninja from pip; the CUDA toolkit bind-mounted read-only WITHOUT its NCCL
# (a hard-linked copy less nccl*: the wheel's must be the one found); no Open MPI, no ssh, no network (its own
# network namespace, loopback only). The working tree (git ls-files) and .carry are copied in, as the device tool
# carries them.
#   bench/device/rehearse.sh          run.sh --device cpu there (its CPU sizes), build's limit cut to 60 s to show
#                                     that a step's limit fires
#   bench/device/rehearse.sh -- ARGS  run.sh ARGS there instead (e.g. -- --device cuda: its failures without a GPU)
#   bench/device/rehearse.sh --old    what the device call of commit 7d9476d ran: build-engine.sh && smoke.sh
#                                     (SCALEBENCH_SMOKE_DEVICE=cpu), its scripts taken from that commit; then past
#                                     its first failure: the build with nvcc on PATH (cut at 90 s), smoke.sh
# Prints the rehearsal's total time and each step's result; keeps the output in /var/tmp/scalebench-rehearsal.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
root=${ROOT:-/var/tmp/scalebench-rehearsal-root}
cache=/var/tmp/scalebench-rehearsal
mode=${1:-new}
run_args="--device cpu"
limits=${SCALEBENCH_DEVICE_STEP_LIMIT_S-build=60} # the build step's limit cut, unless told (-- ARGS: none)
if [ "$mode" = -- ]; then shift; mode=new; run_args="$*"; limits=${SCALEBENCH_DEVICE_STEP_LIMIT_S:-}; fi
t0=$(date +%s)
say() { printf '[rehearse %4ds] %s\n' "$(($(date +%s) - t0))" "$*" >&2; }
fail() { say "error: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap, chroot, mounts)"
case $mode in new | --old) ;; *) fail "usage: $0 [--old | -- RUN.SH-ARGUMENTS]" ;; esac
df -h / | sed 's/^/[rehearse] /' >&2
[ "$(df --output=avail -B1G /var/tmp | tail -1)" -ge 8 ] || fail "less than 8 GB free under /var/tmp"
mkdir -p "$cache/wheels"
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 "$@"; }

# ---------------------------------------------------------------- the root, made once
if [ ! -x "$root/usr/bin/g++" ] || [ ! -f "$root/usr/include/python3.11/Python.h" ]; then
  mirror=$(
    { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
      grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}'; } |
      grep -v security | head -1 || true)
  [ -n "$mirror" ] || fail "no Debian mirror in /etc/apt/sources.list*"
  command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
  say "debootstrap bookworm (minbase, g++, python3-venv) into $root"
  rm -rf "$root"
  debootstrap --variant=minbase --include=g++,python3,python3-venv,python3-dev,ca-certificates bookworm "$root" "$mirror" \
    >"$root.debootstrap.log" 2>&1 || { rm -rf "$root"; fail "debootstrap: $(tail -3 "$root.debootstrap.log")"; }
fi
venv=/opt/torch/.venv
site="$root$venv/lib/python3.11/site-packages"
if [ ! -f "$root$venv/.scalebench-ready" ]; then
  say "venv $venv in the root: torch from $here/.venv, nvidia-nccl-cu13, torch's Python requirements, cmake, ninja"
  [ -f "$here/.venv/lib/python3.11/site-packages/torch/lib/libtorch_cpu.so" ] || fail "no torch in $here/.venv (scripts/setup.sh)"
  rm -rf "$root$venv"
  in_root python3 -m venv "$venv"
  # The wheels that are not in .venv: downloaded here (the root has no network when it runs).
  (cd "$cache/wheels" && "$here/.venv/bin/pip" download -q --no-deps nvidia-nccl-cu13==2.28.9 typing_extensions \
    sympy mpmath filelock networkx jinja2 markupsafe fsspec cmake ninja)
  mkdir -p "$root/tmp/wheels"
  cp "$cache"/wheels/*.whl "$root/tmp/wheels/"
  in_root sh -c "$venv/bin/pip install -q --no-index --no-deps /tmp/wheels/*.whl" || fail "pip install in the root"
  rm -rf "$root/tmp/wheels"
  # torch and its runtime nvidia wheels as installed here (hard links: no 1.6 GB copy).
  for d in "$here"/.venv/lib/python3.11/site-packages/{torch,torchgen,functorch,torch-*.dist-info}; do
    cp -al "$d" "$site/"
  done
  cp -al "$here"/.venv/lib/python3.11/site-packages/nvidia/* "$site/nvidia/"
  cp -al "$here"/.venv/lib/python3.11/site-packages/nvidia_*.dist-info "$site/"
  touch "$root$venv/.scalebench-ready"
fi
# The toolkit less NCCL, as hard links beside the root, mounted read-only at /usr/local/cuda-13.0 when it runs.
toolkit=$(readlink -f /usr/local/cuda)
if [ ! -d "$cache/toolkit" ]; then
  say "the toolkit $toolkit less its NCCL (hard-linked copy in $cache/toolkit)"
  cp -al "$toolkit" "$cache/toolkit.tmp"
  find "$cache/toolkit.tmp" -name '*nccl*' -prune -exec rm -rf {} +
  mv "$cache/toolkit.tmp" "$cache/toolkit"
fi
mkdir -p "$root$toolkit"
ln -sfn "$(basename "$toolkit")" "$root/usr/local/cuda"

# ---------------------------------------------------------------- the working tree, as the device tool carries it
tree="$root/root/scalebench"
rm -rf "$tree" "$root/root/out" "$root/tmp"/scalebench-*
mkdir -p "$tree" "$root/root/out"
git -C "$here" ls-files -co --exclude-standard -z |
  (cd "$here" && tar --null -T - -cf - --ignore-failed-read 2>/dev/null || true) | tar -xf - -C "$tree"
cp -a "$here/.carry" "$tree/"
if [ "$mode" = --old ]; then
  for f in build-engine.sh smoke.sh; do git -C "$here" show "7d9476d:bench/device/$f" >"$tree/bench/device/$f"; done
  # 1. the device call as it was; then, to get past its first failure: 2. the same build with nvcc on PATH (its
  # configure's NCCL line; the build itself cut at 90 s), 3. smoke.sh with the environment that build wrote.
  inner='echo "== 1. build-engine.sh && smoke.sh"; bench/device/build-engine.sh && SCALEBENCH_SMOKE_DEVICE=cpu OUT=/root/out bench/device/smoke.sh
    echo "== 1. exit $?"; echo "== 2. PATH=/usr/local/cuda/bin:\$PATH build-engine.sh (cut at 90 s)"
    PATH=/usr/local/cuda/bin:$PATH timeout 90 bench/device/build-engine.sh; echo "== 2. exit $?"
    echo "== 3. smoke.sh (resnet20 on the CPU)"; SCALEBENCH_SMOKE_DEVICE=cpu SCALEBENCH_SMOKE_ONLY=resnet20 OUT=/root/out timeout 60 bench/device/smoke.sh; echo "== 3. exit $?"'
  log="$cache/old.log"
else
  inner="${limits:+SCALEBENCH_DEVICE_STEP_LIMIT_S=$limits} ${SCALEBENCH_DEVICE_DEADLINE_S:+SCALEBENCH_DEVICE_DEADLINE_S=$SCALEBENCH_DEVICE_DEADLINE_S} OUT=/root/out bench/device/run.sh $run_args"
  log="$cache/new.log"
fi
say "the root has: $(in_root sh -c 'for c in g++ python3 mpirun mpicc ssh nvcc; do printf "%s=%s " $c "$(command -v $c || echo absent)"; done; echo') $(in_root $venv/bin/python3 -c 'import importlib.util as u; print("nccl wheel:", list(u.find_spec("nvidia.nccl").submodule_search_locations))')"

# ---------------------------------------------------------------- the call: its own mount and network namespaces
say "in the root, no network: $inner"
start=$(date +%s)
set +e
unshare --mount --net --propagation private sh -c "
  ip link set lo up
  mount -t proc proc '$root/proc' && mount --bind /dev '$root/dev' && mount --bind /dev/shm '$root/dev/shm' &&
  mount --bind /sys '$root/sys' &&
  mount --bind '$cache/toolkit' '$root$toolkit' && mount -o remount,bind,ro '$root$toolkit' || exit 99
  chroot '$root' /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=$venv/bin:/usr/local/bin:/usr/bin:/bin \
    bash -c 'cd /root/scalebench && $inner'
" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
# A step's limit must end all it started: anything still running in the root now was left behind.
for p in /proc/[0-9]*; do
  [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] || continue
  say "left running in the root: $(tr '\0' ' ' <"$p/cmdline" | cut -c1-200) (pid ${p#/proc/}): ended"
  kill -9 "${p#/proc/}" 2>/dev/null || true
done
seconds=$(($(date +%s) - start))
rm -rf "$cache/out-$mode"
cp -a "$root/root/out" "$cache/out-${mode#--}"
say "the call exited $rc after $seconds s (rehearsal in all: $(($(date +%s) - t0)) s); log $log, output $cache/out-${mode#--}"
if [ -f "$cache/out-${mode#--}/results.md" ]; then
  grep -E '^\| [a-z0-9-]+ \| (pass|fail|timeout|skipped) ' "$cache/out-${mode#--}/results.md" | sed 's/^/[rehearse] /' >&2
fi
exit "$rc"
