// The device self-check (--check-device): what a researcher runs on a new node, or on every node of a
// cluster, before trusting its figures. Each rank checks its own training device; rank 0 writes the verdict.
//
// On any device: the fused kernels the workloads use (RMSNorm, the rotary tables, fused AdamW, clipping)
// against their plain formulas, on that device; and the same seeded steps run twice give bit-identical
// losses. On a GPU also: the same seeded steps with the next batch prefetched on the copy stream and with
// everything synchronous (no prefetch, the device synchronised after each step) give bit-identical losses,
// which a batch written while the previous step still reads it would break; and the GPU's losses match the
// CPU's within a stated tolerance. For bit-identical GPU steps the check runs in fp32 with TF32 off,
// deterministic algorithms, cuBLAS's fixed workspace (CUBLAS_WORKSPACE_CONFIG=:4096:8) and the math attention
// kernel.
#pragma once

#include "engine_options.h"
#include "world.h"

#include <nlohmann/json.hpp>

namespace scalebench {

// Steps each seeded run of the check takes: --steps, at most this many.
inline constexpr int kDeviceCheckMaxSteps = 6;
// The GPU's loss at each step may differ from the CPU's by this much, relative to the CPU's (different
// kernels sum in different orders; after a few fp32 steps the losses of ResNet-20 and Llama `small` agree to
// ~1e-5).
inline constexpr double kDeviceCheckCpuTolerance = 2e-3;

// Runs the check on this rank's device (--device), writes the header and a device_check record (rank 0) to
// --metrics and returns whether every check passed on every rank. Collective.
bool runDeviceCheck(const EngineOptions& options, const World& world);

} // namespace scalebench
