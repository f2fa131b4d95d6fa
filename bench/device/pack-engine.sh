#!/usr/bin/env bash
# Here, after `make build-cuda`: puts into .carry/engine (git-ignored; the device tool's carry: [".carry"]) the CUDA
# engine and what it needs at run time that the GPU machine's image lacks: Open MPI 4.1.4's runtime from the carried
# Debian packages (bench/device/carry-packages.sh), relocated (openmpi-env.sh sets OPAL_PREFIX). Not LibTorch (the
# machine's torch 2.11+cu130 wheel has torch/lib, the engine is built against the same 2.11.0 wheel) and not NCCL or
# the CUDA libraries (its nvidia-* wheels have them). Idempotent: the folder is made anew each time.
#   bench/device/pack-engine.sh [ENGINE]   (default build/cuda/trainers/scalebench-engine)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
engine=${1:-$here/build/cuda/trainers/scalebench-engine}
pack="$here/.carry/engine"
debs="$here/.carry/debs"
say() { printf '[pack] %s\n' "$*"; }
fail() { printf '[pack] error: %s\n' "$*" >&2; exit 1; }
[ -x "$engine" ] || fail "no engine at $engine (make build-cuda)"
# Open MPI's run-time packages among the carried ones (the -dev packages are for build-engine.sh only).
runtime=(openmpi-bin openmpi-common libopenmpi3 libpmix2 libhwloc15 libevent-2.1-7 libevent-core-2.1-7
  libevent-pthreads-2.1-7 libfabric1 libucx0 libpsm2-2 libpsm-infinipath1 librdmacm1 libibverbs1 libnl-3-200
  libnl-route-3-200 libmunge2 libltdl7)
# Libraries that Open MPI's own ones load and a slim image may lack: used only where the image has none.
fallback=(libudev1 libnuma1 libatomic1)
for p in "${runtime[@]}" "${fallback[@]}"; do
  compgen -G "$debs/${p}_*.deb" >/dev/null || fail "no $p in .carry/debs (bench/device/carry-packages.sh)"
done

rm -rf "$pack" "$pack.tmp"
mkdir -p "$pack.tmp/bin" "$pack.tmp/openmpi"
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked" "$pack.tmp"' EXIT
for p in "${runtime[@]}"; do dpkg -x "$(ls "$debs/${p}"_*.deb | head -1)" "$unpacked"; done
mpi="$pack.tmp/openmpi"
mkdir -p "$mpi/usr/bin" "$mpi/usr/share"
cp -a "$unpacked/etc" "$mpi/"
cp -a "$unpacked/usr/lib" "$mpi/usr/"
cp -a "$unpacked/lib/x86_64-linux-gnu/." "$mpi/usr/lib/x86_64-linux-gnu/" # libnl-3 ships under /lib
cp -a "$unpacked"/usr/bin/{orterun,orted,ompi_info} "$mpi/usr/bin/"
ln -s orterun "$mpi/usr/bin/mpirun"
mkdir -p "$mpi/fallback"
for p in "${fallback[@]}"; do
  rm -rf "$unpacked/fallback" && dpkg -x "$(ls "$debs/${p}"_*.deb | head -1)" "$unpacked/fallback"
  find "$unpacked/fallback" -name '*.so.*' -exec cp -a {} "$mpi/fallback/" \;
done
for d in openmpi pmix hwloc; do [ ! -d "$unpacked/usr/share/$d" ] || cp -a "$unpacked/usr/share/$d" "$mpi/usr/share/"; done
# Not needed to run: static archives, libtool files, pkg-config files, Fortran and Java bindings; InfiniPath PSM
# (its library is reached through a Debian alternative, absent here: the component would only warn).
find "$mpi" \( -name '*.a' -o -name '*.la' -o -name pkgconfig -o -name '*mpifh*' -o -name '*usempi*' \
  -o -name '*java*' -o -name 'mca_mtl_psm.so' -o -name libpsm1 \) -prune -exec rm -rf {} +
cp "$engine" "$pack.tmp/bin/scalebench-engine"
cat >"$pack.tmp/openmpi-env.sh" <<'ENV'
# Sourced by bench/device/run.sh: the carried Open MPI 4.1.4, relocated beside this file.
pack=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib="$pack/openmpi/usr/lib/x86_64-linux-gnu"
# OPAL_PREFIX relocates Open MPI's own folders; its configuration (/etc/openmpi on Debian: the transports it
# leaves out) is not under the prefix; PMIx is a library of its own with its components under pmix2.
export OPAL_PREFIX="$pack/openmpi/usr" OPAL_SYSCONFDIR="$pack/openmpi/etc/openmpi" PMIX_INSTALL_PREFIX="$lib/pmix2" \
  PMIX_DATADIR="$lib/pmix2/share" PMIX_PKGDATADIR="$lib/pmix2/share/pmix" \
  PMIX_MCA_mca_base_component_path="$lib/pmix2/lib/pmix"
export PATH="$pack/openmpi/usr/bin:$PATH"
export SCALEBENCH_MPI_LIBRARY_PATH="$lib:$lib/openmpi/lib"
# libudev, libnuma, libatomic of Debian 12: only where this machine has none of its own.
for f in "$pack"/openmpi/fallback/*.so.[0-9]; do
  if ! /sbin/ldconfig -p 2>/dev/null | grep -q "^[[:space:]]*$(basename "$f") .*x86-64"; then
    SCALEBENCH_MPI_LIBRARY_PATH="$SCALEBENCH_MPI_LIBRARY_PATH:$pack/openmpi/fallback"
    break
  fi
done
ENV
{
  echo "engine: $engine"
  echo "sha256: $(sha256sum "$engine" | cut -d' ' -f1)"
  echo "source: $(git -C "$here" rev-parse --short HEAD)$(git -C "$here" diff --quiet HEAD -- trainers || echo ' (trainers/ modified)')"
  echo "packed: $(date -u '+%F %T UTC')"
  echo "NEEDED: $(readelf -d "$engine" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
  echo "newest symbol versions: $(objdump -T "$engine" "$mpi"/usr/lib/x86_64-linux-gnu/*.so* 2>/dev/null |
    grep -o 'GLIBC_[0-9.]*\|GLIBCXX_[0-9.]*\|CXXABI_[0-9.]*' | sort -u -V |
    awk -F_ '{v[$1] = $0} END {for (k in v) printf "%s ", v[k]}')"
} >"$pack.tmp/MANIFEST.txt"
mv "$pack.tmp" "$pack"

# Where each library the engine and the carried Open MPI need comes from on the GPU machine. Here the torch wheel
# of .venv stands for its torch/lib; the toolkit and the .venv nvidia wheels for its nvidia-* wheels.
torch_lib="$here/.venv/lib/python3.11/site-packages/torch/lib"
nvidia_libs=$(ls -d "$here"/.venv/lib/python3*/site-packages/nvidia/*/lib /usr/local/cuda/lib64 2>/dev/null | tr '\n' ' ')
mpi_lib="$pack/openmpi/usr/lib/x86_64-linux-gnu"
found_in() { # NAME DIR...: whether one of the folders has NAME
  local n=$1 d
  shift
  for d in "$@"; do [ ! -e "$d/$n" ] || return 0; done
  return 1
}
declare -A origin=()
while read -r f; do
  for n in $(readelf -d "$f" 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
    [ -z "${origin[$n]:-}" ] || continue
    if found_in "$n" "$mpi_lib" "$mpi_lib/openmpi/lib" "$mpi_lib/pmix2/lib"; then origin[$n]=pack
    elif found_in "$n" "$pack/openmpi/fallback"; then origin[$n]=pack-fallback
    elif [ -e "$torch_lib/$n" ]; then origin[$n]=torch-wheel
    elif [ "${n#libnccl}" != "$n" ]; then origin[$n]=nccl-wheel
    elif found_in "$n" $nvidia_libs; then origin[$n]=nvidia-wheels
    else origin[$n]=image; fi
  done
done < <(find "$pack/bin" "$mpi_lib" -type f \( -name '*.so*' -o -perm -u+x \))
for o in pack pack-fallback torch-wheel nccl-wheel nvidia-wheels image; do
  names=$(for n in "${!origin[@]}"; do [ "${origin[$n]}" != "$o" ] || echo "$n"; done | sort | tr '\n' ' ')
  echo "libraries from $o: ${names:-none}" | tee -a "$pack/MANIFEST.txt" | sed 's/^/[pack] /'
done
sed -n 's/^\(newest symbol versions: .*\)/[pack] \1/p' "$pack/MANIFEST.txt"
newest=$(objdump -T "$pack/bin/scalebench-engine" "$mpi_lib"/*.so* 2>/dev/null | grep -o 'GLIBC_2\.[0-9]*' | sort -uV | tail -1)
echo "the GPU machine needs glibc >= ${newest#GLIBC_} for: $(cd "$pack" && for f in bin/scalebench-engine openmpi/usr/lib/x86_64-linux-gnu/*.so*; do
  [ -L "$f" ] || ! objdump -T "$f" 2>/dev/null | grep -qw "$newest" || printf '%s ' "$(basename "$f")"; done)" |
  tee -a "$pack/MANIFEST.txt" | sed 's/^/[pack] /'
size=$(du -sb "$pack" | cut -f1)
say "$pack: $(du -sh "$pack" | cut -f1) ($size bytes; engine $(du -h "$pack/bin/scalebench-engine" | cut -f1), Open MPI $(du -sh "$pack/openmpi" | cut -f1))"
[ "$size" -lt $((40 * 1024 * 1024)) ] || fail "the pack is over 40 MiB"
