#!/usr/bin/env bash
# The long fuzzing run: builds the fuzz preset, fuzzes every target for SECONDS each (libFuzzer, ASan, UBSan),
# and writes the figures per target to bench/results/DATE-fuzz.md.
# Usage: [FUZZ_JOBS=N] [FUZZ_TARGETS="a b"] bench/fuzz.sh [SECONDS_PER_TARGET]   (default 600 s; N targets at once,
# default 1; only the targets named, reported in DATE-fuzz-a-b.md). Crash inputs stay in
# build/fuzz/fuzz/soak/TARGET/artifacts/: fix the parser, then commit the input under fuzz/regressions/TARGET/
# so that `ctest --preset fuzz` replays it on every make test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "usage: bench/fuzz.sh [SECONDS_PER_TARGET]" >&2; exit 2; }
say() { printf '[fuzz] %s\n' "$*"; }

test -f build/fuzz/build.ninja || { say "configuring preset fuzz"; cmake --preset fuzz >/dev/null; }
say "building build/fuzz"
cmake --build --preset fuzz ${JOBS:+-j "$JOBS"}

mapfile -t targets < <(sed -n 's/^scalebench_add_fuzz_target(\([a-z_]*\) .*/\1/p' fuzz/CMakeLists.txt)
date=$(date -u +%F)
report="bench/results/${date}-fuzz.md"
if [ -n "${FUZZ_TARGETS:-}" ]; then # some targets only, e.g. again after a fix: a report of their own
  read -ra targets <<<"$FUZZ_TARGETS"
  report="bench/results/${date}-fuzz-$(IFS=-; echo "${targets[*]}").md"
fi
started=$(date -u '+%Y-%m-%d %H:%M UTC')
commit="$(git rev-parse --short HEAD)$(git diff --quiet || echo ' with uncommitted changes')"
jobs="${FUZZ_JOBS:-1}" # targets fuzzed at once (each one process, one core)

# Fuzzes target $1 for $seconds: its log, scratch corpus and crash inputs in build/fuzz/fuzz/soak/$1/.
fuzz_one() {
  local t=$1 work="build/fuzz/fuzz/soak/$1"
  mkdir -p "$work/corpus" "$work/artifacts"
  local options=(-max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048
                 -artifact_prefix="$work/artifacts/")
  [ -f "fuzz/dictionaries/$t.dict" ] && options+=(-dict="fuzz/dictionaries/$t.dict")
  local inputs=("$work/corpus" "fuzz/corpus/$t")
  [ -d "fuzz/regressions/$t" ] && inputs+=("fuzz/regressions/$t")
  say "$t: ${seconds} s (build/fuzz/fuzz/fuzz_$t ${options[*]} ${inputs[*]})"
  touch "$work/started"
  local status=0
  "build/fuzz/fuzz/fuzz_$t" "${options[@]}" "${inputs[@]}" >"$work/log" 2>&1 || status=$?
  echo "$status" >"$work/status"
}

for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait

rows=()
found=()
for t in "${targets[@]}"; do
  work="build/fuzz/fuzz/soak/$t"
  stat() { sed -n "s/^stat::$1: *//p" "$work/log" | tail -1; }
  runs=$(stat number_of_executed_units)
  per_s=$(stat average_exec_per_sec)
  status_line=$(grep -E '^#[0-9]+' "$work/log" | grep 'cov:' | tail -1 || true)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$status_line")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status_line")
  corpus_files=$(find "$work/corpus" "fuzz/corpus/$t" -type f | wc -l)
  mapfile -t crashes < <(find "$work/artifacts" -type f -newer "$work/started" | sort)
  status=$(cat "$work/status")
  rows+=("| \`$t\` | ${runs:-?} | ${per_s:-?} | ${corpus_files} | ${cov:-?} | ${ft:-?} | ${#crashes[@]} | $status |")
  why=$(grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|\[fuzz\] finding' "$work/log" | cut -c1-160 || true)
  for c in "${crashes[@]}"; do found+=("- \`$t\`: \`$c\` ($why)"); done
  say "$t: ${runs:-?} executions, ${per_s:-?} exec/s, cov ${cov:-?} ft ${ft:-?}, ${#crashes[@]} crash input(s), exit $status"
done

cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
{
  echo "# Fuzzing every parser (libFuzzer, ASan + UBSan): ${seconds} s per target"
  echo
  echo "Command: \`${FUZZ_JOBS:+FUZZ_JOBS=$jobs }${FUZZ_TARGETS:+FUZZ_TARGETS=\"$FUZZ_TARGETS\" }bench/fuzz.sh $seconds\` (preset \`fuzz\`: $(clang++-14 --version | head -1), \`-fsanitize=fuzzer,address,undefined"
  echo "-fno-sanitize-recover=all -O1\`), started $started at commit $commit."
  echo "Machine: $cpu, $(nproc) cores (shared with other builds), $(free -g | awk '/^Mem:/{print $2}') GiB."
  echo "Each target starts from its seed corpus (fuzz/corpus/TARGET) and kept regressions, with its dictionary; the"
  echo "corpus column counts seeds and the inputs added in this run; cov and ft are libFuzzer's last coverage and"
  echo "feature counts (edges of the instrumented code: scalebench's and the header-only libraries', not libssh's)."
  echo "Targets ran $jobs at a time (FUZZ_JOBS). A target stops at its first crash; exit is libFuzzer's status (0: the"
  echo "time ran out without a finding)."
  echo
  echo "| target | executions | exec/s | corpus | cov | ft | crashes | exit |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  printf '%s\n' "${rows[@]}"
  echo
  if [ ${#found[@]} -eq 0 ]; then echo "No crash, sanitizer report or broken invariant in this run."
  else echo "Crash inputs (fix the parser, then keep each under fuzz/regressions/TARGET/):"; printf '%s\n' "${found[@]}"; fi
} >"$report"
say "report: $report"
