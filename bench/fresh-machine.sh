#!/usr/bin/env bash
# A newcomer's first commands on a really fresh Debian 12 machine (issue 41): a clean root made by debootstrap, the
# two packages the README asks for first (git, make), a clone of this repository's HEAD, then `make quickstart` or
# `make test` exactly as the README says, timed phase by phase (the Makefile's own table, scripts/timed.sh).
# Writes the log as Markdown. Run as root, with nothing else running for honest times: the quickstart takes
# about 10 minutes on 2 cores, the test an hour (its set-up alone downloads ~3 GB: the test cluster's packages,
# clang, the CUDA 13.0 toolkit's wheels).
# Usage: bench/fresh-machine.sh quickstart|test [RESULT.md]   (ROOT=/var/tmp/scalebench-fresh: where the root goes)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
target=${1:-}
case "$target" in quickstart | test) ;; *) echo "usage: $0 quickstart|test [RESULT.md]" >&2; exit 2 ;; esac
result=${2:-$here/bench/results/$(date -u +%F)-fresh-machine-$target.md}
root=${ROOT:-/var/tmp/scalebench-fresh}
tag=fresh-machine
# shellcheck source=bench/debian-root.sh
source "$here/bench/debian-root.sh"
commit=$(git -C "$here" rev-parse --short HEAD)
[ -z "$(git -C "$here" status --porcelain --untracked-files=no)" ] ||
  say "note: the working tree has uncommitted changes; the root gets HEAD ($commit) without them"

debian_root "$root"

say "apt-get install git make (the README's first line) in the root"
t0=$(seconds)
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git make ca-certificates \
  >"$root.prerequisites.log" 2>&1 || fail "apt-get install git make failed: $(tail -20 "$root.prerequisites.log")"
prerequisites_s=$(($(seconds) - t0))

say "clone of $commit into /root/scalebench (and ../shared beside it, as CI has it)"
git clone -q --no-local "$here" "$root/root/scalebench"
[ ! -d "$here/../shared" ] || cp -a "$here/../shared" "$root/root/shared"

if [ "$target" = test ]; then
  # What the README asks of `make test` (its test cluster's daemons and user reach the clone; Debian 12's homes are
  # 0700), and what the set-up says to do where it is missing.
  say "chmod a+rx /root (the README's line for make test)"
  chmod a+rx "$root/root"
fi

say "make $target in the root (log: $root.make.log)"
t0=$(seconds)
set +e
in_root sh -c "cd /root/scalebench && make $target" >"$root.make.log" 2>&1
status=$?
set -e
make_s=$(($(seconds) - t0))
say "make $target exited $status after $make_s s"

{
  echo "# \`make $target\` on a fresh Debian 12 machine (issue 41)"
  echo
  echo "\`bench/fresh-machine.sh $target\` on the development VM ($(nproc) CPUs, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo)),"
  echo "$(date -u '+%F %H:%M UTC'), commit $commit. debootstrap --variant=minbase bookworm from this machine's Debian"
  echo "mirror (chroot with /proc, /sys, /dev mounted), \`apt-get install git make\`, \`git clone\`, then \`make $target\` as"
  echo "root. Nothing cached: no packages, no wheels, no compiler cache in the root."
  echo
  echo "| step | wall time |"
  echo "| --- | --- |"
  echo "| debootstrap (minbase) | $debootstrap_s s |"
  echo "| \`apt-get install git make\` | $prerequisites_s s |"
  echo "| \`make $target\`, exit status $status | $make_s s ($((make_s / 60)) min $((make_s % 60)) s) |"
  echo
  echo "The Makefile's phase table and the end of the output, verbatim:"
  echo
  echo '```'
  tail -40 "$root.make.log"
  echo '```'
} >"$result"
say "wrote $result"
exit "$status"
