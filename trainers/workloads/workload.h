// One training workload of the engine: its model, its data, its loss, its evaluation, its optimizer and
// learning-rate schedule. The training loop (training_loop.h) is the same for all: it times the phases,
// averages gradients in buckets, applies the precision and writes the metric stream.
#pragma once

#include "engine_options.h"
#include "loss_scaler.h"
#include "world.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>
#include <torch/serialize/archive.h>
#include <torch/types.h>
#include <vector>

namespace scalebench {

// Samples of one step over all ranks: --global-batch, else batch_per_rank x ranks. The training loop hands
// workloads options whose batch_per_rank is the micro-batch (engine_cli::splitGlobalBatch).
inline int64_t globalBatchOf(const EngineOptions& o, const World& w) {
    return o.global_batch > 0 ? o.global_batch : static_cast<int64_t>(o.batch_per_rank) * w.ranks;
}
// Micro-batches a rank adds up into one step (gradient accumulation).
inline int64_t accumulationOf(const EngineOptions& o, const World& w) {
    return globalBatchOf(o, w) / (static_cast<int64_t>(o.batch_per_rank) * w.ranks);
}

// A workload's hyper-parameters (its `hyperparameters()`): the ones every run has (steps, batch per rank,
// gradient accumulation, global batch, base learning rate, seed) with the workload's own added.
inline nlohmann::json withRunHyperparameters(const EngineOptions& o, const World& w, nlohmann::json own) {
    own.update({{"steps", o.steps},
                {"batch_per_rank", o.batch_per_rank},
                {"accumulation", accumulationOf(o, w)},
                {"global_batch", globalBatchOf(o, w)},
                {"base_lr", o.lr},
                {"seed", o.seed}});
    return own;
}

// Held-out samples a rank evaluates: --eval-samples over the ranks, or with --eval-samples 0 the whole
// held-out set of a data set read from files (`available`, this rank's share of it); synthetic data makes
// kSyntheticHeldOut in all for 0.
inline constexpr int kSyntheticHeldOut = 2000;
inline int64_t heldOutPerRank(const EngineOptions& o, const World& w, int64_t available) {
    return o.eval_samples > 0 ? std::min<int64_t>(available, std::max(1, o.eval_samples / w.ranks))
                              : available;
}
inline int syntheticHeldOut(const EngineOptions& o) {
    return o.eval_samples > 0 ? o.eval_samples : kSyntheticHeldOut;
}

// This rank's share of one step's data, as the workload's forward pass wants it.
struct Batch {
    std::vector<torch::Tensor> tensors; // the workload's own layout (e.g. images, labels)
    int64_t samples = 0;                // samples (sequences, sentence pairs) on this rank
    int64_t tokens = 0;                 // tokens on this rank (language workloads; 0 for the others)
};

// What the workload's evaluation measures, and which way is better: "accuracy" (top-1, a fraction), "loss",
// "perplexity", "bleu" (0-100).
struct EvalMetric {
    std::string name;
    bool higher_is_better = true;
};

// One evaluation over every rank's share of the held-out data (already combined across ranks).
struct Evaluation {
    double value = 0; // of the workload's EvalMetric
    double loss = 0;  // mean held-out loss
    // What the value was computed from, written into the eval record beside it (BLEU: its n-gram counts).
    nlohmann::json evidence = nlohmann::json::object();
};

class Workload {
  public:
    virtual ~Workload() = default;

    // The module whose parameters are trained; registration order decides the buckets (reverse order).
    virtual torch::nn::Module& module() = 0;
    // Built once, over module()'s parameters, at the base learning rate.
    virtual std::unique_ptr<torch::optim::Optimizer> makeOptimizer() = 0;

    // The data phase: this rank's next batch.
    virtual Batch nextBatch() = 0;
    // The forward phase: the mean loss of the batch (a scalar, differentiable).
    virtual torch::Tensor forwardLoss(const Batch& batch) = 0;
    // After the gradients are averaged and unscaled, before the optimizer (e.g. gradient-norm clipping).
    virtual void beforeOptimizerStep() {}
    // After the optimizer's step (not after a step fp16 skipped), e.g. to average the weights.
    virtual void afterOptimizerStep() {}

    // The learning rate of step (1-based) for every parameter group.
    virtual double learningRate(int64_t step) const = 0;
    // Told of every evaluation, e.g. to decay the learning rate on a plateau.
    virtual void afterEvaluation(const Evaluation&) {}

    virtual EvalMetric evalMetric() const = 0;
    // Over every rank's share of the held-out data; collective (every rank calls it). Leaves the module in
    // training mode.
    virtual Evaluation evaluate() = 0;

    // Data passes so far (0-based).
    virtual int64_t epoch() const = 0;
    // Samples of one data pass over all ranks (what an epoch takes); 0 where the workload does not say
    // (its mllogFields' train_samples).
    virtual int64_t trainingSamples() const { return mllogFields().value("train_samples", int64_t{0}); }
    // Model FLOPs of one training step of this rank's batch (forward + backward; 0 when not defined), for
    // MFU.
    virtual double trainingFlopsPerStep() const { return 0; }

    // The header's "hyperparameters" and the workload's own header fields.
    virtual nlohmann::json hyperparameters() const = 0;
    virtual nlohmann::json headerFields() const { return nlohmann::json::object(); }
    // MLPerf compliance-log keys of this workload beyond those the loop logs (seed, global_batch_size,
    // opt_base_learning_rate, ...), e.g. {"opt_name": "sgd", "train_samples": 50000, "eval_samples": 10000}
    // (key names from mlcommons/logging's constants.py).
    virtual nlohmann::json mllogFields() const { return nlohmann::json::object(); }
    // --precision fp16: the dynamic loss scaling (initial scale, factor, window, maximum).
    virtual LossScalerOptions lossScaling() const { return {}; }
    // Whether the model runs LSTMs: the training loop refuses fp16 for them on the CPU
    // (refuseFp16LstmsOnCpu).
    virtual bool hasLstms() const { return false; }

    // Checkpoints: the workload's own state beyond the module and the optimizer (data position, schedule).
    virtual void saveState(torch::serialize::OutputArchive&) const {}
    virtual void loadState(torch::serialize::InputArchive&) {}
};

// oneDNN has no fp16 LSTM on the CPU ("could not create a primitive descriptor for the LSTM forward
// propagation primitive"): where the loop has chosen the training device, a workload with LSTMs refuses
// --precision fp16 on the CPU before it starts, naming the way out. cuDNN has fp16 LSTMs, so on a GPU it
// trains in fp16 (MLBench task 4a's GNMT (seed 004) does).
inline void refuseFp16LstmsOnCpu(const Workload& workload, const EngineOptions& options,
                                 const torch::Device& device) {
    if (options.precision == "fp16" && workload.hasLstms() && !device.is_cuda())
        throw std::invalid_argument("--precision fp16: " + options.workload +
                                    "'s LSTMs have no fp16 kernels on the CPU (oneDNN); use bf16 or fp32, or "
                                    "train on a GPU (cuDNN has them)");
}

// Where a workload's module lives (the training loop moves it to the rank's device): evaluations move their
// held-out data there.
inline torch::Device deviceOf(torch::nn::Module& module) {
    return module.parameters().front().device();
}

// The workload named by options.workload, built for this rank. Throws std::invalid_argument for an unknown
// name and std::runtime_error for missing or corrupt data (naming the file).
std::unique_ptr<Workload> makeWorkload(const EngineOptions& options, const World& world);
// The names makeWorkload knows (the engine's usage text and its errors).
std::vector<std::string> workloadNames();

} // namespace scalebench
