#!/usr/bin/env bash
# Here, before a device call: fetches the Debian 12 packages the engine's build needs and the GPU machine lacks
# (Open MPI with its libraries, nlohmann-json, gloo's headers, zlib's headers, and for the packed engine
# libudev, libnuma and libatomic) into .carry/debs, for the device
# tool's `carry` (the GPU machine reaches nothing). About 8 MB. Idempotent.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
debs="$here/.carry/debs"
packages=(
  openmpi-bin openmpi-common libopenmpi-dev libopenmpi3 libpmix2 libhwloc15 libevent-2.1-7 libevent-core-2.1-7
  libevent-pthreads-2.1-7 libfabric1 libucx0 libpsm2-2 libpsm-infinipath1 librdmacm1 libibverbs1 libnl-3-200
  libnl-route-3-200 libmunge2 libltdl7 nlohmann-json3-dev libgloo-dev zlib1g-dev
  # What hwloc, libnuma's and libatomic's users load and a slim image may lack (pack-engine.sh: a fallback only)
  libudev1 libnuma1 libatomic1
)
mkdir -p "$debs"
missing=()
for p in "${packages[@]}"; do
  compgen -G "$debs/${p}_*.deb" >/dev/null || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "[carry] downloading ${missing[*]}"
  (cd "$debs" && apt-get download "${missing[@]}" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
fi
for p in "${packages[@]}"; do
  compgen -G "$debs/${p}_*.deb" >/dev/null || { echo "[carry] error: $p was not downloaded" >&2; exit 1; }
done
echo "[carry] ${#packages[@]} packages in .carry/debs ($(du -sh "$debs" | cut -f1)); call the device tool with carry [\".carry\"]"
