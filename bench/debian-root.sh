# A clean Debian 12 root for the acceptance runs of bench/ (sourced, not run): debootstrap --variant=minbase bookworm
# from this machine's Debian mirror, itself a mount point, with /proc, /sys and /dev mounted (unmounted when the sourcing script exits),
# this machine's resolv.conf and CA bundle (pip checks PyPI's certificate against it: it may hold a proxy's CA).
# Defines: debian_root ROOT (makes it; sets debootstrap_s), in_root COMMAND... (runs in it with a clean environment;
# PIP_CERT set), seconds, say, fail. The sourcing script sets `tag` (its name in messages) first.

say() { printf '[%s] %s\n' "$tag" "$*" >&2; }
fail() { say "error: $*"; exit 1; }
seconds() { date +%s; }

mounted=()
unmount_root() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap unmount_root EXIT

debian_root() {
  root=$1
  [ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap and chroot)"
  # The Debian mirror this machine's apt uses, read from /etc/apt (deb822 .sources or one-line lists).
  local mirror
  mirror=$(
    { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
      grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}'; } |
      grep -v security | head -1 || true)
  [ -n "$mirror" ] || fail "no Debian mirror in /etc/apt/sources.list*"
  command -v debootstrap >/dev/null || { say "installing debootstrap"; apt-get install -y -qq debootstrap >/dev/null; }
  rm -rf "$root"
  say "debootstrap bookworm into $root"
  local t0
  t0=$(seconds)
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
    fail "debootstrap failed: $(tail -5 "$root.debootstrap.log")"
  debootstrap_s=$(($(seconds) - t0))
  # The root a mount point of its own, as / is on a machine: the test cluster's namespaces make / a slave mount.
  mount --bind "$root" "$root"
  mounted+=("$root")
  for fs in proc sys dev dev/pts dev/shm; do
    mkdir -p "$root/$fs"
    case $fs in
      proc) mount -t proc proc "$root/proc" ;;
      # With what is mounted below it (the cgroup hierarchy, which slurmd needs), kept from propagating back.
      sys) mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" ;;
      *) mount --bind "/$fs" "$root/$fs" ;;
    esac
    mounted+=("$root/$fs")
  done
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  # What Debian's installer writes and debootstrap does not, this machine's name included (Gloo's ranks find each
  # other by it; the test cluster's nodes mount their own over it).
  printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' "$(hostname)" \
    >"$root/etc/hosts"
  cp /etc/ssl/certs/ca-certificates.crt "$root/root/host-ca.crt"
}

in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 PIP_CERT=/root/host-ca.crt PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"
}
