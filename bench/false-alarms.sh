#!/usr/bin/env bash
# No false alarm from change or noise on this machine: SESSIONS sessions of one plan of seconds (logistic
# regression on synthetic data, REPEATS repeats, one setting), each judged against the one before it
# (--baseline last). Every difference between them is noise, so any REGRESSION line, or an "improvement", is a
# false alarm. Prints the count per figure and writes bench/results/DATE-false-alarms.md.
#
#   bench/false-alarms.sh [SESSIONS] [REPEATS]      # default 20 sessions of 5 repeats
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$here/build/release}
sessions=${1:-20}
repeats=${2:-5}
out=$here/out/false-alarms
rm -rf "$out"
mkdir -p "$out"
say() { echo "[false-alarms] $*"; }

cat > "$out/plan.toml" <<TOML
name = "false-alarms"
repeats = $repeats
regression_threshold = 0.05
[[run]]
workload = "logistic-regression"
dataset = "synthetic-epsilon"
ranks = 1
steps = 40
TOML

alarms=0
judged=0
for k in $(seq 1 "$sessions"); do
    log=$out/session-$k.log
    status=0
    "$build/app/scalebench" run "$out/plan.toml" --db "$out/sessions.db" --out "$out/s$k" --baseline last \
        > "$log" 2>&1 || status=$?
    if [[ $status -ne 0 && $status -ne 3 ]]; then
        say "session $k failed (exit $status): $log"
        exit 2
    fi
    lines=$(grep -cE "bootstrap, [0-9]+ vs [0-9]+ repeats" "$log" || true)
    flagged=$(grep -cE "REGRESSION|improvement" "$log" || true)
    judged=$((judged + lines))
    alarms=$((alarms + flagged))
    say "session $k: exit $status, $lines figure(s) judged, $flagged flagged"
done
machine="$(nproc) CPU(s), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
summary="$sessions sessions of $repeats repeats, each against the one before: $alarms false alarm(s) in $judged judged figure(s) (threshold 5 %, 95 % bootstrap)"
say "$summary"
mkdir -p "$here/bench/results"
{
    echo "# Change or noise: false alarms on one setting ($(date -u +%Y-%m-%d))"
    echo
    echo "Command: \`bench/false-alarms.sh $sessions $repeats\`; machine: $machine."
    echo
    echo "$summary."
    echo
    echo "Per session (figures judged, flagged):"
    echo
    for k in $(seq 2 "$sessions"); do
        echo "- session $k: $(grep -E 'bootstrap, [0-9]+ vs [0-9]+ repeats' "$out/session-$k.log" | sed -E 's/ +/ /g' | cut -c1-160 | paste -sd ';' -)"
    done
} > "$here/bench/results/$(date -u +%Y-%m-%d)-false-alarms.md"
[[ $alarms -eq 0 ]]
