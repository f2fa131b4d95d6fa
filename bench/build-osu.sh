#!/usr/bin/env bash
# Builds OSU Micro-Benchmarks' osu_allreduce OUTSIDE this repository with Debian's OpenMPI mpicc, from a source
# tree you supply (OMB's own tarball from mvapich.cse.ohio-state.edu, or a public mirror of it). Its code never
# enters this repository. Prints the binary's path, for bench/allreduce_vs_osu.sh --osu PATH (or OSU_ALLREDUCE=PATH).
#
#   bench/build-osu.sh SOURCE_DIR [BUILD_DIR]     # BUILD_DIR defaults to /work/peers/osu-build
#
# Tested with OMB 7.4 (c/mpi/collective/blocking/osu_allreduce.c); OMB 5.x (mpi/collective/osu_allreduce.c) builds too.
set -euo pipefail
if [[ $# -lt 1 || ! -x "$1/configure" ]]; then
    echo "usage: $0 OMB_SOURCE_DIR [BUILD_DIR]   (OMB_SOURCE_DIR holds OMB's configure script)" >&2
    exit 2
fi
source_dir="$(cd "$1" && pwd)"
build_dir="${2:-/work/peers/osu-build}"
mkdir -p "$build_dir"
cd "$build_dir"
if [[ ! -f Makefile ]]; then
    echo "[build-osu] configuring $source_dir in $build_dir with CC=mpicc CXX=mpicxx"
    "$source_dir/configure" CC=mpicc CXX=mpicxx --quiet
fi
for dir in c/mpi/collective/blocking mpi/collective; do
    if [[ -d "$dir" ]]; then
        echo "[build-osu] make -C $build_dir/$dir osu_allreduce"
        make -s -C "$dir" osu_allreduce
        echo "[build-osu] built $build_dir/$dir/osu_allreduce"
        exit 0
    fi
done
echo "[build-osu] no collective benchmark folder in $build_dir: not an OMB source tree?" >&2
exit 1
