#!/usr/bin/env python3
"""Every training-outcome test (Catch2 tag [outcome]) under each CPU instruction set this machine supports and under
several seeds: each asserted value against its threshold, and the smallest margin seen (docs/testing.md).

A short training run's figures move with the CPU's kernels (oneDNN, MKL and ATen pick other code paths on another
CPU) and with the seed. Capping the instruction set makes this machine run older CPUs' code paths:
ONEDNN_MAX_CPU_ISA (oneDNN), ATEN_CPU_CAPABILITY (ATen's vectorised kernels), MKL_ENABLE_INSTRUCTIONS (MKL's GEMMs).
The seed reaches the tests through SCALEBENCH_TEST_SEED. Capping only goes downward: a newer CPU's kernels (AMX,
AVX512-FP16) cannot be tried here, which is why the margins must also hold across seeds.

    bench/outcome_margins.py [--build build/release] [--isas sse41,avx2,avx512_core,native] [--seeds 1,2,3]
                             [--grid cross|full] [--markdown bench/results/FILE.md]

--grid cross runs every ISA at the first seed and every seed at the native ISA; full runs every pair.
Exit status 1 when any asserted outcome failed.
"""
import argparse
import collections
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

# name -> (the CPU flags it needs, environment that caps the kernels to it)
ISAS = {
    "sse41": ({"sse4_1"}, {"ONEDNN_MAX_CPU_ISA": "SSE41", "ATEN_CPU_CAPABILITY": "default",
                           "MKL_ENABLE_INSTRUCTIONS": "SSE4_2"}),
    "avx2": ({"avx2", "fma"}, {"ONEDNN_MAX_CPU_ISA": "AVX2", "ATEN_CPU_CAPABILITY": "avx2",
                               "MKL_ENABLE_INSTRUCTIONS": "AVX2"}),
    "avx512_core": ({"avx512f", "avx512bw", "avx512vl", "avx512dq"},
                    {"ONEDNN_MAX_CPU_ISA": "AVX512_CORE", "ATEN_CPU_CAPABILITY": "avx512",
                     "MKL_ENABLE_INSTRUCTIONS": "AVX512"}),
    "native": (set(), {}),
}
CAPPING = ("ONEDNN_MAX_CPU_ISA", "ATEN_CPU_CAPABILITY", "MKL_ENABLE_INSTRUCTIONS")
# The test programs that hold [outcome] tests.
PROGRAMS = ("scalebench_workload_tests", "scalebench_integration_tests", "scalebench_engine_communication_tests")
OUTCOME = re.compile(r"^\[outcome\] (?P<test>.+?) \| (?P<what>.+?) \| (?P<value>\S+) (?P<rel>[<>]) (?P<threshold>\S+)$")


def cpu_flags():
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def environment(isa, seed):
    env = {k: v for k, v in os.environ.items() if k not in CAPPING}
    env.update(ISAS[isa][1])
    env["SCALEBENCH_TEST_SEED"] = str(seed)
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return env


def kernels_seen(build, env):
    """The engine's own report of the kernels it runs under env (its header's cpu_kernels)."""
    with tempfile.TemporaryDirectory() as folder:
        metrics = pathlib.Path(folder) / "m.jsonl"
        subprocess.run(["mpirun", "-np", "1", str(build / "trainers" / "scalebench-engine"), "--metrics", str(metrics),
                        "--workload", "resnet20", "--dataset", "synthetic-cifar", "--steps", "1",
                        "--batch-per-rank", "2", "--eval-samples", "2", "--threads-per-rank", "1"],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        header = json.loads(metrics.read_text().splitlines()[0])
        k = header["cpu_kernels"]
        return f'ATen {k["aten_capability"]}, oneDNN {k["onednn_max_isa"]}'


def run_outcome_tests(build, env, log):
    """Runs every program's [outcome] tests, appending their output to `log` as each finishes (so that a table can
    be made again from the logs with --from); returns parse_log's outcomes and failures, and the seconds taken."""
    start = time.monotonic()
    for program in PROGRAMS:
        done = subprocess.run([str(build / "tests" / program), "[outcome]", "--reporter", "compact"], env=env,
                              capture_output=True, text=True)
        with open(log, "a") as out:
            out.write(f"[program] {program} exit status {done.returncode}\n" + done.stdout + done.stderr)
    outcomes, failed, _ = parse_log(log)
    for failure in failed:
        print(f"[margins] FAILED {failure}", flush=True)
    return outcomes, failed, time.monotonic() - start


def parse_log(log):
    """[(test, what, value, relation, threshold)] and the failures (a failed check, or a program that ended with
    another status than 0) in one configuration's log."""
    outcomes, failed = [], []
    for line in log.read_text().splitlines():
        m = OUTCOME.match(line)
        if m:
            outcomes.append((m["test"], m["what"], float(m["value"]), m["rel"], float(m["threshold"])))
        elif "failed:" in line or (line.startswith("[program]") and not line.endswith("exit status 0")):
            failed.append(line.strip()[:300])
    return outcomes, failed, 0.0


def margin(value, relation, threshold):
    """How far the value is inside its threshold (negative: outside), in the threshold's units."""
    return threshold - value if relation == "<" else value - threshold


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build/release")
    parser.add_argument("--isas", default="sse41,avx2,avx512_core,native")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--grid", choices=("cross", "full"), default="cross")
    parser.add_argument("--markdown", help="also write the table to this Markdown file")
    parser.add_argument("--logs", default="build/outcome-margins",
                        help="folder for each configuration's test output (ISA-sS.log)")
    parser.add_argument("--from", dest="from_logs", action="store_true",
                        help="make the table from the logs already in --logs, running nothing")
    args = parser.parse_args()
    build = pathlib.Path(args.build).resolve()
    flags = cpu_flags()
    isas = []
    for isa in args.isas.split(","):
        if isa not in ISAS:
            sys.exit(f"unknown ISA '{isa}' (known: {', '.join(ISAS)})")
        if ISAS[isa][0] <= flags:
            isas.append(isa)
        else:
            print(f"[margins] {isa}: not supported by this CPU (needs {', '.join(sorted(ISAS[isa][0] - flags))}), "
                  "skipped")
    seeds = [int(s) for s in args.seeds.split(",")]
    if args.grid == "full":
        configs = [(i, s) for i in isas for s in seeds]
    else:
        configs = [(i, seeds[0]) for i in isas] + [("native", s) for s in seeds[1:] if "native" in isas]

    logs = pathlib.Path(args.logs)
    logs.mkdir(parents=True, exist_ok=True)
    columns, table, failures = [], collections.OrderedDict(), []
    for isa, seed in configs:
        log = logs / f"{isa}-s{seed}.log"
        if args.from_logs:
            if not log.exists():
                continue
            outcomes, failed, seconds = parse_log(log)
        else:
            log.unlink(missing_ok=True)
            env = environment(isa, seed)
            seen = kernels_seen(build, env)
            print(f"[margins] {isa} seed {seed}: engine reports {seen}", flush=True)
            with open(log, "a") as out:
                out.write(f"[kernels] {seen}\n")
            outcomes, failed, seconds = run_outcome_tests(build, env, log)
        column = f"{isa} s{seed}"
        columns.append(column)
        print(f"[margins] {column}: {len(outcomes)} outcomes, {len(failed)} failures, {seconds:.0f} s", flush=True)
        failures += [f"{column}: {f}" for f in failed]
        for test, what, value, rel, threshold in outcomes:
            row = table.setdefault((test, what), {"rel": rel, "threshold": threshold, "values": {}})
            row["values"][column] = value

    lines = [f"CPU: {platform_cpu()}; configurations: {', '.join(columns)}", "",
             "| test | asserted value | threshold | " + " | ".join(columns) + " | smallest margin |",
             "|---|---|---|" + "---|" * len(columns) + "---|"]
    for (test, what), row in table.items():
        values = [row["values"].get(c) for c in columns]
        margins = [margin(v, row["rel"], row["threshold"]) for v in values if v is not None]
        cells = ["-" if v is None else f"{v:.4g}" for v in values]
        lines.append(f"| {test} | {what} | {row['rel']} {row['threshold']:.4g} | " + " | ".join(cells) +
                     f" | {min(margins):.4g} |")
    lines += ["", f"failures: {len(failures)}"] + [f"- {f}" for f in failures]
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        pathlib.Path(args.markdown).write_text(
            "# Training-outcome margins per CPU instruction set and seed\n\n"
            f"`bench/outcome_margins.py {' '.join(sys.argv[1:])}`\n\n" + text + "\n")
    return 1 if failures else 0


def platform_cpu():
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip() + f", {os.cpu_count()} CPUs"
    return "unknown"


if __name__ == "__main__":
    sys.exit(main())
