#!/usr/bin/env python3
"""All-reduce bus bandwidth of scalebench-engine's allreduce-sweep against OSU Micro-Benchmarks' osu_allreduce.

Same ranks, same MPI (Debian's OpenMPI, both under the same mpirun options), same fp32 sum, same message sizes
(powers of two from 4 B to 2^K x 4 B, which the engine's logspace sweep hits exactly with --sweep-points K+1
--sweep-max-log10 K*log10(2)), same warm-up and timed iterations. As osu_allreduce by default, small messages (up to
8 KiB) get more calls than large ones: each repeat launches each tool twice, once for 4 B .. 8 KiB
(--small-iterations, --small-warmup) and once for every size (--iterations, --warmup; only the sizes above 8 KiB
are kept from it). The small sizes' launch is cheap and noisy, so it runs --small-launches times per repeat.

OSU runs twice in each pass, as itself and as a control ("OSU again"): the control's ratio to OSU is how far two
launches of one binary differ on this machine, the noise floor to read the engine's ratio against (Open MPI's
shared-memory all-reduce here is bimodal from launch to launch, in every binary). The three alternate in a rotating
order; the table shows, per size, the median over launches of each one's time per call (averaged over ranks by both
tools), then algbw = bytes / time and busbw = algbw x 2(n-1)/n (nccl-tests' definitions).

OSU is built outside this repository: bench/build-osu.sh OMB_SOURCE_DIR prints the binary's path.

  bench/allreduce_vs_osu.py --osu PATH | OSU_ALLREDUCE=PATH  [--engine PATH] [--ranks 2] [--max-log2 22]
                            [--iterations 200] [--warmup 20] [--small-iterations 2000] [--small-warmup 200]
                            [--small-launches 3] [--repeats 5]
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
SMALL_LOG2 = 11  # 2^11 fp32 elements = SMALL_BYTES
ENGINE, OSU, CONTROL = "engine", "OSU", "OSU again"


def run_engine(engine, args, folder, max_log2, iterations, warmup):
    metrics = Path(folder) / "sweep.jsonl"
    metrics.unlink(missing_ok=True)
    argv = [engine, "--workload", "allreduce-sweep", "--sweep-points", str(max_log2 + 1)]
    argv += ["--sweep-max-log10", repr(max_log2 * math.log10(2)), "--repetitions", str(iterations)]
    argv += ["--warmup-iterations", str(warmup), "--timing", args.timing, "--metrics", str(metrics)]
    argv += args.engine_arg
    pr.run(pr.mpirun(args.ranks, argv), env=pr.mpirun_environment())
    times = {}
    for r in pr.read_records(metrics):
        if r.get("type") == "collective":
            if not r.get("correct", True):
                sys.exit(f"the engine's all-reduce of {r['bytes']} B gave a wrong result")
            times[int(r["bytes"])] = float(r["time_s"])
    return times


def run_osu(osu, args, max_log2, iterations, warmup):
    # -T mpi_float: fp32 sums as the engine (OMB 7 defaults to MPI_CHAR); -m bytes; -i/-x for every size.
    argv = [osu, "-m", f"4:{4 << max_log2}", "-i", str(iterations), "-x", str(warmup)]
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
    parser.add_argument("--small-iterations", type=int, default=2000,
                        help=f"timed calls per size up to {SMALL_BYTES} B, both tools (osu_allreduce's own default "
                             "is 1000 there and 100 above)")
    parser.add_argument("--small-warmup", type=int, default=200, help=f"warm-up calls per size up to {SMALL_BYTES} B")
    parser.add_argument("--small-launches", type=int, default=3,
                        help=f"launches of each tool per repeat for the sizes up to {SMALL_BYTES} B (a second each)")
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
    print(f"{args.ranks} ranks ({' '.join(pr.mpirun(args.ranks, [])[3:])}), fp32 sum, 4 B .. {4 << args.max_log2} B; "
          f"warm-up + timed calls per size: {args.small_warmup} + {args.small_iterations} up to {SMALL_BYTES} B, "
          f"{args.warmup} + {args.iterations} above; {args.repeats} alternating repeats\n")

    # A third contestant, OSU against itself, is the control: how far two launches of one binary differ here.
    def launch(who, max_log2, iterations, warmup, folder):
        if who == ENGINE:
            return run_engine(engine, args, folder, max_log2, iterations, warmup)
        return run_osu(args.osu, args, max_log2, iterations, warmup)

    times = {who: {} for who in (ENGINE, OSU, CONTROL)}  # who -> bytes -> [seconds per call, one per launch]
    turn = 0  # rotates the order of the three, so none always follows another

    def one_pass(max_log2, iterations, warmup, keep, folder):
        nonlocal turn
        order = list(times)[turn % 3:] + list(times)[:turn % 3]
        turn += 1
        for who in order:
            for size, seconds in launch(who, max_log2, iterations, warmup, folder).items():
                if keep(size):
                    times[who].setdefault(size, []).append(seconds)

    with tempfile.TemporaryDirectory(prefix="allreduce_vs_osu.") as folder:
        for repeat in range(args.repeats):
            for _ in range(args.small_launches):
                one_pass(SMALL_LOG2, args.small_iterations, args.small_warmup, lambda size: size <= SMALL_BYTES, folder)
            one_pass(args.max_log2, args.iterations, args.warmup, lambda size: size > SMALL_BYTES, folder)
            print(f"  repeat {repeat + 1} done (load {pr.load_average()})", flush=True)

    factor = 2 * (args.ranks - 1) / args.ranks
    sizes = sorted(set.intersection(*(set(t) for t in times.values())))
    median = {who: {size: pr.median(times[who][size]) for size in sizes} for who in times}
    ratio = {who: {size: median[OSU][size] / median[who][size] for size in sizes} for who in (ENGINE, CONTROL)}
    rows = [[size, f"{median[ENGINE][size] * 1e6:.2f}", f"{median[OSU][size] * 1e6:.2f}",
             f"{size / median[ENGINE][size] * factor / 1e9:.3f}", f"{size / median[OSU][size] * factor / 1e9:.3f}",
             f"{ratio[ENGINE][size]:.3f}", f"{ratio[CONTROL][size]:.3f}"] for size in sizes]
    print()
    pr.print_table(["bytes", "engine us", "OSU us", "engine busbw GB/s", "OSU busbw GB/s", "engine/OSU busbw",
                    "control: OSU/OSU"], rows)

    large = [s for s in sizes if s >= LARGE_BYTES]
    small = [s for s in sizes if s <= SMALL_BYTES]
    if large:
        def spread(who):
            return f"min {min(ratio[who][s] for s in large):.3f}, median {pr.median(ratio[who][s] for s in large):.3f}"
        worst = min(ratio[ENGINE][s] for s in large)
        print(f"\n>= 1 MB busbw, engine/OSU: {spread(ENGINE)}  target >= 0.95 at every size: "
              f"{'met' if worst >= 0.95 else 'NOT met'}\n"
              f"                control, OSU/OSU: {spread(CONTROL)}")
    if small:
        def excess(who):
            return [median[who][s] / median[OSU][s] - 1 for s in small]

        def spread(who):
            return f"median {pr.median(excess(who)) * 100:+.1f} %, worst {max(excess(who)) * 100:+.1f} %"
        print(f"<= {SMALL_BYTES} B latency, engine/OSU - 1: {spread(ENGINE)}  target within 10 %: "
              f"{'met' if pr.median(excess(ENGINE)) <= 0.10 else 'NOT met'} over the sizes' median, "
              f"{'met' if max(excess(ENGINE)) <= 0.10 else 'NOT met'} at every size\n"
              f"                control, OSU/OSU - 1: {spread(CONTROL)}")
    # Open MPI's shared-memory all-reduce of large messages is bimodal from launch to launch here (the same
    # osu_allreduce binary gives 1 MiB in ~170 us or ~800 us): show every launch, so a median is not read as more
    # than it is.
    print(f"\nper launch, us (fast and slow launches of the same binary are this machine's, every tool):")
    for size in large:
        print(f"  {size:>9} B  " + "  | ".join(
            f"{who} " + " ".join(f"{t * 1e6:.0f}" for t in times[who][size]) for who in times))
    print(f"\nload average at end: {pr.load_average()}")


if __name__ == "__main__":
    main()
