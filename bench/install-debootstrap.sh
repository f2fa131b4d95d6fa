#!/usr/bin/env bash
# The install's acceptance (issue 26): a clean Debian 12 root made by debootstrap, scalebench's .deb installed into
# it with apt (so that its declared dependencies come in), the torch wheel put into a virtual environment there,
# and the quickstart plan run by the installed scalebench from the installed paths, whose first use builds the
# engine. Writes the log as Markdown. Run as root; it takes 30 minutes or more (debootstrap, ~1 GB of packages,
# torch, the engine's build, the quickstart).
# Usage: bench/install-debootstrap.sh DEB [RESULT.md]   (ROOT=/var/tmp/scalebench-bookworm: where the root goes)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 DEB [RESULT.md]" >&2; exit 2; }
deb=$(realpath "$1")
result=${2:-$here/bench/results/$(date -u +%F)-install-debootstrap.md}
root=${ROOT:-/var/tmp/scalebench-bookworm}
tag=install-debootstrap
# shellcheck source=bench/debian-root.sh
source "$here/bench/debian-root.sh"
[ -f "$deb" ] || fail "no package $deb (make deb)"

# torch as the project's set-up installs it (scripts/setup.sh): the wheel without its CUDA dependencies, and the
# two CUDA runtime libraries that libtorch_cpu.so loads.
torch_version=$(sed -n 's/^torch_version="\([^"]*\)".*/\1/p' "$here/scripts/setup.sh")
mapfile -t cuda_runtime < <(sed -n 's/^cuda_runtime=(\(.*\))/\1/p' "$here/scripts/setup.sh" | tr ' ' '\n')

debian_root "$root"

say "apt-get install ./$(basename "$deb") in the root (its dependencies from the mirror)"
cp "$deb" "$root/tmp/"
t0=$(seconds)
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$deb")" >"$root.apt.log" 2>&1 ||
  fail "apt-get install failed: $(tail -20 "$root.apt.log")"
apt_s=$(($(seconds) - t0))
packages=$(in_root dpkg-query -W -f='${binary:Package}\n' | wc -l)

say "torch $torch_version into /opt/torch-venv in the root"
t0=$(seconds)
in_root python3 -m venv /opt/torch-venv
in_root /opt/torch-venv/bin/pip install -q \
  --no-deps "torch==$torch_version" "${cuda_runtime[@]}" >"$root.pip.log" 2>&1 ||
  fail "pip failed: $(tail -20 "$root.pip.log")"
pip_s=$(($(seconds) - t0))

say "scalebench --batch /usr/share/scalebench/plans/quickstart.toml (the first use builds the engine)"
mkdir -p "$root/root/work"
t0=$(seconds)
set +e
in_root env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SCALEBENCH_TORCH_PYTHON=/opt/torch-venv/bin/python \
  sh -c 'cd /root/work && scalebench --batch /usr/share/scalebench/plans/quickstart.toml --db /root/work/s.db --out /root/work/out' \
  >"$root.quickstart.log" 2>&1
status=$?
set -e
quickstart_s=$(($(seconds) - t0))
build_s=$(sed -n 's/.*: built in \([0-9]*\) s (job .*/\1/p' "$root.quickstart.log" | head -1)
say "quickstart exited $status after $quickstart_s s (engine build: ${build_s:-?} s)"

# The second use: the engine of the same sources is found in the cache (the dry run says so).
second=$(in_root env SCALEBENCH_TORCH_PYTHON=/opt/torch-venv/bin/python \
  scalebench run /usr/share/scalebench/plans/quickstart.toml --dry-run 2>&1 | tail -1 || true)

{
  echo "# The .deb on a clean Debian 12 root (issue 26)"
  echo
  echo "\`bench/install-debootstrap.sh $(basename "$deb")\` on the development VM ($(nproc) CPUs, Debian 12),"
  echo "$(date -u '+%F %H:%M UTC'). debootstrap --variant=minbase bookworm from this machine's Debian mirror, then"
  echo "\`apt-get install ./$(basename "$deb")\` in the chroot (with /proc, /sys, /dev mounted), torch $torch_version into a"
  echo "venv there (\`pip install --no-deps torch ${cuda_runtime[*]}\`, as scripts/setup.sh does), and the quickstart run"
  echo "by the installed \`/usr/bin/scalebench --batch\` from \`/usr/share/scalebench/plans/quickstart.toml\` with"
  echo "SCALEBENCH_TORCH_PYTHON=/opt/torch-venv/bin/python: its first use builds the engine into /root/.cache/scalebench."
  echo
  echo "| step | figure |"
  echo "| --- | --- |"
  echo "| package | $(basename "$deb"), $(stat -c %s "$deb") bytes ($(du -h "$deb" | cut -f1)) |"
  echo "| debootstrap (minbase) | $debootstrap_s s |"
  echo "| apt-get install of the .deb | $apt_s s; $packages packages in the root afterwards |"
  echo "| torch wheel into the venv | $pip_s s |"
  echo "| first-use engine build (the build job's wall time) | ${build_s:-not reached} s |"
  echo "| quickstart, engine build included | $quickstart_s s, exit status $status |"
  echo
  echo "The package's declared dependencies (\`dpkg-deb -f\`):"
  echo
  echo '```'
  echo "Depends: $(dpkg-deb -f "$deb" Depends)"
  echo "Recommends: $(dpkg-deb -f "$deb" Recommends)"
  echo "Installed-Size: $(dpkg-deb -f "$deb" Installed-Size) KiB"
  echo '```'
  echo
  echo "The quickstart's output, verbatim:"
  echo
  echo '```'
  cat "$root.quickstart.log"
  echo '```'
  echo
  echo "A second \`scalebench run ... --dry-run\` in the root finds the engine built:"
  echo
  echo '```'
  echo "$second"
  echo '```'
} >"$result"
say "wrote $result"
exit "$status"
