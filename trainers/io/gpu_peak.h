// The dense peak TFLOP/s of a GPU model at a precision, for MFU as MaxText's Llama-2 recipe (seed 003)
// defines it (model FLOPs / step time / GPUs / peak), and the header's record of which peak a run used: the
// one stated with --peak-tflops, or the table's for the GPU's name. No CUDA, no LibTorch.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace scalebench {

// The dense (no structured sparsity) tensor-core peak of one GPU, in TFLOP/s, from its model name as
// cudaGetDeviceProperties gives it ("NVIDIA H100 80GB HBM3") and the engine's --precision:
//   "bf16", "fp16": 16-bit tensor cores;
//   "fp32": TF32 tensor cores. MFU of an fp32 run is measured against the TF32 peak, and the engine is to run
//           fp32 matrix products on TF32 on a GPU (cuDNN's convolutions do by default; CUDA matrix products
//           once TF32 is allowed). A run with TF32 off works on CUDA cores, whose peak this table leaves out:
//           such a run states its peak with --peak-tflops.
// Nothing for a GPU or precision the table does not know (then only --peak-tflops gives MFU).
std::optional<double> peakTflops(const std::string& gpu_name, const std::string& precision);

// The peak a run's MFU uses and where it came from, as the metric stream's header records it.
struct PeakChoice {
    double tflops = 0;
    std::string source; // "--peak-tflops", or "table: NVIDIA H100 80GB HBM3 bf16 dense"
};

// The stated --peak-tflops when it is positive, else the table's figure for the GPU; nothing when neither is
// known (no MFU).
std::optional<PeakChoice> choosePeak(double stated_tflops, const std::string& gpu_name,
                                     const std::string& precision);

// {"peak_tflops": 989, "peak_source": "table: NVIDIA H100 80GB HBM3 bf16 dense"}; a peak of 0 (none known) as
// {"peak_tflops": null, "peak_source": why}.
nlohmann::json toJson(const PeakChoice& peak);

} // namespace scalebench
