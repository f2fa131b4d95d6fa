# The peer of the engine's resnet20 workload: PyTorch DistributedDataParallel (gloo) training the same ResNet-20 on
# the same synthetic CIFAR-shaped batches with the same optimizer; one process per rank, launched by
# bench/train_vs_ddp.py. Rank 0 prints one JSON line per step ({"step", "step_s", ...}) and a header line.
import argparse
import json
import os
import sys
import time
import warnings

warnings.simplefilter("ignore")  # torch warns that numpy is absent; the peer does not use it

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    """As trainers/models/resnet.cpp's BasicBlockImpl: two 3x3 convolutions with BN, a 1x1 convolution + BN shortcut where
    the shape changes."""

    def __init__(self, in_channels, out_channels, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, 3, stride=stride, padding=1, bias=False)
        self.conv2 = nn.Conv2d(out_channels, out_channels, 3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_channels != out_channels:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_channels, out_channels, 1, stride=stride, bias=False), nn.BatchNorm2d(out_channels)
            )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class ResNet20(nn.Module):
    """As trainers/models/resnet.cpp's ResNet20Impl: stem, 3 stages of 3 basic blocks (16/32/64 channels), pool, linear."""

    def __init__(self, in_channels=3, classes=10):
        super().__init__()
        self.stem = nn.Conv2d(in_channels, 16, 3, stride=1, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(16)
        blocks, channels = [], 16
        for width in (16, 32, 64):
            for b in range(3):
                blocks.append(BasicBlock(channels, width, 2 if (b == 0 and width != 16) else 1))
                channels = width
        self.stages = nn.Sequential(*blocks)
        self.classifier = nn.Linear(64, classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")

    def forward(self, x):
        out = F.relu(self.stem_bn(self.stem(x)))  # (B, 16, 32, 32)
        out = self.stages(out)  # (B, 64, 8, 8)
        out = F.adaptive_avg_pool2d(out, 1).flatten(1)  # (B, 64)
        return self.classifier(out)  # (B, classes)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--batch-per-rank", type=int, default=128)
    parser.add_argument("--threads", type=int, default=0, help="intra-op threads per rank (0: cores / ranks)")
    parser.add_argument("--lr", type=float, default=0.1)
    # Channels-last (NHWC) as the engine: with torch 2.11's oneDNN it saves the layout reorders around every
    # convolution (1.4x less CPU per step than NCHW here), so the peer gets its faster layout too.
    parser.add_argument("--contiguous", action="store_true", help="NCHW weights and inputs instead of channels-last")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()

    dist.init_process_group("gloo")
    rank, ranks = dist.get_rank(), dist.get_world_size()
    local_ranks = int(os.environ.get("LOCAL_WORLD_SIZE", ranks))
    threads = args.threads if args.threads > 0 else max(1, (os.cpu_count() or 1) // local_ranks)
    torch.set_num_threads(threads)
    torch.manual_seed(args.seed)

    # Synthetic CIFAR-shaped data as the engine's --dataset synthetic-cifar: 8 batches of N(0, 1) images per rank.
    torch.manual_seed(args.seed + rank)
    images = torch.randn(8 * args.batch_per_rank, 3, 32, 32)
    labels = torch.randint(0, 10, (8 * args.batch_per_rank,))
    generator = torch.Generator().manual_seed(args.seed * 7919 + rank)

    torch.manual_seed(args.seed)
    model = ResNet20(3, 10)
    memory_format = torch.channels_last if not args.contiguous else torch.contiguous_format
    model = model.to(memory_format=memory_format)
    ddp = nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=args.lr, momentum=0.9, nesterov=True, weight_decay=1e-4)
    parameters = sum(p.numel() for p in model.parameters())
    if rank == 0:
        print(
            json.dumps(
                {
                    "type": "header",
                    "torch": torch.__version__,
                    "ranks": ranks,
                    "threads_per_rank": torch.get_num_threads(),
                    "interop_threads": torch.get_num_interop_threads(),
                    "parameters": parameters,
                    "memory_format": "contiguous" if args.contiguous else "channels_last",
                }
            ),
            flush=True,
        )

    order, position = torch.randperm(images.shape[0], generator=generator), 0
    dist.barrier()
    for step in range(1, args.steps + 1):
        t0 = time.perf_counter()
        if position + args.batch_per_rank > images.shape[0]:
            order, position = torch.randperm(images.shape[0], generator=generator), 0
        index = order[position : position + args.batch_per_rank]
        position += args.batch_per_rank
        x = images.index_select(0, index).contiguous(memory_format=memory_format)  # (B, 3, 32, 32)
        y = labels.index_select(0, index)  # (B)
        t1 = time.perf_counter()
        loss = F.cross_entropy(ddp(x), y)
        t2 = time.perf_counter()
        optimizer.zero_grad()
        loss.backward()  # DDP all-reduces gradient buckets while backward runs
        t3 = time.perf_counter()
        optimizer.step()
        loss_value = loss.item()
        t4 = time.perf_counter()
        if rank == 0:
            print(
                json.dumps(
                    {
                        "type": "step",
                        "step": step,
                        "loss": loss_value,
                        "step_s": t4 - t0,
                        "data_s": t1 - t0,
                        "forward_s": t2 - t1,
                        "backward_allreduce_s": t3 - t2,
                        "optimizer_s": t4 - t3,
                    }
                ),
                flush=True,
            )
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
