#!/usr/bin/env python3
"""Writes run.sh's results.md (to stdout) from its logs folder: the steps' ledger (steps.jsonl), the engine's metric
streams (NAME.jsonl) and the peers' measurements (peers.jsonl). Standard library only: it runs on the GPU
machine's python3. Every figure is printed beside the exact command that produced it."""
import argparse
import json
import os
import statistics
import sys

WARMUP_STEPS = 5  # engine step records left out of the medians (smoke.sh's convention)


def read_jsonl(path):
    records = []
    if not os.path.exists(path):
        return records
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as e:
                records.append({"type": "unreadable", "line": number, "error": str(e)})
    return records


def find(record, key):
    """The first value of `key` anywhere in a nested header (its fields move between engine versions)."""
    if isinstance(record, dict):
        if key in record:
            return record[key]
        for value in record.values():
            found = find(value, key)
            if found is not None:
                return found
    return None


def median(steps, key):
    values = [s[key] for s in steps if isinstance(s.get(key), (int, float))]
    return statistics.median(values) if values else None


def fmt(value, scale=1.0, digits=2):
    return "-" if value is None else f"{value * scale:.{digits}f}"


def header_line(header):
    gpus = find(header, "gpus")
    names = ", ".join(g.get("name", "?") for g in gpus) if isinstance(gpus, list) and gpus else "none"
    device = find(header, "device")
    if isinstance(device, dict):
        device = f"{device.get('type')} (index {device.get('index')}; {device.get('reason')})"
    nccl = header.get("nccl_version", "absent from this engine's header")
    return (f"engine header: `nccl_version` {nccl}; `device` {device}; `gpus` {names}; "
            f"`peak_tflops` {find(header, 'peak_tflops')} ({find(header, 'peak_source')}); "
            f"precision {header.get('precision')}; backend {header.get('backend')}; "
            f"memory format {find(header, 'memory_format') or '-'}; libtorch {find(header, 'libtorch')}; "
            f"engine source {find(header, 'source')}")


def training_figures(name, records, out):
    header = next((r for r in records if r.get("type") == "header"), None)
    if header:
        out.append("- " + header_line(header))
    steps = [r for r in records if r.get("type") == "step"]
    timed = steps[WARMUP_STEPS:] if len(steps) > WARMUP_STEPS else steps[1:]
    if timed:
        out.append(f"- median of {len(timed)} steps (of {len(steps)}, the first {len(steps) - len(timed)} left out): "
                   f"step {fmt(median(timed, 'step_s'), 1e3)} ms; data {fmt(median(timed, 'data_s'), 1e3)}, "
                   f"forward {fmt(median(timed, 'forward_s'), 1e3)}, backward {fmt(median(timed, 'backward_s'), 1e3)}, "
                   f"all-reduce {fmt(median(timed, 'allreduce_s'), 1e3)}, optimizer "
                   f"{fmt(median(timed, 'optimizer_s'), 1e3)} ms; samples/s {fmt(median(timed, 'samples_per_s'), 1, 1)}"
                   + (f"; tokens/s {fmt(median(timed, 'tokens_per_s'), 1, 0)}" if median(timed, "tokens_per_s") else "")
                   + (f"; model TFLOP/s {fmt(median(timed, 'model_flops_per_s'), 1e-12, 3)}"
                      if median(timed, "model_flops_per_s") else "")
                   + (f"; MFU {fmt(median(timed, 'mfu'), 100, 1)} %" if median(timed, "mfu") else ""))
    if header and find(header, "model_flops_convention"):
        out.append(f"- FLOPs: {find(header, 'model_flops_per_sequence'):.4g} per sequence, "
                   f"{find(header, 'model_flops_convention')}")
    for r in records:
        if r.get("type") in ("error", "unreadable"):
            out.append(f"- {r['type']}: {json.dumps(r)[:400]}")
        if r.get("type") == "summary":
            out.append(f"- summary: steps {r.get('steps')}, train {fmt(r.get('train_s'))} s, wall {fmt(r.get('wall_s'))} s, "
                       f"final loss {fmt(r.get('final_loss'), 1, 4)}")
        if r.get("type") == "device_check":
            failed = [c.get("name", c.get("check", "?")) for c in r.get("checks", []) if not c.get("passed")]
            out.append(f"- device_check ({r.get('workload')} on {r.get('device')}): verdict **{r.get('verdict')}**, "
                       f"{len(r.get('checks', []))} checks" + (f"; failed: {'; '.join(failed)}" if failed else ""))
    collectives = [r for r in records if r.get("type") == "collective"]
    if collectives:
        out.append("")
        out.append("| bytes | time (us) | algbw (GB/s) | busbw (GB/s) | correct |")
        out.append("| ---: | ---: | ---: | ---: | --- |")
        for c in collectives[:: max(1, len(collectives) // 14)] + ([collectives[-1]] if len(collectives) > 14 else []):
            out.append(f"| {c.get('bytes')} | {fmt(c.get('time_s'), 1e6, 1)} | {fmt(c.get('algbw_gbps'))} | "
                       f"{fmt(c.get('busbw_gbps'))} | {c.get('correct')} |")
        ranks = collectives[0].get("ranks")
        if ranks == 1:
            out.append("")
            out.append("At 1 rank busbw is 0 by definition (algbw x 2(n-1)/n); two ranks on one GPU are refused by "
                       "NCCL (duplicate GPU), so this machine gives no busbw figure.")
    return steps


def engine_median(records, key):
    steps = [r for r in records if r.get("type") == "step"]
    timed = steps[WARMUP_STEPS:] if len(steps) > WARMUP_STEPS else steps[1:]
    return median(timed, key)


def peers_section(logs, out):
    peers = read_jsonl(os.path.join(logs, "peers.jsonl"))
    if not peers:
        out.append("- no peer measurements (see peers.log)")
        return
    engine = {"llama": read_jsonl(os.path.join(logs, "llama1b.jsonl")),
              "resnet50": read_jsonl(os.path.join(logs, "resnet50.jsonl"))}
    out.append("")
    out.append("| model | mode | median step (ms) | throughput | MFU | engine's throughput | engine / this |")
    out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for p in peers:
        if p.get("type") != "peer":
            out.append(f"- {json.dumps(p)[:400]}")
            continue
        unit = p.get("unit", "samples/s")
        key = "tokens_per_s" if unit == "tokens/s" else "samples_per_s"
        mine = engine_median(engine.get(p["model"], []), key)
        ratio = f"{mine / p['throughput']:.3f}" if mine and p.get("throughput") else "-"
        if p.get("skipped"):
            out.append(f"| {p['model']} | {p['mode']} | skipped: {p['skipped'].replace('|', '/')} | | | | |")
            continue
        out.append(f"| {p['model']} | {p['mode']} | {fmt(p.get('median_step_s'), 1e3)} | "
                   f"{fmt(p.get('throughput'), 1, 1)} {unit} | {fmt(p.get('mfu'), 100, 1) + ' %' if p.get('mfu') else '-'} | "
                   f"{fmt(mine, 1, 1)} {unit} | {ratio} |")
    for p in peers:
        if p.get("type") == "peer" and not p.get("skipped") and p.get("throughput"):
            key = "tokens_per_s" if p.get("unit") == "tokens/s" else "samples_per_s"
            mine = engine_median(engine.get(p["model"], []), key)
            if mine:
                out.append(f"- {p['model']} engine/{p['mode']}: {mine / p['throughput']:.3f} (engine "
                           f"{mine:.1f}, {p['mode']} {p['throughput']:.1f} {p.get('unit')})")
    out.append("")
    out.append("engine / this: the engine's median throughput from this same call (llama1b, resnet50 steps) over the "
               "peer's; above 1 the engine is faster.")
    for p in peers:
        if p.get("type") == "peer" and p.get("note"):
            out.append(f"- {p['model']} {p['mode']}: {p['note']}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--logs", required=True)
    parser.add_argument("--device", required=True)
    parser.add_argument("--seconds", type=int, required=True)
    a = parser.parse_args()
    ledger = read_jsonl(os.path.join(a.logs, "steps.jsonl"))
    out = ["# bench/device/run.sh results", ""]
    env = open(os.path.join(a.logs, "environment.txt")).read() if os.path.exists(os.path.join(a.logs, "environment.txt")) else ""
    selfcheck_log = os.path.join(a.logs, "selfcheck.log")
    machine = []
    if os.path.exists(selfcheck_log):
        with open(selfcheck_log) as f:
            for line in f:
                if line.startswith("$ "):
                    break
                machine.append(line.rstrip())
    out.append(f"`bench/device/run.sh --device {a.device}`: {a.seconds} s in all. Every engine command ran with:")
    out.append("")
    out.append("```")
    out.append(env.rstrip())
    out.append("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (Open MPI's plm isolated: one node, no ssh)")
    out.append("```")
    if a.device == "cuda":
        out.append("")
        out.append("One rank throughout; training and the sweep use `--backend nccl`. At one rank busbw is 0 by "
                   "definition (algbw x 2(n-1)/n), and NCCL refuses two ranks on one GPU.")
    if machine:
        out.append("")
        out.append("```")
        out.extend(machine)
        out.append("```")
    out.append("")
    out.append("| step | status | seconds | limit (s) |")
    out.append("| --- | --- | ---: | ---: |")
    for s in ledger:
        out.append(f"| {s['step']} | {s['status']} | {s.get('seconds', '-')} | {s.get('limit_s', s.get('left_s', '-'))} |")
    for s in ledger:
        out.append("")
        out.append(f"## {s['step']}: {s['status']}")
        if s["status"] == "skipped":
            out.append(f"Skipped: {s.get('left_s')} s were left before the deadline.")
            continue
        out.append("")
        out.append("```")
        out.extend(s.get("commands", []) or ["(no command started)"])
        out.append("```")
        if s["status"] == "timeout":
            out.append(f"Stopped by its limit of {s['limit_s']} s.")
        name = s["step"]
        streams = {"selfcheck": ["selfcheck-resnet20", "selfcheck-llama"], "peers": [], "build": []}.get(name, [name])
        for stream in streams:
            records = read_jsonl(os.path.join(a.logs, stream + ".jsonl"))
            if stream != name:
                out.append(f"- {stream}:")
            if records:
                training_figures(stream, records, out)
            else:
                out.append(f"- no metric stream {stream}.jsonl")
        if name == "peers":
            peers_section(a.logs, out)
        if name == "build" and os.path.exists(os.path.join(a.logs, "build.log")):
            said = [l.rstrip() for l in open(os.path.join(a.logs, "build.log"), errors="replace")
                    if l.startswith("[device]") or l.startswith("$ ")]
            out.extend(["", "```"] + said + ["```"])
        if s["status"] != "pass":
            log = os.path.join(a.logs, name + ".log")
            if os.path.exists(log):
                tail = open(log, errors="replace").read().splitlines()[-12:]
                out.append("")
                out.append("Last lines of its log:")
                out.append("")
                out.append("```")
                out.extend(line[:300] for line in tail)
                out.append("```")
    print("\n".join(out))


if __name__ == "__main__":
    sys.exit(main())
