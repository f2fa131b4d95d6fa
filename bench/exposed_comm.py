#!/usr/bin/env python3
"""Exposed communication of scalebench-engine's overlapped gradient buckets against its own no-overlap baseline.

ResNet-20 on synthetic CIFAR-shaped batches at 2 ranks, run with overlap (gradient buckets all-reduced while
backward still computes; --bucket-mb) and with --overlap no (one all-reduce after backward), alternating within each
repeat. Per run, the median over steps after the warm-up of the step record's `allreduce_s` (communication the step
waited for: exposed) and `comm_hidden_s` (communication that ran under backward); the table shows medians over
repeats and the ratio exposed(overlap) / exposed(no overlap). Needs an engine with --bucket-mb and --overlap: with
an older one it says so and exits 0 without measuring.

  bench/exposed_comm.py [--engine PATH] [--ranks 2] [--bucket-mb MIB] [--repeats 3] [--steps 40] [--warmup 10]
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peer_runs as pr  # noqa: E402


def run_engine(engine, args, threads, extra, folder):
    metrics = Path(folder) / "exposed.jsonl"
    metrics.unlink(missing_ok=True)
    argv = [engine, "--workload", "resnet20", "--dataset", "synthetic-cifar", "--steps", str(args.steps)]
    argv += ["--batch-per-rank", str(args.batch), "--threads-per-rank", str(threads), "--eval-every", "0"]
    argv += ["--eval-samples", str(args.batch), "--metrics", str(metrics)] + extra + args.engine_arg
    pr.run(pr.mpirun(args.ranks, argv), env=pr.mpirun_environment())
    records = pr.read_records(metrics)
    steps = [r for r in records if r.get("type") == "step"][args.warmup :]
    if not steps:
        sys.exit(f"no steps after the {args.warmup} warm-up steps: raise --steps")
    header = next(r for r in records if r.get("type") == "header")
    return header, {
        "step_ms": pr.median(s["step_s"] for s in steps) * 1e3,
        "exposed_ms": pr.median(s["allreduce_s"] for s in steps) * 1e3,
        "hidden_ms": pr.median(s.get("comm_hidden_s", 0.0) for s in steps) * 1e3,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", help="scalebench-engine binary (default: $SCALEBENCH_ENGINE, build/release, build/dev)")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--bucket-mb", type=float, help="bucket size for the overlapped mode (default: the engine's)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--threads", type=int, default=0, help="intra-op threads per rank (0: cores / ranks)")
    parser.add_argument("--engine-arg", action="append", default=[], help="extra engine option (repeatable)")
    args = parser.parse_args()

    engine = pr.find_engine(args.engine)
    usage = subprocess.run([engine, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    missing = [option for option in ("--bucket-mb", "--overlap") if option not in usage]
    if missing:
        print(f"SKIPPED: {engine} has no {' or '.join(missing)} (the engine branch adds them with overlapped gradient "
              "buckets and comm_hidden_s); nothing measured.")
        return 0

    threads = args.threads or max(1, (os.cpu_count() or 1) // args.ranks)
    overlap = ["--bucket-mb", repr(args.bucket_mb)] if args.bucket_mb is not None else []
    modes = {"overlap": overlap, "no-overlap": ["--overlap", "no"]}
    print(f"engine: {engine}\nmachine: {pr.machine()}; load average at start: {pr.load_average()}")
    print(f"ResNet-20, synthetic CIFAR-shaped data, {args.ranks} ranks x {threads} thread(s), batch {args.batch}/rank, "
          f"median of steps {args.warmup + 1}..{args.steps}, {args.repeats} alternating repeats\n")
    figures, described = {mode: {} for mode in modes}, {}
    with tempfile.TemporaryDirectory(prefix="exposed_comm.") as folder:
        for repeat in range(args.repeats):
            order = list(modes) if repeat % 2 == 0 else list(reversed(modes))
            for mode in order:
                header, run = run_engine(engine, args, threads, modes[mode], folder)
                described[mode] = header.get("allreduce", "")
                for key, value in run.items():
                    figures[mode].setdefault(key, []).append(value)
                print(f"  repeat {repeat + 1}, {mode:10}: step {run['step_ms']:.1f} ms, exposed {run['exposed_ms']:.2f} ms,"
                      f" hidden {run['hidden_ms']:.2f} ms (load {pr.load_average()})",
                      flush=True)
    rows = []
    for mode in modes:
        f = {k: pr.median(v) for k, v in figures[mode].items()}
        rows.append([mode, f"{f['step_ms']:.1f}", f"{args.batch * args.ranks / f['step_ms'] * 1e3:.1f}",
                     f"{f['exposed_ms']:.2f}", f"{f['hidden_ms']:.2f}"])
    print()
    pr.print_table(["mode", "step ms", "samples/s", "exposed comm ms/step", "hidden comm ms/step"], rows)
    exposed = {mode: pr.median(figures[mode]["exposed_ms"]) for mode in modes}
    step = {mode: pr.median(figures[mode]["step_ms"]) for mode in modes}
    print(f"\nexposed communication, overlap / no-overlap: {exposed['overlap'] / exposed['no-overlap']:.3f}"
          f"   step time, overlap / no-overlap: {step['overlap'] / step['no-overlap']:.3f}")
    for mode, text in described.items():
        print(f"{mode}: {text}")
    print(f"load average at end: {pr.load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
