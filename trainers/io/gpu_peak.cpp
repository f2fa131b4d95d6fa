// The dense tensor-core peaks of the GPUs the engine is run on, by model name, and the header's peak record.
#include "gpu_peak.h"

#include "metric_stream.h"

#include <array>
#include <string_view>

namespace scalebench {
namespace {

// One GPU model: its name as cudaGetDeviceProperties reports it (the whole name, or a prefix shared by every
// variant with the same peak), and its dense peaks in TFLOP/s. NVIDIA's datasheets give tensor-core peaks
// "with sparsity" (2:4 structured); the dense figure, which MFU uses, is half of it.
struct GpuPeak {
    std::string_view name;
    bool prefix; // true: every name that starts with `name`
    double bf16; // = fp16 on these GPUs
    double tf32;
};

constexpr std::array<GpuPeak, 9> kPeaks{{
    // H100 SXM5 (DGX/HGX H100). Datasheet: BF16/FP16 1979, TF32 989 with sparsity. 989 is the MFU peak of
    // MaxText's Llama-2 recipe (seed 003): "peak FLOPS for H100 = 989 TFLOPS", kept so that our MFU and the
    // recipe's agree.
    {"NVIDIA H100 80GB HBM3", false, 989.0, 494.5},
    // H100 PCIe. Datasheet: BF16/FP16 1513, TF32 756 with sparsity.
    {"NVIDIA H100 PCIe", false, 756.0, 378.0},
    // H100 NVL. Datasheet: BF16/FP16 1671, TF32 835 with sparsity.
    {"NVIDIA H100 NVL", false, 835.0, 417.5},
    // H200 NVL (before "NVIDIA H200", which is not a prefix match). Datasheet: BF16/FP16 1671, TF32 835 with
    // sparsity.
    {"NVIDIA H200 NVL", false, 835.0, 417.5},
    // H200 SXM: the H100 SXM's compute with more memory. Datasheet: BF16/FP16 1979, TF32 989 with sparsity.
    {"NVIDIA H200", false, 989.0, 494.5},
    // GH200's Hopper GPU ("NVIDIA GH200 480GB", "NVIDIA GH200 144G HBM3e"). Datasheet: BF16/FP16 1979, TF32
    // 989
    // with sparsity.
    {"NVIDIA GH200", true, 989.0, 494.5},
    // A100, every form ("NVIDIA A100-SXM4-80GB", "NVIDIA A100-PCIE-40GB", "NVIDIA A100 80GB PCIe"): one peak.
    // Datasheet: BF16/FP16 312, TF32 156 dense (624 and 312 with sparsity).
    {"NVIDIA A100", true, 312.0, 156.0},
    // B200 (HGX B200, 1000 W). Blackwell datasheet: BF16/FP16 4.5 PFLOPS, TF32 2.2 PFLOPS with sparsity.
    {"NVIDIA B200", false, 2250.0, 1100.0},
    // L40S. Datasheet: BF16/FP16 733, TF32 366 with sparsity (362.05 and 183 dense).
    {"NVIDIA L40S", false, 362.0, 183.0},
}};

const GpuPeak* findGpu(const std::string& gpu_name) {
    for (const GpuPeak& gpu : kPeaks)
        if (gpu.prefix ? std::string_view(gpu_name).starts_with(gpu.name) : gpu_name == gpu.name) return &gpu;
    return nullptr;
}

} // namespace

std::optional<double> peakTflops(const std::string& gpu_name, const std::string& precision) {
    const GpuPeak* gpu = findGpu(gpu_name);
    if (gpu == nullptr) return std::nullopt;
    if (precision == "bf16" || precision == "fp16") return gpu->bf16;
    if (precision == "fp32") return gpu->tf32; // TF32 tensor cores (gpu_peak.h)
    return std::nullopt;
}

std::optional<PeakChoice> choosePeak(double stated_tflops, const std::string& gpu_name,
                                     const std::string& precision) {
    if (stated_tflops > 0) return PeakChoice{stated_tflops, "--peak-tflops"};
    const std::optional<double> table = peakTflops(gpu_name, precision);
    if (!table) return std::nullopt;
    const std::string math = precision == "fp32" ? "fp32 (TF32)" : precision;
    return PeakChoice{*table, "table: " + gpu_name + " " + math + " dense"};
}

nlohmann::json toJson(const PeakChoice& peak) {
    namespace field = metric_stream::header;
    return {{field::kPeakTflops, peak.tflops > 0 ? nlohmann::json(peak.tflops) : nlohmann::json(nullptr)},
            {field::kPeakSource, peak.source}};
}

} // namespace scalebench
