#!/usr/bin/env python3
"""The engine's PyTorch peers, measured in the same device call as the engine (run.sh's `peers` step): the llama
decoder and ResNet-50 in plain PyTorch eager and under torch.compile, at the engine's sizes, with the machine's
own python3 and torch. One JSON line per measurement goes to --out as soon as it is done (a later step's timeout
keeps the earlier ones); run.sh's report.py puts them beside the engine's figures of the same call.

The decoder is the engine's (trainers/models/llama.cpp): RMSNorm computed in fp32, grouped-query causal attention
with rotary embeddings ('rotate half'), SwiGLU, untied head, normal(0, 0.02) matrices; bf16 autocast over fp32
master weights (trainers/loop/training_loop.cpp's Autocast); AdamW betas 0.9/0.95, eps 1e-5, weight decay 0.1 on
matrices, fused=True (the engine's FusedAdamW calls the same at::_fused_adamw_); gradient clipping at norm 1.0.
Its shape and FLOPs per sequence come from the engine's llama1b header of the same call (one spelling: the
engine's llamaPresetShape); without one, from the copy below. ResNet-50 is torchvision's, channels-last, bf16
autocast, SGD momentum 0.9 with weight decay 1e-4 off BatchNorm and biases, label smoothing 0.1, as the engine's.

Timing: the device synchronised before and after each step, wall clock; the median of the steps after the
warm-up (the compiled model's first step compiles it: its time is reported as compile_s). The decoder is compiled
block by block (PyTorch's regional compilation recipe: its identical blocks share one compiled graph; the
embedding, final norm and head stay eager), which keeps its compile within the step's limit; ResNet-50 whole."""
import argparse
import json
import math
import os
import statistics
import sys
import sysconfig
import time
import traceback

# A copy of trainers/io/model_flops.cpp's presets, used only when the engine's header is missing:
# (layers, hidden, heads, kv_heads, ffn, vocab).
PRESETS = {"tiny": (2, 32, 4, 2, 64, 64), "small": (4, 256, 8, 4, 688, 1024), "1b": (22, 2048, 16, 16, 5632, 32000)}
PEAK_TFLOPS_BF16 = {"H200": 989.0, "H100": 989.0}  # dense bf16, the engine's table (trainers/io/gpu_peak.cpp)


def maxtext_flops_per_sequence(layers, hidden, heads, kv_heads, ffn, vocab, seq):
    """MaxText's Llama-2 recipe, as trainers/io/model_flops.cpp: forward + backward, causal attention counted whole."""
    attention = 12 * layers * hidden * hidden * (1 + kv_heads / heads + seq / hidden)
    mlp = 18 * layers * ffn * hidden
    return seq * (attention + mlp + 6 * vocab * hidden)


def engine_header(path):
    try:
        with open(path) as f:
            for line in f:
                record = json.loads(line)
                if record.get("type") == "header":
                    return record
    except (OSError, json.JSONDecodeError):
        pass
    return None


def build_llama(torch, shape):
    nn, F = torch.nn, torch.nn.functional
    layers, hidden, heads, kv_heads, ffn, vocab = shape
    head_dim = hidden // heads

    class RMSNorm(nn.Module):
        def __init__(self, size, eps=1e-5):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(size))
            self.eps = eps

        def forward(self, x):
            x32 = x.float()
            return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype) * self.weight

    def rotary(x, theta=10000.0):  # x: (B, heads, T, d), "rotate half"
        T, d = x.shape[2], x.shape[3]
        inv_freq = theta ** (-torch.arange(0, d, 2, dtype=torch.float32, device=x.device) / d)
        angles = torch.outer(torch.arange(T, dtype=torch.float32, device=x.device), inv_freq)
        emb = torch.cat([angles, angles], -1)
        cos, sin = emb.cos().to(x.dtype), emb.sin().to(x.dtype)
        x1, x2 = x.chunk(2, -1)
        return x * cos + torch.cat([-x2, x1], -1) * sin

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.wq = nn.Linear(hidden, heads * head_dim, bias=False)
            self.wk = nn.Linear(hidden, kv_heads * head_dim, bias=False)
            self.wv = nn.Linear(hidden, kv_heads * head_dim, bias=False)
            self.wo = nn.Linear(heads * head_dim, hidden, bias=False)

        def forward(self, x):
            B, T, _ = x.shape
            q = rotary(self.wq(x).view(B, T, heads, head_dim).transpose(1, 2))
            k = rotary(self.wk(x).view(B, T, kv_heads, head_dim).transpose(1, 2))
            v = self.wv(x).view(B, T, kv_heads, head_dim).transpose(1, 2)
            if kv_heads != heads:
                k = k.repeat_interleave(heads // kv_heads, 1)
                v = v.repeat_interleave(heads // kv_heads, 1)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return self.wo(y.transpose(1, 2).reshape(B, T, heads * head_dim))

    class FeedForward(nn.Module):
        def __init__(self):
            super().__init__()
            self.w1 = nn.Linear(hidden, ffn, bias=False)
            self.w2 = nn.Linear(ffn, hidden, bias=False)
            self.w3 = nn.Linear(hidden, ffn, bias=False)

        def forward(self, x):
            return self.w2(F.silu(self.w1(x)) * self.w3(x))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.attention_norm, self.attention = RMSNorm(hidden), Attention()
            self.ffn_norm, self.feed_forward = RMSNorm(hidden), FeedForward()

        def forward(self, x):
            h = x + self.attention(self.attention_norm(x))
            return h + self.feed_forward(self.ffn_norm(h))

    class Llama(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok_embeddings = nn.Embedding(vocab, hidden)
            self.layers = nn.ModuleList(Block() for _ in range(layers))
            self.norm = RMSNorm(hidden)
            self.output = nn.Linear(hidden, vocab, bias=False)
            with torch.no_grad():
                for p in self.parameters():
                    if p.dim() >= 2:
                        p.normal_(0, 0.02)

        def forward(self, tokens):  # (B, T) -> logits (B, T, vocab)
            h = self.tok_embeddings(tokens)
            for layer in self.layers:
                h = layer(h)
            return self.output(self.norm(h))

    return Llama()


def measure(torch, device, step, steps, warmup):
    """Runs warmup + steps calls of step(); returns (median seconds of the timed ones, first step's seconds)."""
    times = []
    for _ in range(warmup + steps):
        if device.type == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        step()
        if device.type == "cuda":
            torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times[warmup:]), times[0]


def llama_peer(torch, a, device, compiled, shape, flops_per_sequence, peak):
    model = build_llama(torch, shape).to(device)
    decay = [p for p in model.parameters() if p.dim() >= 2]
    plain = [p for p in model.parameters() if p.dim() < 2]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": plain, "weight_decay": 0.0}],
                                  lr=3e-4, betas=(0.9, 0.95), eps=1e-5, fused=True)
    if compiled:  # regional compilation: the blocks are one code object, compiled once, reused by every block
        for layer in model.layers:
            layer.compile()
    forward = model
    vocab = shape[5]

    def step():
        tokens = torch.randint(0, vocab, (a.batch, a.seq_len + 1), device=device)  # (B, T + 1)
        with torch.autocast(device.type, dtype=torch.bfloat16):
            logits = forward(tokens[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, vocab).float(), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

    median_s, first_s = measure(torch, device, step, a.steps, a.warmup)
    tokens_per_s = a.batch * a.seq_len / median_s
    flops_per_s = a.batch * flops_per_sequence / median_s
    return {"median_step_s": median_s, "first_step_s": first_s, "throughput": tokens_per_s, "unit": "tokens/s",
            "model_flops_per_s": flops_per_s, "mfu": flops_per_s / (peak * 1e12) if peak else None}


def resnet50_peer(torch, a, device, compiled):
    try:
        import torchvision
    except ImportError:
        return {"skipped": "no torchvision"}
    model = torchvision.models.resnet50(num_classes=1000).to(device, memory_format=torch.channels_last)
    decay = [p for n, p in model.named_parameters() if p.dim() > 1]
    plain = [p for n, p in model.named_parameters() if p.dim() <= 1]
    optimizer = torch.optim.SGD([{"params": decay, "weight_decay": 1e-4}, {"params": plain, "weight_decay": 0.0}],
                                lr=0.1, momentum=0.9)
    forward = torch.compile(model) if compiled else model
    images = torch.randn(a.resnet_batch, 3, 224, 224, device=device).contiguous(memory_format=torch.channels_last)
    labels = torch.randint(0, 1000, (a.resnet_batch,), device=device)

    def step():
        with torch.autocast(device.type, dtype=torch.bfloat16):
            loss = torch.nn.functional.cross_entropy(forward(images), labels, label_smoothing=0.1)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    median_s, first_s = measure(torch, device, step, a.steps, a.warmup)
    return {"median_step_s": median_s, "first_step_s": first_s, "throughput": a.resnet_batch / median_s,
            "unit": "samples/s", "mfu": None}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--llama-preset", default="1b")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq-len", type=int, default=2048)
    parser.add_argument("--resnet-batch", type=int, default=256)
    parser.add_argument("--steps", type=int, default=12, help="timed steps after the warm-up")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--engine-header", default="", help="the engine's llama metric stream of the same call")
    parser.add_argument("--only", default="llama,resnet50", help="models, comma-separated")
    parser.add_argument("--modes", default="eager,compile")
    parser.add_argument("--out", required=True)
    parser.add_argument("--deadline-s", type=float, default=3600, help="start no measurement after this many seconds")
    a = parser.parse_args()
    start = time.time()
    import torch

    device = torch.device(a.device)
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True  # the engine's default (--tf32 yes)
        torch.backends.cudnn.allow_tf32 = True
        torch.backends.cudnn.benchmark = True
    else:
        torch.set_num_threads(os.cpu_count() or 1)
    header = engine_header(a.engine_header) if a.engine_header else None
    if header and header.get("preset") == a.llama_preset and isinstance(header.get("model"), dict):
        m = header["model"]
        shape = tuple(m[k] for k in ("layers", "hidden", "heads", "kv_heads", "ffn", "vocab"))
        flops = header.get("model_flops_per_sequence") or maxtext_flops_per_sequence(*shape, a.seq_len)
        source = f"the engine's header ({a.engine_header})"
    else:
        shape = PRESETS[a.llama_preset]
        flops = maxtext_flops_per_sequence(*shape, a.seq_len)
        source = "peers.py's copy of trainers/io/model_flops.cpp (no engine header of that preset)"
    peak = (header or {}).get("peak_tflops") or next((p for k, p in PEAK_TFLOPS_BF16.items()
                                                      if device.type == "cuda" and k in torch.cuda.get_device_name()), None)
    command = " ".join([os.path.basename(sys.executable)] + sys.argv)
    context = {"torch": torch.__version__, "device_name": torch.cuda.get_device_name() if device.type == "cuda" else "cpu",
               "command": command}
    print(f"[peers] torch {torch.__version__} on {context['device_name']}; llama {a.llama_preset} {shape} from {source}; "
          f"FLOPs/sequence {flops:.4g}; peak {peak} TFLOP/s", flush=True)
    with open(a.out, "a") as out:
        for mode in a.modes.split(","):
            for model in a.only.split(","):
                record = {"type": "peer", "model": model, "mode": mode, **context}
                if model == "llama":
                    record.update(preset=a.llama_preset, shape=shape, batch=a.batch, seq_len=a.seq_len,
                                  flops_per_sequence=flops, shape_source=source, peak_tflops=peak,
                                  note="tokens drawn on the device each step (the engine copies its batch from the host)")
                else:
                    record.update(batch=a.resnet_batch)
                if time.time() - start > a.deadline_s:
                    record["skipped"] = "no time left before the step's limit"
                elif mode == "compile" and not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
                    record["skipped"] = (f"no Python.h in {sysconfig.get_paths()['include']}: torch.compile's C++ "
                                         "and Triton launchers are compiled against the Python headers")
                else:
                    try:
                        t = time.time()
                        result = (llama_peer(torch, a, device, mode == "compile", shape, flops, peak) if model == "llama"
                                  else resnet50_peer(torch, a, device, mode == "compile"))
                        record.update(result, seconds=time.time() - t)
                        if mode == "compile" and "first_step_s" in result:
                            record["compile_s"] = result["first_step_s"]
                    except Exception as e:  # the next measurement may still work (e.g. out of memory)
                        traceback.print_exc()
                        text = " ".join(str(e).split())  # its last words say most (a compiler's error)
                        record["skipped"] = f"{type(e).__name__}: {text if len(text) < 400 else '...' + text[-400:]}"
                    if device.type == "cuda":
                        torch.cuda.empty_cache()
                out.write(json.dumps(record) + "\n")
                out.flush()
                shown = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in record.items() if k != "command"}
                print("[peers]", json.dumps(shown), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
