#!/usr/bin/env python3
"""Every workload of the engine at 1 and 2 ranks on this machine: samples/s, tokens/s and where a step goes.

For each workload (at the size named in CASES: the seeds' real settings where a CPU step takes seconds at most, a
documented smaller preset otherwise), runs `scalebench-engine` under mpirun at 1 and at 2 ranks, `--repeats` times,
alternating, and prints medians over the steps after the warm-up: samples/s (and tokens/s for language workloads),
the step time and its parts (data, forward, backward, exposed all-reduce, optimizer, and the communication hidden
under backward), model FLOPs/s where the workload defines them, and the 1 -> 2 rank speedup and scaling efficiency
(S = X(2)/X(1), E = S/2). There is no peer here: the peers of the engine are in train_vs_ddp.py and
allreduce_vs_osu.py. With --baseline-engine, an earlier engine is measured in the same repeats (alternating with
the engine) and each row's engine/baseline ratios of samples/s and of the step's parts are printed.

  bench/workloads.py [--engine PATH] [--baseline-engine PATH] [--repeats 1] [--steps 12] [--warmup 4]
                     [--only NAME[,NAME]]
"""
import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peer_runs as pr  # noqa: E402

# name, engine arguments. Sizes: see docs/workloads.md ("Sizes in the benchmark").
CASES = [
    ("resnet20", ["--workload", "resnet20", "--dataset", "fashion-mnist", "--batch-per-rank", "128"]),
    ("resnet56", ["--workload", "resnet56", "--dataset", "synthetic-cifar", "--batch-per-rank", "128"]),
    ("logistic-regression", ["--workload", "logistic-regression", "--dataset", "synthetic-epsilon",
                             "--batch-per-rank", "128", "--lr", "4"]),
    ("lstm-lm", ["--workload", "lstm-lm", "--dataset", "synthetic-text", "--preset", "small",
                 "--batch-per-rank", "80", "--lr", "30"]),
    ("gnmt", ["--workload", "gnmt", "--dataset", "synthetic-parallel", "--preset", "tiny", "--batch-per-rank", "128",
              "--lr", "2e-3"]),
    ("transformer", ["--workload", "transformer", "--dataset", "synthetic-parallel", "--preset", "base",
                     "--batch-per-rank", "16", "--lr", "1.976e-3"]),
    ("resnet50", ["--workload", "resnet50", "--dataset", "synthetic-imagenet", "--preset", "64",
                  "--batch-per-rank", "32", "--lr", "0.1"]),
    ("bert", ["--workload", "bert", "--dataset", "synthetic-tokens", "--preset", "tiny", "--batch-per-rank", "8",
              "--lr", "3.5e-4"]),
    ("llama", ["--workload", "llama", "--dataset", "synthetic-tokens", "--preset", "small", "--batch-per-rank", "4",
               "--lr", "3e-4"]),
]


def measure(engine, case_args, ranks, args, folder):
    metrics = Path(folder) / f"w{ranks}.jsonl"
    metrics.unlink(missing_ok=True)
    argv = [engine] + case_args + ["--steps", str(args.steps), "--eval-every", "0", "--eval-samples", "16"]
    argv += ["--metrics", str(metrics)]
    pr.run(pr.mpirun(ranks, argv), env=pr.mpirun_environment())
    records = pr.read_records(metrics)
    steps = [r for r in records if r.get("type") == "step"][args.warmup :]
    if not steps:
        sys.exit(f"no steps after the {args.warmup} warm-up steps: raise --steps")
    header = next(r for r in records if r.get("type") == "header")
    ms = lambda key: pr.median(s.get(key, 0.0) for s in steps) * 1e3
    return {
        "samples_per_s": pr.median(s["samples_per_s"] for s in steps),
        "tokens_per_s": pr.median(s.get("tokens_per_s", 0.0) for s in steps),
        "flops_per_s": pr.median(s.get("model_flops_per_s", 0.0) for s in steps),
        "parts": [ms(k) for k in ("step_s", "data_s", "forward_s", "backward_s", "allreduce_s", "optimizer_s",
                                   "comm_hidden_s")],
        "parameters": header.get("parameters", 0),
        "preset": header.get("preset", ""),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", help="scalebench-engine binary (default: $SCALEBENCH_ENGINE, build/release, build/dev)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--warmup", type=int, default=4)
    parser.add_argument("--only", default="", help="comma-separated workload names")
    parser.add_argument("--baseline-engine", help="an earlier scalebench-engine binary, measured in the same repeats")
    args = parser.parse_args()
    engines = [("", pr.find_engine(args.engine))]
    if args.baseline_engine:
        engines.append((" (baseline)", args.baseline_engine))
    only = [w for w in args.only.split(",") if w]
    print(f"# scalebench workloads: {pr.machine()}; load average before: {pr.load_average()}")
    print(f"# {args.steps} steps a run, medians over steps {args.warmup + 1}..{args.steps}, {args.repeats} repeat(s)\n")
    rows, ratios = [], []
    with tempfile.TemporaryDirectory() as folder:
        for name, case_args in CASES:
            if only and name not in only:
                continue
            by_ranks = {(label, ranks): [] for label, _ in engines for ranks in (1, 2)}
            for _ in range(args.repeats):
                for ranks in (1, 2):
                    for label, engine in engines:  # alternating: the machine's drift falls on both alike
                        by_ranks[(label, ranks)].append(measure(engine, case_args, ranks, args, folder))
            for label, _ in engines:
                x1 = pr.median(m["samples_per_s"] for m in by_ranks[(label, 1)])
                for ranks in (1, 2):
                    runs = by_ranks[(label, ranks)]
                    x = pr.median(m["samples_per_s"] for m in runs)
                    tokens = pr.median(m["tokens_per_s"] for m in runs)
                    flops = pr.median(m["flops_per_s"] for m in runs)
                    parts = [pr.median(m["parts"][i] for m in runs) for i in range(7)]
                    speedup = x / x1 if x1 > 0 else float("nan")
                    rows.append([name + label, ranks, f"{runs[0]['parameters'] / 1e6:.2f}M", f"{x:.1f}",
                                 f"{tokens:.0f}" if tokens > 0 else "-", f"{flops / 1e9:.1f}" if flops > 0 else "-"]
                                + [f"{p:.1f}" for p in parts]
                                + ([f"{speedup:.2f}x", f"{speedup / ranks * 100:.0f}%"] if ranks > 1 else ["1.00x", "100%"]))
            if args.baseline_engine:
                for ranks in (1, 2):
                    mine, theirs = by_ranks[("", ranks)], by_ranks[(" (baseline)", ranks)]
                    ratio = lambda f: f(mine) / f(theirs) if f(theirs) > 0 else float("nan")
                    part = lambda i: ratio(lambda runs: pr.median(m["parts"][i] for m in runs))
                    ratios.append(f"{name} at {ranks} rank(s): engine/baseline samples/s "
                                  f"{ratio(lambda runs: pr.median(m['samples_per_s'] for m in runs)):.2f}x; "
                                  f"time engine/baseline: step {part(0):.2f}, forward {part(2):.2f}, "
                                  f"backward {part(3):.2f}, optimizer {part(5):.2f}")
            sys.stdout.flush()
    pr.print_table(["workload", "ranks", "params", "samples/s", "tokens/s", "GFLOP/s", "step ms", "data", "fwd", "bwd",
                    "exposed comm", "optim", "hidden comm", "speedup", "eff"], rows)
    for line in ratios:
        print(line)
    print(f"\n# load average after: {pr.load_average()}")


if __name__ == "__main__":
    main()
