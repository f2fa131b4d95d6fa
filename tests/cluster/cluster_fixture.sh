#!/usr/bin/env bash
# Starts, inspects and stops a real local Slurm cluster for scalebench's integration tests: munged, slurmctld,
# NODES slurmd compute nodes (each in its own network namespace, UTS namespace and mount namespace, each declaring
# GPUs as generic resources), an OpenSSH sshd on a loopback port with key-only login for a dedicated user (the
# head), and a second sshd in front of it (the bastion: the same login, TCP forwarding to the head's sshd only, as a
# jump host). Everything lives under one folder DIR.
#
#   cluster_fixture.sh start DIR [NODES]    NODES defaults to 2, each with SCALEBENCH_CLUSTER_GPUS (2) GPUs;
#                                           writes DIR/cluster.env when all is ready
#   cluster_fixture.sh stop DIR [--clean]   stops what start started (by recorded PID), removes its namespaces
#   cluster_fixture.sh status DIR           prints sinfo and whether sshd answers
#   cluster_fixture.sh fail-node DIR I      node I dies (every process in it killed); revive-node DIR I restarts it
#
# Needs root and Debian's slurmctld slurmd slurm-client munge openssh-server openssh-client iproute2 util-linux.
# Facts and pitfalls behind the choices made here: shared/notes/test-cluster.md.
# shellcheck disable=SC2016,SC2086 # sh -c scripts expand their own arguments; PID lists are split on purpose
set -euo pipefail

user="${SCALEBENCH_CLUSTER_USER:-sbtest}"   # the account jobs and ssh sessions run as
gpus="${SCALEBENCH_CLUSTER_GPUS:-2}"        # GPUs each node declares (generic resources, each backed by a device node the fixture makes)
ready_timeout_s=30                          # seconds to wait for each part to come up

say() { printf '[cluster] %s\n' "$*"; }
die() { printf '[cluster] error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '8,12p' "$0" | sed 's/^# *//' >&2; exit 2; }

# Milliseconds since the epoch.
now_ms() { date +%s%3N; }

# Names of the network objects that belong to DIR: derived from a hash of DIR so that stop can find them again
# and two clusters in two folders never share one.
net_names() {
  local hash
  hash=$(printf '%s' "$dir" | sha1sum | cut -c1-6)
  prefix="sb$hash"              # veth links: ${prefix}h<i>; the bridge: ${prefix}br (15 characters at most)
  bridge="${prefix}br"
  netns_prefix="sb-$hash-"      # network namespaces: sb-<hash>-node<i>
}

# --- processes ------------------------------------------------------------------------------------------------

# Prints field N (1-based, as in proc(5)) of /proc/PID/stat, or nothing if the process is gone.
stat_field() {
  local stat rest n=$(($2 - 2))
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  rest=${stat##*) }                     # the command name may hold spaces and parentheses
  # shellcheck disable=SC2086 # split into fields on purpose
  set -- $rest
  [ "$n" -ge 1 ] && printf '%s' "${!n}"
  return 0
}

# True if PID exists and is not a zombie (this sandbox reaps orphans late: Z means gone).
alive() {
  local state
  state=$(stat_field "$1" 3)
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# Prints the PIDs of all live descendants of the given PIDs.
descendants() {
  local table pid ppid
  # "pid ppid" of every process; the greedy match skips a command name holding ") ".
  table=$(cat /proc/[0-9]*/stat 2>/dev/null | sed -E 's/^([0-9]+) \(.*\) . ([0-9]+) .*/\1 \2/' || true)
  local frontier=" $* " found=" "
  while [ -n "${frontier// /}" ]; do
    local next=" "
    while read -r pid ppid; do
      case "$frontier" in *" $ppid "*)
        case "$found" in *" $pid "*) ;; *) found="$found$pid "; next="$next$pid " ;; esac ;;
      esac
    done <<<"$table"
    frontier=$next
  done
  for pid in $found; do alive "$pid" && echo "$pid"; done
  return 0
}

# Prints the PIDs of processes inside the network namespaces this cluster made (slurmstepd and job processes,
# which slurmd re-parents away from itself).
netns_processes() {
  local ns
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$netns_prefix" || true); do
    ip netns pids "$ns" 2>/dev/null || true
  done
}

# Prints the recorded PIDs that still run the process start recorded (same start time: no PID reuse).
recorded_processes() {
  [ -f "$dir/pids" ] || return 0
  local name pid start
  while read -r name pid start; do
    [ -n "${pid:-}" ] || continue
    alive "$pid" && [ "$(stat_field "$pid" 22)" = "$start" ] && echo "$pid"
  done <"$dir/pids"
  return 0
}

# Starts a command in its own session with output to LOG, records it in DIR/pids as NAME, sets $started_pid.
launch() {
  local name=$1 log=$2
  shift 2
  setsid "$@" >>"$log" 2>&1 </dev/null &
  started_pid=$!
  local start=""
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    start=$(stat_field "$started_pid" 22)
    [ -n "$start" ] && break
    sleep 0.01
  done
  printf '%s %s %s\n' "$name" "$started_pid" "${start:-0}" >>"$dir/pids"
}

# --- start ----------------------------------------------------------------------------------------------------

# Prints the sshd_config lines the head's sshd and the bastion's share: on loopback PORT with host key KEY (in
# DIR/ssh) and pid file NAME.pid, key-only login for $user and nothing else.
sshd_settings() {
  local port=$1 key=$2 name=$3
  cat <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $dir/ssh/$key
PidFile $dir/run/$name.pid
AuthorizedKeysFile $dir/ssh/authorized_keys
AllowUsers $user
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin no
UsePAM no
StrictModes no
X11Forwarding no
PrintMotd no
LogLevel VERBOSE
EOF
}

# Starts node I's slurmd in that node's namespaces (see cmd_start), recorded as slurmd-nodeI; sets $started_pid.
launch_slurmd() {
  local i=$1
  launch "slurmd-node$i" "$dir/log/slurmd-node$i.out" \
    nsenter --net="/run/netns/${netns_prefix}node$i" -- unshare --uts --mount -- /bin/sh -c \
    'hostname "$1" && mount --bind "$2/nodes/$1/hosts" /etc/hosts && mount --bind "$2/nodes/$1/tmp" "$2/nodetmp" &&
     exec slurmd -D -N "$1" -f "$2/slurm.conf"' sh "node$i" "$dir"
}

# Prints a free TCP port on 127.0.0.1.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Reports which part did not come up, with the end of its log, and exits (the EXIT trap then stops the rest).
not_up() {
  local what=$1 log=$2 why=${3:-"did not come up within ${ready_timeout_s}s"}
  printf '[cluster] error: %s %s; end of %s:\n' "$what" "$why" "$log" >&2
  tail -n 25 "$log" 2>/dev/null | sed 's/^/    /' >&2 || true
  exit 1
}

# Picks a free private /24 for the bridge, derived from the hash so that reruns use the same one.
pick_subnet() {
  local hash a b try route
  hash=$(printf '%s' "$dir" | sha1sum | cut -c1-4)
  a=$((100 + 0x${hash:0:2} % 100))
  b=$((0x${hash:2:2}))
  for try in $(seq 0 50); do
    subnet="10.$a.$(((b + try) % 256))"
    # Free if no address of this machine is in it and it is not reached directly (only through a gateway).
    if ! ip -4 -o addr show | grep -q " $subnet\." &&
      { ! route=$(ip -4 route get "$subnet.1" 2>/dev/null) || head -n 1 <<<"$route" | grep -q ' via '; }; then
      return 0
    fi
  done
  die "no free 10.$a.x.0/24 subnet found for the cluster's bridge"
}

cmd_start() {
  local nodes=${1:-2}
  [[ "$nodes" =~ ^[1-9][0-9]?$ ]] || die "NODES must be 1..99, not '$nodes'"
  [[ "$gpus" =~ ^[1-9]$ ]] || die "SCALEBENCH_CLUSTER_GPUS must be 1..9, not '$gpus'"
  [ "$(id -u)" -eq 0 ] || die "start needs root (namespaces, slurmd, sshd)"
  local tool
  for tool in mknod munged mungekey slurmctld slurmd sinfo scontrol /usr/sbin/sshd ssh ssh-keygen ip nsenter unshare setsid python3; do
    command -v "$tool" >/dev/null || die "'$tool' is missing: run scripts/setup.sh (it installs slurmctld slurmd slurm-client munge openssh-server)"
  done
  if [ -n "$(recorded_processes)" ]; then
    die "a cluster from $dir is still running: run '$0 stop $dir' first"
  fi

  local t0
  t0=$(now_ms)
  # shellcheck disable=SC2154 # rc is assigned in the trap itself
  trap 'rc=$?; trap - EXIT; if [ $rc -ne 0 ]; then say "start failed: stopping what was started (logs stay in $dir)" >&2; cmd_stop >/dev/null 2>&1 || true; fi; exit $rc' EXIT

  # Every folder above munged's socket must be 755, and the test user must reach the configuration.
  mkdir -p "$dir"
  chmod 755 "$dir"
  local up=$dir
  while [ "$up" != / ]; do
    up=$(dirname "$up")
    [ "$(($(stat -c '%#a' "$up") & 0115))" -eq $((0115)) ] ||
      die "$up must be searchable by all and readable by others (munged wants execute for user, group and others; $user reads): chmod a+rx $up"
  done
  rm -rf "$dir/pids" "$dir/cluster.env" "$dir/log"
  : >"$dir/pids"
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" "$dir/run" "$dir/nodetmp" "$dir/nodes" "$dir/ssh"
  chmod 755 "$dir/munge" "$dir/log" "$dir/run" "$dir/nodetmp" "$dir/nodes" "$dir/ssh"

  # The test user: key-only login, unlocked ('*' is no password, but not locked like '!').
  if ! id "$user" >/dev/null 2>&1; then
    useradd -m -s /bin/bash "$user" 2>/dev/null || id "$user" >/dev/null 2>&1 || die "could not create user $user"
  fi
  usermod -p '*' "$user"
  local workdir=$dir/home/$user
  mkdir -p "$workdir"
  chmod 755 "$dir/home"
  chown "$user:" "$workdir"
  chmod 755 "$workdir"
  # The user's scalebench root, empty at each start: the engine is deployed there once per start (the
  # "[engine-build]" test, a CTest fixture) and reused by the tests that run plans on the cluster.
  rm -rf "$workdir/scalebench"
  mkdir -p "$workdir/scalebench"
  chown "$user:" "$workdir/scalebench"

  # munged with its own key and socket.
  local msock=$dir/munge/munge.sock
  rm -f "$dir/munge/munge.key" "$msock"
  mungekey --create --keyfile="$dir/munge/munge.key" --bits=1024 2>>"$dir/log/munged.log"
  chmod 600 "$dir/munge/munge.key"
  launch munged "$dir/log/munged.log" munged --foreground --socket="$msock" --key-file="$dir/munge/munge.key" \
    --log-file="$dir/log/munged.log" --pid-file="$dir/run/munged.pid" --seed-file="$dir/munge/munged.seed"
  local munged_pid=$started_pid deadline=$(($(now_ms) + ready_timeout_s * 1000))
  until [ -S "$msock" ]; do
    alive "$munged_pid" || not_up munged "$dir/log/munged.log" exited
    [ "$(now_ms)" -lt "$deadline" ] || not_up munged "$dir/log/munged.log"
    sleep 0.02
  done

  # Network: a bridge in this namespace (the head, 10.a.b.1) and one namespace per node (10.a.b.(10+i)),
  # with no route out: traffic stays between the head and the namespaces made here.
  net_names
  pick_subnet
  ip link add "$bridge" type bridge
  ip addr add "$subnet.1/24" dev "$bridge"
  ip link set "$bridge" up
  local i ns names=() hosts
  hosts="127.0.0.1 localhost
$subnet.1 head"
  for i in $(seq 1 "$nodes"); do
    names+=("node$i")
    hosts="$hosts
$subnet.$((10 + i)) node$i"
  done
  for i in $(seq 1 "$nodes"); do
    ns="${netns_prefix}node$i"
    ip netns add "$ns"
    ip link add "${prefix}h$i" type veth peer name "${prefix}n$i" netns "$ns"
    ip link set "${prefix}h$i" master "$bridge" up
    ip -n "$ns" link set "${prefix}n$i" name eth0
    ip -n "$ns" addr add "$subnet.$((10 + i))/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    mkdir -p "$dir/nodes/node$i/tmp" "$dir/spool/node$i"
    chmod 1777 "$dir/nodes/node$i/tmp"
    printf '%s\n' "$hosts" >"$dir/nodes/node$i/hosts"
  done

  # Slurm's configuration.
  local ctld_port slurmd_port
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  [ "$slurmd_port" != "$ctld_port" ] || slurmd_port=$((ctld_port + 1))
  local cpus
  # At least 4 CPUs a node, as many as this machine has if more (config_overrides: slurmd does not mark a node with
  # fewer INVALID): more cores than GPUs, as on GPU nodes, so that a job is refused for its GPUs, not its tasks.
  cpus=$(nproc)
  [ "$cpus" -ge 4 ] || cpus=4
  # GPUs as a GPU cluster declares them: GresTypes=gpu, Gres=gpu:N on each node and a gres.conf naming a device
  # file per GPU. There are no GPUs here, so device nodes of the fixture's own stand for /dev/nvidiaK: slurmd drops a GPU whose file
  # is missing (the node then has fewer than slurm.conf says and is INVALID), and one whose file is not a device
  # keeps the node up but gives jobs no CUDA_VISIBLE_DEVICES. Character devices with /dev/null's numbers (1,3:
  # harmless if opened) make jobs see CUDA_VISIBLE_DEVICES and SLURM_*GPU* variables as on a real cluster.
  mkdir -p "$dir/dev"
  chmod 755 "$dir/dev"
  rm -f "$dir"/dev/nvidia*
  for i in $(seq 0 $((gpus - 1))); do mknod -m 666 "$dir/dev/nvidia$i" c 1 3; done
  echo "# Written by tests/cluster/cluster_fixture.sh: device nodes of its own (/dev/null's numbers) stand for the GPUs'." >"$dir/gres.conf"
  local files=$dir/dev/nvidia0
  [ "$gpus" -eq 1 ] || files="$dir/dev/nvidia[0-$((gpus - 1))]"
  echo "Name=gpu File=$files" >>"$dir/gres.conf"
  {
    echo "# Written by tests/cluster/cluster_fixture.sh for a local test cluster."
    echo "ClusterName=sb${prefix#sb}"
    echo "SlurmctldHost=head($subnet.1)"
    echo "SlurmctldPort=$ctld_port"
    echo "SlurmdPort=$slurmd_port"
    echo "SlurmUser=root"
    echo "SlurmdUser=root"
    echo "AuthType=auth/munge"
    # cred_expire: also how long Slurm holds a requeued job (BeginTime) before it may start again; 120 s by default.
    echo "AuthInfo=socket=$msock,cred_expire=10"
    echo "CredType=cred/munge"
    echo "StateSaveLocation=$dir/state"
    echo "SlurmdSpoolDir=$dir/spool/%n"
    echo "SlurmctldPidFile=$dir/run/slurmctld.pid"
    echo "SlurmdPidFile=$dir/run/slurmd-%n.pid"
    echo "SlurmctldLogFile=$dir/log/slurmctld.log"
    echo "SlurmdLogFile=$dir/log/slurmd-%n.log"
    echo "SlurmctldDebug=info"
    echo "SlurmdDebug=info"
    echo "SelectType=select/cons_tres"
    echo "SelectTypeParameters=CR_Core"
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/none"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "AccountingStorageType=accounting_storage/none"
    echo "JobCompType=jobcomp/filetxt"
    echo "JobCompLoc=$dir/jobcomp.log"
    echo "MpiDefault=pmix"
    echo "MailProg=/bin/true"
    # bf_interval=1: a job that becomes eligible without an event (a requeued job when its BeginTime passes) starts
    # within a second, not at the next backfill pass 30 s later (the node-death test waited 24 s for it).
    echo "SchedulerParameters=batch_sched_delay=0,bf_interval=1"
    echo "ReturnToService=2"
    echo "MinJobAge=300"
    echo "KillWait=5"
    # A node that stops answering is DOWN after 5 s, not Slurm's default 300 s (tests of node failures).
    echo "SlurmdTimeout=5"
    echo "InactiveLimit=0"
    echo "GresTypes=gpu"
    echo "SlurmdParameters=config_overrides"
    for i in $(seq 1 "$nodes"); do
      echo "NodeName=node$i NodeAddr=$subnet.$((10 + i)) CPUs=$cpus Sockets=1 CoresPerSocket=$cpus ThreadsPerCore=1 Gres=gpu:$gpus State=UNKNOWN"
    done
    echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
  } >"$dir/slurm.conf"
  echo "PMIxCliTmpDirBase=$dir/nodetmp" >"$dir/mpi.conf"
  chmod 644 "$dir/slurm.conf" "$dir/mpi.conf" "$dir/gres.conf"
  : >"$dir/jobcomp.log"
  chmod 644 "$dir/jobcomp.log"
  export SLURM_CONF=$dir/slurm.conf

  # slurmctld, under its own host name 'head' (it must match SlurmctldHost); -c: no state from an earlier run.
  launch slurmctld "$dir/log/slurmctld.out" unshare --uts -- /bin/sh -c \
    'hostname head && exec slurmctld -D -c -f "$1"' sh "$SLURM_CONF"
  local ctld_pid=$started_pid

  # The nodes: a network namespace each, plus a UTS namespace (host name), and a mount namespace for a private
  # /etc/hosts and a private PMIx folder (all nodes share /tmp, so PMIx would collide). nsenter, not
  # 'ip netns exec': the latter remounts /sys and slurmd then misses /sys/fs/cgroup.
  local slurmd_pids=()
  for i in $(seq 1 "$nodes"); do
    launch_slurmd "$i"
    slurmd_pids+=("$started_pid")
  done

  # sshd on a free loopback port, with its own host key and one user key; the bastion on another port, with a host
  # key of its own. known_hosts records both.
  local ssh_port bastion_port key=$dir/ssh/id_ed25519
  ssh_port=$(free_port)
  bastion_port=$(free_port)
  [ "$bastion_port" != "$ssh_port" ] || bastion_port=$((ssh_port + 1))
  rm -f "$dir/ssh/ssh_host_ed25519_key"* "$dir/ssh/bastion_host_ed25519_key"* "$key" "$key.pub"
  ssh-keygen -q -t ed25519 -N '' -C "scalebench test host" -f "$dir/ssh/ssh_host_ed25519_key"
  ssh-keygen -q -t ed25519 -N '' -C "scalebench test bastion" -f "$dir/ssh/bastion_host_ed25519_key"
  ssh-keygen -q -t ed25519 -N '' -C "$user@scalebench-test" -f "$key"
  cp "$key.pub" "$dir/ssh/authorized_keys"
  chmod 644 "$dir/ssh/authorized_keys"
  {
    printf '[127.0.0.1]:%s %s\n' "$ssh_port" "$(cut -d' ' -f1,2 "$dir/ssh/ssh_host_ed25519_key.pub")"
    printf '[127.0.0.1]:%s %s\n' "$bastion_port" "$(cut -d' ' -f1,2 "$dir/ssh/bastion_host_ed25519_key.pub")"
  } >"$dir/ssh/known_hosts"
  {
    echo "# Written by tests/cluster/cluster_fixture.sh: key-only login for $user on loopback."
    sshd_settings "$ssh_port" ssh_host_ed25519_key sshd
    echo "Subsystem sftp internal-sftp"
    echo "SetEnv SLURM_CONF=$dir/slurm.conf"
  } >"$dir/ssh/sshd_config"
  mkdir -p /run/sshd
  chmod 755 /run/sshd
  /usr/sbin/sshd -t -f "$dir/ssh/sshd_config" 2>>"$dir/log/sshd.log" || not_up "sshd (configuration test)" "$dir/log/sshd.log"
  launch sshd "$dir/log/sshd.log" /usr/sbin/sshd -D -f "$dir/ssh/sshd_config" -E "$dir/log/sshd.log"
  local sshd_pid=$started_pid

  # The bastion: logs the same user in with the same key, runs no sftp, and forwards TCP to the head's sshd only
  # (ssh -W, which ProxyJump uses).
  {
    echo "# Written by tests/cluster/cluster_fixture.sh: a jump host in front of the test cluster's sshd."
    sshd_settings "$bastion_port" bastion_host_ed25519_key bastion-sshd
    echo "PermitTTY no"
    echo "AllowTcpForwarding yes"
    echo "PermitOpen 127.0.0.1:$ssh_port"
  } >"$dir/ssh/bastion_sshd_config"
  /usr/sbin/sshd -t -f "$dir/ssh/bastion_sshd_config" 2>>"$dir/log/bastion-sshd.log" ||
    not_up "the bastion's sshd (configuration test)" "$dir/log/bastion-sshd.log"
  launch bastion-sshd "$dir/log/bastion-sshd.log" /usr/sbin/sshd -D -f "$dir/ssh/bastion_sshd_config" \
    -E "$dir/log/bastion-sshd.log"
  local bastion_pid=$started_pid

  # Wait: all nodes idle, then sshd answering.
  deadline=$(($(now_ms) + ready_timeout_s * 1000))
  local states=""
  while :; do
    states=$(sinfo -h -N -o '%N %T' 2>/dev/null | sort -u || true)
    [ "$(grep -c ' idle$' <<<"$states")" -eq "$nodes" ] && break
    alive "$ctld_pid" || not_up slurmctld "$dir/log/slurmctld.out" exited
    for i in $(seq 1 "$nodes"); do
      alive "${slurmd_pids[$((i - 1))]}" || not_up "slurmd on node$i" "$dir/log/slurmd-node$i.out" exited
    done
    if [ "$(now_ms)" -ge "$deadline" ]; then
      [ -n "$states" ] || not_up slurmctld "$dir/log/slurmctld.log"
      printf '[cluster] node states:\n%s\n' "$states" >&2
      for i in $(seq 1 "$nodes"); do
        grep -q "^node$i idle$" <<<"$states" || not_up "slurmd on node$i" "$dir/log/slurmd-node$i.log"
      done
    fi
    sleep 0.05
  done
  local ssh_opts=(-F /dev/null -o BatchMode=yes -o ConnectTimeout=2 -o IdentitiesOnly=yes -i "$key" -p "$ssh_port"
    -o UserKnownHostsFile="$dir/ssh/known_hosts" -o StrictHostKeyChecking=yes)
  until ssh "${ssh_opts[@]}" "$user@127.0.0.1" true 2>>"$dir/log/ssh-client.log"; do
    alive "$sshd_pid" || not_up sshd "$dir/log/sshd.log" exited
    [ "$(now_ms)" -lt "$deadline" ] || not_up sshd "$dir/log/sshd.log"
    sleep 0.05
  done
  # The head through the bastion, as ProxyJump goes (DIR holds no spaces: the command needs no quoting).
  local jump="ssh -F /dev/null -o BatchMode=yes -o ConnectTimeout=2 -o IdentitiesOnly=yes -i $key -p $bastion_port"
  jump="$jump -o UserKnownHostsFile=$dir/ssh/known_hosts -o StrictHostKeyChecking=yes -W %h:%p $user@127.0.0.1"
  until ssh "${ssh_opts[@]}" -o ProxyCommand="$jump" "$user@127.0.0.1" true 2>>"$dir/log/ssh-client.log"; do
    alive "$bastion_pid" || not_up "the bastion's sshd" "$dir/log/bastion-sshd.log" exited
    [ "$(now_ms)" -lt "$deadline" ] || not_up "the bastion's sshd" "$dir/log/bastion-sshd.log"
    sleep 0.05
  done

  local ready_ms=$(($(now_ms) - t0))
  # slurmctld reads SchedulerParameters only in its first scheduling pass, about 3 s after it starts; until then the
  # default batch_sched_delay=3 holds batch jobs back. Waiting for that pass here lets the first job start at once.
  until grep -q 'SchedulerParameters=' "$dir/log/slurmctld.log" 2>/dev/null; do
    alive "$ctld_pid" || not_up slurmctld "$dir/log/slurmctld.out" exited
    [ "$(now_ms)" -lt "$deadline" ] || not_up "slurmctld's first scheduling pass" "$dir/log/slurmctld.log"
    sleep 0.05
  done

  cat >"$dir/cluster.env" <<EOF
# Written by tests/cluster/cluster_fixture.sh start; source it.
SLURM_CONF=$dir/slurm.conf
SSH_HOST=127.0.0.1
SSH_PORT=$ssh_port
SSH_USER=$user
SSH_KEY=$key
SSH_KNOWN_HOSTS=$dir/ssh/known_hosts
BASTION_PORT=$bastion_port
BASTION_HOST_KEY=$dir/ssh/bastion_host_ed25519_key.pub
SSH_WORKDIR=$workdir
SCALEBENCH_ROOT=$workdir/scalebench
NODES="${names[*]}"
GPUS_PER_NODE=$gpus
JOBCOMP_LOG=$dir/jobcomp.log
PIDS=$dir/pids
EOF
  chmod 644 "$dir/cluster.env"
  trap - EXIT
  say "up in $(($(now_ms) - t0)) ms (nodes idle and sshd answering after $ready_ms ms): nodes ${names[*]}, sshd on 127.0.0.1:$ssh_port, bastion on 127.0.0.1:$bastion_port; source $dir/cluster.env"
}

# --- stop -----------------------------------------------------------------------------------------------------

# Prints the PIDs this cluster is responsible for that are still alive.
cluster_processes() {
  local roots
  roots=$(recorded_processes)
  { echo "$roots"; [ -z "$roots" ] || descendants $roots; netns_processes; } | grep -E '^[0-9]+$' | sort -un || true
}

cmd_stop() {
  local clean=${1:-}
  net_names
  local pids deadline pid
  pids=$(cluster_processes)
  if [ -n "$pids" ]; then
    kill -TERM $pids 2>/dev/null || true
    # Up to 5 s for the daemons themselves to exit.
    deadline=$(($(now_ms) + 5000))
    while [ -n "$(recorded_processes)" ] && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.05; done
    # Leftovers (slurmstepd ignores SIGTERM and outlives slurmd; job processes; ssh sessions): kill, then wait until
    # they are gone or zombies.
    pids=$(cluster_processes)
    if [ -n "$pids" ]; then
      kill -KILL $pids 2>/dev/null || true
      deadline=$(($(now_ms) + 3000))
      while [ -n "$(cluster_processes)" ] && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.05; done
      pids=$(cluster_processes)
      [ -z "$pids" ] || printf '[cluster] warning: still alive after SIGKILL: %s\n' "$pids" >&2
    fi
  fi

  # Network objects: removing a host-side veth removes its peer; the namespaces and the bridge follow.
  local link ns
  for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E "^${prefix}h[0-9]+$" || true); do
    ip link del "$link" 2>/dev/null || true
  done
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$netns_prefix" || true); do
    ip netns delete "$ns" 2>/dev/null || true
  done
  if ip link show "$bridge" >/dev/null 2>&1; then ip link del "$bridge" 2>/dev/null || true; fi

  if [ "$clean" = --clean ] && [ -d "$dir" ]; then
    if [ -f "$dir/slurm.conf" ] || [ -f "$dir/pids" ]; then
      rm -rf "$dir"
    else
      printf '[cluster] warning: %s does not look like a cluster folder; left in place\n' "$dir" >&2
    fi
  fi
  return 0
}

# --- node failures --------------------------------------------------------------------------------------------

# Node I dies: every process in its network namespace (slurmd, slurmstepd, the job's processes) is killed at once,
# as a machine losing power would end them. Slurm marks it DOWN after SlurmdTimeout and requeues its jobs.
cmd_fail_node() {
  local i=$1 pids
  net_names
  pids=$(ip netns pids "${netns_prefix}node$i" 2>/dev/null || true)
  [ -n "$pids" ] || die "node$i has no processes (not started, or failed already)"
  kill -KILL $pids 2>/dev/null || true
  say "node$i failed: killed $(echo $pids | wc -w) process(es)"
}

# Node I comes back: its slurmd starts again (ReturnToService=2 returns it to service when it registers).
cmd_revive_node() {
  local i=$1
  net_names
  [ -f "$dir/slurm.conf" ] || die "no cluster in $dir"
  launch_slurmd "$i"
  say "node$i: slurmd started again (pid $started_pid)"
}

# --- status ---------------------------------------------------------------------------------------------------

# shellcheck disable=SC2153 # cluster.env sets SLURM_CONF and SSH_*
cmd_status() {
  [ -f "$dir/cluster.env" ] || { echo "no cluster.env in $dir: not started (or start failed)"; return 1; }
  # shellcheck disable=SC1091 # written by start
  . "$dir/cluster.env"
  export SLURM_CONF
  sinfo || true
  if ssh -F /dev/null -o BatchMode=yes -o ConnectTimeout=2 -o IdentitiesOnly=yes -i "$SSH_KEY" -p "$SSH_PORT" \
    -o UserKnownHostsFile="$SSH_KNOWN_HOSTS" -o StrictHostKeyChecking=yes "$SSH_USER@$SSH_HOST" true 2>/dev/null; then
    echo "sshd: answering on $SSH_HOST:$SSH_PORT as $SSH_USER"
  else
    echo "sshd: NOT answering on $SSH_HOST:$SSH_PORT"
    return 1
  fi
}

[ $# -ge 2 ] || usage
command=$1
dir=$2
shift 2
case "$dir" in /*) ;; *) die "DIR must be an absolute path, not '$dir'" ;; esac
[[ "$dir" =~ ^[A-Za-z0-9_./+-]+$ ]] || die "DIR may hold only letters, digits and _ . / + - (it goes into slurm.conf): '$dir'"
dir=${dir%/}
case "$command" in
  start) [ $# -le 1 ] || usage; cmd_start "$@" ;;
  stop) [ $# -le 1 ] || usage; [ $# -eq 0 ] || [ "$1" = --clean ] || usage; cmd_stop "$@" ;;
  status) [ $# -eq 0 ] || usage; cmd_status ;;
  fail-node) [ $# -eq 1 ] || usage; cmd_fail_node "$1" ;;
  revive-node) [ $# -eq 1 ] || usage; cmd_revive_node "$1" ;;
  *) usage ;;
esac
