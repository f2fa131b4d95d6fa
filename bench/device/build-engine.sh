#!/usr/bin/env bash
# On the GPU machine (or here, to check it): builds scalebench-engine alone, as on a cluster, against that
# machine's Python torch (LibTorch with CUDA) and CUDA toolkit, and against the Debian packages in .carry/debs
# (bench/device/carry-packages.sh) unpacked under /tmp/scalebench-sysroot for what the machine lacks: Open MPI
# (relocated with OPAL_PREFIX) where it has no mpicc, and the headers of nlohmann-json, gloo and zlib where it has none.
#   bench/device/build-engine.sh [BUILD_DIR]   (default build/device; SCALEBENCH_CUDA=OFF for a CPU build;
#                                               SCALEBENCH_CARRIED_MPI=1: the carried Open MPI even beside an mpicc)
# Prints the variables a later command needs to run the engine (source BUILD_DIR/engine-env.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build/device}
python=${SCALEBENCH_PYTHON:-$(command -v python3)}
cuda=${SCALEBENCH_CUDA:-ON}
sysroot=/tmp/scalebench-sysroot
lib="$sysroot/usr/lib/x86_64-linux-gnu"
say() { printf '[device] %s\n' "$*"; }
fail() { printf '[device] error: %s\n' "$*" >&2; exit 1; }

env_file="$build/engine-env.sh"
mkdir -p "$build"
: >"$env_file"

# What the machine lacks, and so comes from the carried packages.
mpicc=$(command -v mpicc || true)
carried_mpi=$([ -z "$mpicc" ] || [ -n "${SCALEBENCH_CARRIED_MPI:-}" ] && echo 1 || true)
missing_headers=()
[ -f /usr/include/nlohmann/json.hpp ] || missing_headers+=(nlohmann-json)
[ -f /usr/include/gloo/rendezvous/store.h ] || missing_headers+=(gloo)
[ -f /usr/include/zlib.h ] || missing_headers+=(zlib)
prefix=""
if [ -n "$carried_mpi" ] || [ ${#missing_headers[@]} -gt 0 ]; then
  compgen -G "$here/.carry/debs/*.deb" >/dev/null ||
    fail "this machine lacks ${carried_mpi:+Open MPI }${missing_headers[*]} and there is no .carry/debs (run bench/device/carry-packages.sh where apt works)"
  say "unpacking $(ls "$here"/.carry/debs/*.deb | wc -l) carried packages into $sysroot (for: ${carried_mpi:+Open MPI }${missing_headers[*]})"
  mkdir -p "$sysroot"
  for deb in "$here"/.carry/debs/*.deb; do dpkg -x "$deb" "$sysroot"; done
  # zlib1g-dev's libz.so points at /lib/x86_64-linux-gnu/libz.so.1.2.13, absolute: a machine with another zlib has
  # no such file. Link the machine's own libz.so.1 (zlib1g itself is not carried; every image has one).
  machine_libz=$( ("$(command -v ldconfig || echo /sbin/ldconfig)" -p 2>/dev/null || true) | awk '$1 == "libz.so.1" && /x86-64/ {print $NF; exit}')
  [ -n "$machine_libz" ] || machine_libz=$(ls /lib/x86_64-linux-gnu/libz.so.1 /usr/lib/x86_64-linux-gnu/libz.so.1 2>/dev/null | head -1 || true)
  [ -n "$machine_libz" ] || fail "no libz.so.1 on this machine (ldconfig -p)"
  ln -sfn "$machine_libz" "$lib/libz.so"
  echo "export CPATH=$sysroot/usr/include\${CPATH:+:\$CPATH}" >>"$env_file"
  prefix="$sysroot/usr"
fi
if [ -n "$carried_mpi" ]; then
  # Open MPI moved away from /usr: OPAL_PREFIX tells its wrappers and mpirun where it now is; PMIx (a library of
  # its own) finds its components through PMIX_INSTALL_PREFIX.
  cat >>"$env_file" <<ENV
export OPAL_PREFIX=$sysroot/usr PMIX_INSTALL_PREFIX=$lib/pmix2
export PATH=$build/bin:$sysroot/usr/bin:\$PATH
export LD_LIBRARY_PATH=$lib:$lib/openmpi/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
ENV
  mkdir -p "$build/bin"
  ln -sf "$sysroot/usr/bin/mpicc.openmpi" "$build/bin/mpicc"
  ln -sf "$sysroot/usr/bin/orterun" "$build/bin/mpirun"
  mpicc="$build/bin/mpicc"
else
  say "MPI of this machine: $mpicc"
fi
if [ "$(id -u)" -eq 0 ]; then
  echo 'export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1' >>"$env_file"
fi
# shellcheck disable=SC1090
source "$env_file"

cuda_args=()
if [ "$cuda" = ON ]; then
  nvcc=$(command -v nvcc || true)
  [ -n "$nvcc" ] || nvcc=/usr/local/cuda/bin/nvcc
  [ -x "$nvcc" ] || fail "no nvcc on PATH nor at /usr/local/cuda/bin/nvcc"
  cuda_args+=(-DCMAKE_CUDA_COMPILER="$nvcc")
  toolkit=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
  # NCCL: the toolkit's, else the nvidia-nccl wheel beside torch. Its wheel (cu13: nvidia/nccl/{include,lib}) is a
  # namespace package without __init__.py, so without __file__: find_spec's search locations name its folder. Its
  # library has no unversioned name to link.
  if [ ! -f "$toolkit/include/nccl.h" ]; then
    nccl=$("$python" -c 'import importlib.util as u; s = u.find_spec("nvidia.nccl"); print(list(s.submodule_search_locations)[0] if s else "")')
    if [ -n "$nccl" ] && [ -f "$nccl/include/nccl.h" ] && compgen -G "$nccl/lib/libnccl.so*" >/dev/null; then
      mkdir -p "$build/nccl/lib"
      ln -sf "$(ls "$nccl"/lib/libnccl.so* | head -1)" "$build/nccl/lib/libnccl.so"
      cuda_args+=(-DSCALEBENCH_NCCL_INCLUDE_DIR="$nccl/include" -DSCALEBENCH_NCCL_LIBRARY="$build/nccl/lib/libnccl.so")
      echo "export LD_LIBRARY_PATH=$nccl/lib:\$LD_LIBRARY_PATH" >>"$env_file"
      say "NCCL from the wheel: $nccl"
    else
      say "no NCCL: neither $toolkit/include/nccl.h nor the nvidia-nccl wheel of $python (the engine gets no nccl backend)"
    fi
  fi
fi

zlib_root=$(printf '%s\n' "${missing_headers[@]}" | grep -qx zlib && echo "$prefix" || true)
say "configuring $build (SCALEBENCH_CUDA=$cuda, torch of $python)"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCALEBENCH_ENGINE_ONLY=ON \
  -DSCALEBENCH_CUDA="$cuda" -DSCALEBENCH_PYTHON="$python" -DMPI_C_COMPILER="$mpicc" \
  ${prefix:+-DCMAKE_PREFIX_PATH="$prefix"} ${zlib_root:+-DZLIB_ROOT="$zlib_root"} "${cuda_args[@]}" \
  >"$build/configure.log" 2>&1 || { tail -40 "$build/configure.log"; exit 1; }
grep -E '^-- (LibTorch|NCCL backend|GPU inventory)' "$build/configure.log" | sed 's/^/[device] /'
start=$(date +%s)
cmake --build "$build" >"$build/build.log" 2>&1 || { grep -E 'error|Error' "$build/build.log" | head -40; exit 1; }
say "built $build/trainers/scalebench-engine in $(($(date +%s) - start)) s; run it after: source $env_file"
