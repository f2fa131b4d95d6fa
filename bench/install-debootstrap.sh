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
say() { printf '[install-debootstrap] %s\n' "$*" >&2; }
fail() { say "error: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap and chroot)"
[ -f "$deb" ] || fail "no package $deb (make deb)"

# The Debian mirror this machine's apt uses, read from /etc/apt (deb822 .sources or one-line lists).
mirror=$(
  { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
    grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}'; } |
    grep -v security | head -1 || true)
[ -n "$mirror" ] || fail "no Debian mirror in /etc/apt/sources.list*"
command -v debootstrap >/dev/null || { say "installing debootstrap"; apt-get install -y -qq debootstrap >/dev/null; }

# torch as the project's set-up installs it (scripts/setup.sh): the wheel without its CUDA dependencies, and the
# two CUDA runtime libraries that libtorch_cpu.so loads.
torch_version=$(sed -n 's/^torch_version="\([^"]*\)".*/\1/p' "$here/scripts/setup.sh")
mapfile -t cuda_runtime < <(sed -n 's/^cuda_runtime=(\(.*\))/\1/p' "$here/scripts/setup.sh" | tr ' ' '\n')

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 "$@"; }
seconds() { date +%s; }

rm -rf "$root"
say "debootstrap bookworm into $root"
t0=$(seconds)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  fail "debootstrap failed: $(tail -5 "$root.debootstrap.log")"
debootstrap_s=$(($(seconds) - t0))
for fs in proc sys dev dev/pts dev/shm; do
  mkdir -p "$root/$fs"
  case $fs in
    proc) mount -t proc proc "$root/proc" ;;
    *) mount --bind "/$fs" "$root/$fs" ;;
  esac
  mounted+=("$root/$fs")
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
# pip checks PyPI's certificate against this machine's CA bundle (which may hold a proxy's CA).
cp /etc/ssl/certs/ca-certificates.crt "$root/root/host-ca.crt"

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
in_root env PIP_CERT=/root/host-ca.crt PIP_DISABLE_PIP_VERSION_CHECK=1 /opt/torch-venv/bin/pip install -q \
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
