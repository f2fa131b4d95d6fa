// The device self-check: fused kernels against their formulas, seeded steps repeated, prefetched against
// synchronous, GPU against CPU.
#include "device_check.h"

#include "device_batches.h"
#include "fused_adamw.h"
#include "gpu_inventory.h"
#include "gradient_clipping.h"
#include "llama.h"
#include "metric_stream.h"
#include "metric_writer.h"
#include "mpi_check.h"
#include "training_device.h"
#include "training_loop.h"
#include "training_schedule.h"
#include "workload.h"

#include <c10/core/impl/VirtualGuardImpl.h>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <torch/torch.h>
#include <vector>

namespace scalebench {
namespace {

using nlohmann::json;
namespace check_field = metric_stream::device_check::check;

double maxAbsDifference(const torch::Tensor& a, const torch::Tensor& b) {
    return (a.to(torch::kCPU, torch::kFloat64) - b.to(torch::kCPU, torch::kFloat64))
        .abs()
        .max()
        .item<double>();
}

// One check's outcome: its name, whether it passed, and the figures it was judged by.
json checked(const std::string& name, bool passed, json figures) {
    json record = {{check_field::kName, name}, {check_field::kPassed, passed}};
    record.update(figures);
    return record;
}

json compared(const std::string& name, double difference, double tolerance) {
    return checked(name, difference <= tolerance,
                   {{check_field::kMaxAbsDifference, difference}, {check_field::kTolerance, tolerance}});
}

// The fused kernels of the workloads against their plain formulas, on `device`, in fp32.
std::vector<json> fusedKernelChecks(const torch::Device& device) {
    torch::manual_seed(11);
    const auto on = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    std::vector<json> checks;
    {
        RMSNorm norm(256, 1e-5);
        norm->to(device);
        torch::NoGradGuard no_grad;
        norm->weight.uniform_(0.5, 1.5);
        const auto x = torch::randn({4, 64, 256}, on) * 3;
        const auto plain = x * torch::rsqrt(x.pow(2).mean(-1, true) + 1e-5) * norm->weight;
        checks.push_back(compared("rms_norm: fused kernel = x / sqrt(mean(x^2) + eps) x weight",
                                  maxAbsDifference(norm->forward(x), plain), 1e-4));
    }
    {
        RotaryEmbedding rotary(64, 10000);
        const auto x = torch::randn({2, 128, 4, 64}, on);
        const auto reference = applyRotaryEmbedding(x.transpose(1, 2), 10000).transpose(1, 2);
        checks.push_back(compared("rotary: cached tables = reference formula",
                                  maxAbsDifference(rotary.apply(x), reference), 1e-4));
    }
    {
        // Two tensors with gradients (scaled, so that clipping has something to clip).
        const auto make = [&](uint64_t seed, double gradient_scale) {
            torch::manual_seed(seed);
            std::vector<torch::Tensor> params{torch::randn({300, 70}, on), torch::randn({70}, on)};
            for (auto& p : params) {
                p.requires_grad_();
                p.mutable_grad() = torch::randn_like(p) * gradient_scale;
            }
            return params;
        };
        auto fused_params = make(12, 1), plain_params = make(12, 1);
        const auto options = torch::optim::AdamWOptions(1e-3).betas({0.9, 0.95}).eps(1e-5).weight_decay(0.1);
        FusedAdamW fused({torch::optim::OptimizerParamGroup(fused_params)}, options);
        torch::optim::AdamW plain({torch::optim::OptimizerParamGroup(plain_params)}, options);
        double difference = 0;
        for (int step = 0; step < 3; ++step) {
            fused.step();
            plain.step();
        }
        for (std::size_t i = 0; i < fused_params.size(); ++i)
            difference = std::max(difference, maxAbsDifference(fused_params[i], plain_params[i]));
        checks.push_back(compared("adamw: fused kernel = LibTorch AdamW, 3 steps", difference, 1e-5));

        auto clipped = make(13, 10), reference = make(13, 10);
        clipGradNorm(clipped, 1.0);
        torch::nn::utils::clip_grad_norm_(reference, 1.0);
        double clip_difference = 0;
        for (std::size_t i = 0; i < clipped.size(); ++i)
            clip_difference =
                std::max(clip_difference, maxAbsDifference(clipped[i].grad(), reference[i].grad()));
        checks.push_back(
            compared("clipping: foreach norms = LibTorch clip_grad_norm_", clip_difference, 1e-6));
    }
    return checks;
}

void synchronize(const torch::Device& device) {
    if (device.is_cuda()) c10::impl::VirtualGuardImpl(device.type()).synchronizeDevice(device.index());
}

// The losses of `steps` seeded training steps of the workload on `device` (no communication: each rank
// alone), the next batch prefetched during each step or everything synchronous.
std::vector<double> seededLosses(const EngineOptions& o, const World& w, const torch::Device& device,
                                 bool prefetch, int64_t steps) {
    torch::manual_seed(static_cast<uint64_t>(o.seed));
    const auto workload = makeWorkload(o, w);
    torch::nn::Module& model = workload->module();
    model.to(device);
    const auto optimizer = workload->makeOptimizer();
    DeviceBatches batches(*workload, device);
    std::vector<torch::Tensor> losses;
    for (int64_t step = 1; step <= steps; ++step) {
        optimizer->zero_grad();
        torch::Tensor loss;
        { // the batch is freed before the next is prefetched, as in the training loop's step
            const Batch batch = batches.take();
            loss = workload->forwardLoss(batch);
            loss.backward();
        }
        workload->beforeOptimizerStep();
        setLearningRate(*optimizer, workload->learningRate(step));
        optimizer->step();
        workload->afterOptimizerStep();
        losses.push_back(loss.detach());
        if (prefetch && step < steps)
            batches.prefetch();
        else
            synchronize(device);
    }
    std::vector<double> values;
    for (const auto& loss : losses)
        values.push_back(loss.item<double>());
    return values;
}

double largestRelativeDifference(const std::vector<double>& got, const std::vector<double>& reference) {
    double largest = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        largest = std::max(largest, std::abs(got[i] - reference[i]) / std::max(1.0, std::abs(reference[i])));
    return largest;
}

// Bit-identical GPU steps: fp32 without TF32, deterministic kernels, cuBLAS's fixed workspace, math
// attention.
void makeGpuDeterministic() {
    setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8", /*overwrite=*/0); // read when a cuBLAS handle is made
    auto& context = at::globalContext();
    context.setFloat32Precision(at::Float32Backend::CUDA, at::Float32Op::MATMUL, at::Float32Precision::IEEE);
    context.setFloat32Precision(at::Float32Backend::CUDA, at::Float32Op::CONV, at::Float32Precision::IEEE);
    // warn_only: an operation without a deterministic kernel (e.g. adaptive average pooling's backward) warns
    // and runs; if it then changes a loss in the last bits, the repeat check says so.
    context.setDeterministicAlgorithms(true, /*warn_only=*/true);
    context.setDeterministicCuDNN(true);
    context.setBenchmarkCuDNN(false);
    context.setSDPUseFlash(false);
    context.setSDPUseMemEfficient(false);
    context.setSDPUseCuDNN(false);
    context.setSDPUseMath(true);
}

} // namespace

bool runDeviceCheck(const EngineOptions& given, const World& w) {
    EngineOptions o = workloadOptions(given, w);
    o.precision = "fp32"; // the check compares fp32 steps bit for bit
    const int64_t steps = std::min<int64_t>(o.steps, kDeviceCheckMaxSteps);
    if (o.threads_per_rank > 0) torch::set_num_threads(o.threads_per_rank);
    const GpuInventory gpus = queryGpuInventory();
    const TrainingDevice device = chooseTrainingDevice(o.device, w, gpus);
    if (device.cuda()) makeGpuDeterministic();
    const json hosts = gatherRanks(w);

    // A check whose kernels throw (an operation without a deterministic kernel, a device error) fails with
    // the message; the others still run.
    std::vector<json> checks;
    const auto attempt = [&](const std::string& name, const std::function<void()>& check) {
        try {
            check();
        } catch (const std::exception& e) {
            checks.push_back(checked(name, false, {{check_field::kError, e.what()}}));
        }
    };
    attempt("fused kernels", [&] {
        for (auto& c : fusedKernelChecks(device.device))
            checks.push_back(std::move(c));
    });
    std::vector<double> synchronous;
    const std::string repeated = "the same seeded steps twice: bit-identical losses";
    attempt(repeated, [&] {
        synchronous = seededLosses(o, w, device.device, /*prefetch=*/false, steps);
        const auto again = seededLosses(o, w, device.device, /*prefetch=*/false, steps);
        checks.push_back(checked(repeated, synchronous == again,
                                 {{check_field::kLosses, synchronous}, {check_field::kAgain, again}}));
    });
    if (device.cuda() && !synchronous.empty()) {
        const std::string prefetch = "prefetched batches = synchronous steps: bit-identical losses";
        attempt(prefetch, [&] {
            const auto prefetched = seededLosses(o, w, device.device, /*prefetch=*/true, steps);
            checks.push_back(
                checked(prefetch, prefetched == synchronous,
                        {{check_field::kLosses, synchronous}, {check_field::kPrefetched, prefetched}}));
        });
        const std::string against_cpu = "GPU losses = CPU losses within the tolerance";
        attempt(against_cpu, [&] {
            const auto on_cpu = seededLosses(o, w, torch::Device(torch::kCPU), /*prefetch=*/false, steps);
            const double difference = largestRelativeDifference(synchronous, on_cpu);
            checks.push_back(checked(against_cpu, difference <= kDeviceCheckCpuTolerance,
                                     {{check_field::kLosses, synchronous},
                                      {check_field::kCpuLosses, on_cpu},
                                      {check_field::kMaxRelativeDifference, difference},
                                      {check_field::kTolerance, kDeviceCheckCpuTolerance}}));
        });
    }
    int passed = 1;
    for (const auto& c : checks)
        passed = passed && c[check_field::kPassed].get<bool>();
    int passed_everywhere = passed;
    MPI_CHECK(MPI_Allreduce(&passed, &passed_everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    if (w.rank == 0) {
        MetricWriter metrics(o.metrics);
        namespace field = metric_stream::device_check;
        json header = headerRecord(o, w, hosts);
        header[metric_stream::header::kDevice] = device.record();
        metrics.write(header);
        metrics.write({{metric_stream::kType, field::kRecord},
                       {field::kWorkload, o.workload},
                       {field::kDevice, device.device.str()},
                       {field::kSteps, steps},
                       {field::kRank, 0},
                       {field::kVerdict, passed_everywhere ? field::kPass : field::kFail},
                       {field::kRanksPassed, static_cast<bool>(passed_everywhere)},
                       {field::kChecks, checks}});
    }
    return passed_everywhere != 0;
}

} // namespace scalebench
