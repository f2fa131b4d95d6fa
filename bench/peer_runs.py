# What the peer benchmarks share: finding the engine, launching it under mpirun as LocalScheduler does, reading its
# metric stream, medians, and printing tables. Standard library only.
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def find_engine(given):
    """The engine binary: --engine PATH, else $SCALEBENCH_ENGINE, else build/release then build/dev."""
    candidates = [given, os.environ.get("SCALEBENCH_ENGINE")] + [
        ROOT / "build" / preset / "trainers" / "scalebench-engine" for preset in ("release", "dev")
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return str(Path(candidate).resolve())
    sys.exit(
        "no scalebench-engine found: build it (cmake --build build/release --target scalebench-engine), "
        "then pass --engine PATH or set SCALEBENCH_ENGINE"
    )


def mpirun_environment():
    """mpirun as root needs OpenMPI's two consent variables (as the scheduler and tests set them)."""
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    return env


def cores():
    """The logical CPUs this process may run on, in order."""
    return sorted(os.sched_getaffinity(0))


def rank_cpus(rank, ranks, threads):
    """The CPUs rank `rank` is bound to when every rank can have `threads` of its own (as mpirun's
    --map-by slot:PE=threads --bind-to hwthread places them), else None: more threads than CPUs run unbound."""
    available = cores()
    if ranks * threads > len(available):
        return None
    return available[rank * threads:(rank + 1) * threads]


def mpirun(ranks, argv, threads=None, bind=True):
    """The command LocalScheduler builds (remote/local_mpirun_arguments.cpp): mpirun -np N with each rank bound to
    `threads` cores of its own when they fit on this machine (unbound, --oversubscribe, when they do not)."""
    if not shutil.which("mpirun"):
        sys.exit("mpirun not found: install openmpi-bin (scripts/setup.sh does)")
    threads = threads or max(1, len(cores()) // ranks)
    placement = ["--oversubscribe", "--bind-to", "none"]
    if bind and rank_cpus(0, ranks, threads) is not None:
        placement = ["--use-hwthread-cpus", "--map-by", f"slot:PE={threads}", "--bind-to", "hwthread"]
    return ["mpirun", "-np", str(ranks)] + placement + list(argv)


def run(argv, env=None, timeout=1800):
    """Runs a command to completion; exits with its output when it fails."""
    result = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    if result.returncode != 0:
        sys.exit(f"command failed with status {result.returncode}: {' '.join(argv)}\n{result.stdout[-4000:]}")
    return result.stdout


def read_records(path_or_text, from_text=False):
    """JSON-lines records (the metric stream, or the peer's stdout); lines that are not JSON are skipped."""
    lines = path_or_text.splitlines() if from_text else Path(path_or_text).read_text().splitlines()
    records = []
    for line in lines:
        line = line.strip()
        if line.startswith("{"):
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return records


def median(values):
    values = list(values)
    return statistics.median(values) if values else float("nan")


def mean_two_sigma(values):
    """Mean and two sample standard deviations (the MLPerf write-ups' convention for repeats)."""
    values = list(values)
    return statistics.mean(values), 2 * statistics.stdev(values) if len(values) > 1 else float("nan")


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def machine():
    """CPU model and count, for the results file."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical CPUs"


def print_table(header, rows):
    """A markdown table (it reads in a terminal and pastes into bench/results/ as is)."""
    cells = [header] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    line = lambda row: "| " + " | ".join(c.rjust(w) for c, w in zip(row, widths)) + " |"
    print(line(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in cells[1:]:
        print(line(row))
