#!/usr/bin/env bash
# Builds OSU Micro-Benchmarks' blocking collective benchmarks (osu_allreduce, osu_allgather, osu_reduce_scatter,
# osu_bcast, osu_alltoall, osu_reduce) OUTSIDE this repository with Debian's OpenMPI mpicc, from a source tree you
# supply (OMB's own tarball from mvapich.cse.ohio-state.edu, or a public mirror of it). Its code never enters this
# repository. Prints each binary's path, one a line; osu_allreduce's is for bench/allreduce_vs_osu.py --osu PATH
# (or OSU_ALLREDUCE=PATH).
#
#   bench/build-osu.sh SOURCE_DIR [BUILD_DIR]     # BUILD_DIR defaults to /work/peers/osu-build
#
# A source tree without `configure` (a git mirror of OMB's repository) is first given one with `autoreconf -i`, in
# SOURCE_DIR (needs autoconf, automake and libtool). Tested with OMB 7.4 (c/mpi/collective/blocking/) and OMB 5.3
# (mpi/collective/), from the public mirrors named in bench/README.md.
set -euo pipefail
benchmarks=(osu_allreduce osu_allgather osu_reduce_scatter osu_bcast osu_alltoall osu_reduce)
if [[ $# -lt 1 || ! -d "$1" || (! -x "$1/configure" && ! -f "$1/configure.ac") ]]; then
    echo "usage: $0 OMB_SOURCE_DIR [BUILD_DIR]   (OMB_SOURCE_DIR holds OMB's configure or configure.ac)" >&2
    exit 2
fi
source_dir="$(cd "$1" && pwd)"
build_dir="${2:-/work/peers/osu-build}"
if [[ ! -x "$source_dir/configure" ]]; then
    if ! command -v autoreconf >/dev/null || ! command -v libtoolize >/dev/null; then
        echo "[build-osu] $source_dir has no configure, and making one needs autoreconf and libtoolize" \
             "(apt-get install autoconf automake libtool)" >&2
        exit 1
    fi
    echo "[build-osu] no configure in $source_dir: autoreconf -i"
    (cd "$source_dir" && autoreconf -i >/dev/null)
fi
mkdir -p "$build_dir"
cd "$build_dir"
if [[ ! -f Makefile ]]; then
    echo "[build-osu] configuring $source_dir in $build_dir with CC=mpicc CXX=mpicxx"
    "$source_dir/configure" CC=mpicc CXX=mpicxx --quiet
fi
for dir in c/mpi/collective/blocking mpi/collective; do
    if [[ -d "$dir" ]]; then
        echo "[build-osu] make -C $build_dir/$dir ${benchmarks[*]}"
        make -s -C "$dir" "${benchmarks[@]}"
        for benchmark in "${benchmarks[@]}"; do
            echo "$build_dir/$dir/$benchmark"
        done
        exit 0
    fi
done
echo "[build-osu] no collective benchmark folder in $build_dir: not an OMB source tree?" >&2
exit 1
