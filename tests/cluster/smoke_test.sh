#!/usr/bin/env bash
# Acceptance test of the local test cluster: starts one with cluster_fixture.sh in a fresh folder, submits jobs
# over ssh as the test user (one-node job, two-node `srun --mpi=pmix`, a real MPI program through srun and mpirun,
# a GPU job and one asking for more GPUs than a node has), checks their output and states, stops the cluster and checks that nothing is left. Needs root.
#   smoke_test.sh [NODES]     NODES defaults to 2 (at least 2)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
fixture=$here/cluster_fixture.sh
node_count=${1:-2}
[ "$node_count" -ge 2 ] || { echo "NODES must be at least 2" >&2; exit 2; }
job_timeout_s=60

now_ms() { date +%s%3N; }
say() { printf '[smoke] %s\n' "$*"; }
fail() {
  printf '[smoke] FAILED: %s\n' "$*" >&2
  exit 1
}

dir=$(mktemp -d /tmp/scalebench-cluster.XXXXXX)
passed=0
# Stop the cluster whatever happens; keep the folder (logs) only when something failed.
trap 'if [ $passed -eq 1 ]; then "$fixture" stop "$dir" --clean; else "$fixture" stop "$dir"; echo "[smoke] logs kept in $dir" >&2; fi' EXIT

t0=$(now_ms)
"$fixture" start "$dir" "$node_count"
start_ms=$(($(now_ms) - t0))
# shellcheck disable=SC1091
. "$dir/cluster.env"
read -r -a node_names <<<"$NODES"

remote() {
  ssh -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes -i "$SSH_KEY" -p "$SSH_PORT" \
    -o UserKnownHostsFile="$SSH_KNOWN_HOSTS" -o StrictHostKeyChecking=yes "$SSH_USER@$SSH_HOST" "$@"
}

# Waits until job $1 has ended (as scontrol reports it over ssh) and prints its final state.
wait_job() {
  local id=$1 deadline state
  deadline=$(($(now_ms) + job_timeout_s * 1000))
  while :; do
    state=$(remote "scontrol show job -o $id" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 || true)
    case "$state" in
      COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE)
        echo "$state"
        return 0
        ;;
    esac
    [ "$(now_ms)" -lt "$deadline" ] || fail "job $id still '$state' after ${job_timeout_s}s"
    sleep 0.1
  done
}

# Submits a batch job over ssh from SSH_WORKDIR, waits for it, checks it COMPLETED, prints its output file.
run_job() {
  local id state
  id=$(remote "cd $SSH_WORKDIR && sbatch --parsable --time=5 $1") || fail "sbatch $1"
  [[ "$id" =~ ^[0-9]+$ ]] || fail "sbatch printed '$id', not a job id"
  state=$(wait_job "$id")
  grep -q "JobId=$id .*JobState=$state" "$JOBCOMP_LOG" || fail "job $id is not in $JOBCOMP_LOG as $state"
  [ "$state" = COMPLETED ] || {
    remote "cat $SSH_WORKDIR/slurm-$id.out" >&2 || true
    fail "job $id ($1) ended $state"
  }
  remote "cat $SSH_WORKDIR/slurm-$id.out"
}

# 1. The brief's exact command, from the user's login folder, timed from submission to completion.
t0=$(now_ms)
id=$(remote 'sbatch --parsable --wrap="hostname"')
[[ "$id" =~ ^[0-9]+$ ]] || fail "sbatch printed '$id', not a job id"
state=$(wait_job "$id")
first_job_ms=$(($(now_ms) - t0))
[ "$state" = COMPLETED ] || fail "first job ended $state"
out=$(remote "cat slurm-$id.out")
[[ " $NODES " == *" $out "* ]] || fail "first job printed '$out', not a node name"
say "one-node job $id: $state on $out"

# 2. Two nodes through srun's PMIx plug-in.
out=$(run_job "-N2 --ntasks-per-node=1 --wrap='srun --mpi=pmix hostname'")
for n in "${node_names[0]}" "${node_names[1]}"; do
  grep -qx "$n" <<<"$out" || fail "two-node job printed '$out', without $n"
done
say "two-node srun --mpi=pmix job: $(tr '\n' ' ' <<<"$out")"

# 3. A real MPI program (MPI_Allreduce across the two nodes), through srun and through mpirun.
if command -v mpicc >/dev/null; then
  mpicc -O1 -o "$SSH_WORKDIR/mpi_hello" "$here/mpi_hello.c"
  for launcher in "srun --mpi=pmix" mpirun; do
    out=$(run_job "-N2 --ntasks-per-node=1 --wrap='$launcher ./mpi_hello'")
    grep -q '^allreduce ok: 1$' <<<"$out" || fail "MPI job with $launcher printed: $out"
    for n in "${node_names[0]}" "${node_names[1]}"; do
      grep -q "on $n\$" <<<"$out" || fail "MPI job with $launcher has no rank on $n: $out"
    done
    say "two-node MPI job with $launcher: allreduce ok"
  done
else
  say "mpicc missing (libopenmpi-dev): MPI program jobs skipped"
fi

# 4. GPUs as generic resources: every node has them (not INVALID or DRAINED for want of device files), a job asking
# for them per node sees them in CUDA_VISIBLE_DEVICES, and one asking for more than a node has is refused by sbatch.
nodes_gres=$(remote "sinfo -h -N -o '%N %T %G'" | sort -u)
for n in "${node_names[@]}"; do
  grep -qx "$n idle gpu:$GPUS_PER_NODE" <<<"$nodes_gres" || fail "node $n is not idle with gpu:$GPUS_PER_NODE: $nodes_gres"
done
out=$(run_job "-N2 --ntasks-per-node=1 --gpus-per-node=$GPUS_PER_NODE --wrap='srun --mpi=pmix printenv CUDA_VISIBLE_DEVICES'")
all_gpus=$(seq -s, 0 $((GPUS_PER_NODE - 1)))
[ "$(sort -u <<<"$out")" = "$all_gpus" ] || fail "GPU job saw CUDA_VISIBLE_DEVICES '$out', not $all_gpus on each node"
refused=$(remote "cd $SSH_WORKDIR && sbatch --parsable --time=5 --gpus-per-node=$((GPUS_PER_NODE + 1)) --wrap=true" 2>&1) &&
  fail "a job asking for $((GPUS_PER_NODE + 1)) GPUs per node was accepted: $refused"
grep -q 'Requested node configuration is not available' <<<"$refused" || fail "sbatch refused an oversize GPU job with: $refused"
say "GPUs: nodes $(paste -sd, - <<<"$nodes_gres"); a GPU job saw $all_gpus; $((GPUS_PER_NODE + 1)) per node refused"

# 5. Interactive srun from the login side, and the project's folders as the job user sees them.
out=$(remote "cd $SSH_WORKDIR && srun -N2 --time=1 hostname" | sort | tr '\n' ' ')
say "interactive srun -N2: $out"
remote "test -x '$repo' && test -r '$repo'" || fail "$SSH_USER cannot reach $repo (jobs run binaries from there)"

# 6. Stop, and check that nothing is left: no live recorded process, no namespace, no link.
t0=$(now_ms)
"$fixture" stop "$dir"
stop_ms=$(($(now_ms) - t0))
while read -r name pid _; do
  st=$(sed -E 's/.*\) (.) .*/\1/' "/proc/$pid/stat" 2>/dev/null || echo gone)
  [ "$st" = gone ] || [ "$st" = Z ] || fail "$name (pid $pid) still alive (state $st) after stop"
done <"$PIDS"
hash=$(printf '%s' "$dir" | sha1sum | cut -c1-6)
! ip netns list | grep -q "^sb-$hash-" || fail "network namespaces left: $(ip netns list | grep "^sb-$hash-")"
! ip -o link show | grep -q ": sb$hash" || fail "links left: $(ip -o link show | grep ": sb$hash")"

passed=1
say "passed: start ${start_ms} ms, first job over ssh ${first_job_ms} ms, stop ${stop_ms} ms"
