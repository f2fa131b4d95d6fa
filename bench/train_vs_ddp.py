#!/usr/bin/env python3
"""Training throughput of scalebench-engine against PyTorch DistributedDataParallel (gloo), side by side.

Same torch (the wheel in .venv: its LibTorch for the engine, its Python for the peer), same ResNet-20 (parameter
counts checked), same synthetic CIFAR-shaped batches of 128 per rank, same intra-op threads per rank, same optimizer
(SGD Nesterov 0.9, weight decay 1e-4), at 1 and 2 ranks on this machine. Engine and peer alternate within each
repeat; a run's figure is the median step time of its steps after the warm-up steps, and the table shows the median
over repeats. Standard library only (the peer runs under .venv's Python).

  bench/train_vs_ddp.py [--engine PATH] [--baseline-engine PATH] [--ranks 1 2] [--repeats 3] [--steps 40] [--warmup 10]

--baseline-engine adds an earlier engine (a build from before a change) to every repeat, in turn with the others,
and prints engine / baseline beside engine / DDP: a change's effect measured side by side in one run.
"""
import argparse
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peer_runs as pr  # noqa: E402

ENGINE_BREAKDOWN = ["data_s", "forward_s", "backward_s", "allreduce_s", "optimizer_s"]
PEER_BREAKDOWN = ["data_s", "forward_s", "backward_allreduce_s", "optimizer_s"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def steady(records, warmup):
    steps = [r for r in records if r.get("type") == "step"]
    if len(steps) <= warmup:
        sys.exit(f"only {len(steps)} steps recorded: need more than --warmup {warmup}")
    return steps[warmup:]


def run_engine(engine, ranks, threads, args, folder):
    metrics = Path(folder) / f"engine-{ranks}.jsonl"
    metrics.unlink(missing_ok=True)
    argv = [engine, "--workload", "resnet20", "--dataset", "synthetic-cifar", "--steps", str(args.steps)]
    argv += ["--batch-per-rank", str(args.batch), "--threads-per-rank", str(threads), "--eval-every", "0"]
    argv += ["--eval-samples", str(args.batch), "--metrics", str(metrics)] + args.engine_arg
    pr.run(pr.mpirun(ranks, argv, threads=threads, bind=args.bind), env=pr.mpirun_environment())
    records = pr.read_records(metrics)
    header = next(r for r in records if r.get("type") == "header")
    return header, steady(records, args.warmup)


def run_peer(python, ranks, threads, args):
    """One process per rank with torchrun's environment variables (RANK, WORLD_SIZE, MASTER_ADDR/PORT, LOCAL_*)."""
    port = free_port()
    script = str(Path(__file__).resolve().parent / "ddp_peer.py")
    argv = [python, script, "--steps", str(args.steps), "--batch-per-rank", str(args.batch), "--threads", str(threads)]
    argv += args.peer_arg
    processes = []
    for rank in range(ranks):
        env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), LOCAL_RANK=str(rank))
        env.update(WORLD_SIZE=str(ranks), LOCAL_WORLD_SIZE=str(ranks))
        out = subprocess.PIPE if rank == 0 else subprocess.DEVNULL
        cpus = pr.rank_cpus(rank, ranks, threads) if args.bind else None
        bind = (lambda cpus=cpus: os.sched_setaffinity(0, cpus)) if cpus else None
        processes.append(subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.PIPE, text=True, preexec_fn=bind))
    output, errors = processes[0].communicate(timeout=1800)
    failed = [(p.wait(timeout=600), p) for p in processes]
    if any(code != 0 for code, _ in failed):
        sys.exit(f"the DDP peer failed at {ranks} ranks: {errors[-4000:]}")
    records = pr.read_records(output, from_text=True)
    header = next(r for r in records if r.get("type") == "header")
    return header, steady(records, args.warmup)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", help="scalebench-engine binary (default: $SCALEBENCH_ENGINE, build/release, build/dev)")
    parser.add_argument("--baseline-engine", help="an earlier scalebench-engine binary, measured in the same repeats")
    parser.add_argument("--python", default=str(pr.ROOT / ".venv" / "bin" / "python"), help="Python with torch")
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=3, help="alternating engine/peer repeats (median taken)")
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=10, help="leading steps left out of each run's median")
    parser.add_argument("--batch", type=int, default=128, help="batch per rank")
    parser.add_argument("--threads", type=int, default=0, help="intra-op threads per rank (0: cores / ranks)")
    parser.add_argument("--no-bind", dest="bind", action="store_false",
                        help="run every rank unbound (default: each rank bound to its own cores, engine and peer alike)")
    parser.add_argument("--engine-arg", action="append", default=[], help="extra engine option (repeatable)")
    parser.add_argument("--peer-arg", action="append", default=[], help="extra ddp_peer.py option, e.g. --channels-last")
    args = parser.parse_args()

    engine = pr.find_engine(args.engine)
    subprocess.run([str(pr.ROOT / "bench" / "setup-peers.sh")], check=True)
    cores = os.cpu_count() or 1
    print(f"engine: {engine}\npeer:   {args.python} bench/ddp_peer.py (DistributedDataParallel, gloo)")
    if args.baseline_engine:
        print(f"baseline: {args.baseline_engine} (an earlier engine, same options)")
    print(f"machine: {pr.machine()}; load average at start: {pr.load_average()}")
    print(f"ResNet-20, synthetic CIFAR-shaped data, batch {args.batch}/rank, {args.steps} steps, median of steps "
          f"{args.warmup + 1}..{args.steps}, {args.repeats} alternating repeats")
    bound = ("each rank on CPUs of its own where they fit (mpirun --map-by slot:PE=T --bind-to hwthread, as "
             "LocalScheduler launches; the peer's processes get the same CPUs through sched_setaffinity)")
    print("placement: " + (bound if args.bind else "every rank unbound (--bind-to none), engine and peer") + "\n")

    samples = {}  # (who, ranks) -> [samples/s per repeat]
    breakdown = {}  # (who, ranks) -> {part: [median seconds per repeat]}
    with tempfile.TemporaryDirectory(prefix="train_vs_ddp.") as folder:
        for repeat in range(args.repeats):
            for ranks in args.ranks:
                threads = args.threads or max(1, cores // ranks)
                order = ["engine", "peer"] + (["baseline"] if args.baseline_engine else [])
                shift = (repeat + ranks) % len(order)  # each takes every place in turn over the repeats
                order = order[shift:] + order[:shift]
                for who in order:
                    if who in ("engine", "baseline"):
                        header, steps = run_engine(engine if who == "engine" else args.baseline_engine, ranks, threads,
                                                   args, folder)
                        parts = ENGINE_BREAKDOWN
                    else:
                        header, steps = run_peer(args.python, ranks, threads, args)
                        parts = PEER_BREAKDOWN
                    key = (who, ranks)
                    if header.get("parameters") is not None:
                        samples.setdefault(("parameters", who), set()).add(header["parameters"])
                    step_s = pr.median(s["step_s"] for s in steps)
                    samples.setdefault(key, []).append(args.batch * ranks / step_s)
                    for part in parts:
                        breakdown.setdefault(key, {}).setdefault(part, []).append(pr.median(s[part] for s in steps))
                    print(f"  repeat {repeat + 1}, {ranks} rank(s), {threads} thread(s)/rank, {who:6}: "
                          f"{samples[key][-1]:7.1f} samples/s (load {pr.load_average()})", flush=True)

    engine_params, peer_params = samples.get(("parameters", "engine")), samples.get(("parameters", "peer"))
    print(f"\nparameters: engine {sorted(engine_params or [])}, peer {sorted(peer_params or [])}"
          + ("" if engine_params == peer_params else "  <-- MODELS DIFFER"))
    rows, median_of = [], {}
    for ranks in args.ranks:
        ours, theirs = pr.median(samples[("engine", ranks)]), pr.median(samples[("peer", ranks)])
        median_of[ranks] = (ours, theirs)
        # Each repeat's engine and peer ran back to back: their ratio cancels the load drifting between repeats.
        paired = pr.median(e / p for e, p in zip(samples[("engine", ranks)], samples[("peer", ranks)]))
        rows.append([ranks, f"{ours:.1f}", f"{theirs:.1f}", f"{ours / theirs:.3f}", f"{paired:.3f}",
                     "yes" if paired >= 1.0 else "NO"])
    print()
    pr.print_table(["ranks", "engine samples/s", "DDP samples/s", "engine/DDP", "paired engine/DDP", "paired >= 1.0"],
                   rows)
    if args.baseline_engine:
        rows = []
        for ranks in args.ranks:
            ours, before = pr.median(samples[("engine", ranks)]), pr.median(samples[("baseline", ranks)])
            paired = pr.median(e / b for e, b in zip(samples[("engine", ranks)], samples[("baseline", ranks)]))
            rows.append([ranks, f"{ours:.1f}", f"{before:.1f}", f"{ours / before:.3f}", f"{paired:.3f}"])
        print()
        pr.print_table(["ranks", "engine samples/s", "baseline samples/s", "engine/baseline", "paired engine/baseline"],
                       rows)
    if len(args.ranks) >= 2:
        base, top = args.ranks[0], args.ranks[-1]
        eff = lambda x: x[top] / x[base] * base / top
        ours = eff({r: median_of[r][0] for r in median_of})
        theirs = eff({r: median_of[r][1] for r in median_of})
        print(f"\nscaling efficiency {base} -> {top} ranks (throughput): engine {ours:.3f}, DDP {theirs:.3f}  "
              f"({'engine >= DDP' if ours >= theirs else 'engine BELOW DDP'})")
        # How sure: the same figure over repeats drawn with replacement (each repeat's four runs stay together).
        def efficiency_difference(repeats):
            median_eff = {who: eff({r: pr.median(samples[(who, r)][i] for i in repeats) for r in (base, top)})
                          for who in ("engine", "peer")}
            return median_eff["engine"] - median_eff["peer"]
        draw = random.Random(1)
        n = len(samples[("engine", base)])
        spread = sorted(efficiency_difference([draw.randrange(n) for _ in range(n)]) for _ in range(4000))
        low, high = spread[int(0.025 * len(spread))], spread[int(0.975 * len(spread)) - 1]
        print(f"  engine - DDP: {ours - theirs:+.3f}, 95 % bootstrap interval over the repeats [{low:+.3f}, {high:+.3f}]  "
              + ("engine above DDP" if low > 0 else "engine below DDP" if high < 0 else "inside the noise"))
        # Within one repeat the four runs ran back to back: their efficiencies share that repeat's load.
        per_repeat = {who: [t / b * base / top for b, t in zip(samples[(who, base)], samples[(who, top)])]
                      for who in ("engine", "peer")}
        wins = sum(e >= p for e, p in zip(per_repeat["engine"], per_repeat["peer"]))
        print(f"  per repeat: engine {' '.join(f'{e:.3f}' for e in per_repeat['engine'])}; "
              f"DDP {' '.join(f'{e:.3f}' for e in per_repeat['peer'])}")
        print(f"  median of the repeats' efficiencies: engine {pr.median(per_repeat['engine']):.3f}, DDP "
              f"{pr.median(per_repeat['peer']):.3f}; engine >= DDP in {wins} of {len(per_repeat['engine'])} repeats")
        (e_mean, e_2s), (p_mean, p_2s) = (pr.mean_two_sigma(per_repeat[who]) for who in ("engine", "peer"))
        difference = [e - p for e, p in zip(per_repeat["engine"], per_repeat["peer"])]
        d_mean, d_2s = pr.mean_two_sigma(difference)
        d_2se = d_2s / math.sqrt(len(difference))  # two standard errors of the mean difference
        print(f"  mean +- 2 sigma over repeats: engine {e_mean:.3f} +- {e_2s:.3f}, DDP {p_mean:.3f} +- {p_2s:.3f}; "
              f"engine - DDP, paired: {d_mean:+.3f} +- {d_2se:.3f} (2 standard errors)  "
              + ("engine above DDP" if d_mean - d_2se > 0 else "engine below DDP" if d_mean + d_2se < 0
                 else "no difference shown either way"))
    print("\nstep breakdown, ms (median over repeats of each run's median):")
    for (who, ranks), parts in sorted(breakdown.items()):
        print(f"  {who:6} {ranks} rank(s): " + ", ".join(f"{p[:-2]} {pr.median(v) * 1e3:.1f}" for p, v in parts.items()))
    print(f"\nload average at end: {pr.load_average()}")


if __name__ == "__main__":
    main()
