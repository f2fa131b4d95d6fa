#!/usr/bin/env bash
# Line and branch coverage of every test (make test's set) per top-level folder, with gcovr: a --coverage build in
# build/coverage, ctest over it, then gcovr's summary for core, remote, trainers, app and ui.
#   scripts/coverage.sh [OUTPUT.txt]      (about 25 minutes on 2 cores; needs scripts/setup.sh's packages)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build/coverage"
out="${1:-$build/coverage.txt}"
venv="${SCALEBENCH_VENV:-$here/.venv}"
say() { printf '[coverage] %s\n' "$*"; }

"$here/scripts/setup.sh"
if ! "$venv/bin/python" -c 'import gcovr' 2>/dev/null; then
  say "installing gcovr into $venv"
  "$venv/bin/pip" install -q gcovr
fi
if [ ! -f "$build/build.ninja" ]; then
  say "configuring $build (Debug, --coverage)"
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=--coverage \
    -DCMAKE_C_FLAGS=--coverage -DCMAKE_EXE_LINKER_FLAGS=--coverage -DCMAKE_SHARED_LINKER_FLAGS=--coverage >/dev/null
fi
say "building"
cmake --build "$build"
find "$build" -name '*.gcda' -delete
say "running every test"
(cd "$build" && ctest --output-on-failure) || say "some tests failed: coverage is of what ran"
say "gcovr per folder"
{
  printf 'folder     lines       branches\n'
  for folder in core remote trainers app ui; do
    "$venv/bin/python" -m gcovr --root "$here" --filter "$here/$folder/" --object-directory "$build" \
      --gcov-ignore-errors=all --print-summary -o "$build/gcovr-summary.txt" 2>"$build/gcovr.log" |
      awk -v f="$folder" '/^lines:/ {l=$2" "$3" "$4" "$5" "$6} /^branches:/ {b=$2" "$3" "$4" "$5" "$6} END {printf "%-10s %-30s %s\n", f, l, b}'
  done
  "$venv/bin/python" -m gcovr --root "$here" --filter "$here/(core|remote|trainers|app|ui)/" --object-directory "$build" \
    --gcov-ignore-errors=all --print-summary -o "$build/gcovr-summary.txt" 2>"$build/gcovr.log" |
    awk '/^lines:/ {l=$2" "$3" "$4" "$5" "$6} /^branches:/ {b=$2" "$3" "$4" "$5" "$6} END {printf "%-10s %-30s %s\n", "all", l, b}'
} | tee "$out"
