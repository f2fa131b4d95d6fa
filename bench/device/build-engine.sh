#!/usr/bin/env bash
# On the GPU machine (or here, to check it): builds scalebench-engine alone, as on a cluster, against that
# machine's Python torch (LibTorch with CUDA) and CUDA toolkit, and against the Debian packages in .carry/debs
# (bench/device/carry-packages.sh) unpacked under /tmp/scalebench-sysroot where the machine has no MPI of its own.
#   bench/device/build-engine.sh [BUILD_DIR]   (default build/device; SCALEBENCH_CUDA=OFF for a CPU build)
# Prints the variables a later command needs to run the engine (source BUILD_DIR/engine-env.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build/device}
python=${SCALEBENCH_PYTHON:-$(command -v python3)}
cuda=${SCALEBENCH_CUDA:-ON}
sysroot=/tmp/scalebench-sysroot
say() { printf '[device] %s\n' "$*"; }

env_file="$build/engine-env.sh"
mkdir -p "$build"
: >"$env_file"
mpicc=$(command -v mpicc || true)
if [ -z "$mpicc" ] || [ -n "${SCALEBENCH_CARRIED_MPI:-}" ]; then
  compgen -G "$here/.carry/debs/*.deb" >/dev/null ||
    { echo "[device] error: no MPI here and no .carry/debs (run bench/device/carry-packages.sh where apt works)" >&2; exit 1; }
  say "unpacking $(ls "$here"/.carry/debs/*.deb | wc -l) carried packages into $sysroot"
  mkdir -p "$sysroot"
  for deb in "$here"/.carry/debs/*.deb; do dpkg -x "$deb" "$sysroot"; done
  lib="$sysroot/usr/lib/x86_64-linux-gnu"
  # Open MPI moved away from /usr: OPAL_PREFIX tells its wrappers and mpirun where it now is.
  cat >"$env_file" <<ENV
export OPAL_PREFIX=$sysroot/usr
export PATH=$build/bin:$sysroot/usr/bin:\$PATH
export LD_LIBRARY_PATH=$lib:$lib/openmpi/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export CPATH=$sysroot/usr/include\${CPATH:+:\$CPATH}
ENV
  mkdir -p "$build/bin"
  ln -sf "$sysroot/usr/bin/mpicc.openmpi" "$build/bin/mpicc"
  ln -sf "$sysroot/usr/bin/orterun" "$build/bin/mpirun"
  mpicc="$build/bin/mpicc"
  prefix="$sysroot/usr"
else
  say "MPI of this machine: $mpicc"
  prefix=""
fi
if [ "$(id -u)" -eq 0 ]; then
  echo 'export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1' >>"$env_file"
fi
# shellcheck disable=SC1090
source "$env_file"

# NCCL: the toolkit's, else the nvidia-nccl wheel beside torch (its library has no unversioned name to link).
nccl_args=()
if [ "$cuda" = ON ] && [ ! -f /usr/local/cuda/include/nccl.h ]; then
  nccl=$("$python" -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))' 2>/dev/null || true)
  if [ -n "$nccl" ] && [ -f "$nccl/include/nccl.h" ]; then
    mkdir -p "$build/nccl/lib"
    ln -sf "$(ls "$nccl"/lib/libnccl.so* | head -1)" "$build/nccl/lib/libnccl.so"
    nccl_args=(-DSCALEBENCH_NCCL_INCLUDE_DIR="$nccl/include" -DSCALEBENCH_NCCL_LIBRARY="$build/nccl/lib/libnccl.so")
    echo "export LD_LIBRARY_PATH=$nccl/lib:\$LD_LIBRARY_PATH" >>"$env_file"
    say "NCCL from the wheel: $nccl"
  fi
fi

say "configuring $build (SCALEBENCH_CUDA=$cuda, torch of $python)"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCALEBENCH_ENGINE_ONLY=ON \
  -DSCALEBENCH_CUDA="$cuda" -DSCALEBENCH_PYTHON="$python" -DMPI_C_COMPILER="$mpicc" \
  ${prefix:+-DCMAKE_PREFIX_PATH="$prefix" -DZLIB_ROOT="$prefix"} "${nccl_args[@]}" >"$build/configure.log" 2>&1 ||
  { tail -40 "$build/configure.log"; exit 1; }
grep -E 'LibTorch|NCCL backend|GPU inventory' "$build/configure.log" | sed 's/^/[device] /'
start=$(date +%s)
cmake --build "$build" >"$build/build.log" 2>&1 || { grep -E 'error|Error' "$build/build.log" | head -40; exit 1; }
say "built $build/trainers/scalebench-engine in $(($(date +%s) - start)) s; run it after: source $env_file"
