#!/usr/bin/env python3
"""All-reduce bus bandwidth of scalebench-engine's allreduce-sweep against OSU Micro-Benchmarks' osu_allreduce.

Same ranks, same MPI (Debian's OpenMPI, both under the same mpirun options), same fp32 sum, same message sizes
(powers of two from 4 B to 2^K x 4 B, which the engine's logspace sweep hits exactly with --sweep-points K+1
--sweep-max-log10 K*log10(2)), same warm-up and timed iterations. Engine and OSU alternate within each repeat; the
table shows, per size, the median over repeats of each tool's time per call (averaged over ranks by both tools),
then algbw = bytes / time and busbw = algbw x 2(n-1)/n (nccl-tests' definitions).

OSU is built outside this repository: bench/build-osu.sh OMB_SOURCE_DIR prints the binary's path.

  bench/allreduce_vs_osu.py --osu PATH | OSU_ALLREDUCE=PATH  [--engine PATH] [--ranks 2] [--max-log2 22]
                            [--iterations 200] [--warmup 20] [--repeats 5]
"""
import argparse
import math
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peer_runs as pr  # noqa: E402

LARGE_BYTES = 1 << 20  # busbw ratio target from 1 MB up
SMALL_BYTES = 8192  # latency target up to 8 KB (OSU's own small/large boundary)


def run_engine(engine, args, folder):
    metrics = Path(folder) / "sweep.jsonl"
    metrics.unlink(missing_ok=True)
    argv = [engine, "--workload", "allreduce-sweep", "--sweep-points", str(args.max_log2 + 1)]
    argv += ["--sweep-max-log10", repr(args.max_log2 * math.log10(2)), "--repetitions", str(args.iterations)]
    argv += ["--warmup-iterations", str(args.warmup), "--timing", args.timing, "--metrics", str(metrics)]
    argv += args.engine_arg
    pr.run(pr.mpirun(args.ranks, argv), env=pr.mpirun_environment())
    times = {}
    for r in pr.read_records(metrics):
        if r.get("type") == "collective":
            if not r.get("correct", True):
                sys.exit(f"the engine's all-reduce of {r['bytes']} B gave a wrong result")
            times[int(r["bytes"])] = float(r["time_s"])
    return times


def run_osu(osu, args):
    # -T mpi_float: fp32 sums as the engine (OMB 7 defaults to MPI_CHAR); -m bytes; -i/-x for every size.
    argv = [osu, "-m", f"4:{4 << args.max_log2}", "-i", str(args.iterations), "-x", str(args.warmup)]
    if args.osu_has_type:
        argv += ["-T", "mpi_float"]
    out = pr.run(pr.mpirun(args.ranks, argv), env=pr.mpirun_environment())
    times = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0].isdigit():
            times[int(fields[0])] = float(fields[1]) * 1e-6  # OSU prints the average latency in us
    if not times:
        sys.exit(f"no sizes in osu_allreduce's output:\n{out[-2000:]}")
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", help="scalebench-engine binary (default: $SCALEBENCH_ENGINE, build/release, build/dev)")
    parser.add_argument("--osu", default=os.environ.get("OSU_ALLREDUCE"), help="osu_allreduce binary ($OSU_ALLREDUCE)")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--max-log2", type=int, default=22, help="largest message: 2^K fp32 elements (22: 16 MiB)")
    parser.add_argument("--iterations", type=int, default=200, help="timed calls per size, both tools")
    parser.add_argument("--warmup", type=int, default=20, help="warm-up calls per size, both tools")
    parser.add_argument("--repeats", type=int, default=5, help="alternating engine/OSU repeats (median taken)")
    parser.add_argument("--engine-arg", action="append", default=[], help="extra engine option (repeatable)")
    parser.add_argument("--timing", choices=["per-call", "back-to-back"], default="per-call",
                        help="the engine's timing: per-call times each call alone after an untimed barrier, as "
                             "osu_allreduce does (default: like with like); back-to-back is nccl-tests' loop")
    args = parser.parse_args()
    if not args.osu or not os.access(args.osu, os.X_OK):
        sys.exit("no osu_allreduce: build OSU Micro-Benchmarks outside this repository with\n"
                 "  bench/build-osu.sh OMB_SOURCE_DIR [BUILD_DIR]\n"
                 "then pass --osu PATH or set OSU_ALLREDUCE=PATH")
    engine = pr.find_engine(args.engine)
    help_text = pr.run(pr.mpirun(1, [args.osu, "--help"]), env=pr.mpirun_environment())
    args.osu_has_type = "--type" in help_text or "-T" in help_text

    print(f"engine: {engine} --workload allreduce-sweep\nOSU:    {args.osu}"
          + (" -T mpi_float" if args.osu_has_type else " (fp32: OMB 5.x sums floats by default)"))
    print(f"machine: {pr.machine()}; load average at start: {pr.load_average()}")
    print(f"{args.ranks} ranks ({' '.join(pr.mpirun(args.ranks, [])[3:])}), fp32 sum, 4 B .. {4 << args.max_log2} B, "
          f"{args.warmup} warm-up + {args.iterations} timed calls per size, {args.repeats} alternating repeats\n")

    ours, theirs = {}, {}  # bytes -> [seconds per call, one per repeat]
    with tempfile.TemporaryDirectory(prefix="allreduce_vs_osu.") as folder:
        for repeat in range(args.repeats):
            order = ["engine", "osu"] if repeat % 2 == 0 else ["osu", "engine"]
            for who in order:
                times = run_engine(engine, args, folder) if who == "engine" else run_osu(args.osu, args)
                for size, seconds in times.items():
                    (ours if who == "engine" else theirs).setdefault(size, []).append(seconds)
            print(f"  repeat {repeat + 1} done (load {pr.load_average()})", flush=True)

    factor = 2 * (args.ranks - 1) / args.ranks
    rows, large, small = [], [], []
    for size in sorted(set(ours) & set(theirs)):
        t_ours, t_osu = pr.median(ours[size]), pr.median(theirs[size])
        bus_ours, bus_osu = size / t_ours * factor / 1e9, size / t_osu * factor / 1e9
        ratio = bus_ours / bus_osu  # = t_osu / t_ours
        (large if size >= LARGE_BYTES else small if size <= SMALL_BYTES else []).append((size, ratio, t_ours, t_osu))
        rows.append([size, f"{t_ours * 1e6:.2f}", f"{t_osu * 1e6:.2f}", f"{bus_ours:.3f}", f"{bus_osu:.3f}", f"{ratio:.3f}"])
    print()
    pr.print_table(["bytes", "engine us", "OSU us", "engine busbw GB/s", "OSU busbw GB/s", "engine/OSU busbw"], rows)
    if large:
        worst = min(large, key=lambda x: x[1])
        print(f"\n>= 1 MB: busbw ratio min {worst[1]:.3f} (at {worst[0]} B), median {pr.median(r for _, r, _, _ in large):.3f}"
              f"  target >= 0.95: {'met' if worst[1] >= 0.95 else 'NOT met'}")
    if small:
        excess = [t_ours / t_osu - 1 for _, _, t_ours, t_osu in small]
        worst = max(excess)
        print(f"<= {SMALL_BYTES} B: latency engine/OSU - 1: median {pr.median(excess) * 100:+.1f} %, worst {worst * 100:+.1f} %"
              f"  target within 10 %: {'met' if worst <= 0.10 else 'NOT met'}")
    # Best launch of each tool per size: launch-to-launch modes (below) cancel out of this one.
    sizes = sorted(set(ours) & set(theirs))
    best = {size: min(theirs[size]) / min(ours[size]) for size in sizes}  # busbw ratio of the best launches
    large_best = [best[s] for s in sizes if s >= LARGE_BYTES]
    small_best = [min(ours[s]) / min(theirs[s]) - 1 for s in sizes if s <= SMALL_BYTES]
    if large_best and small_best:
        print(f"best launch of each tool: >= 1 MB busbw ratio min {min(large_best):.3f}, median "
              f"{pr.median(large_best):.3f}; <= {SMALL_BYTES} B latency median {pr.median(small_best) * 100:+.1f} %, "
              f"worst {max(small_best) * 100:+.1f} %")
    # Open MPI's shared-memory all-reduce of large messages is bimodal from launch to launch here (the same
    # osu_allreduce binary gives 1 MiB in ~170 us or ~800 us): show every launch, so a median is not read as more
    # than it is.
    print(f"\nper launch, us (fast and slow launches of the same binary are this machine's, both tools):")
    for size in [s for s in sorted(set(ours) & set(theirs)) if s >= LARGE_BYTES]:
        print(f"  {size:>9} B  engine " + " ".join(f"{t * 1e6:.0f}" for t in ours[size]) +
              "  | OSU " + " ".join(f"{t * 1e6:.0f}" for t in theirs[size]))
    print(f"\nload average at end: {pr.load_average()}")


if __name__ == "__main__":
    main()
