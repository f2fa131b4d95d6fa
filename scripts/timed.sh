#!/usr/bin/env bash
# The phases of `make quickstart` and `make test`, timed: each phase's wall time is kept in FILE, and the report
# lists them with the compiler cache's hits and misses since the first phase (the test cluster's engine build
# compiles through the same cache, so it is counted too).
#   scripts/timed.sh FILE LABEL COMMAND...   runs COMMAND as the phase LABEL (the first phase starts FILE afresh
#                                            when FILE is absent); a failing phase prints the report and its status
#   scripts/timed.sh FILE --report TITLE     prints the phases and their total
set -uo pipefail

file=$1
shift

ccache_counts() { # "hits misses", or nothing without ccache
  command -v ccache >/dev/null || return 0
  ccache --print-stats 2>/dev/null |
    awk '$1=="direct_cache_hit"||$1=="preprocessed_cache_hit"{h+=$2} $1=="cache_miss"{m=$2} END{print h+0, m+0}'
}

report() {
  local title=$1
  [ -f "$file" ] || return 0
  echo "[$title] phase times (wall):"
  # A phase run as several commands (configure, then build) is one line.
  awk -F'\t' '$1=="phase"{if(!($2 in t)) order[n++]=$2; t[$2]+=$3; note[$2]=note[$2] $4; total+=$3}
              END{for(i=0;i<n;i++) printf "  %-48s %7.1f s%s\n", order[i], t[order[i]], note[order[i]];
                  printf "  %-48s %7.1f s (%.1f min)\n", "total", total, total/60}' "$file"
  local start now
  start=$(awk -F'\t' '$1=="ccache"{print $2; exit}' "$file")
  now=$(ccache_counts)
  if [ -n "$start" ] && [ -n "$now" ]; then
    read -r h0 m0 <<<"$start"
    read -r h1 m1 <<<"$now"
    echo "  ccache: $((h1 - h0)) compiles from the cache, $((m1 - m0)) compiled ($(ccache --get-config cache_dir))"
  fi
}

if [ "${1:-}" = --report ]; then
  report "${2:-make}"
  exit 0
fi

label=$1
shift
if [ ! -f "$file" ]; then
  mkdir -p "$(dirname "$file")"
  printf 'ccache\t%s\n' "$(ccache_counts)" >"$file"
fi
start=$(date +%s.%N)
"$@"
status=$?
seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e - s}')
if [ $status -eq 0 ]; then
  printf 'phase\t%s\t%s\t\n' "$label" "$seconds" >>"$file"
else
  printf 'phase\t%s\t%s\t (failed, exit %s)\n' "$label" "$seconds" "$status" >>"$file"
  report "$label failed"
fi
exit $status
